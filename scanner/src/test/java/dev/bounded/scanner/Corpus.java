package dev.bounded.scanner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The shared fixture corpus of test-fixtures, wherever it is on the test class path. */
final class Corpus {
  /** The marker of fixtures only a frontend with full type information must get right. */
  static final String REQUIRES_TYPES = "// bounded:requires-types";

  private Corpus() {}

  static Path root() {
    try {
      URI uri = Corpus.class.getResource("/fixtures").toURI();
      if (uri.getScheme().equals("jar")) {
        try {
          FileSystems.newFileSystem(uri, Map.of());
        } catch (FileSystemAlreadyExistsException e) {
          // already open
        }
      }
      return Path.of(uri);
    } catch (URISyntaxException | IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every fixture that is not the expected output of a fix, by rule directory and name. */
  static List<Path> inputs() {
    try (Stream<Path> files = Files.walk(root())) {
      return files
          .filter(f -> f.toString().endsWith(".java") && !f.toString().endsWith(".fixed.java"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String rule(Path fixture) {
    return fixture.getParent().getFileName().toString();
  }

  static String name(Path fixture) {
    return rule(fixture) + "/" + fixture.getFileName();
  }
}
