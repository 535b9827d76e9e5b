#!/usr/bin/env bash
# Where the checks' compile time goes, for one library (run bench/compile/run.sh once first: it
# downloads the sources, the class path and Error Prone into bench/compile/target/work/).
#
#   bench/compile/breakdown.sh [OUT_DIR]       (default: bench/compile/target/breakdown)
#
# Environment: LIB (as in run.sh, default ZooKeeper 3.9.3), CHECKS_JAR (default: this work tree's
# jar), N (javac processes per variant, default 3).
#
# Runs, N times each and interleaved: B (Error Prone, all checks off), C (every Bounded check on)
# and C with the checks' own stage timers (-J-Dbounded.timing=true: exclusive CPU time of the compiling thread per
# stage, printed by the checks at exit; off by default, so B and C are unaffected). B and C also
# run with -XX:+CITime (JIT compilation time and count) and -Xlog:class+load (classes loaded).
# Writes OUT_DIR/breakdown.txt: per variant the CPU seconds of the process's threads by kind
# (threads.py: the compiling thread, the JIT's C1 and C2 threads, GC, other), the JIT's totals and
# the number of classes loaded (all, and Bounded's), then the stage timers of each timed run.
#
# Not part of `mvn verify` or the test command.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$HERE/target/breakdown}"
WORK="$HERE/target/work"
N="${N:-3}"
LIB="${LIB:-org.apache.zookeeper:zookeeper:3.9.3}"
CHECKS_JAR="${CHECKS_JAR:-$ROOT/checks/target/bounded-checks-0.1.0-SNAPSHOT.jar}"
IFS=: read -r _ artifact version <<<"$LIB"
SRC="$WORK/src/$artifact-$version"
cpfile="$WORK/$artifact-$version.classpath"
[[ -s "$WORK/ep/cp.txt" && -s "$SRC.files" && -s "$cpfile" ]] \
  || { echo "run LIB=$LIB bench/compile/run.sh once first" >&2; exit 2; }
[[ -f "$CHECKS_JAR" ]] || { echo "no checks jar at $CHECKS_JAR" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
EP_PATH="$(cat "$WORK/ep/cp.txt")"

JFLAGS=(-J-Xmx3g)
for p in api file main model parser processing tree util; do
  JFLAGS+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
for p in code comp; do
  JFLAGS+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
COMMON=(-proc:none -encoding UTF-8 -Xmaxwarns 100000 -cp "$(cat "$cpfile")"
  -XDcompilePolicy=simple --should-stop=ifError=FLOW)
mapfile -t RULES < <(unzip -p "$CHECKS_JAR" META-INF/services/com.google.errorprone.bugpatterns.BugChecker \
  | sed -E 's/.*\.//; s/[[:space:]]+$//' | awk 'NF' | sort)
RULE_FLAGS=""
for r in "${RULES[@]}"; do RULE_FLAGS+=" -Xep:$r:WARN"; done

: >"$OUT/breakdown.txt"
{
  echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); library: $LIB ($(wc -l <"$SRC.files") files)"
  echo "# checks jar: $CHECKS_JAR; $N runs per variant, interleaved; load: $(cut -d' ' -f1-3 /proc/loadavg)"
} >>"$OUT/breakdown.txt"
for ((i = 1; i <= N; i++)); do
  for v in ep-off ep-bounded ep-bounded-timed; do
    case "$v" in
      ep-off) EXTRA=(-J-XX:+CITime "-J-Xlog:class+load:file=$OUT/classes-$v-$i.txt"
        -processorpath "$EP_PATH" "-Xplugin:ErrorProne -XepDisableAllChecks") ;;
      ep-bounded) EXTRA=(-J-XX:+CITime "-J-Xlog:class+load:file=$OUT/classes-$v-$i.txt"
        -processorpath "$EP_PATH:$CHECKS_JAR" "-Xplugin:ErrorProne -XepDisableAllChecks$RULE_FLAGS") ;;
      ep-bounded-timed) EXTRA=(-J-Dbounded.timing=true
        -processorpath "$EP_PATH:$CHECKS_JAR" "-Xplugin:ErrorProne -XepDisableAllChecks$RULE_FLAGS") ;;
    esac
    classes="$(mktemp -d "${TMPDIR:-/tmp}/bounded-breakdown.XXXXXX")"
    javac "${JFLAGS[@]}" "${COMMON[@]}" "${EXTRA[@]}" -d "$classes" "@$SRC.files" \
      >"$OUT/$v-$i.log" 2>&1 &
    pid=$!
    threads="$(python3 "$HERE/threads.py" "$pid" | paste -sd' ' - | tr '\t' '=')"
    wait "$pid"
    rm -rf "$classes"
    line="$v run $i: cpu s by thread: $threads"
    if [[ "$v" != ep-bounded-timed ]]; then
      jit="$(grep -m1 'C1 {speed' "$OUT/$v-$i.log" | sed 's/^ *//' || true)"
      jit2="$(grep -m1 'C2 {speed' "$OUT/$v-$i.log" | sed 's/^ *//' || true)"
      total="$(grep -m1 -E '^ *Total compilation time' "$OUT/$v-$i.log" | sed 's/^ *//' || true)"
      all="$(wc -l <"$OUT/classes-$v-$i.txt")"
      ours="$(grep -c 'dev\.bounded' "$OUT/classes-$v-$i.txt" || true)"
      line+="; classes loaded $all (Bounded $ours); $total; $jit; $jit2"
      rm -f "$OUT/classes-$v-$i.txt"
    fi
    echo "$line" | tee -a "$OUT/breakdown.txt" >&2
    if [[ "$v" == ep-bounded-timed ]]; then
      grep '^bounded-' "$OUT/$v-$i.log" | sed "s/^/run $i /" >>"$OUT/breakdown.txt"
    fi
  done
done
cat "$OUT/breakdown.txt"
