#!/usr/bin/env bash
# Every suggested fix the checks make on real code, applied, must still compile. For each library
# (of a run.sh libraries file), copies the sources run.sh unpacked, lets Error Prone apply every
# Bounded fix in place (-XepPatchChecks, -XepPatchLocation:IN_PLACE), then compiles the patched
# copy again with plain javac and the same class path and options. Prints per library the files
# the fixes changed and javac's result of the patched copy.
#
#   LIBS="nacos-client rocketmq-client" bench/realcode/fix-compile.sh [OUT_DIR]
#
# Run bench/realcode/run.sh once first (it unpacks the sources, resolves the class paths and Error
# Prone's, and writes the list of compiled files). Environment: LIBS (default: every library of
# LIBRARIES_FILE), LIBRARIES_FILE (default: bench/realcode/corpus/libraries.txt), CHECKS_JAR
# (default: this work tree's jar). Exit code 1 if a patched copy does not compile.
#
# Not part of `mvn verify` or the test command.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="$HERE/target/work"
OUT="${1:-$HERE/target/fix-compile}"
LIBRARIES_FILE="${LIBRARIES_FILE:-$HERE/corpus/libraries.txt}"
CHECKS_JAR="${CHECKS_JAR:-$ROOT/checks/target/bounded-checks-0.1.0-SNAPSHOT.jar}"
[[ -s "$WORK/ep/cp.txt" && -f "$CHECKS_JAR" ]] || { echo "run bench/realcode/run.sh first" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

JFLAGS=(-J-Xmx3g)
for p in api file main model parser processing tree util; do
  JFLAGS+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
for p in code comp; do
  JFLAGS+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
mapfile -t RULES < <(unzip -p "$CHECKS_JAR" META-INF/services/com.google.errorprone.bugpatterns.BugChecker \
  | sed -E 's/.*\.//; s/[[:space:]]+$//' | awk 'NF' | sort)
RULE_LIST="$(IFS=,; echo "${RULES[*]}")"
EP_ON="-Xplugin:ErrorProne -XepDisableAllChecks"
for r in "${RULES[@]}"; do EP_ON+=" -Xep:$r:WARN"; done

failed=0
printf '%-26s %13s  %s\n' library "files fixed" "javac of the patched copy"
while IFS='|' read -r name _coords _leave _extras options _resolve; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [[ -n "${LIBS:-}" && " $LIBS " != *" $name "* ]] && continue
  src="$WORK/src/$name"
  [[ -s "$src/kept.txt" && -f "$WORK/cp/$name.txt" ]] || { printf '%-26s %13s  %s\n' "$name" - "not run by run.sh"; continue; }
  read -r -a opts <<<"${options:-}"
  cp="$(cat "$WORK/cp/$name.txt")"
  processors="$(cat "$WORK/ep/cp.txt"):$CHECKS_JAR"
  plain_proc=(-proc:none)
  if [[ " ${opts[*]:-} " == *" -proc:full "* ]]; then
    processors="$processors:$cp"
    plain_proc=(-processorpath "$cp")
  fi
  copy="$OUT/$name"
  rm -rf "$copy" && mkdir -p "$copy/classes"
  cp -r "$src/java" "$copy/java"
  sed "s|^|$copy/java/|" "$src/kept.txt" >"$copy/files.txt"
  set +e
  javac "${JFLAGS[@]}" -proc:none -encoding UTF-8 -Xmaxwarns 100000 "${opts[@]}" \
    -d "$copy/classes" -cp "$cp" -processorpath "$processors" \
    -XDcompilePolicy=simple --should-stop=ifError=FLOW \
    "$EP_ON -XepPatchChecks:$RULE_LIST -XepPatchLocation:IN_PLACE" "@$copy/files.txt" \
    >"$copy/patch.log" 2>&1
  fixed=$(diff -rq "$src/java" "$copy/java" | wc -l)
  rm -rf "$copy/classes" && mkdir -p "$copy/classes"
  opts_plain=()
  for o in "${opts[@]}"; do [[ "$o" == -proc:* ]] || opts_plain+=("$o"); done
  javac "${plain_proc[@]}" "${opts_plain[@]}" -encoding UTF-8 -nowarn -Xmaxerrs 500 \
    -d "$copy/classes" -cp "$cp" "@$copy/files.txt" >"$copy/compile.log" 2>&1
  rc=$?
  set -e
  errors=$(grep -c ": error:" "$copy/compile.log" || true)
  if [[ $rc -eq 0 ]]; then result=ok; else result="FAILS: $errors errors (see $copy/compile.log)"; failed=1; fi
  printf '%-26s %13d  %s\n' "$name" "$fixed" "$result"
done <"$LIBRARIES_FILE"
exit "$failed"
