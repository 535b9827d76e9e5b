#!/usr/bin/env bash
# Whole-process compile time of one real library's sources, three ways, interleaved:
#
#   A  javac        plain javac
#   B  ep-off       javac + Error Prone 2.42.0, every check disabled (-XepDisableAllChecks)
#   C  ep-bounded   B + the Bounded checks jar on the processor path and all its rules enabled
#
#   bench/compile/run.sh [OUT_DIR]      (default: bench/compile/target/run)
#
# Environment: RUNS (measured rounds, default 10), WARMUP (discarded rounds, default 2),
# LIB (groupId:artifactId:version, default org.apache.zookeeper:zookeeper:3.9.3),
# SKIP_BUILD=1 (use the checks jar already built), CHECKS_JAR (another checks jar; with
# SKIP_BUILD=1). Every check the jar registers is switched on in C.
# Optional variants, interleaved with the others in the same rounds:
#   BASE_CHECKS_JAR=path  adds D "ep-bounded-base": C with that jar (before/after in one run);
#   ONE_CHECK=Name        adds E "ep-one": B with the one built-in check Name on (what Error Prone's
#                         own walk of the trees costs once any check is enabled);
#   VARIANTS="..."        the variants to run, in rotation order (default: all of the above that
#                         apply, "javac ep-off ep-bounded [ep-bounded-base] [ep-one]").
#
# Every run is a fresh javac process with the same JVM options (-J flags), -proc:none, the same
# sources, class path and encoding, and a fresh, empty -d directory. A round runs A, B, C in an
# order that rotates from round to round (ABC, BCA, CAB, ...), so a slow spell on the machine
# falls on all three. Wall time and the process's user+sys CPU come from bash's `time`; the load
# average before each run is recorded so that outside noise can be seen.
#
# Writes OUT_DIR/runs.tsv (one line per run, warm-up rounds marked) and OUT_DIR/summary.txt:
# mean +- standard deviation per variant, and the ratios C/B and B/A as the mean of the per-round
# ratios with a 95% confidence interval (Student t), plus the ratio of the means.
#
# Not part of `mvn verify` or the test command: run it by hand. Downloads go to
# bench/compile/target/ (gitignored), never into git.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$HERE/target/run}"
WORK="$HERE/target/work"
RUNS="${RUNS:-10}"
WARMUP="${WARMUP:-2}"
LIB="${LIB:-org.apache.zookeeper:zookeeper:3.9.3}"
EP_VERSION=2.42.0
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
CHECKS_JAR="${CHECKS_JAR:-$ROOT/checks/target/bounded-checks-0.1.0-SNAPSHOT.jar}"

log() { printf '%s\n' "$*" >&2; }

# mvnq ARGS...: Maven, quiet; its output is shown only when it fails.
mvnq() {
  local out
  out="$(mktemp)"
  if mvn -B -q -Dstyle.color=never "$@" >"$out" 2>&1; then
    rm -f "$out"
  else
    sed 's/\x1b\[[0-9;]*m//g' "$out" >&2
    rm -f "$out"
    return 1
  fi
}

mkdir -p "$OUT" "$WORK/dl"
OUT="$(cd "$OUT" && pwd)"

# --- Inputs: the checks jar, Error Prone, the library's sources and class path -------------------
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  log "building the checks jar (mvn -pl checks -am package -DskipTests)"
  (cd "$ROOT" && mvnq -pl checks -am package -DskipTests)
fi
[[ -f "$CHECKS_JAR" ]] || { log "no checks jar at $CHECKS_JAR"; exit 2; }

mkdir -p "$WORK/ep"
cat >"$WORK/ep/pom.xml" <<EOF
<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.throwaway</groupId><artifactId>ep-classpath</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>com.google.errorprone</groupId><artifactId>error_prone_core</artifactId>
      <version>$EP_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
[[ -s "$WORK/ep/cp.txt" ]] \
  || (cd "$WORK/ep" && mvnq "$DEP_PLUGIN:build-classpath" -Dmdep.outputFile="$WORK/ep/cp.txt")
EP_PATH="$(cat "$WORK/ep/cp.txt")"

IFS=: read -r _ artifact version <<<"$LIB"
srcjar="$WORK/dl/$artifact-$version-sources.jar"
pom="$WORK/dl/$artifact-$version.pom"
if [[ ! -s "$srcjar" || ! -s "$pom" ]]; then
  mvnq "$DEP_PLUGIN:copy" -Dartifact="$LIB:jar:sources" -DoutputDirectory="$WORK/dl"
  mvnq "$DEP_PLUGIN:copy" -Dartifact="$LIB:pom" -DoutputDirectory="$WORK/dl"
