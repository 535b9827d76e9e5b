package dev.bounded.scanner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Only the command-line package knows picocli; only the frontend and the scan know javaparser. */
final class ArchitectureTest {
  private static List<Path> sources() throws IOException {
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      return files.filter(f -> f.toString().endsWith(".java")).toList();
    }
  }

  @Test
  void picocliStaysInTheCommandLine() throws IOException {
    for (Path file : sources()) {
      if (!file.toString().contains("/cli/")) {
        assertThat(Files.readString(file)).as(file.toString()).doesNotContain("import picocli");
      }
    }
  }

  @Test
  void javaparserStaysInTheFrontend() throws IOException {
    for (Path file : sources()) {
      String text = Files.readString(file);
      if (!file.toString().contains("/javaparser/") && !file.endsWith("Scanner.java")) {
        assertThat(text).as(file.toString()).doesNotContain("import com.github.javaparser");
      }
    }
  }
}
