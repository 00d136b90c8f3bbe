"""Tabulate the degenerate-QP comparison: CVXOPT's JSON lines against go test -bench.

    /usr/bin/python3 qp_degenerate_table.py cvxopt.jsonl go-bench.txt > table.md

cvxopt.jsonl is written by cvxopt_degenerate.py, go-bench.txt is the output of
`go test -run '^$' -bench BenchmarkDegenerate ./qp/` (package qp). Problems
are matched by name (family=F/n=N/rows=R/seed=S). For every family and size,
and in total, the table gives the number of problems each solver solved (for
ukm the ok metric: Optimal within 1e-8 of the planted optimal value with KKT
residuals below 1e-9, or Infeasible with a verified certificate; for CVXOPT
"optimal" within 1e-6 (and, in parentheses, 1e-8) of it, or "primal
infeasible") and the median over the problems both solved of the ratio of
CVXOPT's time (minimum over its runs) to ours (ns/op).
"""

import json
import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^BenchmarkDegenerate/(family=[^/]+/n=\d+/rows=\d+/seed=\d+)/solver=([a-z-]+?)(?:-\d+)?\s+(\d+)\s+(\d+(?:\.\d+)?) ns/op(.*)$")


def parse_go(path):
    out = defaultdict(dict)
    with open(path) as f:
        for line in f:
            m = LINE.match(line.strip())
            if not m:
                continue
            name, solver, _, ns, rest = m.groups()
            ok = re.search(r"([\d.]+) ok", rest)
            it = re.search(r"([\d.]+) iter", rest)
            out[name][solver] = dict(t=float(ns) * 1e-9, ok=ok is not None and float(ok.group(1)) == 1.0,
                                     iter=float(it.group(1)) if it else None)
    return out


def main():
    cvx = {}
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            cvx[r["name"]] = r
    ours = parse_go(sys.argv[2])
    solvers = ["activeset", "goldfarb-idnani", "admm"]
    groups = defaultdict(list)
    for name, r in cvx.items():
        groups[(r["family"], r["n"], r["rows"])].append(name)
    missing = [n for n in cvx if n not in ours]
    print("| family | n | rows | problems | CVXOPT solved 1e-6 (1e-8) | ActiveSet ok | time CVXOPT/ActiveSet (median) | GoldfarbIdnani ok | time CVXOPT/GI | ADMM ok |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    tot = defaultdict(int)
    ratios_all = defaultdict(list)
    for key in sorted(groups, key=lambda k: (k[1], k[0])):
        names = groups[key]
        c6 = sum(cvx[n]["solved"] for n in names)
        c8 = sum(cvx[n]["solved8"] for n in names)
        cells = []
        for s in solvers:
            have = [n for n in names if s in ours.get(n, {})]
            ok = sum(ours[n][s]["ok"] for n in have)
            ratios = [cvx[n]["t_min"] / ours[n][s]["t"] for n in have if ours[n][s]["ok"] and cvx[n]["solved"]]
            ratios_all[s].extend(ratios)
            tot[s + "_n"] += len(have)
            tot[s] += ok
            cells.append(("%d/%d" % (ok, len(have)) if have else "-",
                          "%.2f" % statistics.median(ratios) if ratios else "-"))
        tot["n"] += len(names)
        tot["c6"] += c6
        tot["c8"] += c8
        print("| %s | %d | %d | %d | %d (%d) | %s | %s | %s | %s | %s |" % (
            key[0], key[1], key[2], len(names), c6, c8, cells[0][0], cells[0][1], cells[1][0], cells[1][1], cells[2][0]))
    med = {s: ("%.2f" % statistics.median(v) if v else "-") for s, v in ratios_all.items()}
    print("| **total** | | | %d | %d (%d) | %d/%d | %s | %d/%d | %s | %d/%d |" % (
        tot["n"], tot["c6"], tot["c8"], tot["activeset"], tot["activeset_n"], med["activeset"],
        tot["goldfarb-idnani"], tot["goldfarb-idnani_n"], med["goldfarb-idnani"], tot["admm"], tot["admm_n"]))
    if missing:
        print("\nproblems without a Go benchmark line: %d (first: %s)" % (len(missing), missing[0]))
    status = defaultdict(int)
    for r in cvx.values():
        s = r["status"]
        status["error (rank condition)" if s.startswith("error: Rank") else s] += 1
    print("\nCVXOPT statuses: " + ", ".join("%s %d" % kv for kv in sorted(status.items())))


if __name__ == "__main__":
    main()
