package dev.bounded.scanner.javaparser;

import com.github.javaparser.ast.body.CallableDeclaration;
import dev.bounded.checks.model.MethodModel;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The other scanned files, as far as the analysis of one file may ask about them: the declaration
 * of a method that a call of the analysed file invokes, when a scanned file declares it ({@link
 * dev.bounded.checks.model.UnitIndex#declarationInProject}). Each other file read gets an index of
 * its own, made on first use and kept for the analysis of the one file, so a method's model is
 * built once per analysed file. Not thread-safe: it belongs to the thread that analyses the file.
 */
final class ScannedProject {
  private final JavaParserFrontend.Sources sources;
  private final ScannerTypes types;
  private final Set<String> idempotentMethods;
  private final Predicate<String> hasType;
  private final Map<String, JavaParserUnitIndex> files = new HashMap<>();
  private final IdentityHashMap<MethodModel, JavaParserUnitIndex> owners = new IdentityHashMap<>();

  ScannedProject(
      JavaParserFrontend.Sources sources,
      ScannerTypes types,
      Set<String> idempotentMethods,
      Predicate<String> hasType) {
    this.sources = sources;
    this.types = types;
    this.idempotentMethods = idempotentMethods;
    this.hasType = hasType;
  }

  /** Registers the index of the analysed file, so the others' calls back into it resolve there. */
  void add(String file, JavaParserUnitIndex index) {
    files.put(file, index);
  }

  /**
   * Returns the model of a method another scanned file declares.
   *
   * @param resolved the method a call invokes
   * @return its model, or {@code null} if its file cannot be read or has no such body
   */
  MethodModel declaration(ScannerTypes.Resolved resolved) {
    String file = resolved.owner().file();
    if (file == null || resolved.decl() == null) {
      return null;
    }
    JavaParserUnitIndex index = files.get(file);
    if (index == null && !files.containsKey(file)) {
      ParsedFile parsed = sources == null ? null : sources.read(file);
      index =
          parsed == null
              ? null
              : new JavaParserUnitIndex(
                  parsed.source(),
                  parsed.unit(),
                  FileScope.of(parsed.unit()),
                  types,
                  idempotentMethods,
                  hasType,
                  this);
      files.put(file, index); // null: cannot be read, asked once
    }
    if (index == null) {
      return null;
    }
    CallableDeclaration<?> callable = index.callable(resolved);
    return callable == null ? null : index.model(callable);
  }

  /** Records which index built a model. */
  void built(MethodModel model, JavaParserUnitIndex index) {
    owners.put(model, index);
  }

  /** The index that built a model, or {@code null}. */
  JavaParserUnitIndex ownerOf(MethodModel model) {
    return owners.get(model);
  }
}
