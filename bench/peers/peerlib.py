"""Shared helpers of the peer benchmark scripts.

Thread pinning must happen before numpy is imported, so every script calls
pin_threads() first and imports numpy afterwards.

KKT residuals (kkt below) are the definitions of ukm's qp.Residuals, so that
the figures of every peer and of ukm are comparable. For the problem

    minimize 1/2 x'Hx + c'x  s.t.  Aeq x = beq,  Ain x >= bin,  x >= lo

with multipliers eq (free), ineq >= 0, lower >= 0 and the Lagrangian sign
convention  Hx + c - Aeq' eq - Ain' ineq - lower = 0 :

  stationarity    max_j |r_j| / (1 + s_j), where r = Hx + c - Aeq'eq - Ain'ineq
                  - lower and s_j is the largest magnitude of the terms summed
                  into r_j (|c_j|, |(Hx)_j|, |a_ij eq_i|, |a_ij ineq_i|,
                  |lower_j|);
  primal_feas     largest violation of a row divided by 1 + max(|rhs|, |row.x|)
                  (bounds: violation / (1 + |lo_j|));
  dual_feas       largest wrongly signed inequality or bound multiplier
                  divided by 1 + the largest inequality/bound multiplier;
  complementarity max over inequality rows and bounds of
                  |lambda_i slack_i| / ((1 + |lambda_i|)(1 + |row.x| + |rhs|)).

All four are relative and scale-invariant in the same way as ukm's.
"""

import json
import os
import statistics
import sys
import time


def pin_threads(n):
    """Pin BLAS/OpenMP thread counts; must run before numpy is imported."""
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS",
                "BLIS_NUM_THREADS", "GOTO_NUM_THREADS"):
        os.environ[var] = str(n)
    if "numpy" in sys.modules:
        raise RuntimeError("pin_threads called after numpy was imported")


def threads_arg(argv):
    """Return the value of --threads from argv (default 1) without argparse."""
    for i, a in enumerate(argv):
        if a == "--threads" and i + 1 < len(argv):
            return int(argv[i + 1])
        if a.startswith("--threads="):
            return int(a.split("=", 1)[1])
    return 1


def timed(fn, repeats, budget):
    """Run fn() repeatedly, timing each call with time.perf_counter.

    At least 3 and at most `repeats` runs; stops adding runs once the total
    time spent exceeds `budget` seconds (after the third run). Returns the
    list of times and the result of the last call.
    """
    times = []
    out = None
    spent = 0.0
    while len(times) < repeats:
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        times.append(dt)
        spent += dt
        if len(times) >= 3 and spent > budget:
            break
    return times, out


def summary(times):
    return {"repeats": len(times), "t_min": min(times), "t_median": statistics.median(times)}


def emit(path, row):
    """Append one JSON row to path (JSON lines) and echo it to stderr."""
    line = json.dumps(row, sort_keys=True)
    with open(path, "a") as f:
        f.write(line + "\n")
    print(line, file=sys.stderr)


def kkt(np, H, c, Aeq, beq, Ain, bin_, lo, x, eq, ineq, lower):
    """Relative KKT residuals (see the module docstring); arrays are numpy."""
    n = x.shape[0]
    hx = H @ x
    r = c + hx
    scale = np.maximum(np.abs(c), np.abs(hx))
    primal = 0.0
    compl = 0.0
    maxmult = 0.0
    dual = 0.0
    for i in range(Aeq.shape[0]):
        row = Aeq[i]
        ax = float(row @ x)
        lam = float(eq[i])
        r = r - row * lam
        scale = np.maximum(scale, np.abs(row * lam))
        primal = max(primal, abs(ax - beq[i]) / (1 + max(abs(beq[i]), abs(ax))))
    for i in range(Ain.shape[0]):
        row = Ain[i]
        ax = float(row @ x)
        lam = float(ineq[i])
        r = r - row * lam
        scale = np.maximum(scale, np.abs(row * lam))
        rs = ax - bin_[i]
        den = 1 + max(abs(bin_[i]), abs(ax))
        primal = max(primal, max(0.0, -rs) / den)
        maxmult = max(maxmult, abs(lam))
        compl = max(compl, abs(lam * rs) / ((1 + abs(lam)) * (1 + abs(ax) + abs(bin_[i]))))
        dual = max(dual, -lam)
    for j in range(n):
        lam = float(lower[j])
        r[j] -= lam
        scale[j] = max(scale[j], abs(lam))
        maxmult = max(maxmult, abs(lam))
        slack = x[j] - lo[j]
        primal = max(primal, max(0.0, -slack) / (1 + abs(lo[j])))
        compl = max(compl, abs(lam * slack) / ((1 + abs(lam)) * (1 + abs(x[j]) + abs(lo[j]))))
        dual = max(dual, -lam)
    stat = float(np.max(np.abs(r) / (1 + scale)))
    return {
        "stationarity": stat,
        "primal_feas": float(primal),
        "dual_feas": max(0.0, dual) / (1 + maxmult),
        "complementarity": float(compl),
    }


def load_skl(np, path):
    """Load an skl_dD.json instance as numpy arrays in the kkt() form."""
    with open(path) as f:
        inst = json.load(f)
    d = inst["d"]
    C = inst["C"]
    H = np.array(inst["P"], dtype=float).reshape(d, d)
    c = np.array(inst["q"], dtype=float)
    Aeq = np.array(inst["a"], dtype=float).reshape(1, d)
    beq = np.array([inst["b"]], dtype=float)
    Ain = np.zeros((d - 1, d))
    for i in range(d - 1):
        Ain[i, i] = 1.0
        Ain[i, i + 1] = -C
    bin_ = np.zeros(d - 1)
    lo = np.zeros(d)
    return inst, H, c, Aeq, beq, Ain, bin_, lo


def peak_rss_mb():
    """The process's peak resident set size in MiB (getrusage reports KiB on Linux)."""
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def measure(run, y_unl, *args):
    """Time run(*args), which returns (predictions on the unlabeled rows, extra
    fields), and return the result fields of one accuracy row (baselines.py,
    largen.py): accuracy in percent (None with an "error" field when run
    raised, e.g. on a draw with a single class), wall and CPU seconds, and the
    peak RSS so far. scikit-learn's ConvergenceWarnings are silenced."""
    import warnings
    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            pred, res = run(*args)
    except Exception as e:  # e.g. only one class among the labels
        pred, res = None, {"error": "%s: %s" % (type(e).__name__, e)}
    res.update(seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0,
               peak_rss_mb=peak_rss_mb())
    res["accuracy"] = None if pred is None else 100.0 * float(np.mean(pred == y_unl))
    return res
