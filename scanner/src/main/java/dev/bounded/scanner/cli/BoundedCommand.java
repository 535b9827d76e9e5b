package dev.bounded.scanner.cli;

import dev.bounded.scanner.output.Version;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bounded}: the scanner's command line, with its subcommands. */
@Command(
    name = "bounded",
    mixinStandardHelpOptions = true,
    versionProvider = BoundedCommand.VersionProvider.class,
    description =
        "Finds unbounded retries, lost interrupts, per-attempt timeouts and unbounded queues.",
    subcommands = {ScanCommand.class, LspCommand.class, CommandLine.HelpCommand.class})
public final class BoundedCommand implements Runnable {
  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  /** Creates the command (picocli instantiates it). */
  public BoundedCommand() {}

  @Override
  public void run() {
    throw new CommandLine.ParameterException(
        spec.commandLine(), "a subcommand is required: scan or lsp");
  }

  /**
   * Runs the command line and exits with its code.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    PrintWriter out =
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err =
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    System.exit(run(args, out, err));
  }

  /**
   * Runs the command line without exiting: the entry point of tests.
   *
   * @param args the arguments
   * @param out standard output
   * @param err standard error
   * @return the exit code: 0, 1 (findings) or 2 (usage or input error)
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    return run(args, Path.of("").toAbsolutePath(), out, err);
  }

  /**
   * Runs the command line in a working directory, without exiting: the entry point of tests.
   *
   * @param args the arguments
   * @param workingDirectory what relative paths are relative to
   * @param out standard output
   * @param err standard error
   * @return the exit code: 0, 1 (findings) or 2 (usage or input error)
   */
  public static int run(String[] args, Path workingDirectory, PrintWriter out, PrintWriter err) {
    CommandLine.IFactory defaults = CommandLine.defaultFactory();
    CommandLine.IFactory factory =
        new CommandLine.IFactory() {
          @Override
          public <K> K create(Class<K> cls) throws Exception {
            if (cls == ScanCommand.class) {
              return cls.cast(new ScanCommand(workingDirectory));
            }
            return defaults.create(cls);
          }
        };
    CommandLine line = new CommandLine(new BoundedCommand(), factory);
    line.setOut(out);
    line.setErr(err);
    line.setExitCodeExceptionMapper(e -> ScanCommand.EXIT_ERROR);
    line.setParameterExceptionHandler(
        (e, a) -> {
          err.println("bounded: " + e.getMessage());
          err.println("Run 'bounded scan --help' for usage.");
          return ScanCommand.EXIT_ERROR;
        });
    line.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          err.println("bounded: internal error: " + e);
          return ScanCommand.EXIT_ERROR;
        });
    int code = line.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** The version from the jar's manifest. */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"bounded " + Version.VERSION};
    }
  }
}