fi
cpfile="$WORK/$artifact-$version.classpath"
if [[ ! -s "$cpfile" ]]; then
  mvnq -f "$pom" "$DEP_PLUGIN:build-classpath" -DincludeScope=compile \
    -Dmdep.outputFile="$cpfile.compile"
  mvnq -f "$pom" "$DEP_PLUGIN:build-classpath" -DincludeScope=runtime \
    -Dmdep.outputFile="$cpfile.runtime"
  (cat "$cpfile.compile"; echo; cat "$cpfile.runtime") | tr ':' '\n' | awk 'NF && !seen[$0]++' \
    | paste -sd: - >"$cpfile"
  rm -f "$cpfile.compile" "$cpfile.runtime"
fi
CLASSPATH_LIB="$(cat "$cpfile")"
SRC="$WORK/src/$artifact-$version"
if [[ ! -s "$SRC.files" ]]; then
  rm -rf "$SRC" && mkdir -p "$SRC"
  (cd "$SRC" && unzip -q -o "$srcjar")
  find "$SRC" -name '*.java' ! -name module-info.java | sort >"$SRC.files"
fi
FILES="$(wc -l <"$SRC.files")"

# --- The three command lines ---------------------------------------------------------------------
JFLAGS=(-J-Xmx3g)
for p in api file main model parser processing tree util; do
  JFLAGS+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
for p in code comp; do
  JFLAGS+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
COMMON=(-proc:none -encoding UTF-8 -Xmaxwarns 100000 -cp "$CLASSPATH_LIB")
EP_COMMON=(-XDcompilePolicy=simple --should-stop=ifError=FLOW)
# Every check the jar registers (its service file lists one class per check): all rules on.
mapfile -t RULES < <(unzip -p "$CHECKS_JAR" META-INF/services/com.google.errorprone.bugpatterns.BugChecker \
  | sed -E 's/.*\.//; s/[[:space:]]+$//' | awk 'NF' | sort)
RULE_FLAGS=""
for r in "${RULES[@]}"; do RULE_FLAGS+=" -Xep:$r:WARN"; done

# args VARIANT: prints nothing; fills the array ARGS with the variant's javac arguments.
args() {
  case "$1" in
    javac) ARGS=("${JFLAGS[@]}" "${COMMON[@]}") ;;
    ep-off)
      ARGS=("${JFLAGS[@]}" "${COMMON[@]}" "${EP_COMMON[@]}" -processorpath "$EP_PATH"
        "-Xplugin:ErrorProne -XepDisableAllChecks")
      ;;
    ep-bounded)
      ARGS=("${JFLAGS[@]}" "${COMMON[@]}" "${EP_COMMON[@]}" -processorpath "$EP_PATH:$CHECKS_JAR"
        "-Xplugin:ErrorProne -XepDisableAllChecks$RULE_FLAGS")
      ;;
    ep-bounded-base)
      ARGS=("${JFLAGS[@]}" "${COMMON[@]}" "${EP_COMMON[@]}" -processorpath "$EP_PATH:$BASE_CHECKS_JAR"
        "-Xplugin:ErrorProne -XepDisableAllChecks$RULE_FLAGS")
      ;;
    ep-one)
      ARGS=("${JFLAGS[@]}" "${COMMON[@]}" "${EP_COMMON[@]}" -processorpath "$EP_PATH"
        "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:$ONE_CHECK:WARN")
      ;;
  esac
}

if [[ -n "${VARIANTS:-}" ]]; then
  read -r -a VARIANTS <<<"$VARIANTS"
else
  VARIANTS=(javac ep-off ep-bounded)
  [[ -n "${BASE_CHECKS_JAR:-}" ]] && VARIANTS+=(ep-bounded-base)
  [[ -n "${ONE_CHECK:-}" ]] && VARIANTS+=(ep-one)
fi
if [[ -n "${BASE_CHECKS_JAR:-}" ]]; then
  [[ -f "$BASE_CHECKS_JAR" ]] || { log "no base checks jar at $BASE_CHECKS_JAR"; exit 2; }
  BASE_RULES="$(unzip -p "$BASE_CHECKS_JAR" META-INF/services/com.google.errorprone.bugpatterns.BugChecker \
    | sed -E 's/.*\.//; s/[[:space:]]+$//' | awk 'NF' | sort | paste -sd' ' -)"
  [[ "$BASE_RULES" == "${RULES[*]}" ]] \
    || { log "the base jar registers other checks: $BASE_RULES"; exit 2; }
