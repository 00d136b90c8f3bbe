"""The table of fashion.sh: one row per (features, method) of largen.py's output.

    /usr/bin/python3 fashion_table.py results.jsonl

Columns: accuracy on the fixed labels (trial 0), mean and standard error over
the random draws (trials 1 and up; blank when the method ran on the fixed
labels only), median seconds, largest peak RSS in MB.
"""

import json
import statistics
import sys


def main():
    rows = {}
    with open(sys.argv[1]) as f:
        for line in filter(str.strip, f):
            r = json.loads(line)
            rows.setdefault((r.get("features", "pixels"), r["method"]), []).append(r)
    print("| method | features | fixed labels | random draws (mean ± s.e.) | seconds (median) | peak RSS |")
    print("|---|---|---:|---:|---:|---:|")
    for (features, method), rs in rows.items():
        fixed = [r["accuracy"] for r in rs if r["trial"] == 0 and r["accuracy"] is not None]
        rand = [r["accuracy"] for r in rs if r["trial"] > 0 and r["accuracy"] is not None]
        cell = ""
        if len(rand) > 1:
            cell = "%.2f ± %.2f%% (%d)" % (statistics.mean(rand), statistics.stdev(rand) / len(rand) ** 0.5, len(rand))
        secs = statistics.median(r["seconds"] for r in rs)
        rss = max(r.get("peak_rss_mb") or 0 for r in rs)
        print("| %s | %s | %s | %s | %.1f s | %.0f MB |" % (
            method, features, "%.2f%%" % fixed[0] if fixed else "", cell, secs, rss))


if __name__ == "__main__":
    main()
