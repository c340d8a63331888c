#!/usr/bin/env bash
# bench/three-nodes.sh with a JFR recording (settings=profile) and native memory tracking in every
# JVM it starts, each recording written into OUT/jfr/; 45 s into the factor-3 run it writes each
# node's RSS, thread count and NMT summary to OUT/memory.txt. Then, for a node's recording:
#   jfr print --events jdk.ExecutionSample --stack-depth 80 OUT/jfr/hotspot-pid-PID-*.jfr > samples.txt
#   bench/jfr-summary.py samples.txt
# Usage: bench/profile-three-nodes.sh LABEL OUT [bench capture options...]   (docs/BENCHMARKS.md)
set -u
label=${1:?usage: bench/profile-three-nodes.sh LABEL OUT [bench capture options...]}
out=${2:?usage: bench/profile-three-nodes.sh LABEL OUT [bench capture options...]}
shift 2
mkdir -p "$out/jfr"
out=$(cd "$out" && pwd)
(
  for _ in $(seq 1 600); do
    d=$(ls -d /tmp/tributary-three-nodes.* 2>/dev/null | head -1)
    if [ -n "$d" ] && [ -f "$d/bench-3.err" ]; then break; fi
    sleep 1
  done
  sleep 45
  for p in $(pgrep -f -- "--data-dir $d/node"); do
    { echo "== pid $p $(ps -o args= -p "$p" | grep -o -- '--data-dir [^ ]*')"
      grep -E "VmRSS|VmHWM|RssAnon|RssFile|Threads" "/proc/$p/status"
      jcmd "$p" VM.native_memory summary 2>&1 | grep -E "^-|committed=" | grep -E "Total|Java Heap|Class|Thread|Code|GC|Internal|Other|Symbol|Arena|Metaspace"
    } >> "$out/memory.txt" 2>&1
  done
) &
TRIBUTARY_JAVA_OPTS="-XX:StartFlightRecording=filename=$out/jfr/,settings=profile -XX:NativeMemoryTracking=summary" \
    "$(dirname "$0")/three-nodes.sh" "$label" "$@" | tee "$out/result.txt"
wait
