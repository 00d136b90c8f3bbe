"""Time SciPy's eigsh on the matrices of BenchmarkVsEigsh (package eig).

Run with Debian's interpreter (the first python3 on PATH may lack SciPy):

    /usr/bin/python3 eigsh_families.py run --dir DIR --threads 1 --out eigsh.jsonl
    /usr/bin/python3 eigsh_families.py table --eigsh eigsh.jsonl --go go.txt

DIR holds cases.json and the matrices written by
`go run ./bench/peers/gen/eigfam` (see its doc comment for the formats).
`run` times, with time.perf_counter around the call only (loading and the
checks are excluded), for every case:

  dense/sparse, no sigma  scipy.sparse.linalg.eigsh(A, k, which=WHICH,
                          tol=0, v0) with A the ndarray or the CSR matrix
                          itself (no Python operator in the timed call);
  sigma given             eigsh(A, k, sigma=SIGMA, which='LM', tol=0, v0):
                          ARPACK's shift-invert mode, SciPy's sparse LU of
                          A - sigma I inside the timed call.

v0 is the same seeded Gaussian vector (numpy default_rng(1)) for every
case of a given n (ones would be an eigenvector of the graph Laplacians).
The operator applications are counted in one more, untimed, call through
a counting LinearOperator (for sigma: a counting OPinv around the same LU).
Reported: median and minimum time over the repeats (peerlib.timed),
matvecs (or solves), relres = max ||A v - theta v|| / (||A|| 2^-53) with
||A|| the largest |eigenvalue| (eigsh, untimed), and copies = the number
of returned values within 1e-9 ||A|| of the most wanted one.

`table` joins these rows with `go test -bench BenchmarkVsEigsh` output
(medians per name) and prints a markdown table with the ratio
eigsh / ours (above 1: ours is faster).
"""

import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

from peerlib import pin_threads, threads_arg  # noqa: E402

if len(sys.argv) > 1 and sys.argv[1] == "run":
    pin_threads(threads_arg(sys.argv))

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as sla  # noqa: E402

from peerlib import emit, summary, timed  # noqa: E402


def load(d, case):
    path = os.path.join(d, case["file"])
    if case["format"] == "dense":
        n = case["n"]
        return np.fromfile(path, dtype="<f8").reshape(n, n)
    raw = np.fromfile(path, dtype="<i8", count=2)
    n, nnz = int(raw[0]), int(raw[1])
    ints = np.fromfile(path, dtype="<i8", count=2 + n + 1 + nnz)
    rowptr = ints[2:2 + n + 1]
    colidx = ints[2 + n + 1:]
    val = np.fromfile(path, dtype="<f8", offset=8 * (2 + n + 1 + nnz), count=nnz)
    return sp.csr_matrix((val, colidx, rowptr), shape=(n, n))


class Counting(sla.LinearOperator):
    def __init__(self, f, n):
        super().__init__(dtype=np.float64, shape=(n, n))
        self.f = f
        self.count = 0

    def _matvec(self, x):
        self.count += 1
        return self.f(x)

    def _matmat(self, x):
        self.count += x.shape[1]
        return self.f(x)


def solve(a, case, v0, counting=False):
    k, which, sigma = case["k"], case["which"], case["sigma"]
    n = case["n"]
    if sigma is None:
        if counting:
            op = Counting(lambda x: a @ x, n)
            vals, vecs = sla.eigsh(op, k=k, which=which, tol=0, v0=v0)
            return vals, vecs, op.count
        return sla.eigsh(a, k=k, which=which, tol=0, v0=v0)
    if counting:
        lu = sla.splu(sp.csc_matrix(a - sigma * sp.identity(n)))
        op = Counting(lu.solve, n)
        vals, vecs = sla.eigsh(a, k=k, sigma=sigma, which="LM", tol=0, v0=v0, OPinv=op)
        return vals, vecs, op.count
    return sla.eigsh(a, k=k, sigma=sigma, which="LM", tol=0, v0=v0)


