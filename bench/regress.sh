#!/bin/sh
# regress.sh: run a benchmark set several times and compare it with benchstat
# against a recorded baseline.
#
# usage: bench/regress.sh [-r] NAME [PACKAGE [REGEX]]
#
#   NAME     the baseline's name: bench/baseline/NAME.txt
#   PACKAGE  the package to benchmark (default ./bench)
#   REGEX    the -bench pattern (default: the default-size scaling study)
#   -r       record: write the run as the new baseline instead of comparing
#
# Environment: COUNT (default 10) is -count, BENCHTIME (default unset: the
# go test default of 1s) is -benchtime, UKM_BENCH_LARGE=1 adds n = 8000 and
# 16000 to the scaling study. The new run is kept as bench/baseline/NAME.new.txt
# (ignored by benchstat comparisons of other runs; delete it or record it).
# benchstat is installed with `go install` when it is not on PATH.
set -eu

record=0
if [ "${1:-}" = "-r" ]; then
	record=1
	shift
fi
if [ $# -lt 1 ]; then
	sed -n 4,12p "$0" >&2
	exit 2
fi
name=$1
pkg=${2:-./bench}
regex=${3:-BenchmarkScaling}
count=${COUNT:-10}

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
base="bench/baseline/$name.txt"
new="bench/baseline/$name.new.txt"

set -- go test "$pkg" -run '^$' -bench "$regex" -benchmem -count "$count" -timeout 0
if [ -n "${BENCHTIME:-}" ]; then
	set -- "$@" -benchtime "$BENCHTIME"
fi
echo "running: $*" >&2
{
	# Comment lines, not "key: value" configuration lines: benchstat would
	# otherwise put runs with different dates in separate tables.
	echo "# recorded $(date -u +%Y-%m-%dT%H:%MZ) on $(uname -n), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	echo "# command: $*"
	"$@"
} >"$new"

if [ "$record" = 1 ]; then
	mv "$new" "$base"
	echo "recorded $base" >&2
	exit 0
fi
if [ ! -f "$base" ]; then
	echo "no baseline $base: record one with $0 -r $name ..." >&2
	exit 1
fi
if ! command -v benchstat >/dev/null 2>&1; then
	PATH="$(go env GOPATH)/bin:$PATH"
	if ! command -v benchstat >/dev/null 2>&1; then
		go install golang.org/x/perf/cmd/benchstat@latest
	fi
fi
benchstat "$base" "$new"
