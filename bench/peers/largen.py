"""scikit-learn baselines on Fashion-MNIST (n = 70,000) for the large-n comparison.

    /usr/bin/python3 largen.py --draws draws.jsonl --out results.jsonl [--threads 2] [--fmnist DIR]
        [--features hog.npy --features-name hog] [--methods LogisticRegression,LabelSpreading]

The data are the IDX files of Debian's dataset-fashion-mnist package
(default DIR /usr/share/datasets/fashion-mnist): the 60,000 training images
followed by the 10,000 test images, 70,000 rows of 784 pixels divided by 255
(not standardised). Each draws line with dataset "fashion-mnist" gives the
0-based row indices `idx` of the labeled points; every other row is
unlabeled and accuracy is measured on all unlabeled rows. Other lines are
left to baselines.py.

With --features the methods see the rows of that NumPy array (70,000 rows,
for example the HOG descriptors bench/peers/fmnist writes) instead of the
pixels, and the output lines say so (field features, default "pixels").
--methods keeps the named methods only (default: all four).

Methods (scikit-learn defaults unless stated), transductive where they use
the unlabeled rows:

  LabelSpreading       kernel='knn', n_neighbors=10, alpha=0.2, max_iter=30,
                       fitted on all 70,000 rows (y = -1 on the unlabeled);
                       prediction = transduction_;
  Nystroem+LR          Nystroem(kernel='rbf', n_components=1000,
                       random_state=trial) fitted on all rows, default gamma
                       (1/n_features), then LogisticRegression(max_iter=1000)
                       on the labeled rows' features;
  Nystroem+LR(median)  the same with gamma = 1/median squared distance of
                       1,000 random pairs of rows (seeded with trial; the
                       median is inside the timed call);
  LogisticRegression   max_iter=1000 on the labeled raw pixels.

One JSON line per (draw, method) is appended to --out: every field of the
draw but idx (dataset, labeled, per_class, trial, seed, ...), method,
accuracy (percent; null with "error" if the method raised), seconds (wall
time of fit + predict; loading the data is excluded), n_iter, gamma
(Nystroem), threads, rss_before_mb (current RSS when the method starts) and
peak_rss_mb, the max RSS of the process while the method ran, data included
(the 70,000 x 784 float64 matrix alone is 440 MB): the high-water mark is
reset before each method (peak_rss_reset true); where that is not possible,
it is the max so far, loading included.
"""

import argparse
import gzip
import json
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

import peerlib  # noqa: E402

# default 2 threads here (peerlib.threads_arg defaults to 1)
THREADS = peerlib.threads_arg(sys.argv) if any(a.startswith("--threads") for a in sys.argv) else 2
peerlib.pin_threads(THREADS)

import numpy as np  # noqa: E402
from sklearn.kernel_approximation import Nystroem  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.semi_supervised import LabelSpreading  # noqa: E402

FMNIST = "/usr/share/datasets/fashion-mnist"


def reset_peak_rss():
    """Reset the process's RSS high-water mark (Linux 4.0+, which getrusage
    reports too), so that peak_rss_mb covers one method; False if not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_mb():
    """Current resident set size (Linux /proc), or None elsewhere."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2.0**20
    except OSError:
        return None


