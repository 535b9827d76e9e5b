#!/usr/bin/env bash
# The scanner against the compiler plugin on the labelled real-code corpus: for each library of
# bench/realcode/corpus/libraries.txt, runs `bounded scan` (default settings, JSON) on the
# library's unpacked sources, leaving out the same files the plugin run left out (the regexes of
# the file's third column, and module-info.java), and compares its (rule, file, line) findings
# with the plugin's in a run directory of bench/realcode/run.sh (NAME.findings.tsv).
#
#   PLUGIN_RUN=/path/to/run bench/scanner/corpus-parity.sh
#
# Build the scanner's jar first (mvn -B -pl scanner -am package -DskipTests, or ./bounded once).
# Environment:
#   PLUGIN_RUN      the plugin's run directory (required): NAME.findings.tsv (rule, path, line)
#                   and, when present, status.tsv (a library whose result is not "ok" was not
#                   analysed by the plugin: it is shown but left out of the totals, as is a
#                   library without a findings file there)
#   SOURCES         where a library's sources are, with {} for its name (default:
#                   bench/realcode/target/work/src/{}/java, where run.sh unpacks them)
#   LIBRARIES_FILE  the libraries (default: bench/realcode/corpus/libraries.txt)
#   LIBS            "name1 name2": a subset
#   JOBS            the scanner's --jobs (default 1)
#   OUT             where the reports go (default: bench/scanner/target/corpus-parity)
#
# Prints, per library, the plugin's findings, the scanner's, how many both report, and every
# finding only one of them reports (to be judged by hand in bench/README.md); then the totals and
# the totals per rule. Exit status 1 when the scanner failed on a library (no report, or an
# exception on stderr); 0 otherwise.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
: "${PLUGIN_RUN:?set PLUGIN_RUN to the plugin run directory (NAME.findings.tsv)}"
PLUGIN_RUN="$(cd "$PLUGIN_RUN" && pwd)"
DEFAULT_SOURCES="$ROOT/bench/realcode/target/work/src/{}/java"
SOURCES="${SOURCES:-$DEFAULT_SOURCES}"
LIBRARIES_FILE="${LIBRARIES_FILE:-$ROOT/bench/realcode/corpus/libraries.txt}"
JOBS="${JOBS:-1}"
OUT="${OUT:-$HERE/target/corpus-parity}"
JAR="$(ls "$ROOT"/scanner/target/bounded-scanner-*-all.jar 2>/dev/null | head -n 1 || true)"
[[ -n "$JAR" ]] || { echo "no scanner jar: mvn -B -pl scanner -am package -DskipTests" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# The plugin's result per library, when the run recorded it.
declare -A plugin_result
if [[ -f "$PLUGIN_RUN/status.tsv" ]]; then
  while IFS=$'\t' read -r name _ result _; do plugin_result[$name]="$result"; done \
    <"$PLUGIN_RUN/status.tsv"
fi

status=0
selected=" ${LIBS:-} "
: >"$OUT/all.plugin.tsv"
: >"$OUT/all.scanner.tsv"
total_plugin=0 total_scanner=0 total_both=0
printf '%-26s %6s %7s %8s %5s %12s %13s\n' library files plugin scanner both only-plugin only-scanner
while IFS='|' read -r name _ exclude _; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [[ -n "${LIBS:-}" && "$selected" != *" $name "* ]] && continue
  src="${SOURCES//\{\}/$name}"
  if [[ ! -d "$src" ]]; then
    printf '%-26s no sources at %s\n' "$name" "$src"
    continue
  fi
  # The files the plugin compiled: every .java but module-info.java, less the left-out regexes.
  (cd "$src" && find . -name '*.java' ! -name module-info.java | sed 's|^\./||' | sort) \
    >"$OUT/$name.all.txt"
  if [[ -n "$exclude" ]]; then
    IFS=';' read -r -a exclude_list <<<"$exclude"
    exclude_args=()
    for e in "${exclude_list[@]}"; do exclude_args+=(-e "$e"); done
    grep -Ev "${exclude_args[@]}" "$OUT/$name.all.txt" >"$OUT/$name.files.txt" || true
  else
    cp "$OUT/$name.all.txt" "$OUT/$name.files.txt"
  fi
  mapfile -t files <"$OUT/$name.files.txt"
  rm -f "$OUT/$name.json"
  # The files are named one by one (the scanner indexes all the files it is given, as javac
  # compiles them together); paths in the report are relative to the sources' root.
  (cd "$src" && java -XX:+UseSerialGC -jar "$JAR" scan --format json --fail-on never \
    --jobs "$JOBS" --output "$OUT/$name.json" "${files[@]}") 2>"$OUT/$name.stderr" || true
  if [[ ! -s "$OUT/$name.json" ]] || grep -qE '^Exception|^\s+at [a-z]' "$OUT/$name.stderr"; then
    printf '%-26s SCANNER FAILED (see %s)\n' "$name" "$OUT/$name.stderr"
    status=1
    continue
  fi
  python3 - "$OUT/$name.json" >"$OUT/$name.scanner.tsv" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f"{f['rule']}\t{f['path']}\t{f['line']}")
