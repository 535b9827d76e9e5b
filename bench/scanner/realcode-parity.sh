#!/usr/bin/env bash
# The scanner against the compiler plugin on real code: runs `bounded scan` on each library of
# bench/realcode whose sources are unpacked under bench/scanner/target/tree/<library>/ (run.sh
# fetches five of them; the others: mvn dependency:copy of their -sources.jar), and compares
# its (rule, file, line) findings with the plugin's in bench/realcode/results/final/.
#
#   bench/scanner/realcode-parity.sh      (after bench/scanner/run.sh has fetched the sources)
#
# Prints, per library, the plugin's findings, the scanner's, how many both report, and every
# finding only one of them reports (to be judged by hand in bench/README.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TREE="$HERE/target/tree"
PLUGIN="$ROOT/bench/realcode/results/final"
JAR="$(ls "$ROOT"/scanner/target/bounded-scanner-*-all.jar | head -n 1)"
OUT="$HERE/target/parity"
mkdir -p "$OUT"

total_plugin=0
total_scanner=0
total_both=0
printf '%-20s %7s %8s %5s\n' library plugin scanner both
for lib in curator-client curator-framework curator-recipes zookeeper httpclient HikariCP jedis \
  spring-retry okhttp guava-retrying aws-java-sdk-core kafka-clients failsafe resilience4j-retry; do
  [ -d "$TREE/$lib" ] || continue
  (cd "$TREE/$lib" && java -XX:+UseSerialGC -jar "$JAR" scan --format json --fail-on never \
    --output "$OUT/$lib.json" .) 2>"$OUT/$lib.stderr" || true
  python3 - "$OUT/$lib.json" >"$OUT/$lib.scanner.tsv" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f"{f['rule']}\t{f['path']}\t{f['line']}")
PY
  sort -u "$PLUGIN/$lib.findings.tsv" >"$OUT/$lib.plugin.tsv"
  sort -u -o "$OUT/$lib.scanner.tsv" "$OUT/$lib.scanner.tsv"
  p=$(wc -l <"$OUT/$lib.plugin.tsv")
  s=$(wc -l <"$OUT/$lib.scanner.tsv")
  b=$(comm -12 "$OUT/$lib.plugin.tsv" "$OUT/$lib.scanner.tsv" | wc -l)
  printf '%-20s %7d %8d %5d\n' "$lib" "$p" "$s" "$b"
  comm -23 "$OUT/$lib.plugin.tsv" "$OUT/$lib.scanner.tsv" | sed 's/^/  only the plugin:  /'
  comm -13 "$OUT/$lib.plugin.tsv" "$OUT/$lib.scanner.tsv" | sed 's/^/  only the scanner: /'
  total_plugin=$((total_plugin + p))
  total_scanner=$((total_scanner + s))
  total_both=$((total_both + b))
done
printf '%-20s %7d %8d %5d\n' all "$total_plugin" "$total_scanner" "$total_both"
