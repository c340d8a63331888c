#!/usr/bin/env bash
# The replicated write path on three processes: starts `local-cluster up --nodes 3` (ring delay 1 s),
# runs `bench capture --connect` against it at replication factor 1, then 3, on the same cluster
# (60,000 rows in batches of 100 after 10,000 warm-up rows, plus any bench options given), prints
# one line per factor with LCRs/s, p50/p99 and each node's RSS, and stops the cluster.
# Usage: bench/three-nodes.sh LABEL [bench capture options...]   (docs/BENCHMARKS.md, issue 28)
# Run it from another checkout to compare builds: /path/to/checkout/bench/three-nodes.sh before
set -uo pipefail
label=${1:?usage: bench/three-nodes.sh LABEL [bench capture options...]}
shift
cd "$(dirname "$0")/.."
d=$(mktemp -d /tmp/tributary-three-nodes.XXXXXX)
trap 'bin/tributary local-cluster down --base-dir "$d" >/dev/null 2>&1; rm -rf "$d"' EXIT
bin/tributary local-cluster up --nodes 3 --base-dir "$d" --base-port 17260 --base-native-port 19260 --ring-delay 1s \
    >"$d/up.log" 2>&1 || { echo "$label: local-cluster up failed"; tail -3 "$d/up.log"; exit 1; }
for r in 1 3; do
  out=$(bin/tributary bench capture --connect 127.0.0.1:17260 --rows 60000 --batch 100 --warmup-rows 10000 \
      --no-baseline --json --replication-factor "$r" "$@" 2>"$d/bench-$r.err" | tail -1)
  rss=$(for p in $(pgrep -f -- "--data-dir $d/node"); do ps -o rss= -p "$p"; done | awk '{printf "%d ", $1/1024}')
  line=$(echo "$out" | python3 -c 'import sys, json
j = json.loads(sys.stdin.read())
print("lcrs/s=%.0f p50_ms=%.1f p99_ms=%.1f" % (j["lcrs_per_s"], j["p50_ms"], j["p99_ms"]))' 2>/dev/null) \
      || line="bench failed: $(tail -1 "$d/bench-$r.err")"
  echo "$label rf=$r $line node_rss_mb=$rss"
done
