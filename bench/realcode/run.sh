#!/usr/bin/env bash
# Runs Bounded's seven Error Prone checks over the sources of real open-source Java libraries.
#
#   bench/realcode/run.sh [OUT_DIR]          (default: bench/realcode/target/run)
#
# For each library below it downloads, from Maven Central with the ordinary Maven client, the
# -sources.jar, the library's own pom and its compile classpath (the pom's compile and provided
# dependencies, optional ones included), unpacks the sources under bench/realcode/target/work/
# (gitignored), and compiles every .java file with javac + Error Prone 2.42.0 + the checks jar of
# this work tree, all other Error Prone checks disabled. Nothing downloaded is kept in git.
#
# Writes to OUT_DIR, per library: <lib>.log (javac's whole output, absolute paths shortened to
# paths inside the library), <lib>.findings.tsv (rule, file, line) and summary.txt (the table it
# also prints).
#
# Exit status: 0 when every library compiled and the plugin never crashed; 1 when the plugin
# crashed (an unhandled exception in Error Prone or javac) on any library; 2 when a library did
# not compile (then Error Prone did not analyse it) or a download failed; 3 when the canary (a
# small file with two known bugs) is not reported, i.e. the checks were not loaded.
#
# Environment: LIBS="name1 name2" runs a subset; SKIP_BUILD=1 uses the checks jar already built;
# CHECKS_JAR=path runs another checks jar (e.g. one built from an older commit, for a before/after
# comparison; implies SKIP_BUILD=1); LIBRARIES_FILE=path reads the libraries from a file (one
# entry per line in the format below, '#' comments) instead of the list in this script (the
# labelled corpus uses bench/realcode/corpus/libraries.txt); JAVAC (default: javac on the PATH).
#
# Every check registered in the checks jar is switched on (read from its service file), so new
# rules are measured without editing this script.
#
# Not part of `mvn verify` or the test command: run it by hand.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$HERE/target/run}"
WORK="$HERE/target/work"
JAVAC="${JAVAC:-javac}"
MVN=(mvnq)
EP_VERSION=2.42.0
DEP_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1
if [[ -n "${CHECKS_JAR:-}" ]]; then
  SKIP_BUILD=1
  CHECKS_JAR="$(cd "$(dirname "$CHECKS_JAR")" && pwd)/$(basename "$CHECKS_JAR")"
else
  CHECKS_JAR="$ROOT/checks/target/bounded-checks-0.1.0-SNAPSHOT.jar"
fi

# name | groupId:artifactId:version | files to leave out (extended regexes on the path inside the
# sources jar, separated by ';', empty for none) | extra jars put first on the classpath (comma-separated
# coordinates: a dependency the published pom does not list, or a version that wins over the one
# it resolves to) | extra javac options | how to resolve the class path (empty: the library's own
# pom; extra build-classpath arguments; "as-dependency" or "without:G[:A],...", see below)
LIBRARIES=(
  "curator-client|org.apache.curator:curator-client:5.9.0||"
  "curator-framework|org.apache.curator:curator-framework:5.9.0||"
  "curator-recipes|org.apache.curator:curator-recipes:5.9.0||"
  "zookeeper|org.apache.zookeeper:zookeeper:3.9.3||"
  "httpclient|org.apache.httpcomponents:httpclient:4.5.14||"
  "HikariCP|com.zaxxer:HikariCP:7.1.0||"
  "jedis|redis.clients:jedis:5.2.0||"
  "spring-retry|org.springframework.retry:spring-retry:2.0.13||"
  "okhttp|com.squareup.okhttp3:okhttp:3.14.9||"
  # guava-retrying 2.0.0 asks for Guava [10.0.1,); it was built against Guava 19 (SimpleTimeLimiter
  # lost its public constructors later).
  "guava-retrying|com.github.rholder:guava-retrying:2.0.0||com.google.guava:guava:19.0|"
  # Java 8 sources: '_' as a parameter name, javax.xml.bind (no longer in the JDK).
  "aws-java-sdk-core|com.amazonaws:aws-java-sdk-core:1.12.780||javax.xml.bind:jaxb-api:2.3.1|-source 8 -target 8 -Xlint:-options"
  # Built with Gradle: its generated JSON converters need Jackson, its OAuth code jose4j, its
  # telemetry code the OpenTelemetry protos; all are shaded or compile-only, so the published pom
  # does not list them.
  "kafka-clients|org.apache.kafka:kafka-clients:3.9.1||com.fasterxml.jackson.core:jackson-databind:2.16.2,com.fasterxml.jackson.core:jackson-core:2.16.2,com.fasterxml.jackson.core:jackson-annotations:2.16.2,org.bitbucket.b_c:jose4j:0.9.4,io.opentelemetry.proto:opentelemetry-proto:1.0.0-alpha,com.google.protobuf:protobuf-java:3.25.5|"
  "failsafe|dev.failsafe:failsafe:3.3.2||"
  "resilience4j-retry|io.github.resilience4j:resilience4j-retry:2.4.0||"
)

