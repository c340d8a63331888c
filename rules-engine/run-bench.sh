#!/usr/bin/env bash
# Runs the JMH benchmark of the rules engine (dev.tributary.rules.bench.RulesBench): prefiltering
# and full evaluation with 10 and 10,000 table rules plus 100 subset rules. With no arguments it
# uses the settings on the class (1 fork, 2 warmup and 3 measurement iterations of 1 s); any
# arguments are JMH's own command-line options, e.g. ./rules-engine/run-bench.sh -f 1 -wi 5 -i 5.
# Maven runs offline; set MVN_OFFLINE= to let it download what is missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mvn -B -q ${MVN_OFFLINE--o} -pl rules-engine test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
cp="rules-engine/target/test-classes:rules-engine/target/classes:$(cat rules-engine/target/bench.classpath)"
exec java -cp "$cp" dev.tributary.rules.bench.RulesBench "$@"
