package dev.bounded.scanner;

import dev.bounded.checks.model.Edit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a fix's imports into edits of the file: each missing import is inserted among the existing
 * single-type imports in sorted order (as Error Prone's import organiser would place it), or after
 * the package declaration when there are none.
 */
final class Imports {
  private static final Pattern PACKAGE =
      Pattern.compile("^package\\s+([\\w.]+)\\s*;[ \\t]*\\R?", Pattern.MULTILINE);
  private static final Pattern IMPORT =
      Pattern.compile(
          "^import\\s+(static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;[ \\t]*\\R?", Pattern.MULTILINE);

  /**
   * The first type declaration at the start of a line: no import comes after it, so the import
   * patterns need not look further (a fix's imports are computed per finding, and a large file
   * would otherwise be searched to its end each time).
   */
  private static final Pattern FIRST_TYPE =
      Pattern.compile(
          "^(?:(?:public|protected|private|abstract|final|static|sealed|non-sealed|strictfp)\\s+)*"
              + "(?:class|interface|enum|record|@interface)\\b",
          Pattern.MULTILINE);

  private Imports() {}

  /** Where imports can be: from the start to the first type declaration (or the end). */
  private static int headerEnd(String source) {
    Matcher type = FIRST_TYPE.matcher(source);
    return type.find() ? type.start() : source.length();
  }

  /** The edits that add {@code types} to the file's imports; none for types already visible. */
  static List<Edit> edits(String source, Iterable<String> types) {
    if (!types.iterator().hasNext()) {
      return List.of(); /* Fast path: most fixes add no import. */
    }
    Matcher pkg = PACKAGE.matcher(source);
    String packageName = pkg.find() ? pkg.group(1) : "";
    int afterPackage = packageName.isEmpty() ? 0 : pkg.end();
    List<int[]> imports = new ArrayList<>(); // start, end of each non-static import line
    List<String> names = new ArrayList<>();
    Matcher m = IMPORT.matcher(source).region(0, headerEnd(source));
    int lastImportEnd = -1;
    boolean hasStatic = false;
    while (m.find()) {
      if (m.group(1) != null) {
        hasStatic = true;
        lastImportEnd = m.end();
        continue;
      }
      imports.add(new int[] {m.start(), m.end()});
      names.add(m.group(2));
      lastImportEnd = m.end();
    }
    String newline = source.contains("\r\n") ? "\r\n" : "\n";
    List<Edit> edits = new ArrayList<>();
    for (String type : sorted(types)) {
      int dot = type.lastIndexOf('.');
      String typePackage = dot < 0 ? "" : type.substring(0, dot);
      if (names.contains(type)
          || names.contains(typePackage + ".*")
          || typePackage.equals(packageName)
          || typePackage.equals("java.lang")) {
        continue;
      }
      String line = "import " + type + ";" + newline;
      int at = -1;
      for (int i = 0; i < names.size(); i++) {
        if (names.get(i).compareTo(type) > 0) {
          at = imports.get(i)[0];
          break;
        }
      }
      if (at < 0 && !imports.isEmpty()) {
        at = imports.get(imports.size() - 1)[1];
      } else if (at < 0 && hasStatic) {
        at = lastImportEnd;
        line = newline + line;
      } else if (at < 0) {
        at = afterPackage;
        line = (afterPackage > 0 ? newline : "") + line + (afterPackage > 0 ? "" : newline);
      }
      edits.add(Edit.insert(at, line));
    }
    return edits;
  }

  /** The edits that delete the import lines of {@code types} (the fix made them unused). */
  static List<Edit> removals(String source, Iterable<String> types) {
    List<String> removed = sorted(types);
    if (removed.isEmpty()) {
      return List.of(); /* Fast path: most fixes remove no import. */
    }
    List<Edit> edits = new ArrayList<>();
    Matcher m = IMPORT.matcher(source).region(0, headerEnd(source));
    while (m.find()) {
      if (m.group(1) == null && removed.contains(m.group(2))) {
        edits.add(new Edit(m.start(), m.end(), ""));
      }
    }
    return edits;
  }

  private static List<String> sorted(Iterable<String> types) {
    List<String> list = new ArrayList<>();
    types.forEach(list::add);
    list.sort(null);
    return list;
  }
}
