package dev.bounded.scanner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines changed since a git revision ({@code git diff --unified=0 REF}), plus every line of
 * untracked files: a pull request's gate reports only findings on them.
 */
public final class ChangedLines {
  private static final Pattern HUNK =
      Pattern.compile("^@@ -\\d+(?:,\\d+)? \\+(\\d+)(?:,(\\d+))? @@");

  private final Path root;
  private final Map<Path, Set<Integer>> lines;
  private final Set<Path> wholeFiles;

  private ChangedLines(Path root, Map<Path, Set<Integer>> lines, Set<Path> wholeFiles) {
    this.root = root;
    this.lines = lines;
    this.wholeFiles = wholeFiles;
  }

  /**
   * Asks git what changed since a revision.
   *
   * @param directory a directory inside the repository
   * @param ref the revision ({@code origin/main}, a commit)
   * @return the changed lines
   * @throws IOException if git fails (not a repository, unknown revision), with git's message
   */
  public static ChangedLines since(Path directory, String ref) throws IOException {
    if (ref.startsWith("-")) {
      throw new IOException("not a revision: " + ref);
    }
    Path root = Path.of(git(directory, "rev-parse", "--show-toplevel").strip());
    String diff =
        git(root, "diff", "--no-color", "--no-ext-diff", "--unified=0", "--no-renames", ref, "--");
    Map<Path, Set<Integer>> lines = new HashMap<>();
    Path current = null;
    for (String line : diff.split("\n", -1)) {
      if (line.startsWith("+++ ")) {
        String name = line.substring(4);
        current = name.equals("/dev/null") ? null : root.resolve(name.substring(2)).normalize();
      } else if (current != null) {
        Matcher m = HUNK.matcher(line);
        if (m.find()) {
          int start = Integer.parseInt(m.group(1));
          int count = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
          Set<Integer> set = lines.computeIfAbsent(current, k -> new HashSet<>());
          for (int i = start; i < start + count; i++) {
            set.add(i);
          }
        }
      }
    }
    Set<Path> untracked = new HashSet<>();
    for (String name : git(root, "ls-files", "--others", "--exclude-standard").split("\n", -1)) {
      if (!name.isBlank()) {
        untracked.add(root.resolve(name).normalize());
      }
    }
    return new ChangedLines(root, lines, untracked);
  }

  /**
   * Tells whether a line of a file changed.
   *
   * @param file the file (absolute, or relative to the working directory)
   * @param line a 1-based line
   * @return {@code true} if the line was added or modified since the revision
   */
  public boolean changed(Path file, int line) {
    Path abs = file.toAbsolutePath().normalize();
    if (wholeFiles.contains(abs)) {
      return true;
    }
    Set<Integer> set = lines.get(abs);
    return set != null && set.contains(line);
  }

  /**
   * Returns the repository's root.
   *
   * @return the root directory
   */
  public Path root() {
    return root;
  }

  private static String git(Path directory, String... args) throws IOException {
    return Git.run(directory, args);
  }
}
