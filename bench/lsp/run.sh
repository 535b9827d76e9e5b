#!/usr/bin/env bash
# Latency of `bounded lsp`: didChange -> publishDiagnostics on a generated 2,000-line file, warm,
# median and p90, against a bare javaparser parse, the scanner's one-file scan (in-process, warm)
# and `bounded scan FILE` (a fresh process), all measured in the same run on the same text.
#
#   bench/lsp/run.sh [WARMUP] [RUNS]        (default 100 300; about a minute)
#
# Builds the scanner's jar if there is none, compiles LspLatency.java against it, and writes
# bench/results/lsp-<date>.txt (the table it prints) and lsp-<date>.tsv (every measured run).
# Not part of `mvn verify`. Needs JDK 17+ and Maven.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$HERE/target"
JAR="$(ls "$ROOT"/scanner/target/bounded-scanner-*-all.jar 2>/dev/null | head -n 1 || true)"
if [ -z "$JAR" ]; then
  echo "building the scanner jar" >&2
  (cd "$ROOT" && mvn -B -q -pl scanner -am package -DskipTests) >&2
  JAR="$(ls "$ROOT"/scanner/target/bounded-scanner-*-all.jar | head -n 1)"
fi
mkdir -p "$WORK"
javac -nowarn -cp "$JAR" -d "$WORK" "$HERE/LspLatency.java"
java -XX:+UseSerialGC -cp "$JAR:$WORK" LspLatency "$JAR" "$ROOT/bench/results" "${1:-100}" "${2:-300}"
