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

  /** The directory of library stubs: not a rule's. */
  private static final String STUBS = "stubs";

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

  /**
   * Every single-file fixture that is not the expected output of a fix, by rule directory and name.
   */
  static List<Path> inputs() {
    try (Stream<Path> files = Files.walk(root(), 2)) {
      return files
          .filter(f -> f.toString().endsWith(".java") && !f.toString().endsWith(".fixed.java"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Every fixture of several files (a directory in a rule's directory, compiled and scanned
   * together), by rule directory and name.
   */
  static List<Path> cases() {
    try (Stream<Path> dirs = Files.walk(root(), 2)) {
      return dirs.filter(d -> Files.isDirectory(d) && root().relativize(d).getNameCount() == 2)
          .filter(d -> !root().relativize(d).startsWith(STUBS))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The stubs of libraries that are not on the fixtures' class path ({@code stubs/reactor/}),
   * compiled and scanned with every fixture of several files.
   */
  static List<Path> stubs() {
    try (Stream<Path> files = Files.walk(root().resolve(STUBS))) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The files of a fixture of several files. */
  static List<Path> filesOf(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
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
