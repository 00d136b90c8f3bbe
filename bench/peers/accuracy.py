"""Compare the accuracy of our eigenpairs with ARPACK's in extended precision.

Run with Debian's interpreter after `go run ./bench/peers/gen -out DIR
-d "" -pairs 20` (which writes the kernels and our top-k pairs):

    /usr/bin/python3 accuracy.py --dir DIR --k 20 --out accuracy.jsonl

For every kernel rbf_nN.bin and every k it computes ARPACK's pairs exactly
as eigsh.py times them (scipy.sparse.linalg.eigsh, which='LA', tol=0,
v0 = ones) and evaluates both sets in NumPy's longdouble (x87 extended
precision, 64-bit significand) on the same stored matrix, so that neither
side's product rounding enters the measurement:

  relres  max_i ||K v_i - theta_i v_i|| / theta_1, each tool's own values;
  relres_rq  the same with extended-precision Rayleigh quotients;
  orth    max |I - V'V|;
  dvals   max_i |theta_i(ours) - theta_i(ARPACK)| / theta_1.

All in units of eps = 2^-52.
"""

import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

from peerlib import pin_threads  # noqa: E402

pin_threads(1)

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402

import numpy as np  # noqa: E402
import scipy.sparse.linalg as sla  # noqa: E402

from peerlib import emit  # noqa: E402

EPS = 2.0 ** -52


def measure(kl, vals, vecs):
    vl = vecs.astype(np.longdouble)
    kv = kl @ vl
    theta1 = np.longdouble(vals[0])
    res = kv - vl * vals.astype(np.longdouble)
    relres = float(np.max(np.sqrt(np.sum(res * res, axis=0))) / theta1)
    rq = np.sum(vl * kv, axis=0) / np.sum(vl * vl, axis=0)
    res2 = kv - vl * rq
    relres_rq = float(np.max(np.sqrt(np.sum(res2 * res2, axis=0))) / theta1)
    g = vl.T @ vl
    orth = float(np.max(np.abs(g - np.eye(vecs.shape[1], dtype=np.longdouble))))
    return relres / EPS, relres_rq / EPS, orth / EPS


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", default="500,1000,2000,4000")
    ap.add_argument("--k", default="20")
    args = ap.parse_args()
    print("| n | k | relres ours | relres ARPACK | with extended RQ: ours / ARPACK | orth ours / ARPACK | dvals |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for n in [int(v) for v in args.n.split(",") if v]:
        with open(os.path.join(args.dir, "rbf_n%d.json" % n)) as f:
            hdr = json.load(f)
        k = np.fromfile(os.path.join(args.dir, hdr["file"]), dtype="<f8").reshape(n, n)
        kl = k.astype(np.longdouble)
        for kk in [int(v) for v in args.k.split(",") if v]:
            raw = np.fromfile(os.path.join(args.dir, "rbf_n%d_ukm_k%d.bin" % (n, kk)), dtype="<f8")
            ours_vals = raw[:kk]
            ours_vecs = raw[kk:].reshape(n, kk)
            vals, vecs = sla.eigsh(k, k=kk, which="LA", tol=0, v0=np.ones(n))
            order = np.argsort(vals)[::-1]
            vals, vecs = vals[order], vecs[:, order]
            o = measure(kl, ours_vals, ours_vecs)
            a = measure(kl, vals, vecs)
            dvals = float(np.max(np.abs(ours_vals - vals)) / vals[0]) / EPS
            emit(args.out, dict(family="eig-accuracy", n=n, k=kk, relres_ours=o[0], relres_arpack=a[0],
                                relres_rq_ours=o[1], relres_rq_arpack=a[1], orth_ours=o[2],
                                orth_arpack=a[2], dvals=dvals))
            print("| %d | %d | %.2f | %.2f | %.2f / %.2f | %.1f / %.1f | %.2f |" % (
                n, kk, o[0], a[0], o[1], a[1], o[2], a[2], dvals))


if __name__ == "__main__":
    main()
