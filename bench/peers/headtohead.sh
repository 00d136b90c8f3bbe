#!/usr/bin/env bash
# Regenerates the head-to-head table (REPRODUCTION.md, "Head to head"): ukm's
# model selected on the labeled points against scikit-learn's
# LogisticRegression, SVC and LabelSpreading on exactly the same labeled sets.
#
#   bench/peers/headtohead.sh [OUT_DIR] [extra ukm reproduce flags...]
#
# 1. `ukm reproduce -table baselines -draws-only` writes every labeled set;
# 2. baselines.sh runs the peers on them (installing python3-sklearn if needed);
# 3. `ukm reproduce -table baselines -peers` runs ukm on the same draws and
#    writes the table (baselines.md) and its JSON (baselines.json).
# Extra flags (for example -trials 5 -datasets wine,ssl_usps) go to both
# reproduce runs, so the draws match. Runs with other seeds (-seed S, each
# in its own OUT_DIR) read together with
# `ukm reproduce -pool OUT1/baselines.json,OUT2/baselines.json,...`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${1:-$(mktemp -d -t ukm-h2h-XXXXXX)}
shift || true
mkdir -p "$out"
bin="$out/ukm"
(cd "$root" && go build -o "$bin" ./cmd/ukm)
"$bin" reproduce -table baselines -draws "$out/draws.jsonl" -draws-only -quiet "$@"
"$here/baselines.sh" "$out/draws.jsonl" "$out/peers.jsonl"
"$bin" reproduce -table baselines -peers "$out/peers.jsonl" -json "$out/baselines.json" "$@" >"$out/baselines.md"
echo "table: $out/baselines.md" >&2
