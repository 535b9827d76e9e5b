package dev.bounded.scanner;

import java.nio.file.Path;

/** Where a scan's paths are rooted, for tools that need the repository's root. */
public final class ScannerPaths {
  private ScannerPaths() {}

  /**
   * Returns the root of the git repository holding a directory.
   *
   * @param directory a directory
   * @return the root, or {@code null} outside a repository
   */
  public static Path gitRoot(Path directory) {
    Path root = Git.root(directory);
    return root == null ? null : root.toAbsolutePath().normalize();
  }
}