PY
  sort -u -o "$OUT/$name.scanner.tsv" "$OUT/$name.scanner.tsv"
  result="${plugin_result[$name]:-ok}"
  if [[ -f "$PLUGIN_RUN/$name.findings.tsv" ]]; then
    sort -u "$PLUGIN_RUN/$name.findings.tsv" >"$OUT/$name.plugin.tsv"
  else
    : >"$OUT/$name.plugin.tsv"
    result="no findings file in PLUGIN_RUN"
  fi
  p=$(wc -l <"$OUT/$name.plugin.tsv")
  s=$(wc -l <"$OUT/$name.scanner.tsv")
  b=$(comm -12 "$OUT/$name.plugin.tsv" "$OUT/$name.scanner.tsv" | wc -l)
  note=""
  [[ "$result" == ok ]] || note="  (plugin: $result; not in the totals)"
  printf '%-26s %6d %7d %8d %5d %12d %13d%s\n' "$name" "${#files[@]}" "$p" "$s" "$b" \
    $((p - b)) $((s - b)) "$note"
  comm -23 "$OUT/$name.plugin.tsv" "$OUT/$name.scanner.tsv" | sed 's/^/  only the plugin:  /'
  comm -13 "$OUT/$name.plugin.tsv" "$OUT/$name.scanner.tsv" | sed 's/^/  only the scanner: /'
  grep -v '^\s*$' "$OUT/$name.stderr" | sed 's/^/  scanner stderr:   /' || true
  [[ "$result" == ok ]] || continue
  sed "s/^/$name\t/" "$OUT/$name.plugin.tsv" >>"$OUT/all.plugin.tsv"
  sed "s/^/$name\t/" "$OUT/$name.scanner.tsv" >>"$OUT/all.scanner.tsv"
  total_plugin=$((total_plugin + p))
  total_scanner=$((total_scanner + s))
  total_both=$((total_both + b))
done <"$LIBRARIES_FILE"
printf '%-26s %6s %7d %8d %5d %12d %13d\n' all "" "$total_plugin" "$total_scanner" "$total_both" \
  $((total_plugin - total_both)) $((total_scanner - total_both))
if ((total_plugin + total_scanner - total_both > 0)); then
  awk -v p="$total_plugin" -v s="$total_scanner" -v b="$total_both" 'BEGIN {
    printf "both / plugin %.1f %%, both / scanner %.1f %%, both / either %.1f %%\n",
      100 * b / p, 100 * b / s, 100 * b / (p + s - b) }'
fi

# Per rule: the plugin's findings, the scanner's, and both (over the libraries in the totals).
echo
sort -u -o "$OUT/all.plugin.tsv" "$OUT/all.plugin.tsv"
sort -u -o "$OUT/all.scanner.tsv" "$OUT/all.scanner.tsv"
comm -12 "$OUT/all.plugin.tsv" "$OUT/all.scanner.tsv" >"$OUT/all.both.tsv"
printf '%-28s %7s %8s %5s %12s %13s\n' rule plugin scanner both only-plugin only-scanner
awk -F'\t' '
  FNR == 1 { file++ }
  file == 1 { p[$2]++; rules[$2] = 1 }
  file == 2 { s[$2]++; rules[$2] = 1 }
  file == 3 { b[$2]++ }
  END {
    for (r in rules) {
      printf "%-28s %7d %8d %5d %12d %13d\n", r, p[r], s[r], b[r], p[r] - b[r], s[r] - b[r]
    }
  }' "$OUT/all.plugin.tsv" "$OUT/all.scanner.tsv" "$OUT/all.both.tsv" | sort
exit "$status"
