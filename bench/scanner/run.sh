#!/usr/bin/env bash
# Whole-process benchmark of `bounded scan` against PMD 7.27.0 (quickstart ruleset) and a bare
# javaparser parse of the same files, in one interleaved run.
#
#   bench/scanner/run.sh [ROUNDS]        (default 3)
#
# Downloads, with the ordinary Maven client, the -sources.jar of several libraries (LIBS below),
# unpacks their .java files under bench/scanner/target/tree/ (gitignored), resolves PMD's class path
# with maven-dependency-plugin:3.8.1:build-classpath (BUILD-NOTES 10: pmd-dist is not served), and
# builds the scanner's jar and ParseOnly.java. Then, ROUNDS times, in turn: the bare parse, the
# scanner, PMD; each a fresh JVM, timed with /usr/bin/time (wall seconds, peak RSS). Then a 20-file
# "pull request" five times (wall time including JVM start), and the scanner's live heap after GC
# on a quarter, half and all of the tree (memory as the tree grows).
#
# Writes bench/scanner/results/<date>.txt (the table it prints) and <date>.tsv (raw runs).
# Not part of `mvn verify`. Needs: JDK 17+, Maven, GNU time at /usr/bin/time, 2+ GB free memory.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ROUNDS="${1:-3}"
WORK="$HERE/target"
TREE="$WORK/tree"
JOBS="${JOBS:-$(nproc)}"
DEP=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
LIBS=(
  org.apache.kafka:kafka-clients:3.9.1
  org.apache.zookeeper:zookeeper:3.9.3
  com.amazonaws:aws-java-sdk-core:1.12.780
  redis.clients:jedis:5.2.0
  org.apache.httpcomponents:httpclient:4.5.14
  org.hibernate.orm:hibernate-core:7.4.15.Final
)

log() { printf '%s\n' "$*" >&2; }
mkdir -p "$WORK/jars" "$HERE/results"

# --- inputs ------------------------------------------------------------------------------------
for lib in "${LIBS[@]}"; do
  IFS=: read -r g a v <<<"$lib"
  jar="$WORK/jars/$a-$v-sources.jar"
  if [ ! -f "$jar" ]; then
    log "fetching $lib sources"
    mvn -B -q "$DEP:copy" -Dartifact="$lib:jar:sources" -DoutputDirectory="$WORK/jars" >/dev/null
  fi
  if [ ! -d "$TREE/$a" ]; then
    mkdir -p "$TREE/$a"
    (cd "$TREE/$a" && unzip -q -o "$jar" '*.java' || true)
  fi
done
if [ ! -f "$WORK/pmd.classpath" ]; then
  log "resolving PMD 7.27.0's class path"
  mvn -B -q -f "$HERE/pmd-pom.xml" "$DEP:build-classpath" -Dmdep.outputFile="$WORK/pmd.classpath" >/dev/null
fi
PMD_CP="$(cat "$WORK/pmd.classpath")"

JAR="$(ls "$ROOT"/scanner/target/bounded-scanner-*-all.jar 2>/dev/null | head -n 1 || true)"
if [ -z "$JAR" ]; then
  log "building the scanner jar"
  (cd "$ROOT" && mvn -B -q -pl scanner -am package -DskipTests) >&2
  JAR="$(ls "$ROOT"/scanner/target/bounded-scanner-*-all.jar | head -n 1)"
fi
JP="$(ls ~/.m2/repository/com/github/javaparser/javaparser-core/3.28.2/javaparser-core-3.28.2.jar)"
mkdir -p "$WORK/parseonly"
javac -d "$WORK/parseonly" -cp "$JP" "$HERE/ParseOnly.java"

# The timed tree: the two libraries below (at least 5,000 files); the others serve the memory runs.
BENCH="$WORK/bench-tree"
if [ ! -d "$BENCH" ]; then
  mkdir -p "$BENCH"
  cp -r "$TREE/hibernate-core" "$TREE/zookeeper" "$BENCH/"
fi
ALL_TREE="$TREE"
TREE="$BENCH"
FILES=$(find "$TREE" -name '*.java' | wc -l)
LINES=$(find "$TREE" -name '*.java' -print0 | xargs -0 cat | wc -l)
log "tree: $FILES files, $LINES lines, $JOBS threads each"

STAMP="$(date -u +%Y-%m-%d)"
RAW="$HERE/results/scanner-$STAMP.tsv"
OUT="$HERE/results/scanner-$STAMP.txt"
printf 'round\ttool\twall_s\tmax_rss_kb\n' >"$RAW"

# timed NAME CMD...: runs CMD, appends "round NAME wall rss" to RAW.
timed() {
  local name="$1"
  shift
  local t
  t="$(mktemp)"
  /usr/bin/time -f '%e %M' -o "$t" "$@" >/dev/null 2>"$WORK/$name.stderr" || true
  read -r wall rss < <(tail -n 1 "$t")
  rm -f "$t"
  printf '%s\t%s\t%s\t%s\n' "$round" "$name" "$wall" "$rss" >>"$RAW"
  log "  $name: ${wall}s, $((rss / 1024)) MB"
}

