package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.ArrayInitializerExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MemberValuePair;
import com.github.javaparser.ast.expr.NormalAnnotationExpr;
import com.github.javaparser.ast.expr.SingleMemberAnnotationExpr;
import com.github.javaparser.ast.nodeTypes.NodeWithAnnotations;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Span;

/**
 * Builds the edit behind "suppress for this method": {@code @SuppressWarnings("Rule")} on the
 * declaration the frontend's suppression check reads (the enclosing method or constructor; the
 * class for a field initialiser or an initialiser block), merged into an existing
 * {@code @SuppressWarnings} when there is one.
 */
final class Suppressions {
  private Suppressions() {}

  static ParsedFile.Suppression of(
      SourceFile source, CompilationUnit unit, int offset, String rule) {
    Node target = innermost(unit, source, offset);
    if (target == null) {
      return null;
    }
    String what = describe(target);
    String literal = "\"" + rule + "\"";
    for (AnnotationExpr a : ((NodeWithAnnotations<?>) target).getAnnotations()) {
      String name = a.getNameAsString();
      if (name.equals("SuppressWarnings") || name.equals("java.lang.SuppressWarnings")) {
        Edit edit = merge(source, a, literal);
        return edit == null ? null : new ParsedFile.Suppression(what, edit);
      }
    }
    Span span = source.span(target.getRange().orElse(null));
    if (!span.isKnown()) {
      return null;
    }
    int start = span.start();
    int lineStart = source.offset(source.line(start), 1);
    String indent = source.text().substring(lineStart, start);
    String annotation = "@SuppressWarnings(" + literal + ")";
    String newline = source.text().contains("\r\n") ? "\r\n" : "\n";
    String inserted =
        indent.isBlank() ? annotation + newline + indent : annotation + " "; // a one-line member
    return new ParsedFile.Suppression(what, Edit.insert(start, inserted));
  }

  /** The innermost method or constructor holding the offset, else the innermost named class. */
  private static Node innermost(CompilationUnit unit, SourceFile source, int offset) {
    Node[] best = {null, null}; // callable, type
    int[] size = {Integer.MAX_VALUE, Integer.MAX_VALUE};
    unit.walk(
        n -> {
          int slot;
          if (n instanceof CallableDeclaration<?>) {
            slot = 0;
          } else if (n instanceof TypeDeclaration<?>) {
            slot = 1;
          } else {
            return;
          }
          Span span = source.span(n.getRange().orElse(null));
          if (span.isKnown()
              && span.start() <= offset
              && offset < span.end()
              && span.end() - span.start() < size[slot]) {
            best[slot] = n;
            size[slot] = span.end() - span.start();
          }
        });
    return best[0] != null ? best[0] : best[1];
  }

  private static String describe(Node target) {
    if (target instanceof ConstructorDeclaration c) {
      return "constructor " + c.getNameAsString();
    }
    if (target instanceof CallableDeclaration<?> c) {
      return "method " + c.getNameAsString();
    }
    return "class " + ((TypeDeclaration<?>) target).getNameAsString();
  }

  /** Adds the rule to an existing {@code @SuppressWarnings}. */
  private static Edit merge(SourceFile source, AnnotationExpr annotation, String literal) {
    Expression value = null;
    if (annotation instanceof SingleMemberAnnotationExpr single) {
      value = single.getMemberValue();
    } else if (annotation instanceof NormalAnnotationExpr normal) {
      for (MemberValuePair pair : normal.getPairs()) {
        if (pair.getNameAsString().equals("value")) {
          value = pair.getValue();
        }
      }
    }
    if (value == null) { // @SuppressWarnings or @SuppressWarnings(): replace it whole
      Span whole = source.span(annotation.getRange().orElse(null));
      return whole.isKnown()
          ? new Edit(whole.start(), whole.end(), "@SuppressWarnings(" + literal + ")")
          : null;
    }
    Span span = source.span(value.getRange().orElse(null));
    if (!span.isKnown()) {
      return null;
    }
    if (value instanceof ArrayInitializerExpr array) {
      if (array.getValues().isEmpty()) {
        return new Edit(span.start(), span.end(), "{" + literal + "}");
      }
      Span last = source.span(array.getValues().getLast().get().getRange().orElse(null));
      return last.isKnown() ? Edit.insert(last.end(), ", " + literal) : null;
    }
    String written = source.text().substring(span.start(), span.end());
    return new Edit(span.start(), span.end(), "{" + written + ", " + literal + "}");
  }
}
