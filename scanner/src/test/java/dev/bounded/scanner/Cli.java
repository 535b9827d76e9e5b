package dev.bounded.scanner;

import dev.bounded.scanner.cli.BoundedCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

/** Runs the command line in-process, in a working directory, and keeps what it printed. */
final class Cli {
  final int exit;
  final String out;
  final String err;

  private Cli(int exit, String out, String err) {
    this.exit = exit;
    this.out = out;
    this.err = err;
  }

  /** Runs {@code bounded args...} with paths resolved against {@code dir}. */
  static Cli run(Path dir, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = BoundedCommand.run(args, dir, new PrintWriter(out), new PrintWriter(err));
    return new Cli(exit, out.toString(), err.toString());
  }

  @Override
  public String toString() {
    return "exit " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err;
  }
}
