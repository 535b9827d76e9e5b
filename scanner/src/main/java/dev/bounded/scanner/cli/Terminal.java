package dev.bounded.scanner.cli;

import java.io.Console;
import java.lang.reflect.Method;

/** Whether the scanner talks to a person at a terminal (colour, progress). */
final class Terminal {
  private Terminal() {}

  // On JDK 17-21 a console exists only on a terminal; on 22+ isTerminal() tells.
  @SuppressWarnings("SystemConsoleNull")
  static boolean isInteractive() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      // JDK 22+: a console exists even when redirected; ask whether it is a terminal.
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 17-21: a console exists only on a terminal
    }
  }
}
