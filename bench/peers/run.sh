#!/usr/bin/env bash
# Times the peer tools on exactly the inputs of BenchmarkTopD (package eig)
# and BenchmarkSKL (package qp). See README.md in this directory.
#
# Environment (all optional):
#   PEERS_OUT      results directory (default: a new temporary directory)
#   PEERS_THREADS  thread counts to run (default "1 2")
#   PEERS_N        kernel sizes (default 500,1000,2000,4000)
#   PEERS_D        SKL sizes (default 10,20,50,100,200)
#   PEERS_ONLY     subset of "eig cvxopt octave" to run (default all)
#   KEEP_DATA=1    keep the generated input files (about 170 MB by default)
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3 # Debian's interpreter: the first python3 on PATH may lack SciPy/CVXOPT
threads=${PEERS_THREADS:-"1 2"}
ns=${PEERS_N:-500,1000,2000,4000}
ds=${PEERS_D:-10,20,50,100,200}
only=${PEERS_ONLY:-"eig cvxopt octave"}

need=()
"$py" -c 'import numpy, scipy, cvxopt' 2>/dev/null || need+=(python3-numpy python3-scipy python3-cvxopt)
command -v octave >/dev/null 2>&1 || need+=(octave)
octave --no-gui -q --no-window-system --eval 'pkg load optim' >/dev/null 2>&1 || need+=(octave-optim)
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}" >&2
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
fi

out=${PEERS_OUT:-$(mktemp -d -t ukm-peers-XXXXXX)}
mkdir -p "$out/data"
res="$out/results.jsonl"
: >"$res"

(cd "$root" && go run ./bench/peers/gen -out "$out/data" -n "$ns" -d "$ds" -pairs "10,20,50") >&2

{
	echo "## Peer timings"
	echo
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), host: $(uname -m), $(nproc) cores"
	echo "- load before: $(uptime | sed 's/.*load average/load average/')"
	echo "- python: $("$py" -c 'import sys, numpy, scipy, cvxopt; print(sys.version.split()[0], "numpy", numpy.__version__, "scipy", scipy.__version__, "cvxopt", cvxopt.__version__)')"
	echo "- octave: $(octave --version | head -1), optim $(octave --no-gui -q --no-window-system --eval 'p = pkg("list", "optim"); disp(p{1}.version)' 2>/dev/null)"
	echo "- BLAS: $(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)"
	echo
} >"$out/header.md"

for t in $threads; do
	case " $only " in *" eig "*)
		"$py" "$here/eigsh.py" --dir "$out/data" --threads "$t" --out "$res" --n "$ns" ;;
	esac
	case " $only " in *" cvxopt "*)
		"$py" "$here/cvxopt_qp.py" --dir "$out/data" --threads "$t" --out "$res" --d "$ds" ;;
	esac
	case " $only " in *" octave "*)
		# run from the data directory so that this quadprog.m does not shadow optim's
		(cd "$out/data" && OMP_NUM_THREADS=$t OPENBLAS_NUM_THREADS=$t PEERS_THREADS=$t \
			PEERS_OUT="$res" PEERS_D="$ds" \
			octave --no-gui -q --no-window-system --eval "source('$here/quadprog.m')") ;;
	esac
done

case " $only " in *" eig "*)
	# accuracy of our pairs against ARPACK's, both in extended precision
	# (untimed; prints its own table)
	"$py" "$here/accuracy.py" --dir "$out/data" --out "$out/accuracy.jsonl" --n "$ns" --k "10,20,50" \
		>"$out/accuracy.md" ;;
esac

echo "- load after: $(uptime | sed 's/.*load average/load average/')" >>"$out/header.md"
{
	cat "$out/header.md"
	echo
	"$py" "$here/tables.py" "$res" "$out/data"
	if [ -s "$out/accuracy.md" ]; then
		echo
		echo "### Accuracy in extended precision (units of 2^-52)"
		echo
		cat "$out/accuracy.md"
	fi
} | tee "$out/tables.md"

if [ "${KEEP_DATA:-0}" != 1 ]; then
	rm -f "$out"/data/rbf_n*.bin "$out"/data/rbf_n*_ukm_k*.bin
fi
echo "results: $out/results.jsonl, tables: $out/tables.md" >&2