fi
NV="${#VARIANTS[@]}"
TIMEFORMAT='%3R %3U %3S'

{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "# library: $LIB ($FILES files)"
  echo "# javac: $(javac -version 2>&1) on $(java -version 2>&1 | sed -n 2p)"
  echo "# machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "# rounds: $WARMUP warm-up (discarded) + $RUNS measured; variants ${VARIANTS[*]}; the order rotates by one each round"
  [[ -n "${BASE_CHECKS_JAR:-}" ]] && echo "# ep-bounded-base: ep-bounded with $BASE_CHECKS_JAR"
  [[ -n "${ONE_CHECK:-}" ]] && echo "# ep-one: ep-off with -Xep:$ONE_CHECK:WARN"
  for v in "${VARIANTS[@]}"; do
    args "$v"
    printf '# %s: javac' "$v"
    for a in "${ARGS[@]}"; do
      case "$a" in
        "$CLASSPATH_LIB") printf ' <library classpath>' ;;
        "$EP_PATH") printf ' <error_prone_core %s with dependencies>' "$EP_VERSION" ;;
        "$EP_PATH:$CHECKS_JAR") printf ' <error_prone_core %s with dependencies>:<checks jar>' \
          "$EP_VERSION" ;;
        "$EP_PATH:${BASE_CHECKS_JAR:-}") printf ' <error_prone_core %s with dependencies>:<base checks jar>' \
          "$EP_VERSION" ;;
        *" "*) printf " '%s'" "$a" ;;
        *) printf ' %s' "$a" ;;
      esac
    done
    printf ' -d <fresh dir> @<%s source files>\n' "$FILES"
  done
} >"$OUT/header.txt"
cat "$OUT/header.txt" >&2

printf 'round\tkind\tposition\tvariant\twall_s\tuser_s\tsys_s\tcpu_s\tload1\twarnings\n' \
  >"$OUT/runs.tsv"
total=$((WARMUP + RUNS))
for ((round = 1; round <= total; round++)); do
  kind=measured
  ((round <= WARMUP)) && kind=warmup
  for ((pos = 0; pos < NV; pos++)); do
    v="${VARIANTS[$(((round + pos) % NV))]}"
    args "$v"
    classes="$(mktemp -d "${TMPDIR:-/tmp}/bounded-compile-bench.XXXXXX")"
    load="$(cut -d' ' -f1 /proc/loadavg)"
    set +e
    t="$({ time javac "${ARGS[@]}" -d "$classes" "@$SRC.files" >"$OUT/last-$v.log" 2>&1; } 2>&1)"
    rc=$?
    set -e
    rm -rf "$classes"
    if [[ "$rc" != 0 ]]; then
      log "javac failed ($v, round $round, exit $rc):"
      tail -20 "$OUT/last-$v.log" >&2
      exit 1
    fi
    if grep -q 'An unhandled exception was thrown by the Error Prone' "$OUT/last-$v.log"; then
      log "Error Prone crashed ($v, round $round)"
      exit 1
    fi
    warnings="$(grep -cE '^[^ ]+\.java:[0-9]+: warning: \[[A-Za-z]+\]' "$OUT/last-$v.log" || true)"
    read -r wall user sys <<<"$t"
    cpu="$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$kind" "$pos" "$v" "$wall" "$user" \
      "$sys" "$cpu" "$load" "$warnings" >>"$OUT/runs.tsv"
    log "round $round/$total ($kind) $v: wall ${wall}s cpu ${cpu}s load $load warnings $warnings"
  done
done

# --- Statistics ----------------------------------------------------------------------------------
"$HERE/stats.sh" "$OUT/runs.tsv" "${VARIANTS[*]}" >"$OUT/stats.txt"
cat "$OUT/header.txt" "$OUT/stats.txt" >"$OUT/summary.txt"
awk -F'\t' 'NR > 1 { print $4 "\t" $10 }' "$OUT/runs.tsv" | sort -u \
  | awk -F'\t' '{ printf "# warnings per run, %s: %s\n", $1, $2 }' >>"$OUT/summary.txt"
echo >&2
cat "$OUT/summary.txt"
