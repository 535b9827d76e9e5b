package dev.bounded.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Rules are written once against the frontend-neutral model: the model, the analysis and the rules
 * must not import any frontend (javac, Error Prone, javaparser).
 */
final class ArchitectureTest {
  private static final Path SOURCES = Path.of("src/main/java/dev/bounded/checks");
  private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(static\\s+)?([\\w.]+)");
  private static final List<String> FRONTEND_PACKAGES =
      List.of("com.sun.", "com.google.errorprone.", "com.github.javaparser.", "javax.lang.model.");

  @Test
  void frontendNeutralPackagesImportNoFrontend() throws IOException {
    List<String> violations = new ArrayList<>();
    for (String pkg : List.of("model", "analysis", "rules")) {
      try (Stream<Path> files = Files.walk(SOURCES.resolve(pkg))) {
        files.filter(f -> f.toString().endsWith(".java")).forEach(f -> collect(f, violations));
      }
    }
    assertThat(violations).isEmpty();
  }

  @Test
  void theCheckIsNotVacuous() {
    List<String> violations = new ArrayList<>();
    collect(SOURCES.resolve("javac/BoundedChecker.java"), violations);
    assertThat(violations).isNotEmpty();
  }

  private static void collect(Path file, List<String> violations) {
    String source;
    try {
      source = Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Matcher m = IMPORT.matcher(source);
    while (m.find()) {
      String imported = m.group(2);
      for (String frontend : FRONTEND_PACKAGES) {
        if (imported.startsWith(frontend)) {
          violations.add(file.getFileName() + " imports " + imported);
        }
      }
    }
  }
}
