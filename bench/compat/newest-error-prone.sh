#!/usr/bin/env bash
# The checks with a newer Error Prone on a newer JDK: compiles the shared fixture corpus with
# Error Prone EP_VERSION on the JDK at JAVA_HOME, one javac per rule directory (and one per fixture
# of several files) with only that rule on, and compares the lines it reports with the fixtures'
# `// BUG: Diagnostic contains:` expectations. The checks jar is the one built on JDK 17 for
# Error Prone 2.42.0 (the same jar users put on the processor path).
#
#   bench/compat/newest-error-prone.sh [OUT_DIR]      (default: bench/compat/target)
#
# Environment: EP_VERSION (default 2.52.0), JAVA_HOME (default /usr/lib/jvm/temurin-25-jdk-amd64;
# Error Prone 2.43+ needs Java 21+), SKIP_BUILD=1 (use checks/ and runtime/ jars already built).
# Exit code 0 when every rule reports exactly the expected lines, 1 otherwise.
#
# Not part of `mvn verify` or the test command (it needs a second JDK).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$HERE/target}"
EP_VERSION="${EP_VERSION:-2.52.0}"
NEW_JAVA_HOME="${JAVA_HOME_NEW:-/usr/lib/jvm/temurin-25-jdk-amd64}"
[[ -n "${JAVA_HOME:-}" && "$("$JAVA_HOME/bin/java" -version 2>&1 | head -1)" != *'"17'* ]] \
  && NEW_JAVA_HOME="$JAVA_HOME"
[[ -x "$NEW_JAVA_HOME/bin/javac" ]] || { echo "no JDK at $NEW_JAVA_HOME (set JAVA_HOME_NEW)" >&2; exit 2; }
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  (cd "$ROOT" && mvn -B -q -pl checks,runtime -am package -DskipTests) >&2
fi
CHECKS_JAR="$(ls "$ROOT"/checks/target/bounded-checks-*.jar | grep -v -e sources -e javadoc | head -1)"
RUNTIME_JAR="$(ls "$ROOT"/runtime/target/bounded-runtime-*.jar | grep -v -e sources -e javadoc | head -1)"

# Error Prone's class path, resolved on the new JDK through a throwaway pom.
mkdir -p "$OUT/ep-$EP_VERSION"
cat >"$OUT/ep-$EP_VERSION/pom.xml" <<POM
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
POM
if [[ ! -s "$OUT/ep-$EP_VERSION/cp.txt" ]]; then
  (cd "$OUT/ep-$EP_VERSION" && JAVA_HOME="$NEW_JAVA_HOME" mvn -B -q \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath \
    -Dmdep.outputFile="$OUT/ep-$EP_VERSION/cp.txt") >&2
fi

JFLAGS=()
for p in api file main model parser processing tree util; do
  JFLAGS+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
for p in code comp; do
  JFLAGS+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done

# expected FILE...: "file:line" for every line a `// BUG: Diagnostic contains:` comment (or a run
# of them) stands above.
expected() {
  for f in "$@"; do
    awk -v f="$(basename "$f")" '
      /\/\/ BUG: Diagnostic contains:/ { pending = 1; next }
      pending && /^[[:space:]]*\/\// { next }
      pending { print f ":" NR; pending = 0 }' "$f"
  done | sort -u
}

FIXTURES="$ROOT/test-fixtures/src/main/resources/fixtures"
failed=0
total=0
printf '%-28s %9s %9s  %s\n' "rule (fixture)" expected reported result
# Library stubs (fixtures/stubs/: Reactor's types), compiled with every fixture of several files.
mapfile -t stubs < <(find "$FIXTURES/stubs" -name '*.java' | sort)
for dir in "$FIXTURES"/*/ "$FIXTURES"/*/*/; do
  dir="${dir%/}"
  [[ "$dir" == "$FIXTURES/stubs" || "$(dirname "$dir")" == "$FIXTURES/stubs" ]] && continue
  if [[ "$(dirname "$dir")" == "$FIXTURES" ]]; then
    rule="$(basename "$dir")"
    name="$rule"
  else
    rule="$(basename "$(dirname "$dir")")"
    name="$rule/$(basename "$dir")"
  fi
  mapfile -t files < <(find "$dir" -maxdepth 1 -name '*.java' ! -name '*.fixed.java' | sort)
  [[ ${#files[@]} -gt 0 ]] || continue
  if [[ "$(dirname "$dir")" == "$FIXTURES" ]]; then
    # Single-file fixtures: one javac each (their classes may share names across files).
    : >"$OUT/$rule.log"
    for f in "${files[@]}"; do
      rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
      "$NEW_JAVA_HOME/bin/javac" "${JFLAGS[@]}" -XDcompilePolicy=simple --should-stop=ifError=FLOW \
        -processorpath "$(cat "$OUT/ep-$EP_VERSION/cp.txt"):$CHECKS_JAR" -cp "$RUNTIME_JAR" \
        "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:$rule:WARN" -Xmaxwarns 10000 \
        -d "$OUT/classes" "$f" >>"$OUT/$rule.log" 2>&1 || true
    done
    log="$OUT/$rule.log"
  else
    log="$OUT/${name//\//-}.log"
    rm -rf "$OUT/classes" && mkdir -p "$OUT/classes"
    "$NEW_JAVA_HOME/bin/javac" "${JFLAGS[@]}" -XDcompilePolicy=simple --should-stop=ifError=FLOW \
      -processorpath "$(cat "$OUT/ep-$EP_VERSION/cp.txt"):$CHECKS_JAR" -cp "$RUNTIME_JAR" \
      "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:$rule:WARN" -Xmaxwarns 10000 \
      -d "$OUT/classes" "${files[@]}" "${stubs[@]}" >"$log" 2>&1 || true
  fi
  want="$(expected "${files[@]}")"
  got="$(grep -E "^[^ ]+\.java:[0-9]+: warning: \[$rule\]" "$log" \
    | sed -E 's#^.*/([^/]+\.java):([0-9]+):.*#\1:\2#' | sort -u || true)"
  n_want=$(printf '%s' "$want" | grep -c . || true)
  n_got=$(printf '%s' "$got" | grep -c . || true)
  total=$((total + n_got))
  if grep -q ": error:" "$log"; then
    result="COMPILE ERROR (see $log)"
    failed=1
  elif [[ "$want" == "$got" ]]; then
    result=same
  else
    result="DIFFERENT: $(diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") | grep '^[<>]' | tr '\n' ' ')"
    failed=1
  fi
  printf '%-28s %9d %9d  %s\n' "$name" "$n_want" "$n_got" "$result"
done
echo "Error Prone $EP_VERSION on $("$NEW_JAVA_HOME/bin/java" -version 2>&1 | head -1): $total findings"
exit "$failed"
