"""Time CVXOPT's solvers.qp on the SKL instances of BenchmarkSKL.

Run with Debian's interpreter (the first python3 on PATH may be another
installation without CVXOPT):

    /usr/bin/python3 cvxopt_qp.py --dir DIR --threads 1 --out results.jsonl

DIR holds skl_dD.json written by `go run ./bench/peers/gen`: the mu-space QP
minimize 1/2 mu'P mu s.t. a'mu = 1, mu >= 0, mu_i - C mu_{i+1} >= 0. It is
passed to CVXOPT as G mu <= h with G = [-Ain; -I], h = 0 (Ain the decay rows)
and A mu = b. Two settings are timed: CVXOPT's defaults and tightened
tolerances (abstol = reltol = feastol = 1e-10). The timer
(time.perf_counter) covers the solvers.qp call only; building the cvxopt
matrices is excluded.

Reported: status, iterations, objective, its relative gap to the reference
objective stored by gen (ukm's SKL solver, whose KKT residuals are stored
too), and the KKT residuals of peerlib.kkt computed from CVXOPT's x, y, z with
eq = -y, ineq = z[:d-1], lower = z[d-1:] (CVXOPT's Lagrangian is
P x + q + G'z + A'y = 0).
"""

import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

from peerlib import pin_threads, threads_arg

THREADS = threads_arg(sys.argv)
pin_threads(THREADS)

import argparse  # noqa: E402
import os  # noqa: E402

import cvxopt  # noqa: E402
import numpy as np  # noqa: E402
from cvxopt import matrix, solvers  # noqa: E402

from peerlib import emit, kkt, load_skl, summary, timed  # noqa: E402

SETTINGS = {
    "default": {"show_progress": False},
    "tight": {"show_progress": False, "abstol": 1e-10, "reltol": 1e-10, "feastol": 1e-10},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--d", default="10,20,50,100,200")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--budget", type=float, default=10.0)
    args = ap.parse_args()
    for d in [int(v) for v in args.d.split(",") if v]:
        inst, H, c, Aeq, beq, Ain, bin_, lo = load_skl(np, os.path.join(args.dir, "skl_d%d.json" % d))
        G = np.vstack([-Ain, -np.eye(d)])
        h = np.zeros(G.shape[0])
        P_, q_, G_, h_ = matrix(H), matrix(c), matrix(G), matrix(h)
        A_, b_ = matrix(Aeq), matrix(beq)
        ref = inst["ref"]["obj"]
        for name, opts in SETTINGS.items():
            def run():
                return solvers.qp(P_, q_, G_, h_, A_, b_, options=dict(opts))

            times, sol = timed(run, args.repeats, args.budget)
            x = np.array(sol["x"]).ravel()
            y = np.array(sol["y"]).ravel()
            z = np.array(sol["z"]).ravel()
            res = kkt(np, H, c, Aeq, beq, Ain, bin_, lo, x, -y, z[:d - 1], z[d - 1:])
            obj = float(0.5 * x @ H @ x + c @ x)
            emit(args.out, dict(
                family="skl", peer="cvxopt qp (%s)" % name, d=d, threads=THREADS,
                cvxopt=cvxopt.__version__, status=sol["status"], iterations=sol["iterations"],
                obj=obj, ref_obj=ref, obj_gap=(obj - ref) / abs(ref),
                kkt_max=max(res.values()), **res, **summary(times)))


if __name__ == "__main__":
    main()
