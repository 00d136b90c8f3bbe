#!/usr/bin/env bash
# scikit-learn baselines on the labeled draws written by the Go side of the
# accuracy comparisons. See README.md in this directory.
#
#   bench/peers/baselines.sh DRAWS OUT [DATA_DIR]
#
# OUT is overwritten. Draws of dataset "fashion-mnist" go to largen.py (data
# from Debian's dataset-fashion-mnist package), all others to baselines.py
# (DATA_DIR/<dataset>.csv[.gz]). DATA_DIR defaults to $UKM_DATASETS, else to
# the first shared/datasets directory found beside the module root or any of
# its parents (as internal/dataset does).
#
# Environment (optional): BASELINES_THREADS (default 1), LARGEN_THREADS
# (default 2), FMNIST_DIR (default /usr/share/datasets/fashion-mnist).
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 DRAWS OUT [DATA_DIR]" >&2
	exit 2
fi
draws=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3 # Debian's interpreter: the first python3 on PATH may lack scikit-learn
fmnist=${FMNIST_DIR:-/usr/share/datasets/fashion-mnist}
fm='"dataset": *"fashion-mnist"'

data=${3:-${UKM_DATASETS:-}}
if [ -z "$data" ]; then
	dir=$root
	while :; do
		if [ -d "$dir/shared/datasets" ]; then data=$dir/shared/datasets; break; fi
		[ "$dir" = / ] && break
		dir=$(dirname "$dir")
	done
fi

need=()
"$py" -c 'import numpy, scipy, sklearn' 2>/dev/null || need+=(python3-numpy python3-scipy python3-sklearn)
if grep -qE "$fm" "$draws" && [ ! -e "$fmnist/train-images-idx3-ubyte.gz" ]; then
	need+=(dataset-fashion-mnist)
fi
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}" >&2
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
fi

: >"$out"
# each script skips the draws that are not its own
if grep -qvE "$fm" "$draws"; then
	if [ -z "$data" ] || [ ! -d "$data" ]; then
		echo "no data directory: pass DATA_DIR or set UKM_DATASETS" >&2
		exit 1
	fi
	"$py" "$here/baselines.py" --data "$data" --draws "$draws" --out "$out" \
		--threads "${BASELINES_THREADS:-1}"
fi
if grep -qE "$fm" "$draws"; then
	"$py" "$here/largen.py" --draws "$draws" --out "$out" \
		--threads "${LARGEN_THREADS:-2}" --fmnist "$fmnist"
fi
echo "results: $out ($(wc -l <"$out") lines)" >&2
