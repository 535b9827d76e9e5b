#!/usr/bin/env bash
# The fixed part of Bounded's compile-time cost: compiles one small file (two findings, one
# suggested fix each) with Error Prone, all checks off (B) and with every Bounded check the jar registers (C),
# interleaved, N times each, and prints wall and user+sys CPU means (CHECKS_JAR: another jar). The difference is what adding
# the plugin costs a javac process before any real amount of code is analysed: loading and
# initialising the checks, and running them interpreted at first.
#
#   bench/compile/fixed-cost.sh [N]          (default N = 8; needs bench/compile/run.sh run once
#                                             for Error Prone's class path, and the checks jar)
#
# Not part of `mvn verify` or the test command.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
N="${1:-8}"
EP_CP="$HERE/target/work/ep/cp.txt"
CHECKS_JAR="${CHECKS_JAR:-$ROOT/checks/target/bounded-checks-0.1.0-SNAPSHOT.jar}"
[[ -s "$EP_CP" ]] || { echo "run bench/compile/run.sh first (Error Prone class path)" >&2; exit 2; }
[[ -f "$CHECKS_JAR" ]] || { echo "no checks jar: mvn -pl checks -am package -DskipTests" >&2; exit 2; }
EP_PATH="$(cat "$EP_CP")"

DIR="$(mktemp -d "${TMPDIR:-/tmp}/bounded-fixed-cost.XXXXXX")"
trap 'rm -rf "$DIR"' EXIT
mkdir -p "$DIR/src/probe"
cat >"$DIR/src/probe/Probe.java" <<'EOF'
package probe;

class Probe {
  interface Op {
    String call() throws Exception;
  }

  String get(Op op) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return op.call();
      } catch (Exception e) {
        // retried without looking at it
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        // swallowed and retried
      }
    }
    return null;
  }
}
EOF

JFLAGS=(-J-Xmx3g)
for p in api file main model parser processing tree util; do
  JFLAGS+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
for p in code comp; do
  JFLAGS+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
# Every check the jar registers (its service file), as in run.sh.
RULES=""
for r in $(unzip -p "$CHECKS_JAR" META-INF/services/com.google.errorprone.bugpatterns.BugChecker \
  | sed -E 's/.*\.//; s/[[:space:]]+$//' | awk 'NF' | sort); do
  RULES+=" -Xep:$r:WARN"
done

TIMEFORMAT='%3R %3U %3S'
printf 'run\tvariant\twall_s\tuser_s\tsys_s\tload1\n'
for ((i = 1; i <= N; i++)); do
  for v in ep-off ep-bounded; do
    if [[ "$v" == ep-off ]]; then
      path="$EP_PATH"
      plugin="-Xplugin:ErrorProne -XepDisableAllChecks"
    else
      path="$EP_PATH:$CHECKS_JAR"
      plugin="-Xplugin:ErrorProne -XepDisableAllChecks$RULES"
    fi
    rm -rf "$DIR/classes" && mkdir "$DIR/classes"
    load="$(cut -d' ' -f1 /proc/loadavg)"
    t="$({ time javac "${JFLAGS[@]}" -proc:none -XDcompilePolicy=simple \
      --should-stop=ifError=FLOW -processorpath "$path" "$plugin" -d "$DIR/classes" \
      "$DIR/src/probe/Probe.java" >/dev/null 2>&1; } 2>&1)"
    read -r wall user sys <<<"$t"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$v" "$wall" "$user" "$sys" "$load"
  done
done | tee "$DIR/runs.tsv"
awk -F'\t' '{ w[$2] += $3; c[$2] += $4 + $5; n[$2]++ }
  END {
    for (v in n) printf "# %-10s wall %.3f s  user+sys %.3f s (mean of %d)\n", v, w[v] / n[v], c[v] / n[v], n[v]
    printf "# fixed cost of the checks: wall %+.3f s, user+sys %+.3f s\n",
      w["ep-bounded"] / n["ep-bounded"] - w["ep-off"] / n["ep-off"],
      c["ep-bounded"] / n["ep-bounded"] - c["ep-off"] / n["ep-off"]
  }' "$DIR/runs.tsv"
