package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of bad input is reported once (stderr and a SARIF tool notification), the scan goes on,
 * the good file's finding is still reported, nothing is written, and no stack trace is printed.
 */
final class BadInputTest {
  @TempDir Path dir;

  @BeforeEach
  void goodFile() {
    Samples.write(dir, "Good.java", Samples.SWALLOWED);
  }

  private Cli scanExpectingProblem(String path, String message) throws IOException {
    List<Path> before;
    try (var files = Files.walk(dir)) {
      before = files.sorted().toList();
    }
    Cli cli = Cli.run(dir, "scan", "--format", "sarif");
    assertThat(cli.out).as(cli.toString()).contains("\"ruleId\" : \"InterruptSwallowed\"");
    assertThat(cli.err).as(cli.toString()).doesNotContain("\tat ").doesNotContain("Exception:");
    String line = path + ": " + message;
    List<String> reported = cli.err.lines().filter(l -> l.startsWith(path + ":")).toList();
    assertThat(reported).as("reported once").hasSize(1);
    assertThat(reported.get(0)).startsWith(line);
    assertThat(cli.out).contains("\"text\" : \"" + line.replace(": note: ", ": "));
    try (var files = Files.walk(dir)) {
      assertThat(files.sorted().toList()).as("writes nothing").isEqualTo(before);
    }
    return cli;
  }

  @Test
  void unparsableFile() throws IOException {
    Files.writeString(dir.resolve("Broken.java"), "class Broken { void f( { }\n");
    Cli cli = scanExpectingProblem("Broken.java", "syntax error at line 1: Parse error. Found");
    assertThat(cli.exit).isEqualTo(2);
  }

  @Test
  void notUtf8() throws IOException {
    byte[] latin1 = "class Caf\u00e9 {}\n".getBytes(StandardCharsets.ISO_8859_1);
    Files.write(dir.resolve("Latin.java"), latin1);
    assertThat(scanExpectingProblem("Latin.java", "not valid UTF-8: not scanned").exit)
        .isEqualTo(2);
  }

  @Test
  void binaryFileNamedJava() throws IOException {
    Files.write(dir.resolve("Blob.java"), new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 0, 1, 2});
    scanExpectingProblem("Blob.java", "binary file (holds NUL bytes): not Java source");
  }

  @Test
  void emptyFileIsANoteAndNotAnError() throws IOException {
    Files.write(dir.resolve("Empty.java"), new byte[0]);
    Cli cli = scanExpectingProblem("Empty.java", "note: empty file: nothing to scan");
    assertThat(cli.exit).isEqualTo(1); // the good file's finding; a note is no input error
  }

  @Test
  void veryLongLines() throws IOException {
    String longLine = "class Long { String s = \"" + "x".repeat(1_000_000) + "\"; }\n";
    Files.writeString(dir.resolve("Long.java"), longLine);
    String longFinding =
        Samples.SWALLOWED
            .replace("Pause", "P2")
            .replace("} catch", " ".repeat(200_000) + "} catch");
    Files.writeString(dir.resolve("LongFinding.java"), longFinding);
    Cli cli = Cli.run(dir, "scan");
    assertThat(cli.exit).as(cli.err).isEqualTo(1);
    assertThat(cli.err).isEmpty();
    assertThat(cli.out).contains("Found 2 findings").contains(" ...");
    assertThat(cli.out.lines().mapToInt(String::length).max().orElse(0)).isLessThan(1_000);
  }

  @Test
  void deeplyNestedExpression() throws IOException {
    int depth = 100_000;
    String nested = "class Deep { int x = " + "(".repeat(depth) + "1" + ")".repeat(depth) + "; }\n";
    Files.writeString(dir.resolve("Deep.java"), nested);
    scanExpectingProblem("Deep.java", "too deeply nested to parse");
  }

  @Test
  void symlinkLoop() throws IOException {
    Path sub = Files.createDirectories(dir.resolve("sub"));
    Files.createSymbolicLink(sub.resolve("loop"), dir);
    scanExpectingProblem("sub/loop", "symbolic link loop (not followed)");
  }

  @Test
  void unreadableFiles() throws IOException {
    Files.createDirectories(dir.resolve("Dir.java"));
    Files.createSymbolicLink(dir.resolve("Dangling.java"), dir.resolve("nowhere.java"));
    Cli cli = Cli.run(dir, "scan");
    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err).contains("Dangling.java: ").doesNotContain("\tat ");
    assertThat(cli.out).contains("[InterruptSwallowed]");
  }

  @Test
  void fileWithoutReadPermission() throws IOException {
    Path file = Samples.write(dir, "Secret.java", Samples.CLEAN);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
    assumeTrue(!Files.isReadable(file), "root reads every file: nothing to test");
    scanExpectingProblem("Secret.java", "cannot be read: permission denied");
  }

  @Test
  void pathThatDoesNotExist() {
    Cli cli = Cli.run(dir, "scan", "Good.java", "missing", "Good.java");
    assertThat(cli.exit).isEqualTo(2);
    assertThat(cli.err.lines()).containsExactly("missing: no such file or directory");
    assertThat(cli.out).containsOnlyOnce("[InterruptSwallowed]");
  }
}
