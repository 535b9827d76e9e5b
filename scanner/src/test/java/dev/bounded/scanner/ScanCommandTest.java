package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: exit codes, formats, options, settings and their errors. */
final class ScanCommandTest {
  @TempDir Path dir;

  @Test
  void exitsZeroWithoutFindings() {
    Samples.write(dir, "src/demo/Clean.java", Samples.CLEAN);
    Cli cli = Cli.run(dir, "scan");
    assertThat(cli.exit).as(cli.toString()).isZero();
    assertThat(cli.out).contains("No findings in 1 files.");
    assertThat(cli.err).isEmpty();
  }

  @Test
  void exitsOneWithFindingsAndReportsFileLineColumnRuleAndFix() {
    Samples.write(dir, "src/demo/Pause.java", Samples.SWALLOWED);
    Cli cli = Cli.run(dir, "scan", "src");
    assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
    assertThat(cli.out)
        .contains("src/demo/Pause.java:7:14: warning: [InterruptSwallowed]")
        .contains("fix: ")
        .contains("    +      Thread.currentThread().interrupt();")
        .contains("Found 1 finding (1 with a suggested fix) in 1 of 1 files.")
        .doesNotContain("\u001b[");
  }

  @Test
  void colourOnlyWhenAsked() {
    Samples.write(dir, "Pause.java", Samples.SWALLOWED);
    assertThat(Cli.run(dir, "scan", "--color=always").out).contains("\u001b[");
    assertThat(Cli.run(dir, "scan", "--color=never").out).doesNotContain("\u001b[");
  }

  @Test
  void failOnDecidesWhichLevelsFail() {
    Samples.write(dir, "Pause.java", Samples.SWALLOWED);
    assertThat(Cli.run(dir, "scan", "--fail-on", "error").exit).isZero();
    assertThat(Cli.run(dir, "scan", "--fail-on", "never").exit).isZero();
    assertThat(Cli.run(dir, "scan", "--fail-on", "note").exit).isEqualTo(1);
    assertThat(Cli.run(dir, "scan", "--fail-on", "loud").exit).isEqualTo(2);
  }

  @Test
  void usageErrorsExitTwoWithAMessageAndNoStackTrace() {
    Cli unknown = Cli.run(dir, "scan", "--no-such-option");
    assertThat(unknown.exit).isEqualTo(2);
    assertThat(unknown.err).contains("Unknown option").doesNotContain("\tat ");
    Cli format = Cli.run(dir, "scan", "--format", "xml");
    assertThat(format.exit).isEqualTo(2);
    Cli baseline = Cli.run(dir, "scan", "--baseline", "missing.json");
    assertThat(baseline.exit).isEqualTo(2);
    assertThat(baseline.err).contains("--write-baseline");
    Cli noSubcommand = Cli.run(dir);
    assertThat(noSubcommand.exit).isEqualTo(2);
  }

  @Test
  void listsTheRules() {
    Cli cli = Cli.run(dir, "scan", "--rules");
    assertThat(cli.exit).isZero();
    for (RuleInfo info : RuleInfo.all()) {
      assertThat(cli.out).contains(info.name());
    }
    assertThat(cli.out).containsPattern("UnclassifiedExceptionRetry\\s+note");
  }

  @Test
  void helpStatesTheExitCodes() {
    Cli cli = Cli.run(dir, "scan", "--help");
    assertThat(cli.exit).isZero();
    assertThat(cli.out).contains("Exit codes:").contains("--new-since").contains("--patch");
  }

  @Test
  void theLanguageServerIsASubcommandWhoseHelpStatesItsExitCodes() {
    Cli help = Cli.run(dir, "lsp", "--help");
    assertThat(help.exit).as(help.toString()).isZero();
    assertThat(help.out)
        .contains("--config", "--debounce", "Exit codes:")
        .contains("0   the editor sent shutdown");
    Cli bad = Cli.run(dir, "lsp", "--debounce", "soon");
    assertThat(bad.exit).isEqualTo(2);
  }

