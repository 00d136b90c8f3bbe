"""scikit-learn baselines on the labeled draws of the accuracy comparison.

    /usr/bin/python3 baselines.py --data DIR --draws draws.jsonl --out results.jsonl [--threads 1]

Each line of the draws file (written by the Go side) names a data set
DIR/<dataset>.csv (or .csv.gz) and the 0-based data-row indices `idx` of its
labeled points; every other row is unlabeled, and accuracy is measured on all
unlabeled rows. Lines with dataset "fashion-mnist" are left to largen.py.

Setting: transductive, as on the Go side. The features are standardised with
a StandardScaler fitted on ALL rows of the data set (labeled and unlabeled),
once per data set; the scaling is not timed. Methods (scikit-learn defaults
unless stated):

  LogisticRegression  C=1.0, lbfgs, max_iter=1000, fitted on the labeled rows;
  SVC                 RBF, gamma='scale', C=1.0, fitted on the labeled rows;
  LabelSpreading      kernel='knn', n_neighbors=10, alpha=0.2, max_iter=1000,
                      fitted on all rows with y = -1 on the unlabeled ones;
                      the prediction is transduction_ on the unlabeled rows.

One JSON line per (draw, method) is appended to --out: every field of the
draw but idx (dataset, labeled, per_class, trial, seed, ...), then method,
accuracy (percent correct on the unlabeled rows; null with an "error" field
when the method raised, e.g. on a draw with one class), seconds (wall time
of fit + predict), n_iter (iterative methods), peak_rss_mb (the process's
max RSS so far) and threads. LabelSpreading also records unreached, the
unlabeled rows whose scores are all zero when its iteration stops (at an
absolute tolerance of 1e-3, so rows many edges from every label are never
reached; its argmax gives them the first class), and unreached_correct, how
many of those are right.
"""

import argparse
import gzip
import json
import os
import sys

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree

import peerlib  # noqa: E402

peerlib.pin_threads(peerlib.threads_arg(sys.argv))

import numpy as np  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.semi_supervised import LabelSpreading  # noqa: E402
from sklearn.svm import SVC  # noqa: E402


def load_csv(data_dir, name):
    """Return (X, y): features as float64, labels as indices into sorted(set(labels))."""
    for fn, opener in ((name + ".csv", open), (name + ".csv.gz", gzip.open)):
        path = os.path.join(data_dir, fn)
        if os.path.exists(path):
            with opener(path, "rt") as f:
                f.readline()  # header label,f1,...,fN
                rows = [line.rstrip("\n").split(",") for line in f if line.strip()]
            break
    else:
        raise FileNotFoundError("no %s.csv or %s.csv.gz in %s" % (name, name, data_dir))
    labels = [r[0] for r in rows]
    classes = sorted(set(labels))
    index = {c: i for i, c in enumerate(classes)}
    X = np.array([r[1:] for r in rows], dtype=np.float64)
    y = np.array([index[c] for c in labels])
    return X, y


def methods():
    """(name, run) pairs; run(X, y, lab, unl) returns (predictions on unl, extra fields).

    The classifiers predict every row and keep the unlabeled ones: cheaper than
    copying X[unl]."""

    def logreg(X, y, lab, unl):
        m = LogisticRegression(max_iter=1000).fit(X[lab], y[lab])
        return m.predict(X)[unl], {"n_iter": int(np.max(m.n_iter_))}

    def svc(X, y, lab, unl):
        m = SVC().fit(X[lab], y[lab])
        return m.predict(X)[unl], {}

    def spreading(X, y, lab, unl):
        yy = np.full(len(y), -1)
        yy[lab] = y[lab]
        m = LabelSpreading(kernel="knn", n_neighbors=10, max_iter=1000).fit(X, yy)
        pred = m.transduction_[unl]
        # Rows the iteration never reached (it stops at an absolute tolerance,
        # so far rows keep zero scores) are labeled class 0 by the argmax.
        zero = m.label_distributions_[unl].sum(axis=1) == 0
        extra = {"n_iter": int(m.n_iter_), "unreached": int(zero.sum()),
                 "unreached_correct": int(np.sum(pred[zero] == y[unl][zero]))}
        return pred, extra

    return [("LogisticRegression", logreg), ("SVC", svc), ("LabelSpreading", spreading)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="directory of <dataset>.csv[.gz]")
    ap.add_argument("--draws", required=True, help="draws JSON lines")
    ap.add_argument("--out", required=True, help="results JSON lines (appended)")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    with open(args.draws) as f:
        draws = [json.loads(line) for line in f if line.strip()]
    cache = {}
    for d in draws:
        name = d["dataset"]
        if name == "fashion-mnist":
            continue  # largen.py
        if name not in cache:
            X, y = load_csv(args.data, name)
            cache[name] = (StandardScaler().fit_transform(X), y)
        X, y = cache[name]
        lab = np.asarray(d["idx"], dtype=int)
        unl = np.setdiff1d(np.arange(len(y)), lab)
        for mname, run in methods():
            row = {k: v for k, v in d.items() if k != "idx"}  # dataset, labeled, per_class, trial, seed, ...
            row.update(method=mname, threads=args.threads)
            row.update(peerlib.measure(run, y[unl], X, y, lab, unl))
            peerlib.emit(args.out, row)


if __name__ == "__main__":
    main()
