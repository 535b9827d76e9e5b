package dev.bounded.scanner.output;

/** The scanner's version, from its jar's manifest when it runs from one. */
public final class Version {
  /** The version, or {@code dev} when not packaged. */
  public static final String VERSION = read();

  private Version() {}

  private static String read() {
    String v = Version.class.getPackage().getImplementationVersion();
    return v == null ? "0.1.0-SNAPSHOT" : v;
  }
}