if [[ -n "${LIBRARIES_FILE:-}" ]]; then
  LIBRARIES=()
  while IFS= read -r line; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    LIBRARIES+=("$line")
  done <"$LIBRARIES_FILE"
fi

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

mkdir -p "$OUT" "$WORK/dl" "$WORK/cp" "$WORK/src"
OUT="$(cd "$OUT" && pwd)"

# --- 1. The checks jar of this work tree -------------------------------------------------------
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
  log "building the checks jar (mvn -pl checks -am package -DskipTests)"
  (cd "$ROOT" && "${MVN[@]}" -pl checks -am package -DskipTests) >&2
fi
[[ -f "$CHECKS_JAR" ]] || { log "no checks jar at $CHECKS_JAR"; exit 2; }
# The rules: every check the jar registers (its service file lists one class per check).
mapfile -t RULES < <(unzip -p "$CHECKS_JAR" META-INF/services/com.google.errorprone.bugpatterns.BugChecker \
  | sed -E 's/.*\.//; s/[[:space:]]+$//' | awk 'NF' | sort)
[[ ${#RULES[@]} -gt 0 ]] || { log "no checks registered in $CHECKS_JAR"; exit 2; }
log "checks: ${RULES[*]}"

# --- 2. Error Prone's class path, through a throwaway pom --------------------------------------
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
if [[ ! -s "$WORK/ep/cp.txt" ]]; then
  (cd "$WORK/ep" && "${MVN[@]}" "$DEP_PLUGIN:build-classpath" -Dmdep.outputFile="$WORK/ep/cp.txt") >&2
fi
PROCESSOR_PATH="$(cat "$WORK/ep/cp.txt"):$CHECKS_JAR"

# javac internals Error Prone needs (BUILD-NOTES 1), given to the javac launcher's JVM.
JFLAGS=(-J-Xmx3g)
for p in api file main model parser processing tree util; do
  JFLAGS+=("-J--add-exports=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
for p in code comp; do
  JFLAGS+=("-J--add-opens=jdk.compiler/com.sun.tools.javac.$p=ALL-UNNAMED")
done
RULE_ALTERNATIVES="$(IFS='|'; echo "${RULES[*]}")"
EP_ARG="-Xplugin:ErrorProne -XepDisableAllChecks"
for r in "${RULES[@]}"; do EP_ARG+=" -Xep:$r:WARN"; done

# compile DIR CLASSPATH FILELIST LOG [OPTIONS]: javac + Error Prone; prints javac's exit status.
compile() {
  local -a options
  read -r -a options <<<"${5:-}"
  local classes="$1/classes"
  local processors="$PROCESSOR_PATH"
  # A library built with an annotation processor (Lombok) names -proc:full in its options: its
  # own class path is then searched for processors too.
  [[ " ${options[*]} " == *" -proc:full "* ]] && processors="$PROCESSOR_PATH:$2"
  rm -rf "$classes" && mkdir -p "$classes"
  set +e
  "$JAVAC" "${JFLAGS[@]}" -proc:none -encoding UTF-8 -Xmaxwarns 100000 \
    -Xmaxerrs 500 "${options[@]}" -d "$classes" -cp "$2" -processorpath "$processors" \
    -XDcompilePolicy=simple --should-stop=ifError=FLOW "$EP_ARG" "@$3" >"$4" 2>&1
  local rc=$?
  set -e
  echo "$rc"
}

CRASH_PATTERN='An unhandled exception was thrown by the Error Prone|An exception has occurred in the compiler|^Exception in thread|^[[:space:]]+at (com\.google\.errorprone|com\.sun\.tools\.javac|dev\.bounded)\.'

# --- 3. Canary: two known bugs must be reported, or the checks were not loaded ------------------
CANARY="$WORK/canary"
rm -rf "$CANARY" && mkdir -p "$CANARY/src/canary"
cat >"$CANARY/src/canary/Canary.java" <<'EOF'
package canary;

class Canary {
  interface Op {
    String call() throws Exception;
  }

  String get(Op op) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return op.call();
      } catch (Exception e) {
        // retried without looking at it: UnclassifiedExceptionRetry
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        // swallowed and retried: InterruptRetried
      }
    }
    return null;
  }
}
EOF
echo "$CANARY/src/canary/Canary.java" >"$CANARY/files.txt"
rc="$(compile "$CANARY" "" "$CANARY/files.txt" "$CANARY/log.txt")"
if [[ "$rc" != 0 ]] || ! grep -q 'warning: \[InterruptRetried\]' "$CANARY/log.txt" \
  || ! grep -q 'warning: \[UnclassifiedExceptionRetry\]' "$CANARY/log.txt"; then
  log "canary not reported (javac exit $rc): the checks are not loaded"
  cat "$CANARY/log.txt" >&2
  exit 3
fi
log "canary: ok (both known bugs reported)"

# --- 4. The libraries ---------------------------------------------------------------------------
status=0
selected=" ${LIBS:-} "
: >"$OUT/status.tsv"
for entry in "${LIBRARIES[@]}"; do
  IFS='|' read -r name coords exclude extras options resolve <<<"$entry"
  if [[ -n "${LIBS:-}" && "$selected" != *" $name "* ]]; then
    continue
  fi
  IFS=: read -r group artifact version <<<"$coords"
  log "== $name ($coords)"
  dl="$WORK/dl"
  srcjar="$dl/$artifact-$version-sources.jar"
  pom="$dl/$artifact-$version.pom"
  cpfile="$WORK/cp/$name.txt"
  if [[ ! -s "$srcjar" || ! -s "$pom" ]]; then
    if ! "${MVN[@]}" "$DEP_PLUGIN:copy" -Dartifact="$coords:jar:sources" -DoutputDirectory="$dl" >&2 \
      || ! "${MVN[@]}" "$DEP_PLUGIN:copy" -Dartifact="$coords:pom" -DoutputDirectory="$dl" >&2; then
      log "download failed: $coords"
      printf '%s\t%s\tdownload-failed\n' "$name" "$coords" >>"$OUT/status.tsv"
      status=2
      continue
    fi
  fi
  if [[ ! -s "$cpfile" || "$(cat "$cpfile.key" 2>/dev/null)" != "$entry" ]]; then
    # The library's own pom gives its compile classpath: compile + provided + system scopes,
    # optional dependencies included (they are direct dependencies of that pom).
    # How to resolve: the library's own pom (default), with extra arguments for
    # build-classpath (e.g. -DexcludeGroupIds=... for modules an all-in-one pom lists but that
    # are not published), or "as-dependency": a throwaway pom that depends on the library, for
    # poms whose build extensions Maven 3.8 cannot load (then optional dependencies are missed).
    read -r -a resolve_args <<<"${resolve:-}"
    resolve_pom="$pom"
    if [[ "${resolve:-}" == as-dependency ]]; then
      resolve_args=()
      mkdir -p "$WORK/cp/$name-pom"
      resolve_pom="$WORK/cp/$name-pom/pom.xml"
      cat >"$resolve_pom" <<POM
<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.throwaway</groupId><artifactId>$name-classpath</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>$group</groupId><artifactId>$artifact</artifactId><version>$version</version></dependency>
  </dependencies>
</project>
POM
    fi
    if [[ "${resolve:-}" == without:* ]]; then
      # Every dependency of the library's effective pom (optional ones included), but the
      # artifacts listed (groupId, or groupId:artifactId, comma-separated), which are also
      # excluded transitively: for all-in-one poms listing modules that are not published, and
      # for platform-specific natives that are not served.
      resolve_args=()
      mkdir -p "$WORK/cp/$name-pom"
      resolve_pom="$WORK/cp/$name-pom/pom.xml"
      "${MVN[@]}" -f "$pom" help:effective-pom -Doutput="$WORK/cp/$name-pom/effective.xml" >&2
      python3 - "$WORK/cp/$name-pom/effective.xml" "${resolve#without:}" "$name" \
        >"$resolve_pom" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
root = ET.parse(sys.argv[1]).getroot()
left_out = [p.split(":") for p in sys.argv[2].split(",") if p]
def matches(group, artifact):
    return any(p[0] == group and (len(p) == 1 or p[1] == artifact) for p in left_out)
exclusions = "".join(
    "<exclusion><groupId>%s</groupId><artifactId>%s</artifactId></exclusion>"
    % (p[0], p[1] if len(p) > 1 else "*") for p in left_out)
print("<project><modelVersion>4.0.0</modelVersion><groupId>local.throwaway</groupId>"
      "<artifactId>%s-classpath</artifactId><version>1</version><packaging>pom</packaging>"
      "<dependencies>" % sys.argv[3])
for dep in root.findall("m:dependencies/m:dependency", ns):
    get = lambda tag: (dep.findtext("m:" + tag, default="", namespaces=ns) or "").strip()
    if matches(get("groupId"), get("artifactId")) or get("scope") in ("test", "system", "import"):
        continue
    print("<dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version>"
          % (get("groupId"), get("artifactId"), get("version"))
          + ("<classifier>%s</classifier>" % get("classifier") if get("classifier") else "")
          + "<exclusions>%s</exclusions></dependency>" % exclusions)
print("</dependencies></project>")
PY
    fi
    if ! "${MVN[@]}" -f "$resolve_pom" "$DEP_PLUGIN:build-classpath" -DincludeScope=compile \
      "${resolve_args[@]}" -Dmdep.outputFile="$cpfile.compile" >&2; then
      log "classpath failed: $coords"
      printf '%s\t%s\tclasspath-failed\n' "$name" "$coords" >>"$OUT/status.tsv"
      status=2
      continue
    fi
    # The runtime scope, where Gradle-built libraries publish their implementation dependencies;
    # some list platform-specific natives that are not served: then the compile scope alone.
    if ! "${MVN[@]}" -f "$resolve_pom" "$DEP_PLUGIN:build-classpath" -DincludeScope=runtime \
      "${resolve_args[@]}" -Dmdep.outputFile="$cpfile.runtime" >/dev/null 2>&1; then
      log "   (runtime scope of $coords did not resolve; compile scope only)"
      : >"$cpfile.runtime"
    fi
    cp="$( (cat "$cpfile.compile"; echo; cat "$cpfile.runtime") 2>/dev/null | tr ':' '\n' \
      | awk 'NF && !seen[$0]++' | paste -sd: -)"
    if [[ -n "$extras" ]]; then
      IFS=, read -r -a extra_list <<<"$extras"
      for extra in "${extra_list[@]}"; do
        IFS=: read -r _ ea ev <<<"$extra"
        "${MVN[@]}" "$DEP_PLUGIN:copy" -Dartifact="$extra" -DoutputDirectory="$WORK/cp/extra" >&2
        cp="$WORK/cp/extra/$ea-$ev.jar${cp:+:$cp}"
      done
    fi
    printf '%s' "$cp" >"$cpfile"
    printf '%s' "$entry" >"$cpfile.key"
    rm -f "$cpfile.compile" "$cpfile.runtime"
  fi
  src="$WORK/src/$name"
  rm -rf "$src" && mkdir -p "$src/java"
  (cd "$src/java" && unzip -q -o "$srcjar")
  (cd "$src/java" && find . -name '*.java' ! -name module-info.java | sed 's|^\./||' | sort) \
    >"$src/all.txt"
  if [[ -n "$exclude" ]]; then
    # Several patterns are separated by ';' ('|' separates the entry's fields).
    IFS=';' read -r -a exclude_list <<<"$exclude"
    exclude_args=()
    for e in "${exclude_list[@]}"; do exclude_args+=(-e "$e"); done
    grep -Ev "${exclude_args[@]}" "$src/all.txt" >"$src/kept.txt" || true
  else
    cp "$src/all.txt" "$src/kept.txt"
  fi
  sed "s|^|$src/java/|" "$src/kept.txt" >"$src/files.txt"
  files="$(wc -l <"$src/kept.txt")"
  left_out=$(($(wc -l <"$src/all.txt") - files))
  start=$(date +%s)
  rc="$(compile "$src" "$(cat "$cpfile")" "$src/files.txt" "$src/raw.log" "$options")"
  secs=$(($(date +%s) - start))
  # Paths inside the library, not this machine's directories.
  sed "s|$src/java/||g" "$src/raw.log" >"$OUT/$name.log"
  grep -E "^[^ ]+\.java:[0-9]+: warning: \[($RULE_ALTERNATIVES)\]" "$OUT/$name.log" \
    | sed -E 's/^([^ ]+\.java):([0-9]+): warning: \[([A-Za-z]+)\].*/\3\t\1\t\2/' \
    | sort -t$'\t' -k1,1 -k2,2 -k3,3n >"$OUT/$name.findings.tsv" || true
  errors="$(grep -cE '^[^ ]+\.java:[0-9]+: error:' "$OUT/$name.log" || true)"
  if grep -qE "$CRASH_PATTERN" "$OUT/$name.log" || [[ "$rc" -ge 3 ]]; then
    result=CRASH
    status=1
  elif [[ "$rc" != 0 ]]; then
    result="COMPILE-ERRORS($errors)"
    [[ "$status" == 1 ]] || status=2
  else
    result=ok
  fi
  log "   $files files ($left_out left out), javac exit $rc, ${secs}s: $result"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$coords" "$result" "$files" "$left_out" "$secs" \
    >>"$OUT/status.tsv"
done

# --- 5. Summary ---------------------------------------------------------------------------------
{
  printf '%-20s %-8s %6s' library result files
  for r in "${RULES[@]}"; do printf ' %s' "$r"; done
  printf ' %s\n' total
  declare -A col
  while IFS=$'\t' read -r name coords result files left_out secs; do
    printf '%-20s %-8s %6s' "$name" "${result:0:8}" "${files:-0}"
    total=0
    for r in "${RULES[@]}"; do
      n=0
      if [[ -f "$OUT/$name.findings.tsv" ]]; then
        n="$(awk -F'\t' -v r="$r" '$1 == r' "$OUT/$name.findings.tsv" | wc -l)"
      fi
      total=$((total + n))
      col[$r]=$((${col[$r]:-0} + n))
      printf " %${#r}s" "$n"
    done
    col[total]=$((${col[total]:-0} + total))
    printf ' %5s\n' "$total"
  done <"$OUT/status.tsv"
  printf '%-20s %-8s %6s' all "" ""
  for r in "${RULES[@]}"; do printf " %${#r}s" "${col[$r]:-0}"; done
  printf ' %5s\n' "${col[total]:-0}"
} | tee "$OUT/summary.txt"

case "$status" in
  0) log "no crash; every library compiled" ;;
  1) log "CRASH: the plugin threw on at least one library (see the logs in $OUT)" ;;
  2) log "a library did not compile or download: its findings are incomplete (see $OUT)" ;;
esac
exit "$status"
