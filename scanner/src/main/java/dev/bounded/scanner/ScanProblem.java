package dev.bounded.scanner;

/**
 * An input the scan could not use (a file it could not read or parse, a path that does not exist),
 * or a notice about one (an empty file). Reported once, on stderr and as a SARIF tool notification;
 * the scan goes on with the rest.
 *
 * @param path the path as the user gave it or as found under a given directory
 * @param message what went wrong, one line
 * @param isError whether it counts as an input error (exit code 2); notices do not
 */
public record ScanProblem(String path, String message, boolean isError) {}
