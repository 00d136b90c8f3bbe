#!/usr/bin/env bash
# The scikit-learn side of the Fashion-MNIST comparison of BENCHMARKS.md, on
# exactly the labels (and HOG descriptors) of BenchmarkFashionMNIST:
#
#   bench/peers/fashion.sh OUT
#
# writes OUT/fashion_peers.jsonl (one line per draw and method, see
# largen.py) and OUT/fashion_peers.md (the table). bench/peers/fmnist writes
# the draws (trial 0: the fixed labels; 1-10: random draws of 10 images per
# class) and the HOG descriptors to a temporary directory. On the pixels and
# on the descriptors, LogisticRegression runs on every draw; on the fixed
# labels only (they take minutes each), LabelSpreading and the Nystroem
# methods on the pixels, LabelSpreading and Nystroem+LR(median) on the
# descriptors. Installs python3-sklearn and dataset-fashion-mnist with apt-get when
# missing. LARGEN_THREADS (default 2) sets the BLAS threads.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree

if [ $# -ne 1 ]; then
	echo "usage: $0 OUT" >&2
	exit 2
fi
out=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3 # Debian's interpreter: the first python3 on PATH may lack scikit-learn

need=()
"$py" -c 'import numpy, scipy, sklearn' 2>/dev/null || need+=(python3-numpy python3-scipy python3-sklearn)
[ -e /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz ] || [ -n "${UKM_FASHION_MNIST:-}" ] ||
	need+=(dataset-fashion-mnist)
if [ ${#need[@]} -gt 0 ]; then
	echo "installing: ${need[*]}" >&2
	apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >&2
fi

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go run ./bench/peers/fmnist -out "$tmp" -hog >/dev/null)
res=$out/fashion_peers.jsonl
: >"$res"
fm=(--fmnist "${UKM_FASHION_MNIST:-/usr/share/datasets/fashion-mnist}")
largen() { "$py" "$here/largen.py" --out "$res" --threads "${LARGEN_THREADS:-2}" "${fm[@]}" "$@"; }
largen --draws "$tmp/draws.jsonl" --methods LogisticRegression
largen --draws "$tmp/fixed.jsonl" --methods 'LabelSpreading,Nystroem+LR,Nystroem+LR(median)'
largen --draws "$tmp/draws.jsonl" --features "$tmp/hog.npy" --methods LogisticRegression
largen --draws "$tmp/fixed.jsonl" --features "$tmp/hog.npy" --methods 'LabelSpreading,Nystroem+LR(median)'
"$py" "$here/fashion_table.py" "$res" >"$out/fashion_peers.md"
cat "$out/fashion_peers.md"