  @Test
  void settingsFileSetsLevelsAndTurnsRulesOff() throws IOException {
    Samples.write(dir, "Pause.java", Samples.SWALLOWED);
    Files.writeString(dir.resolve("off.properties"), "severity.InterruptSwallowed = off\n");
    assertThat(Cli.run(dir, "scan", "--config", "off.properties").exit).isZero();
    Files.writeString(dir.resolve("error.properties"), "severity.InterruptSwallowed = error\n");
    Cli cli = Cli.run(dir, "scan", "--config", "error.properties", "--fail-on", "error");
    assertThat(cli.exit).isEqualTo(1);
    assertThat(cli.out).contains("error: [InterruptSwallowed]");
    assertThat(Cli.run(dir, "scan", "--config", "error.properties", "--rules").out)
        .containsPattern("InterruptSwallowed\\s+error");
  }

  @Test
  void badSettingsAreUsageErrorsNamingTheKey() throws IOException {
    Files.writeString(dir.resolve("bad.properties"), "severity.NoSuchRule = error\n");
    Cli rule = Cli.run(dir, "scan", "--config", "bad.properties");
    assertThat(rule.exit).isEqualTo(2);
    assertThat(rule.err).contains("severity.NoSuchRule");
    Files.writeString(dir.resolve("bad2.properties"), "nonIdempotent = charge\n");
    Cli method = Cli.run(dir, "scan", "--config", "bad2.properties");
    assertThat(method.exit).isEqualTo(2);
    assertThat(method.err).contains("charge");
    Files.writeString(dir.resolve("bad3.properties"), "colour = blue\n");
    assertThat(Cli.run(dir, "scan", "--config", "bad3.properties").err).contains("colour");
  }

  @Test
  void configuredNonIdempotentAndIdempotentMethods() throws IOException {
    String retry =
        """
        package demo;

        class Mailer {
          void send(String to) throws java.io.IOException {}
        }

        class Sender {
          void deliver(Mailer mailer) {
            for (int attempt = 0; attempt < 3; attempt++) {
              try {
                mailer.send("a@b");
                return;
              } catch (java.io.IOException e) {
                // retry
              }
            }
          }
        }
        """;
    Samples.write(dir, "Mailer.java", retry);
    assertThat(Cli.run(dir, "scan").out).doesNotContain("NonIdempotentRetry");
    Files.writeString(dir.resolve("b.properties"), "nonIdempotent = demo.Mailer#send\n");
    assertThat(Cli.run(dir, "scan", "--config", "b.properties").out)
        .contains("[NonIdempotentRetry]");
    Files.writeString(
        dir.resolve("c.properties"),
        "nonIdempotent = demo.Mailer#send\nidempotent = demo.Mailer#send\n");
    assertThat(Cli.run(dir, "scan", "--config", "c.properties").out)
        .doesNotContain("[NonIdempotentRetry]");
  }

  @Test
  void excludesGlobs() {
    Samples.write(dir, "gen/Pause.java", Samples.SWALLOWED);
    Samples.write(dir, "src/Clean.java", Samples.CLEAN);
    Cli cli = Cli.run(dir, "scan", "--exclude", "gen/**");
    assertThat(cli.exit).as(cli.toString()).isZero();
  }

  @Test
  void factsCrossFilesWithoutAClassPath() {
    Samples.write(dir, "demo/UsesWaiter.java", Samples.CALLS_OTHER_FILE);
    Cli alone = Cli.run(dir, "scan", "demo/UsesWaiter.java");
    assertThat(alone.out).doesNotContain("[InterruptRetried]");
    Samples.write(dir, "demo/Waiter.java", Samples.WAITER);
    Cli both = Cli.run(dir, "scan");
    assertThat(both.out).contains("demo/UsesWaiter.java:9:").contains("[InterruptRetried]");
  }

  @Test
  void writesTheReportToAFile() throws IOException {
    Samples.write(dir, "Pause.java", Samples.SWALLOWED);
    Cli cli = Cli.run(dir, "scan", "--format", "json", "--output", "report.json");
    assertThat(cli.exit).isEqualTo(1);
    assertThat(cli.out).isEmpty();
    assertThat(Files.readString(dir.resolve("report.json")))
        .contains("\"rule\" : \"InterruptSwallowed\"")
        .contains("\"fingerprint\"");
  }

  @Test
  void githubAnnotationsAreEscaped() {
    Samples.write(dir, "Pause.java", Samples.SWALLOWED);
    Cli cli = Cli.run(dir, "scan", "-f=github");
    assertThat(cli.out)
        .startsWith(
            "::warning file=Pause.java,line=7,col=14,endLine=7,title=Bounded InterruptSwallowed::");
    assertThat(cli.out.lines()).hasSize(1);
  }
}
