package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --fix} in place (idempotent) and {@code --patch} for {@code git apply}. */
final class FixAndPatchTest {
  @TempDir Path dir;

  @Test
  void fixAppliesInPlaceAndASecondRunChangesNothing() throws Exception {
    Path file = Samples.write(dir, "src/demo/Pause.java", Samples.SWALLOWED);
    Path clean = Samples.write(dir, "src/demo/Clean.java", Samples.CLEAN);
    Cli first = Cli.run(dir, "scan", "--fix");
    assertThat(first.exit).as(first.toString()).isZero();
    assertThat(first.err).contains("Fixed 1 findings in 1 files.");
    String fixed = Files.readString(file);
    assertThat(fixed).contains("Thread.currentThread().interrupt();");
    assertThat(Files.readString(clean)).isEqualTo(Samples.CLEAN);
    long modified = Files.getLastModifiedTime(file).toMillis();
    Cli second = Cli.run(dir, "scan", "--fix");
    assertThat(second.exit).isZero();
    assertThat(second.err).contains("Fixed 0 findings in 0 files.");
    assertThat(Files.readString(file)).isEqualTo(fixed);
    assertThat(Files.getLastModifiedTime(file).toMillis()).isEqualTo(modified);
  }

  @Test
  void patchIsAcceptedByGitApplyFromTheRepositoryRoot() throws Exception {
    Path file = Samples.write(dir, "src/demo/Pause.java", Samples.SWALLOWED);
    git("init", "-q");
    Path sub = dir.resolve("src");
    Cli cli = Cli.run(sub, "scan", "--patch", "../fixes.patch");
    assertThat(cli.exit).as(cli.toString()).isEqualTo(1);
    assertThat(Files.readString(file))
        .as("--patch alone changes no file")
        .isEqualTo(Samples.SWALLOWED);
    String patch = Files.readString(dir.resolve("fixes.patch"));
    assertThat(patch).startsWith("diff --git a/src/demo/Pause.java b/src/demo/Pause.java\n");
    git("apply", "--check", "fixes.patch");
    git("apply", "fixes.patch");
    Path expected = Samples.write(dir.resolve("copy"), "src/demo/Pause.java", Samples.SWALLOWED);
    Cli.run(dir.resolve("copy"), "scan", "--fix");
    assertThat(Files.readString(file)).isEqualTo(Files.readString(expected));
  }

  private void git(String... args) throws Exception {
    String[] command = new String[args.length + 3];
    command[0] = "git";
    command[1] = "-C";
    command[2] = dir.toString();
    System.arraycopy(args, 0, command, 3, args.length);
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as(output).isZero();
  }
}
