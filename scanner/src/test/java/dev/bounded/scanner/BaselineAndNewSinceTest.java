package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Baselines (fingerprints that survive moved lines) and the changed-lines filter. */
final class BaselineAndNewSinceTest {
  @TempDir Path dir;

  private static final String SECOND_METHOD =
      """
        void nap(java.util.concurrent.BlockingQueue<String> queue) {
          try {
            queue.take();
          } catch (InterruptedException e) {
          }
        }
      }
      """;

  @Test
  void aBaselineKeepsOldFindingsQuietEvenWhenTheirLinesMove() throws IOException {
    Path file = Samples.write(dir, "demo/Pause.java", Samples.SWALLOWED);
    Cli write = Cli.run(dir, "scan", "--write-baseline", "baseline.json");
    assertThat(write.exit).as(write.toString()).isZero();
    assertThat(write.err).contains("Wrote a baseline of 1 findings");
    assertThat(Cli.run(dir, "scan", "--baseline", "baseline.json").exit).isZero();

    // Unrelated edits move the old finding down three lines.
    String moved =
        Files.readString(file)
            .replace("class Pause {", "class Pause {\n  int a;\n  int b;\n  int c;");
    Files.writeString(file, moved);
    Cli after = Cli.run(dir, "scan", "--baseline", "baseline.json");
    assertThat(after.exit).as(after.toString()).isZero();

    // A new finding is reported, the old one still is not.
    int end = moved.lastIndexOf('}');
    Files.writeString(file, moved.substring(0, end) + SECOND_METHOD);
    Cli added = Cli.run(dir, "scan", "--baseline", "baseline.json");
    assertThat(added.exit).isEqualTo(1);
    assertThat(added.out).containsOnlyOnce("[InterruptSwallowed]").contains("Pause.java:16:");
  }

  @Test
  void newSinceReportsOnlyFindingsOnChangedLines() throws Exception {
    Path file = Samples.write(dir, "demo/Pause.java", Samples.SWALLOWED);
    git("init", "-q");
    git("add", ".");
    git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "one");
    assertThat(Cli.run(dir, "scan", "--new-since", "HEAD").exit).isZero();
    String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.lastIndexOf('}')) + SECOND_METHOD);
    Samples.write(dir, "demo/Untracked.java", Samples.SWALLOWED.replace("Pause", "Untracked"));
    Cli cli = Cli.run(dir, "scan", "--new-since", "HEAD");
    assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
    assertThat(cli.out)
        .contains("demo/Pause.java:13:")
        .doesNotContain("demo/Pause.java:7:")
        .contains("demo/Untracked.java:7:");
    Cli bad = Cli.run(dir, "scan", "--new-since", "no-such-ref");
    assertThat(bad.exit).isEqualTo(2);
    assertThat(bad.err).contains("no-such-ref");
  }

  private void git(String... args) throws Exception {
    String[] command = new String[args.length + 3];
    command[0] = "git";
    command[1] = "-C";
    command[2] = dir.toString();
    System.arraycopy(args, 0, command, 3, args.length);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
  }
}
