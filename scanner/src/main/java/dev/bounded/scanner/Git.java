package dev.bounded.scanner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs git for the changed-lines filter and the patch's paths. */
final class Git {
  private Git() {}

  /**
   * Returns the root of the repository holding a directory.
   *
   * @param directory a directory
   * @return the root, or {@code null} if it is not in a git repository (or git is missing)
   */
  static Path root(Path directory) {
    try {
      return Path.of(run(directory, "rev-parse", "--show-toplevel").strip());
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Runs git in a directory and returns its standard output.
   *
   * @param directory where to run
   * @param args git's arguments
   * @return what git printed
   * @throws IOException if git cannot run or exits with an error, with git's message
   */
  static String run(Path directory, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add("git");
    command.add("-C");
    command.add(directory.toString());
    command.addAll(List.of(args));
    Process process;
    try {
      process = new ProcessBuilder(command).start();
    } catch (IOException e) {
      throw new IOException("cannot run git: " + e.getMessage(), e);
    }
    process.getOutputStream().close();
    StderrReader err = new StderrReader(process.getErrorStream());
    Thread reader = new Thread(err, "git-stderr");
    reader.setDaemon(true);
    reader.start();
    byte[] out;
    try (InputStream stdout = process.getInputStream()) {
      out = stdout.readAllBytes();
    }
    try {
      reader.join();
      int exit = process.waitFor();
      if (exit != 0) {
        String message = err.text().strip();
        throw new IOException(
            "git "
                + String.join(" ", args)
                + " failed: "
                + (message.isEmpty() ? "exit code " + exit : message));
      }
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for git", e);
    }
    return new String(out, StandardCharsets.UTF_8);
  }

  /** Drains stderr so that neither pipe fills up. */
  private static final class StderrReader implements Runnable {
    private final InputStream in;
    private volatile String text = "";

    StderrReader(InputStream in) {
      this.in = in;
    }

    @Override
    public void run() {
      try (InputStream stream = in) {
        text = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        text = "";
      }
    }

    String text() {
      return text;
    }
  }
}
