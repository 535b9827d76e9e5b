package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.testing.compile.Compilation;
import com.google.testing.compile.Compiler;
import com.google.testing.compile.JavaFileObjects;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every fixture of the shared corpus through both frontends, the compiler (javac with Error
 * Prone and every Bounded check, the runtime on the class path) and the scanner (javaparser, no
 * class path), and compares their findings as (rule, line) pairs: they must be identical, except in
 * fixtures marked {@code // bounded:requires-types} (see the corpus README), where only the
 * compiler must find everything and the scanner may report a subset of it, never more. Every
 * expected-output file of a fix pair must also be what the scanner's fixes make of its input.
 */
final class FrontendParityTest {
  private static final Pattern DIAGNOSTIC = Pattern.compile("^\\[(\\w+)\\]");

  @Test
  void bothFrontendsReportTheSameFindingsOnEveryFixture(@TempDir Path tmp) throws IOException {
    List<Path> fixtures = Corpus.inputs();
    assertThat(fixtures).isNotEmpty();
    int identical = 0;
    int requiresTypes = 0;
    int compilerTotal = 0;
    int expected = 0;
    List<String> mismatches = new ArrayList<>();
    for (Path fixture : fixtures) {
      String source = Corpus.read(fixture);
      Set<String> compiler = compilerFindings(fixture, source);
      Set<String> scanner = scannerFindings(tmp, fixture, source);
      boolean marked = source.contains(Corpus.REQUIRES_TYPES);
      compilerTotal += compiler.size();
      expected += source.split("// BUG: Diagnostic contains", -1).length - 1;
      if (marked) {
        requiresTypes++;
        if (!compiler.containsAll(scanner)) {
          mismatches.add(
              Corpus.name(fixture)
                  + " (requires types): scanner reports more: "
                  + diff(scanner, compiler));
        }
      } else if (compiler.equals(scanner)) {
        identical++;
      } else {
        mismatches.add(
            Corpus.name(fixture)
                + ": only the compiler: "
                + diff(compiler, scanner)
                + "; only the scanner: "
                + diff(scanner, compiler));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "Frontend parity: %d of %d fixtures identical; %d marked requires-types;"
            + " %d findings of the compiler frontend (%d expected by the fixtures)%n",
        identical,
        fixtures.size(),
        requiresTypes,
        compilerTotal,
        expected);
    assertThat(compilerTotal).isGreaterThanOrEqualTo(expected).isPositive();
    assertThat(mismatches).isEmpty();
    assertThat(identical + requiresTypes).isEqualTo(fixtures.size());
  }

  /**
   * A fixture of several files (facts that cross files: a callee in another file retries) is
   * compiled as one compilation and scanned as one tree; both frontends report the same findings,
   * at least the expected ones.
   */
  @Test
  void bothFrontendsReportTheSameFindingsOnEveryFixtureOfSeveralFiles(@TempDir Path tmp)
      throws IOException {
    List<Path> cases = Corpus.cases();
    assertThat(cases).isNotEmpty();
    for (Path dir : cases) {
      String name = Corpus.rule(dir) + "/" + dir.getFileName();
      List<Path> files = new ArrayList<>(Corpus.filesOf(dir));
      assertThat(files).as(name).isNotEmpty();
      files.addAll(Corpus.stubs());
      assertThat(files).as(name).hasSizeGreaterThan(1);
      Set<String> compiler = new TreeSet<>();
      List<JavaFileObject> sources = new ArrayList<>();
      int expected = 0;
      Path copy =
          Files.createDirectories(
              tmp.resolve(Corpus.rule(dir)).resolve(dir.getFileName().toString()));
      List<Path> copies = new ArrayList<>();
      for (Path file : files) {
        String source = Corpus.read(file);
        expected += source.split("// BUG: Diagnostic contains", -1).length - 1;
        String simple = file.getFileName().toString().replace(".java", "");
        sources.add(JavaFileObjects.forSourceString("fixtures." + simple, source));
        Path copied = copy.resolve(file.getFileName().toString());
        Files.writeString(copied, source);
        copies.add(copied);
      }
      for (Diagnostic<? extends JavaFileObject> d : compile(name, sources)) {
        Matcher m = DIAGNOSTIC.matcher(d.getMessage(Locale.ROOT));
        if (m.find()) {
          String file = Path.of(d.getSource().toUri().getPath()).getFileName().toString();
          compiler.add(file + ":" + m.group(1) + ":" + d.getLineNumber());
        }
      }
      ScanReport report = scan(copy, copies);
      assertThat(report.problems()).as(name).isEmpty();
      Set<String> scanner =
          report.findings().stream()
              .map(f -> Path.of(f.path()).getFileName() + ":" + f.rule() + ":" + f.line())
              .collect(Collectors.toCollection(TreeSet::new));
      assertThat(compiler).as(name).hasSizeGreaterThanOrEqualTo(expected);
      assertThat(scanner).as(name + ": the scanner's findings").isEqualTo(compiler);
    }
  }

  @Test
  void theScannersFixesTurnEachFixPairsInputIntoItsOutput(@TempDir Path tmp) throws IOException {
    int pairs = 0;
    for (Path fixture : Corpus.inputs()) {
      Path fixed =
          fixture.resolveSibling(fixture.getFileName().toString().replace(".java", ".fixed.java"));
      if (!Files.exists(fixed) || Corpus.read(fixture).contains(Corpus.REQUIRES_TYPES)) {
        continue; // a fixture that needs types: the scanner may not report, so has nothing to fix
      }
      pairs++;
      Path dir = Files.createDirectories(tmp.resolve("fix" + pairs));
      Path file = dir.resolve(fixture.getFileName().toString());
      Files.writeString(file, Corpus.read(fixture));
      ScanReport report = scan(dir, file);
      List<ScanFinding> ofRule =
          report.findings().stream().filter(f -> f.rule().equals(Corpus.rule(fixture))).toList();
      String result = FixApplier.apply(Corpus.read(fixture), ofRule).text();
      assertThat(result).as(Corpus.name(fixture)).isEqualTo(Corpus.read(fixed));
    }
    assertThat(pairs).isPositive();
  }

  private static ScanReport scan(Path dir, Path file) {
    return scan(dir, List.of(file));
  }

  private static ScanReport scan(Path dir, List<Path> files) {
    Settings settings = Settings.defaults().withRuntimeAvailable(true);
    return new Scanner(settings, dir, 1, n -> {}).scan(files);
  }

  private static Set<String> scannerFindings(Path tmp, Path fixture, String source)
      throws IOException {
    Path dir = Files.createDirectories(tmp.resolve(Corpus.rule(fixture)));
    Path file = dir.resolve(fixture.getFileName().toString());
    Files.writeString(file, source);
    ScanReport report = scan(dir, file);
    assertThat(report.problems()).as(Corpus.name(fixture)).isEmpty();
    return report.findings().stream()
        .map(f -> f.rule() + ":" + f.line())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  /** Compiles sources together with every Bounded rule on; the warnings, or an error fails. */
  private static List<Diagnostic<? extends JavaFileObject>> compile(
      String name, List<JavaFileObject> sources) {
    String checks =
        Rules.all().stream()
            .map(Rule::name)
            .map(n -> "-Xep:" + n + ":WARN")
            .collect(Collectors.joining(" "));
    String classPath = System.getProperty("java.class.path");
    Compilation compilation =
        Compiler.javac()
            .withOptions(
                "-XDcompilePolicy=simple",
                "--should-stop=ifError=FLOW",
                "-Xplugin:ErrorProne -XepDisableAllChecks " + checks,
                "-processorpath",
                classPath,
                "-classpath",
                classPath)
            .compile(sources);
    for (Diagnostic<? extends JavaFileObject> d : compilation.diagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        throw new AssertionError(name + " does not compile: " + d);
      }
    }
    return new ArrayList<>(compilation.diagnostics());
  }

  private static Set<String> compilerFindings(Path fixture, String source) {
    JavaFileObject file =
        JavaFileObjects.forSourceString(
            "fixtures." + fixture.getFileName().toString().replace(".java", ""), source);
    Set<String> findings = new TreeSet<>();
    for (Diagnostic<? extends JavaFileObject> d : compile(Corpus.name(fixture), List.of(file))) {
      Matcher m = DIAGNOSTIC.matcher(d.getMessage(Locale.ROOT));
      if (m.find()) {
        findings.add(m.group(1) + ":" + d.getLineNumber());
      }
    }
    return findings;
  }

  private static Set<String> diff(Set<String> a, Set<String> b) {
    Set<String> d = new TreeSet<>(a);
    d.removeAll(b);
    return d;
  }
}
