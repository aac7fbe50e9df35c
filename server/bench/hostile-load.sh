#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The "Hostile clients" figures of docs/BENCHMARKS.md: honest clients' latency with and without 256
# hostile connections, /metrics before and after 2,000 random methods, HTTPS beside plain HTTP.
# Usage: server/bench/hostile-load.sh [SECONDS per phase, 10]
set -euo pipefail
cd "$(dirname "$0")/../.."
mvn -B -ntp -q -pl server -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test
cp="$(cat server/target/bench-classpath.txt):server/target/classes:server/target/test-classes"
exec java -XX:+UseZGC -Xms2g -Xmx2g -cp "$cp" org.neardup.server.HostileLoad "${1:-10}"
