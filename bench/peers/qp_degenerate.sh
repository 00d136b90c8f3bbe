#!/usr/bin/env bash
# Times CVXOPT and ukm's QP solvers on the generated degenerate QP families
# (qptest.DegenerateFamilies) in one run: qpgen writes the problems,
# cvxopt_degenerate.py solves them with CVXOPT, go test -bench runs
# BenchmarkDegenerate (package qp) on the same problems, and
# qp_degenerate_table.py joins the two (each script documents its part).
#
# Environment (all optional):
#   QPDEG_OUT        results directory (default: a new temporary directory)
#   QPDEG_SIZES      NxR list (default 50x100,100x200,200x300,400x500, the
#                    benchmark's; other sizes leave problems unmatched)
#   QPDEG_SEEDS      seeds per family and size (default 3, the benchmark's)
#   QPDEG_BENCHTIME  go test -benchtime (default 3x)
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3 # Debian's interpreter: the first python3 on PATH may lack CVXOPT
if ! "$py" -c 'import numpy, cvxopt' 2>/dev/null; then
	echo "installing: python3-numpy python3-cvxopt" >&2
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-numpy python3-cvxopt >&2
fi
out=${QPDEG_OUT:-$(mktemp -d -t ukm-qpdeg-XXXXXX)}
mkdir -p "$out"
(cd "$root" && go run ./bench/peers/qpgen -out "$out" -sizes "${QPDEG_SIZES:-50x100,100x200,200x300,400x500}" -seeds "${QPDEG_SEEDS:-3}") >&2
: >"$out/cvxopt.jsonl"
(cd "$here" && "$py" cvxopt_degenerate.py --in "$out/qp_degenerate.jsonl" --threads 1 --out "$out/cvxopt.jsonl") 2>/dev/null
(cd "$root" && GOMAXPROCS=1 go test -run '^$' -bench 'BenchmarkDegenerate' -benchtime "${QPDEG_BENCHTIME:-3x}" ./qp/) >"$out/go-bench.txt"
"$py" "$here/qp_degenerate_table.py" "$out/cvxopt.jsonl" "$out/go-bench.txt" | tee "$out/table.md"
echo "$out"
