package dev.bounded.scanner;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of one file, as {@code git apply} reads it: {@code a/} and {@code b/} paths and
 * hunks with three lines of context. Lines are compared after the common prefix and suffix are cut
 * off, with a longest-common-subsequence table over what remains (fixes change few lines).
 */
public final class UnifiedDiff {
  private static final int CONTEXT = 3;
  private static final long MAX_CELLS = 25_000_000L;

  private UnifiedDiff() {}

  /**
   * Returns the diff between two versions of a file, or the empty string if they are equal.
   *
   * @param path the path relative to the repository root, with {@code /} separators
   * @param before the old text
   * @param after the new text
   * @return the diff
   */
  public static String of(String path, String before, String after) {
    if (before.equals(after)) {
      return "";
    }
    List<String> a = lines(before);
    List<String> b = lines(after);
    int prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < a.size() - prefix
        && suffix < b.size() - prefix
        && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
      suffix++;
    }
    // ops: ' ' keep, '-' delete, '+' insert, over the whole file
    List<char[]> ops = new ArrayList<>();
    for (int i = 0; i < prefix; i++) {
      ops.add(new char[] {' '});
    }
    List<String> am = a.subList(prefix, a.size() - suffix);
    List<String> bm = b.subList(prefix, b.size() - suffix);
    ops.addAll(middle(am, bm));
    for (int i = 0; i < suffix; i++) {
      ops.add(new char[] {' '});
    }
    return render(path, a, b, ops);
  }

  private static List<char[]> middle(List<String> a, List<String> b) {
    List<char[]> ops = new ArrayList<>();
    if ((long) a.size() * b.size() > MAX_CELLS) {
      a.forEach(x -> ops.add(new char[] {'-'}));
      b.forEach(x -> ops.add(new char[] {'+'}));
      return ops;
    }
    int n = a.size();
    int m = b.size();
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] =
            a.get(i).equals(b.get(j))
                ? lcs[i + 1][j + 1] + 1
                : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    int i = 0;
    int j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a.get(i).equals(b.get(j))) {
        ops.add(new char[] {' '});
        i++;
        j++;
      } else if (j < m && (i == n || lcs[i][j + 1] >= lcs[i + 1][j])) {
        ops.add(new char[] {'+'});
        j++;
      } else {
        ops.add(new char[] {'-'});
        i++;
      }
    }
    return ops;
  }

  private static String render(String path, List<String> a, List<String> b, List<char[]> ops) {
    StringBuilder out = new StringBuilder();
    out.append("diff --git a/").append(path).append(" b/").append(path).append('\n');
    out.append("--- a/").append(path).append('\n');
    out.append("+++ b/").append(path).append('\n');
    int k = 0;
    int[] ai = new int[ops.size() + 1];
    int[] bi = new int[ops.size() + 1];
    for (int x = 0; x < ops.size(); x++) {
      char op = ops.get(x)[0];
      ai[x + 1] = ai[x] + (op == '+' ? 0 : 1);
      bi[x + 1] = bi[x] + (op == '-' ? 0 : 1);
    }
    while (k < ops.size()) {
      if (ops.get(k)[0] == ' ') {
        k++;
        continue;
      }
      int start = Math.max(0, k - CONTEXT);
      int end = k;
      int lastChange = k;
      while (end < ops.size()) {
        if (ops.get(end)[0] != ' ') {
          lastChange = end;
        } else if (end - lastChange > 2 * CONTEXT) {
          break;
        }
        end++;
      }
      end = Math.min(ops.size(), lastChange + 1 + CONTEXT);
      int aStart = ai[start];
      int bStart = bi[start];
      int aLen = ai[end] - aStart;
      int bLen = bi[end] - bStart;
      out.append("@@ -")
          .append(range(aStart, aLen))
          .append(" +")
          .append(range(bStart, bLen))
          .append(" @@\n");
      for (int x = start; x < end; x++) {
        char op = ops.get(x)[0];
        String line = op == '+' ? b.get(bi[x]) : a.get(ai[x]);
        out.append(op).append(line);
        if (!line.endsWith("\n")) {
          out.append("\n\\ No newline at end of file\n");
        }
      }
      k = end;
    }
    return out.toString();
  }

  private static String range(int start, int length) {
    return (length == 0 ? start : start + 1) + "," + length;
  }

  /** The lines of a text, each with its terminator (the last one may have none). */
  private static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        lines.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    if (start < text.length()) {
      lines.add(text.substring(start));
    }
    return lines;
  }
}