PARSE=(java -XX:+UseSerialGC -cp "$JP:$WORK/parseonly" ParseOnly "$TREE" "$JOBS")
SCAN=(java -XX:+UseSerialGC -Xlog:gc:file="$WORK/gc-scan.log" -jar "$JAR" scan --format json --output "$WORK/bounded.json"
  --fail-on never -j "$JOBS")
PMD=(java -cp "$PMD_CP" net.sourceforge.pmd.cli.PmdCli check -d "$TREE"
  -R rulesets/java/quickstart.xml -f text -r "$WORK/pmd.txt" --no-cache --no-progress
  -t "$JOBS" --no-fail-on-violation)

# --- interleaved rounds -------------------------------------------------------------------------
for round in $(seq 1 "$ROUNDS"); do
  log "round $round"
  timed parse "${PARSE[@]}"
  timed bounded "${SCAN[@]}" "$TREE"
  cp "$WORK/gc-scan.log" "$WORK/gc-tree.log"
  cp "$WORK/bounded.json" "$WORK/bounded-tree.json"
  timed pmd "${PMD[@]}"
done

# --- a 20-file pull request, JVM start included ------------------------------------------------
PR="$WORK/pr"
rm -rf "$PR" && mkdir -p "$PR"
find "$ALL_TREE/kafka-clients" -name '*.java' | sort | sed -n '1,20p' | while read -r f; do
  cp "$f" "$PR/$(basename "$(dirname "$f")")-$(basename "$f")"
done
for round in pr1 pr2 pr3 pr4 pr5; do
  timed pr20 "${SCAN[@]}" "$PR"
done

# --- memory as the tree grows: the largest live heap after a GC ---------------------------------
# ("... 120M->35M(512M) ..." in the GC log: 35M is what survived)
live() { grep -o -- '->[0-9]*M' "${1:-$WORK/gc-scan.log}" | tr -d '>M-' | sort -n | tail -n 1; }
MEM=""
for subset in zookeeper kafka-clients; do
  round="mem-$subset"
  timed "bounded-$subset" "${SCAN[@]}" "$ALL_TREE/$subset"
  n=$(find "$ALL_TREE/$subset" -name '*.java' | wc -l)
  MEM="$MEM$(printf '%-32s %6s files  live heap after GC %s MB' "$subset" "$n" "$(live)")\n"
done
MEM="$MEM$(printf '%-32s %6s files  live heap after GC %s MB' "timed tree" "$FILES" "$(live "$WORK/gc-tree.log")")\n"
DIRS=("$TREE"/*)

# --- table ---------------------------------------------------------------------------------------
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
col() { awk -F'\t' -v t="$1" '$2==t {print $3}' "$RAW" | median; }
rss() { awk -F'\t' -v t="$1" '$2==t {print int($4/1024)}' "$RAW" | sort -n | tail -n 1; }
P=$(col parse)
B=$(col bounded)
M=$(col pmd)
R=$(col pr20)
{
  echo "Scanner benchmark, $STAMP ($(nproc) cores, $JOBS threads each, $ROUNDS interleaved rounds, median wall time)"
  echo "tree: $FILES files, $LINES lines ($(for d in "${DIRS[@]}"; do basename "$d"; done | tr '\n' ' '))"
  echo
  printf '%-28s %9s %12s %12s\n' tool "wall (s)" "lines/s" "peak RSS MB"
  printf '%-28s %9s %12s %12s\n' "javaparser parse only" "$P" "$(awk -v l="$LINES" -v t="$P" 'BEGIN{printf "%d", l/t}')" "$(rss parse)"
  printf '%-28s %9s %12s %12s\n' "bounded scan" "$B" "$(awk -v l="$LINES" -v t="$B" 'BEGIN{printf "%d", l/t}')" "$(rss bounded)"
  printf '%-28s %9s %12s %12s\n' "PMD 7.27.0 quickstart" "$M" "$(awk -v l="$LINES" -v t="$M" 'BEGIN{printf "%d", l/t}')" "$(rss pmd)"
  echo
  echo "bounded / parse only: $(awk -v a="$B" -v b="$P" 'BEGIN{printf "%.2fx", a/b}')   PMD / bounded: $(awk -v a="$M" -v b="$B" 'BEGIN{printf "%.2fx", a/b}')"
  echo "20-file pull request, JVM start included (median of 5): ${R}s"
  echo
  echo "memory as the tree grows (scanner):"
  printf "$MEM"
  echo
  echo "findings on the timed tree: $(grep -c '"rule" :' "$WORK/bounded-tree.json" || true) (bounded), $(wc -l <"$WORK/pmd.txt") report lines (PMD)"
} | tee "$OUT"
