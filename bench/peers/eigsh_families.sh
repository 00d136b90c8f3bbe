#!/usr/bin/env bash
# Times eig (BenchmarkVsEigsh) and SciPy's eigsh on the same matrices, in
# one run, and prints the comparison table. See eigsh_families.py.
#
# Environment (all optional):
#   EIGFAM_OUT     results directory (default: a new temporary directory)
#   EIGFAM_ONLY    regular expression on the case names (default: all)
#   EIGFAM_COUNT   go test -count (default 5)
#   EIGFAM_THREADS eigsh's BLAS threads (default 1)
#   EIGFAM_ROUNDS  rounds of (ours, eigsh), interleaved (default 1)
#   EIGFAM_CPU     GOMAXPROCS values of our side, go test -cpu (default 2)
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3
only=${EIGFAM_ONLY:-.}
count=${EIGFAM_COUNT:-5}
threads=${EIGFAM_THREADS:-1}
rounds=${EIGFAM_ROUNDS:-1}
cpu=${EIGFAM_CPU:-2}

"$py" -c 'import numpy, scipy' 2>/dev/null || {
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-numpy python3-scipy >&2
}

out=${EIGFAM_OUT:-$(mktemp -d -t ukm-eigfam-XXXXXX)}
mkdir -p "$out/data"
(cd "$root" && go run ./bench/peers/gen/eigfam -out "$out/data") >&2
(cd "$root" && go test -c -o "$out/eig.test" ./eig) >&2
: >"$out/go.txt"
: >"$out/eigsh.jsonl"
{
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load before: $(uptime | sed 's/.*load average: //')"
	echo "- $("$py" -c 'import sys, numpy, scipy; print("python", sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__)'), $(go version | cut -d' ' -f3-4)"
} >"$out/header.md"
for r in $(seq "$rounds"); do
	(cd "$root/eig" && "$out/eig.test" -test.run '^$' -test.bench "BenchmarkVsEigsh/($only)" \
		-test.count "$count" -test.cpu "$cpu" -test.benchmem) | tee -a "$out/go.txt" >&2
	(cd "$here" && "$py" eigsh_families.py run --dir "$out/data" --threads "$threads" \
		--out "$out/eigsh.jsonl" --only "$only")
done
echo "- load after: $(uptime | sed 's/.*load average: //')" >>"$out/header.md"
{
	cat "$out/header.md"
	echo
	(cd "$here" && "$py" eigsh_families.py table --eigsh "$out/eigsh.jsonl" --go "$out/go.txt")
} | tee "$out/table.md"
echo "results in $out" >&2