def read_idx(path):
    """Read a gzipped IDX file of unsigned bytes (images n x rows x cols, or labels n)."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndim = raw[3]
    assert raw[:3] == b"\0\0\x08", "%s: not an IDX ubyte file" % path
    shape = np.frombuffer(raw, dtype=">u4", count=ndim, offset=4).astype(int)
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(shape)


def load_fmnist(d):
    """70,000 x 784 pixels / 255 (training images first, then test) and labels."""
    X = [read_idx(os.path.join(d, p + "-images-idx3-ubyte.gz")) for p in ("train", "t10k")]
    y = [read_idx(os.path.join(d, p + "-labels-idx1-ubyte.gz")) for p in ("train", "t10k")]
    X = np.concatenate(X).reshape(-1, 784).astype(np.float64)
    X /= 255.0  # in place: no second 440 MB copy inflating the peak RSS
    return X, np.concatenate(y).astype(int)


def median_gamma(X, rng, pairs=1000):
    """1 / median squared distance of `pairs` random pairs of distinct rows."""
    i = rng.integers(0, len(X), pairs)
    j = (i + rng.integers(1, len(X), pairs)) % len(X)  # j != i
    return 1.0 / float(np.median(np.sum((X[i] - X[j]) ** 2, axis=1)))


def methods():
    """(name, run) pairs; run(X, y, lab, unl, trial) returns (predictions on unl, extra fields).

    The classifiers predict every row and keep the unlabeled ones: copying
    X[unl] would cost 440 MB (F[unl] 560 MB)."""

    def spreading(X, y, lab, unl, trial):
        yy = np.full(len(y), -1)
        yy[lab] = y[lab]
        m = LabelSpreading(kernel="knn", n_neighbors=10, max_iter=30).fit(X, yy)
        return m.transduction_[unl], {"n_iter": int(m.n_iter_)}

    def nystroem(median):
        def run(X, y, lab, unl, trial):
            gamma = median_gamma(X, np.random.default_rng(trial)) if median else None
            F = Nystroem(kernel="rbf", gamma=gamma, n_components=1000, random_state=trial).fit_transform(X)
            m = LogisticRegression(max_iter=1000).fit(F[lab], y[lab])
            return m.predict(F)[unl], {"n_iter": int(np.max(m.n_iter_)),
                                       "gamma": gamma if median else 1.0 / X.shape[1]}
        return run

    def logreg(X, y, lab, unl, trial):
        m = LogisticRegression(max_iter=1000).fit(X[lab], y[lab])
        return m.predict(X)[unl], {"n_iter": int(np.max(m.n_iter_))}

    return [("LabelSpreading", spreading), ("Nystroem+LR", nystroem(False)),
            ("Nystroem+LR(median)", nystroem(True)), ("LogisticRegression", logreg)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draws", required=True, help="draws JSON lines")
    ap.add_argument("--out", required=True, help="results JSON lines (appended)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--fmnist", default=FMNIST, help="directory of the Fashion-MNIST IDX files")
    ap.add_argument("--features", help="a .npy array of 70,000 rows to use instead of the pixels")
    ap.add_argument("--features-name", default=None, help="the name of --features in the output (default: its file name)")
    ap.add_argument("--methods", default="", help="comma-separated method names to run (default: all)")
    args = ap.parse_args()
    chosen = methods()
    if args.methods:
        want = args.methods.split(",")
        unknown = set(want) - {m for m, _ in chosen}
        if unknown:
            ap.error("unknown methods: %s" % ", ".join(sorted(unknown)))
        chosen = [(m, r) for m, r in chosen if m in want]
    features = "pixels"
    if args.features:
        features = args.features_name or os.path.splitext(os.path.basename(args.features))[0]

    with open(args.draws) as f:
        draws = [d for d in map(json.loads, filter(str.strip, f)) if d["dataset"] == "fashion-mnist"]
    if not draws:
        return
    X, y = load_fmnist(args.fmnist)
    if args.features:
        X = np.load(args.features)
        if X.shape[0] != len(y):
            sys.exit("%s: %d rows, want %d" % (args.features, X.shape[0], len(y)))
    print("fashion-mnist: %d x %d, peak RSS after loading %.0f MB" % (X.shape + (peerlib.peak_rss_mb(),)),
          file=sys.stderr)
    for d in draws:
        lab = np.asarray(d["idx"], dtype=int)
        unl = np.setdiff1d(np.arange(len(y)), lab)
        for mname, run in chosen:
            row = {k: v for k, v in d.items() if k != "idx"}  # dataset, labeled, per_class, trial, seed, ...
            row.update(method=mname, features=features, threads=args.threads, rss_before_mb=rss_mb(),
                       peak_rss_reset=reset_peak_rss())
            row.update(peerlib.measure(run, y[unl], X, y, lab, unl, int(d.get("trial", 0))))
            peerlib.emit(args.out, row)


if __name__ == "__main__":
    main()
