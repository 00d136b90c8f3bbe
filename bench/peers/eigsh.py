"""Time SciPy's symmetric eigensolvers on the RBF kernels of BenchmarkTopD.

Run with Debian's interpreter (the first python3 on PATH may be another
installation without SciPy):

    /usr/bin/python3 eigsh.py --dir DIR --threads 1 --out results.jsonl

DIR holds rbf_nN.bin / rbf_nN.json written by `go run ./bench/peers/gen`.
For every n and k the script times, with time.perf_counter around the solver
call only (loading, thread start-up and the residual check are excluded):

  eigsh   scipy.sparse.linalg.eigsh (ARPACK dsaupd/dseupd), which='LA', tol=0
          (machine precision), v0 = ones, default ncv, the matrix wrapped in
          a LinearOperator that counts matrix-vector products;
  eigh    scipy.linalg.eigh(subset_by_index=[n-k, n-1], driver='evr'),
          LAPACK dsyevr on a dense copy (the copy is inside the timed call);
  lobpcg  scipy.sparse.linalg.lobpcg, largest=True, seeded Gaussian start
          block (numpy default_rng(1)), tol = --lobpcg-tol * theta_max (default 1e-14, the
          relative tolerance of ukm eig.DefaultTol), maxiter = --lobpcg-maxiter;
          the operator counts columns it is applied to.

Reported per run: median and minimum time over the repeats (7 unless the
per-case time budget is exceeded, never fewer than 3), matvecs of the last
run, relres = max_i ||K v_i - theta_i v_i|| / theta_max (theta_max, the
largest computed eigenvalue, equals ||K||_2 up to its own error because K is
positive semidefinite), and orth = ||I - V'V||_2.
"""

import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

from peerlib import pin_threads, threads_arg

THREADS = threads_arg(sys.argv)
pin_threads(THREADS)

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import warnings  # noqa: E402

import numpy as np  # noqa: E402
import scipy  # noqa: E402
import scipy.linalg  # noqa: E402
import scipy.sparse.linalg as sla  # noqa: E402

from peerlib import emit, summary, timed  # noqa: E402


class Counting(sla.LinearOperator):
    """Dense symmetric operator that counts the vectors it is applied to."""

    def __init__(self, k):
        super().__init__(dtype=k.dtype, shape=k.shape)
        self.k = k
        self.count = 0

    def _matvec(self, x):
        self.count += 1
        return self.k @ x

    def _matmat(self, x):
        self.count += x.shape[1]
        return self.k @ x

    def _rmatvec(self, x):
        return self._matvec(x)

    def _adjoint(self):
        return self


def quality(k, vals, vecs):
    order = np.argsort(vals)[::-1]
    vals = vals[order]
    vecs = vecs[:, order]
    res = k @ vecs - vecs * vals
    theta = float(vals[0])
    relres = float(np.max(np.linalg.norm(res, axis=0)) / theta)
    orth = float(np.linalg.norm(np.eye(vecs.shape[1]) - vecs.T @ vecs, 2))
    return relres, orth


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", default="500,1000,2000,4000")
    ap.add_argument("--k", default="10,20,50")
    ap.add_argument("--methods", default="eigsh,eigh,lobpcg")
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--budget", type=float, default=10.0,
                    help="seconds per case after which no more repeats are started (>= 3 runs)")
    ap.add_argument("--eigh-k", default="20", help="k values for eigh (its cost hardly depends on k)")
    ap.add_argument("--lobpcg-k", default="20")
    ap.add_argument("--lobpcg-tol", type=float, default=1e-14,
                    help="lobpcg residual tolerance relative to theta_max (1e-14 is eig.DefaultTol)")
    ap.add_argument("--lobpcg-maxiter", type=int, default=500,
                    help="lobpcg iteration cap (it stagnates near 5e-11 at n = 2000; 2000 iterations gain nothing)")
    args = ap.parse_args()
    methods = args.methods.split(",")
    ks = [int(v) for v in args.k.split(",") if v]
    for n in [int(v) for v in args.n.split(",") if v]:
        with open(os.path.join(args.dir, "rbf_n%d.json" % n)) as f:
            hdr = json.load(f)
        k = np.fromfile(os.path.join(args.dir, hdr["file"]), dtype="<f8").reshape(n, n)
        base = {"family": "eig", "n": n, "threads": THREADS, "scipy": scipy.__version__,
                "numpy": np.__version__}
        if "eigsh" in methods:
            for kk in ks:
                op = Counting(k)
                v0 = np.ones(n)

                def run():
                    op.count = 0
                    return sla.eigsh(op, k=kk, which="LA", tol=0, v0=v0)

                times, (vals, vecs) = timed(run, args.repeats, args.budget)
                relres, orth = quality(k, vals, vecs)
                emit(args.out, dict(base, peer="scipy eigsh (ARPACK)", k=kk, matvecs=op.count,
                                    relres=relres, orth=orth, **summary(times)))
        if "eigh" in methods:
            for kk in [int(v) for v in args.eigh_k.split(",") if v]:
                def run():
                    return scipy.linalg.eigh(k, subset_by_index=[n - kk, n - 1], driver="evr")

                times, (vals, vecs) = timed(run, args.repeats, args.budget)
                relres, orth = quality(k, vals, vecs)
                emit(args.out, dict(base, peer="scipy eigh (dsyevr subset)", k=kk, matvecs=None,
                                    relres=relres, orth=orth, **summary(times)))
        if "lobpcg" in methods:
            for kk in [int(v) for v in args.lobpcg_k.split(",") if v]:
                op = Counting(k)
                x0 = np.random.default_rng(1).standard_normal((n, kk))
                # absolute tolerance on residual norms, relative to ||K|| ~ K's
                # largest eigenvalue (estimated by a quick ARPACK call outside
                # the timed region)
                lmax = float(sla.eigsh(k, k=1, which="LA", v0=np.ones(n))[0][0])
                tol = args.lobpcg_tol * lmax
                note = {}

                def run():
                    op.count = 0
                    with warnings.catch_warnings(record=True) as w:
                        warnings.simplefilter("always")
                        out = sla.lobpcg(op, x0.copy(), largest=True, tol=tol,
                                         maxiter=args.lobpcg_maxiter, retResidualNormsHistory=True)
                    note["warn"] = "; ".join(str(x.message).splitlines()[0] for x in w)[:200]
                    return out

                times, (vals, vecs, hist) = timed(run, args.repeats, args.budget)
                relres, orth = quality(k, vals, vecs)
                emit(args.out, dict(base, peer="scipy lobpcg", k=kk, matvecs=op.count,
                                    iterations=len(hist), tol=tol, relres=relres, orth=orth,
                                    warning=note.get("warn", ""), **summary(times)))


if __name__ == "__main__":
    main()
