package dev.bounded.checks.javac;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.errorprone.CompilationTestHelper;
import com.google.errorprone.ErrorProneFlags;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class FlagsTest {

  private static final String RETRY_LOOP =
      """
      class A {
        void pause() {
          try {
            Thread.sleep(1);
          } catch (InterruptedException e) {
          }
        }
      }
      """;

  /** What javac reports, as a build would run it: the plugin on the processor path. */
  private record Result(boolean compiled, List<Diagnostic<? extends JavaFileObject>> diagnostics) {
    List<String> errors() {
      return diagnostics.stream()
          .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
          .map(d -> d.getMessage(Locale.ROOT))
          .toList();
    }
  }

  private static Result compile(Path out, String errorProneArgs) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    StringWriter output = new StringWriter();
    String classPath = System.getProperty("java.class.path");
    JavaFileObject source =
        new SimpleJavaFileObject(URI.create("string:///A.java"), JavaFileObject.Kind.SOURCE) {
          @Override
          public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return RETRY_LOOP;
          }
        };
    boolean compiled =
        javac
            .getTask(
                output,
                null,
                diagnostics,
                List.of(
                    "-d",
                    out.toString(),
                    "-processorpath",
                    classPath,
                    "-XDcompilePolicy=simple",
                    "--should-stop=ifError=FLOW",
                    "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:InterruptSwallowed:WARN "
                        + errorProneArgs),
                null,
                List.of(source))
            .call();
    assertThat(output.toString()).as("javac's own output (a crash prints here)").isEmpty();
    return new Result(compiled, diagnostics.getDiagnostics());
  }

  @Test
  void aMalformedMethodListIsOneUsageErrorNamingTheFlagWhatItExpectsAndWhatItGot(@TempDir Path out)
      throws Exception {
    Result result =
        compile(out, "-Xep:NonIdempotentRetry:WARN -XepOpt:Bounded:NonIdempotent=a.B.c");

    assertThat(result.compiled()).isFalse();
    assertThat(result.diagnostics())
        .as("an error of the command line, not of the file compiled first")
        .allSatisfy(d -> assertThat(d.getSource()).isNull());
    assertThat(result.errors())
        .singleElement()
        .asString()
        .doesNotContain("\n")
        .contains(
            "-XepOpt:Bounded:NonIdempotent",
            "fully.qualified.Type#method",
            "com.acme.Payments#charge",
            "got 'a.B.c'")
        .doesNotContain("Exception");
    try (Stream<Path> written = Files.list(out)) {
      assertThat(written).as("no class file written").isEmpty();
    }
  }

  @Test
  void eachBadValueIsReportedOnceWhateverTheNumberOfChecks(@TempDir Path out) throws Exception {
    Result result =
        compile(
            out,
            "-Xep:InterruptRetried:WARN -Xep:PerAttemptTimeout:WARN"
                + " -XepOpt:Bounded:NonIdempotent=com.acme.Payments#charge,charge"
                + " -XepOpt:PerAttemptTimeout:Methods=com.acme.Client#"
                + " -XepOpt:Bounded:IdempotencyKeyHeader=X/Request"
                + " -XepOpt:Bounded:Nonidempotent=com.acme.Payments#charge");

    assertThat(result.errors())
        .hasSize(4)
        .anySatisfy(
            e -> assertThat(e).contains("got 'charge' in 'com.acme.Payments#charge,charge'"))
        .anySatisfy(
            e -> assertThat(e).contains("PerAttemptTimeout:Methods", "got 'com.acme.Client#'"))
        .anySatisfy(e -> assertThat(e).contains("HTTP header names", "got 'X/Request'"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains(
                        "-XepOpt:Bounded:Nonidempotent is not a flag", "Bounded:NonIdempotent"));
  }

  @Test
  void theSettingsFileSwitchesARuleOffAndItsBadValuesAreUsageErrors(@TempDir Path out)
      throws Exception {
    Path off = out.resolve("off.properties");
    Files.writeString(off, "severity.InterruptSwallowed = off\n");
    Result quiet = compile(out, "-XepOpt:Bounded:Config=" + off);
    assertThat(quiet.compiled()).isTrue();
    assertThat(quiet.diagnostics())
        .as("the file's only finding is InterruptSwallowed's, switched off")
        .noneSatisfy(d -> assertThat(d.getMessage(Locale.ROOT)).contains("InterruptSwallowed"));

    Path bad = out.resolve("bad.properties");
    Files.writeString(bad, "nonIdempotent = a.B.c\n");
    assertThat(compile(out, "-XepOpt:Bounded:Config=" + bad).errors())
        .singleElement()
        .asString()
        .contains("-XepOpt:Bounded:NonIdempotent expects")
        .contains("got 'a.B.c'");

    assertThat(compile(out, "-XepOpt:Bounded:Config=" + out.resolve("missing")).errors())
        .singleElement()
        .asString()
        .contains("-XepOpt:Bounded:Config expects a readable settings file");
  }

  @Test
  void goodFlagsCompileAsBefore(@TempDir Path out) throws Exception {
    Result result =
        compile(
            out,
            "-XepOpt:Bounded:NonIdempotent=com.acme.Payments#charge"
                + " -XepOpt:Bounded:IdempotencyKeyHeader=Idempotency-Key,X-Request-Id");

    assertThat(result.compiled()).isTrue();
    assertThat(result.errors()).isEmpty();
    assertThat(result.diagnostics())
        .singleElement()
        .satisfies(d -> assertThat(d.getMessage(Locale.ROOT)).contains("[InterruptSwallowed]"));
  }

  @Test
  void defaults() {
    Flags.Parsed parsed = Flags.parse(ErrorProneFlags.empty());

    assertThat(parsed.errors()).isEmpty();
    assertThat(parsed.config().isIdempotencyKeyHeader("idempotency-key")).isTrue();
    assertThat(parsed.config().isIdempotencyKeyHeader("X-Request-Id")).isFalse();
  }

  @Test
  void theDocsLinkComesFromTheBuildAndTheFlagTakesABaseOrATemplate() {
    // Filtered from the parent POM's bounded.docs.rules: a published page, not a repository path.
    assertThat(Docs.template()).startsWith("https://").contains("{rule}").doesNotContain("${");
    assertThat(Docs.page(Flags.parse(ErrorProneFlags.empty()).docsTemplate(), "InterruptRetried"))
        .startsWith("https://")
        .endsWith("/InterruptRetried.md");

    assertThat(docsLink("https://docs.example.com/rules"))
        .isEqualTo("https://docs.example.com/rules/X");
    assertThat(docsLink("https://docs.example.com/rules/"))
        .isEqualTo("https://docs.example.com/rules/X");
    assertThat(docsLink("https://docs.example.com/{rule}.html"))
        .isEqualTo("https://docs.example.com/X.html");
    assertThat(
            Flags.parse(ErrorProneFlags.builder().putFlag("Bounded:DocsUrl", " ").build()).errors())
        .singleElement()
        .asString()
        .contains("-XepOpt:Bounded:DocsUrl expects a base URL");
  }

  private static String docsLink(String flag) {
    Flags.Parsed parsed =
        Flags.parse(ErrorProneFlags.builder().putFlag("Bounded:DocsUrl", flag).build());
    assertThat(parsed.errors()).isEmpty();
    return Docs.page(parsed.docsTemplate(), "X");
  }

  @Test
  void theDocsUrlFlagChangesTheLinkInDiagnostics() {
    CompilationTestHelper.newInstance(InterruptSwallowed.class, getClass())
        .setArgs("-XepOpt:Bounded:DocsUrl=https://docs.example.com/rules/")
        .addSourceLines(
            "A.java",
            """
            class A {
              void pause() {
                try {
                  Thread.sleep(1);
                  // BUG: Diagnostic contains: (see https://docs.example.com/rules/InterruptSwallowed)
                } catch (InterruptedException e) {
                }
              }
            }
            """)
        .doTest();
  }
}
