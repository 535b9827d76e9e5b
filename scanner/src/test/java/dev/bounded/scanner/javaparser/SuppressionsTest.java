package dev.bounded.scanner.javaparser;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bounded.checks.model.Edit;
import org.junit.jupiter.api.Test;

/** "Suppress for this method": a new annotation, or the rule merged into the one there. */
final class SuppressionsTest {
  private static String suppress(String text, String at, String rule) throws Exception {
    ParsedFile file = ParsedFile.parse(new SourceFile("A.java", text));
    ParsedFile.Suppression s = file.suppression(text.indexOf(at), rule);
    Edit e = s.edit();
    return text.substring(0, e.start()) + e.replacement() + text.substring(e.end());
  }

  private static String target(String text, String at) throws Exception {
    return ParsedFile.parse(new SourceFile("A.java", text))
        .suppression(text.indexOf(at), "R")
        .target();
  }

  @Test
  void addsAnAnnotationAboveTheMethodAtItsIndentation() throws Exception {
    String text = "class A {\n  public void m() {\n    f();\n  }\n}\n";
    assertThat(suppress(text, "f()", "R"))
        .isEqualTo(
            "class A {\n  @SuppressWarnings(\"R\")\n  public void m() {\n    f();\n  }\n}\n");
    assertThat(target(text, "f()")).isEqualTo("method m");
  }

  @Test
  void keepsOtherAnnotationsAndWindowsLineEnds() throws Exception {
    String text = "class A {\r\n  @Override\r\n  public String toString() { return f(); }\r\n}\r\n";
    String expected =
        "class A {\r\n  @SuppressWarnings(\"R\")\r\n  @Override\r\n  public String toString() {"
            .concat(" return f(); }\r\n}\r\n");
    assertThat(suppress(text, "f()", "R")).isEqualTo(expected);
  }

  @Test
  void aMemberOnTheLineOfSomethingElseGetsTheAnnotationInline() throws Exception {
    String text = "class A { void m() { f(); } }";
    assertThat(suppress(text, "f()", "R"))
        .isEqualTo("class A { @SuppressWarnings(\"R\") void m() { f(); } }");
  }

  @Test
  void mergesIntoASingleValue() throws Exception {
    String text = "class A {\n  @SuppressWarnings(\"unchecked\")\n  void m() { f(); }\n}\n";
    assertThat(suppress(text, "f()", "R"))
        .contains("@SuppressWarnings({\"unchecked\", \"R\"})\n  void m()");
  }

  @Test
  void mergesIntoAnArrayAndANamedValue() throws Exception {
    assertThat(
            suppress("class A { @SuppressWarnings({\"a\", \"b\"}) void m() { f(); } }", "f()", "R"))
        .contains("@SuppressWarnings({\"a\", \"b\", \"R\"}) void m()");
    assertThat(suppress("class A { @SuppressWarnings({}) void m() { f(); } }", "f()", "R"))
        .contains("@SuppressWarnings({\"R\"}) void m()");
    assertThat(
            suppress(
                "class A { @java.lang.SuppressWarnings(value = \"a\") void m() { f(); } }",
                "f()",
                "R"))
        .contains("@java.lang.SuppressWarnings(value = {\"a\", \"R\"}) void m()");
  }

  @Test
  void theInnermostMethodOrConstructorElseTheClass() throws Exception {
    String text =
        """
        class A {
          A() { g(); }
          Runnable r = () -> h();
          void m() {
            new Object() { void inner() { f(); } };
          }
        }
        """;
    assertThat(target(text, "f()")).isEqualTo("method inner");
    assertThat(target(text, "g()")).isEqualTo("constructor A");
    assertThat(target(text, "h()")).isEqualTo("class A");
  }
}
