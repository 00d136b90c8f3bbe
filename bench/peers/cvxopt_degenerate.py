"""Time CVXOPT's solvers.qp on the degenerate QP families of BenchmarkDegenerate.

Run with Debian's interpreter (the first python3 on PATH may be another
installation without CVXOPT):

    /usr/bin/python3 cvxopt_degenerate.py --in DIR/qp_degenerate.jsonl --threads 1 --out cvxopt.jsonl

The input is written by `go run ./bench/peers/qpgen -out DIR`: one problem per
line (see that command's documentation),

    minimize 1/2 x'Hx + g'x  s.t.  Aeq x = beq,  Ain x >= bin,  lower <= x <= upper.

It is passed to CVXOPT as P = H (symmetric, sparse), q = g, A = Aeq, b = beq
(both omitted when there are no equalities) and G x <= h with
G = [-Ain; -I_L; I_U], h = [-bin; -lower_L; upper_U] (I_L, I_U the rows of
the identity of the finite bounds). CVXOPT's default tolerances are used; the
timer (time.perf_counter) covers the solvers.qp call only.

Reported per problem: status (CVXOPT's, or "error: ..." for an exception,
such as its rank condition rank(A) = p, rank([P; A; G]) = n, which redundant
equality rows violate), iterations, the objective at x and its error relative
to the planted optimal value (|f - f*| / max(1, |f*|)), and whether the
problem counts as solved: an Optimal problem when CVXOPT says "optimal" and
the relative objective error is at most 1e-6 (solved) or 1e-8 (solved8); an
Infeasible one when CVXOPT says "primal infeasible".
"""

import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

from peerlib import pin_threads, threads_arg

THREADS = threads_arg(sys.argv)
pin_threads(THREADS)

import argparse  # noqa: E402
import json  # noqa: E402

import cvxopt  # noqa: E402
import numpy as np  # noqa: E402
from cvxopt import matrix, solvers, spmatrix  # noqa: E402

from peerlib import emit, summary, timed  # noqa: E402


def build(p):
    """CVXOPT's P, q, G, h, A, b for problem p (a decoded JSON line)."""
    n = p["n"]
    hi, hj, hv = [], [], []
    for i, j, v in p["H"]:
        hi.append(i)
        hj.append(j)
        hv.append(v)
        if i != j:
            hi.append(j)
            hj.append(i)
            hv.append(v)
    P = spmatrix(hv, hi, hj, (n, n)) if hv else spmatrix([], [], [], (n, n))
    q = matrix(np.array(p["g"], dtype=float))
    gi, gj, gv, h = [], [], [], []
    for i, j, v in p["Ain"]:
        gi.append(i)
        gj.append(j)
        gv.append(-v)
    h.extend(-b for b in p["bin"])
    r = p["min"]
    for j, lo in enumerate(p["lower"]):
        if lo is not None:
            gi.append(r)
            gj.append(j)
            gv.append(-1.0)
            h.append(-lo)
            r += 1
    for j, up in enumerate(p["upper"]):
        if up is not None:
            gi.append(r)
            gj.append(j)
            gv.append(1.0)
            h.append(up)
            r += 1
    G = spmatrix(gv, gi, gj, (r, n)) if r else None
    hm = matrix(np.array(h, dtype=float)) if r else None
    A = b = None
    if p["meq"]:
        ai = [t[0] for t in p["Aeq"]]
        aj = [t[1] for t in p["Aeq"]]
        av = [float(t[2]) for t in p["Aeq"]]
        A = spmatrix(av, ai, aj, (p["meq"], n))
        b = matrix(np.array(p["beq"], dtype=float))
    return P, q, G, hm, A, b


def objective(p, x):
    f = float(np.dot(p["g"], x))
    for i, j, v in p["H"]:
        f += v * x[i] * x[j] if i != j else 0.5 * v * x[i] * x[i]
    return f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--in", dest="inp", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--budget", type=float, default=5.0)
    args = ap.parse_args()
    solvers.options["show_progress"] = False
    with open(args.inp) as f:
        for line in f:
            p = json.loads(line)
            P, q, G, h, A, b = build(p)

            def run():
                try:
                    return solvers.qp(P, q, G, h, A, b)
                except (ValueError, ArithmeticError) as e:
                    return {"status": "error: %s" % e}

            times, sol = timed(run, args.repeats, args.budget)
            row = dict(name=p["name"], family=p["family"], n=p["n"], rows=p["rows"], seed=p["seed"],
                       want=p["want"], peer="cvxopt qp (default)", cvxopt=cvxopt.__version__,
                       threads=THREADS, status=sol["status"], **summary(times))
            if "x" in sol and sol["x"] is not None:
                x = np.array(sol["x"]).ravel()
                row["iterations"] = sol["iterations"]
                row["obj"] = objective(p, x)
            if p["want"] == "Optimal":
                ok = sol["status"] == "optimal" and "obj" in row
                err = abs(row["obj"] - p["obj"]) / max(1.0, abs(p["obj"])) if ok else None
                row["rel_err"] = err
                row["solved"] = bool(ok and err <= 1e-6)
                row["solved8"] = bool(ok and err <= 1e-8)
            else:
                row["solved"] = row["solved8"] = sol["status"] == "primal infeasible"
            emit(args.out, row)


if __name__ == "__main__":
    main()
