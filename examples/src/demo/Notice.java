/**
 * Printed first by the README's demo command ({@code -Pdemo}), before Maven builds the modules:
 * with {@code -q} the build is otherwise silent until the demo runs, for about 40 s on an empty
 * Maven cache. Run as a single-file program ({@code java Notice.java}).
 */
final class Notice {
  public static void main(String[] args) {
    System.out.println(
        "Building Bounded's modules before the demo runs (on an empty Maven cache the first run\n"
            + "downloads Error Prone and the build plugins: about 40 s; later runs take seconds).");
  }
}