def run(args):
    with open(os.path.join(args.dir, "cases.json")) as f:
        cases = json.load(f)
    only = re.compile(args.only) if args.only else None
    cache = {}
    for case in cases:
        if only and not only.search(case["name"]):
            continue
        if case["file"] not in cache:
            cache.clear()
            cache[case["file"]] = load(args.dir, case)
        a = cache[case["file"]]
        n = case["n"]
        v0 = np.random.default_rng(1).standard_normal(n)
        times, (vals, vecs) = timed(lambda: solve(a, case, v0), args.repeats, args.budget)
        _, _, count = solve(a, case, v0, counting=True)
        norm = float(abs(sla.eigsh(a, k=1, which="LM", v0=v0)[0][0]))
        res = a @ vecs - vecs * vals
        relres = float(np.max(np.linalg.norm(res, axis=0)) / (norm * 2.0 ** -53))
        best = vals.min() if case["which"] == "SA" or case["sigma"] is not None else vals.max()
        copies = int(np.sum(np.abs(vals - best) <= 1e-9 * norm))
        emit(args.out, dict(name=case["name"], family=case["family"], n=n, k=case["k"],
                            peer="scipy eigsh (ARPACK)", threads=args.threads,
                            scipy=scipy.__version__, numpy=np.__version__,
                            count=count, relres=relres, copies=copies, **summary(times)))


UNITS = {"ns/op": 1e-9}


def go_medians(path):
    per = {}
    line_re = re.compile(r"^BenchmarkVsEigsh/(\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$")
    for line in open(path):
        m = line_re.match(line.strip())
        if not m:
            continue
        cpu = m.group(2)[1:] if m.group(2) else "1"
        name, ns, rest = (m.group(1), cpu), float(m.group(3)), m.group(4)
        metrics = dict((u, float(v)) for v, u in re.findall(r"([\d.e+-]+) (\S+)", rest))
        per.setdefault(name, []).append((ns * 1e-9, metrics))
    out = {}
    for name, rows in per.items():
        out[name] = (statistics.median(r[0] for r in rows), rows[-1][1])
    return out


def fmt_t(s):
    if s >= 1:
        return "%.2f s" % s
    if s >= 1e-3:
        return "%.3g ms" % (s * 1e3)
    return "%.3g µs" % (s * 1e6)


def table(args):
    go = go_medians(args.go)
    cpus = sorted(set(c for _, c in go), key=int)
    rows, seen = [], {}
    for line in open(args.eigsh):  # rounds: the median over them
        r = json.loads(line)
        if r["name"] in seen:
            seen[r["name"]]["all"].append(r["t_median"])
            continue
        r["all"] = [r["t_median"]]
        seen[r["name"]] = r
        rows.append(r)
    for r in rows:
        r["t_median"] = statistics.median(r["all"])
    for cpu in cpus:
        table_cpu(go, rows, cpu)


def table_cpu(go, rows, cpu):
    print("Ours with GOMAXPROCS = %s:" % cpu)
    print()
    print("| case | ours (TopD / ShiftInvert) | products (solves) | eigsh, %s thread | products (solves) | eigsh / ours | relres/eps ours, eigsh |"
          % (rows[0]["threads"] if rows else "?"))
    print("|---|---:|---:|---:|---:|---:|---:|")
    ratios = []
    for r in rows:
        g = go.get((r["name"], cpu))
        if g is None:
            continue
        t, m = g
        ours_count = int(m.get("solves/op", 0)) or int(m.get("matvecs/op", 0))
        ratio = r["t_median"] / t
        ratios.append((r["name"], ratio))
        conv = "" if m.get("converged", 1) == 1 else " (not converged)"
        print("| %s | %s%s | %d | %s | %d | **%.2f** | %.3g, %.3g |" % (
            r["name"], fmt_t(t), conv, ours_count, fmt_t(r["t_median"]), r["count"], ratio,
            m.get("relres/eps", float("nan")), r["relres"]))
    if ratios:
        vs = [x for _, x in ratios]
        print()
        print("ratio eigsh/ours: median %.2f, min %.2f (%s), cases where ours is slower: %d of %d" % (
            statistics.median(vs), min(vs), min(ratios, key=lambda p: p[1])[0],
            sum(1 for x in vs if x < 1), len(vs)))
    print()


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--dir", required=True)
    r.add_argument("--threads", type=int, default=1)
    r.add_argument("--out", required=True)
    r.add_argument("--only", default="", help="regular expression on case names")
    r.add_argument("--repeats", type=int, default=7)
    r.add_argument("--budget", type=float, default=5.0)
    t = sub.add_parser("table")
    t.add_argument("--eigsh", required=True)
    t.add_argument("--go", required=True)
    args = ap.parse_args()
    if args.cmd == "run":
        run(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
