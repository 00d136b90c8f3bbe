"""Print the JSON-lines results of the peer scripts as markdown tables.

    /usr/bin/python3 tables.py results.jsonl [DATA_DIR]

With DATA_DIR (the directory gen wrote), the reference objectives of the SKL
instances (ukm's solver, not timed here) are listed too.
"""

import glob
import json
import os
import sys


def fmt(v, spec):
    if v is None:
        return "-"
    if isinstance(v, float) and v != v:
        return "NaN"
    return format(v, spec)


def main():
    rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
    eig = [r for r in rows if r.get("family") == "eig"]
    skl = [r for r in rows if r.get("family") == "skl"]
    if eig:
        print("### Top eigenpairs of the RBF kernels (BenchmarkTopD inputs)\n")
        print("| peer | n | k | threads | median s | min s | runs | matvecs | relres | orth |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in sorted(eig, key=lambda r: (r["peer"], r["n"], r["k"], r["threads"])):
            mv = r.get("matvecs")
            if r.get("iterations") is not None:
                mv = "%s (%d it)" % (mv, r["iterations"])
            if r.get("warning"):
                mv = "%s, stopped short*" % mv
            print("| %s | %d | %d | %d | %s | %s | %d | %s | %s | %s |" % (
                r["peer"], r["n"], r["k"], r["threads"], fmt(r["t_median"], ".4f"),
                fmt(r["t_min"], ".4f"), r["repeats"], "-" if mv is None else mv,
                fmt(r["relres"], ".1e"), fmt(r["orth"], ".1e")))
        warn = sorted((r["peer"], r["n"], r["threads"], r["warning"]) for r in eig if r.get("warning"))
        if warn:
            print("\n\\* the solver warned (did not reach its tolerance):")
        for p, n, t, w in warn:
            print("- %s n=%d threads=%d: %s" % (p, n, t, w))
        print()
    if skl:
        print("### SKL QP on ionosphere, C = 2, 20 labeled (BenchmarkSKL inputs)\n")
        print("| peer | d | threads | median s | min s | runs | status | iter | (obj-ref)/ref | stat | primal | dual | compl |")
        print("|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
        for r in sorted(skl, key=lambda r: (r["peer"], r["d"], r["threads"])):
            status = r.get("status", r.get("exitflag"))
            if "exitflag" in r:
                status = "exitflag %s" % r["exitflag"]
            print("| %s | %d | %d | %s | %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
                r["peer"], r["d"], r["threads"], fmt(r["t_median"], ".2e"), fmt(r["t_min"], ".2e"),
                r["repeats"], status, r.get("iterations", "-"), fmt(r["obj_gap"], ".1e"),
                fmt(r["stationarity"], ".1e"), fmt(r["primal_feas"], ".1e"),
                fmt(r["dual_feas"], ".1e"), fmt(r["complementarity"], ".1e")))
        print()
    if len(sys.argv) > 2:
        refs = []
        for path in glob.glob(os.path.join(sys.argv[2], "skl_d*.json")):
            with open(path) as f:
                inst = json.load(f)
            refs.append((inst["d"], inst["ref"]))
        if refs:
            print("Reference (ukm qp.SKL.Solve as stored by gen, not timed here):\n")
            print("| d | objective | status | KKT max |")
            print("|---:|---:|---|---:|")
            for d, ref in sorted(refs, key=lambda t: t[0]):
                print("| %d | %.15g | %s | %.1e |" % (d, ref["obj"], ref["status"], max(ref["kkt"].values())))
            print()


if __name__ == "__main__":
    main()
