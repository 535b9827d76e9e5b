package dev.bounded.scanner;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the first suggested fix of each finding to its file's text. A fix whose edits overlap an
 * edit already taken is left out whole (it is reported again on the next run, against the new
 * text); identical edits (the same import twice) are applied once.
 */
public final class FixApplier {
  private FixApplier() {}

  /**
   * The result for one file.
   *
   * @param text the new text
   * @param applied the findings whose fix was applied
   */
  public record Result(String text, List<ScanFinding> applied) {}

  /**
   * Applies fixes to one file.
   *
   * @param text the file's current text (the one the findings were computed on)
   * @param findings findings of that file
   * @return the new text and the findings fixed
   */
  public static Result apply(String text, List<ScanFinding> findings) {
    List<ScanFinding.EditView> taken = new ArrayList<>();
    List<ScanFinding> applied = new ArrayList<>();
    for (ScanFinding finding : findings) {
      if (finding.fixes().isEmpty()) {
        continue;
      }
      List<ScanFinding.EditView> edits = finding.fixes().get(0).edits();
      boolean clashes = false;
      for (ScanFinding.EditView e : edits) {
        for (ScanFinding.EditView t : taken) {
          if (!same(e, t) && overlaps(e, t)) {
            clashes = true;
          }
        }
      }
      if (clashes) {
        continue;
      }
      for (ScanFinding.EditView e : edits) {
        if (taken.stream().noneMatch(t -> same(e, t))) {
          taken.add(e);
        }
      }
      applied.add(finding);
    }
    taken.sort(
        Comparator.comparingInt(ScanFinding.EditView::start)
            .thenComparingInt(ScanFinding.EditView::end));
    StringBuilder out = new StringBuilder(text.length() + 256);
    int at = 0;
    for (ScanFinding.EditView e : taken) {
      out.append(text, at, e.start()).append(e.replacement());
      at = e.end();
    }
    out.append(text, at, text.length());
    return new Result(out.toString(), applied);
  }

  /** Groups findings by file, keeping their order. */
  public static Map<String, List<ScanFinding>> byFile(List<ScanFinding> findings) {
    Map<String, List<ScanFinding>> byFile = new LinkedHashMap<>();
    for (ScanFinding f : findings) {
      byFile.computeIfAbsent(f.path(), k -> new ArrayList<>()).add(f);
    }
    return byFile;
  }

  private static boolean same(ScanFinding.EditView a, ScanFinding.EditView b) {
    return a.start() == b.start() && a.end() == b.end() && a.replacement().equals(b.replacement());
  }

  private static boolean overlaps(ScanFinding.EditView a, ScanFinding.EditView b) {
    if (a.start() == a.end() || b.start() == b.end()) {
      // insertions clash only with a replacement that strictly contains their point
      int point = a.start() == a.end() ? a.start() : b.start();
      ScanFinding.EditView other = a.start() == a.end() ? b : a;
      return other.start() < point && point < other.end();
    }
    return a.start() < b.end() && b.start() < a.end();
  }
}
