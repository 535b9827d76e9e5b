// Checks the adopter test's four builds (invoker.properties) against what the README predicts.
// Variables from maven-invoker-plugin: basedir (this project's copy), readme (the README's path).

def fail = { String why -> throw new AssertionError("adopter test: " + why) }

// The README's Maven snippet is what this project uses, verbatim (plus the patch property).
def readmeText = new File(readme).getText("UTF-8")
def snippet = (readmeText =~ /(?s)### Maven\s+```xml\n(.*?)```/)
if (!snippet.find()) {
  fail("no Maven snippet under '### Maven' in the README")
}
def normalise = { String s -> s.readLines()*.trim().findAll { it }.join("\n") }
def pom = new File(basedir, "pom.xml").getText("UTF-8").replace(" \${adopter.patch}", "")
if (!normalise(pom).contains(normalise(snippet.group(1)))) {
  fail("pom.xml does not contain the README's Maven snippet verbatim")
}
def patchChecks = (readmeText =~ /-XepPatchChecks:([A-Za-z,]+)/)
if (!patchChecks.find() || !pom.contains("<patch.checks>" + patchChecks.group(1) + "</patch.checks>")) {
  fail("the README's -XepPatchChecks list is not the one this test applies")
}

// The four builds' output, split where each Maven run starts.
def runs = new File(basedir, "build.log").getText("UTF-8").split(/(?m)^.*\[INFO\] Scanning for projects\.\.\./)
    .findAll { it.contains("BUILD ") }
if (runs.size() != 4) {
  fail("expected 4 builds in build.log, found " + runs.size())
}
runs.eachWithIndex { run, i ->
  if (!run.contains("BUILD SUCCESS")) {
    fail("build " + (i + 1) + " failed")
  }
}

// A finding: "[WARNING] /path/Checkout.java:[27,16] [Check] message", then its link and hint lines.
def findings = { String run ->
  def found = []
  def lines = run.readLines()
  lines.eachWithIndex { line, i ->
    def m = line =~ /^\[(WARNING|ERROR|INFO)\] .*\/([A-Za-z]+\.java):\[(\d+),\d+\] \[([A-Za-z]+)\] (.*)$/
    if (m.find()) {
      def link = i + 1 < lines.size() ? lines[i + 1].trim() : ""
      def hint = i + 2 < lines.size() && lines[i + 2].trim().startsWith("Did you mean")
      found << [file: m.group(2), line: m.group(3) as int, check: m.group(4), message: m.group(5),
                link: link, hint: hint]
    }
  }
  found
}
def expected = new File(basedir, "expected-findings.txt").readLines()
    .findAll { it.trim() && !it.startsWith("#") }
    .collect { def p = it.trim().split(/\s+/); [where: p[0], check: p[1], fix: p[2] == "fix", other: p[2] == "other"] }
def describe = { f -> f.file + ":" + f.line + " " + f.check }

// 1. Compiled as the README says: exactly the predicted findings; those with a fix say so.
def first = findings(runs[0])
def unexpected = first.collect(describe) - expected.collect { it.where + " " + it.check }
def missing = expected.collect { it.where + " " + it.check } - first.collect(describe)
if (unexpected || missing) {
  fail("findings the README does not predict: " + unexpected + "; predicted but missing: " + missing)
}
first.each { f ->
  def fix = expected.find { it.where == f.file + ":" + f.line && it.check == f.check }.fix
  if (fix != f.message.contains("Suggested fix:") || fix != f.hint) {
    fail(describe(f) + ": " + (fix ? "a fix is offered but not shown" : "no fix, yet one is announced"))
  }
  // A page a user can open: the published rule page, not a path inside Bounded's repository.
  if (!(f.link ==~ /\(see https:\/\/\S+\/${f.check}(\.md)?\)/)) {
    fail(describe(f) + ": links to " + f.link + ", not to the rule's published page")
  }
}

// 2. The patch written to the project root applies from there (patch -p0 -u -i error-prone.patch).
def patch = new File(basedir, "error-prone.patch")
if (!patch.isFile()) {
  fail("-XepPatchLocation:\${project.basedir} wrote no error-prone.patch")
}
patch.readLines().findAll { it.startsWith("--- ") || it.startsWith("+++ ") }.each {
  def path = it.substring(4).trim()
  if (!new File(basedir, path).isFile()) {
    fail("the patch names " + path + ", which is not a path from the project root")
  }
}
if (findings(runs[1]).any { !patchChecks.group(1).split(",").contains(it.check) }) {
  fail("while -XepPatchChecks is set, checks not listed were expected to stop reporting")
}

// 3. Applied in place.
if (!runs[2].contains("Refactoring changes were successfully applied")) {
  fail("-XepPatchLocation:IN_PLACE changed nothing")
}

// 4. The fixed code compiles, and only the findings without a fix are left.
def left = findings(runs[3]).collect { it.check }.sort()
def unfixable = expected.findAll { !it.fix && !it.other }.collect { it.check }.sort()
if (left != unfixable) {
  fail("after the fixes, expected only " + unfixable + " to be left, found " + left)
}
def fixed = new File(basedir, "src/main/java/com/acme/Checkout.java").readLines()
fixed.eachWithIndex { line, i ->
  if (line.length() > 100) {
    fail("fixed Checkout.java:" + (i + 1) + " is " + line.length() + " columns wide")
  }
}
fixed.findAll { it.startsWith("import ") }.each { imp ->
  def simple = imp.replaceAll(/^import (static )?/, "").replace(";", "").tokenize(".").last()
  if (!fixed.findAll { !it.startsWith("import ") }.any { it =~ /\b${simple}\b/ }) {
    fail("the fixes left an unused import: " + imp)
  }
}
println "adopter test: " + first.size() + " predicted findings, patch applies from the root, fixed code compiles with " + left.size() + " unfixable findings left"
return true
