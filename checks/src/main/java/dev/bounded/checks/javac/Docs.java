package dev.bounded.checks.javac;

/** Where each check's page lives; diagnostics link to it. */
final class Docs {
  /**
   * The rule pages, relative to the root of Bounded's repository. Override the base with {@code
   * -XepOpt:Bounded:DocsUrl=https://your.mirror/docs/rules/}.
   */
  static final String RULES = "docs/rules/";

  private Docs() {}
}
