package dev.bounded.checks.javac.stale;

/**
 * A class on the tests' class path that a test also compiles from source, as a stale build's output
 * or a library's own jar would be (see {@code PerAttemptTimeoutTest}).
 */
public abstract class StaleConnector {
  /**
   * Connects.
   *
   * @return the connection
   */
  public abstract String connect();
}
