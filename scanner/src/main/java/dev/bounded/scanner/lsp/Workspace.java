package dev.bounded.scanner.lsp;

import dev.bounded.checks.rules.Rule;
import dev.bounded.scanner.ScanFinding;
import dev.bounded.scanner.ScanProblem;
import dev.bounded.scanner.Scanner;
import dev.bounded.scanner.Settings;
import dev.bounded.scanner.javaparser.DeclarationIndex;
import dev.bounded.scanner.javaparser.FileDeclarations;
import dev.bounded.scanner.javaparser.JavaParserFrontend;
import dev.bounded.scanner.javaparser.ParsedFile;
import dev.bounded.scanner.javaparser.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the language server knows, without a protocol type in sight: the settings file, the
 * workspace's declaration index (the scanner's first pass, one part per file as saved on disk), and
 * the last good analysis of each open document. An edited document is analysed with its current
 * declarations laid over the index's saved ones, so facts from other files hold while it is being
 * edited and its own new declarations count at once.
 *
 * <p>Not thread-safe: the server confines it to its one worker thread.
 */
final class Workspace {
  /** The settings file looked for at the workspace's root when none is named. */
  static final String DEFAULT_CONFIG = "bounded.properties";

  private final Path root;
  private final List<Path> folders;
  private final Path configFile;
  private final Consumer<String> log;
  private final Function<Settings, List<Rule>> rules;
  private Settings settings = Settings.defaults();
  private byte[] configContent;
  private boolean configRead;
  private Scanner scanner;
  private final Map<Path, FileDeclarations> saved = new HashMap<>();
  private DeclarationIndex index = new DeclarationIndex();
  private boolean indexStale;
  private final Map<String, Analysis> analyses = new HashMap<>();
  private int generation;

  /**
   * The last good analysis of a document.
   *
   * @param version the document's version it was computed on
   * @param generation the {@linkplain #generation() generation} of the index and settings it saw
   * @param file the parsed text
   * @param findings what the rules reported
   */
  record Analysis(int version, int generation, ParsedFile file, List<ScanFinding> findings) {
    SourceFile source() {
      return file.source();
    }
  }

  /** A document that does not parse: its last good analysis is kept. */
  static final class UnparsableException extends Exception {
    private static final long serialVersionUID = 1L;

    UnparsableException(String message) {
      super(message);
    }
  }

  /**
   * Creates the workspace.
   *
   * @param folders the workspace's folders, at least one; the first is its root (paths are reported
   *     relative to it, and the settings file is looked for there); all are indexed
   * @param configFile the settings file, or {@code null} for {@value #DEFAULT_CONFIG} at the root
   * @param log where problems go (a message for the user's log)
   * @param rules the rules to run under some settings ({@link Scanner#enabledRules})
   */
  Workspace(
      List<Path> folders,
      Path configFile,
      Consumer<String> log,
      Function<Settings, List<Rule>> rules) {
    this.folders = folders.stream().map(f -> f.toAbsolutePath().normalize()).toList();
    this.root = this.folders.get(0);
    this.configFile =
        (configFile == null ? this.root.resolve(DEFAULT_CONFIG) : this.root.resolve(configFile))
            .normalize();
    this.log = log;
    this.rules = rules;
    this.scanner = new Scanner(settings, this.root, 1, n -> {});
    refreshSettings();
  }

  Path root() {
    return root;
  }

  Path configFile() {
    return configFile;
  }

  Settings settings() {
    return settings;
  }

  /**
   * Reads the settings file again if its content changed (or it appeared or went away). A file that
   * cannot be read or has a bad setting is logged and the previous settings are kept.
   *
   * @return whether the settings changed
   */
  boolean refreshSettings() {
    byte[] content;
    try {
      content = Files.readAllBytes(configFile);
    } catch (NoSuchFileException e) {
      content = null;
    } catch (IOException e) {
      log.accept("bounded: cannot read settings " + configFile + ": " + e.getMessage());
      return false;
    }
    if (configRead && Arrays.equals(content, configContent)) {
      return false;
    }
    configRead = true;
    configContent = content;
    Settings next;
    try {
      next = content == null ? Settings.defaults() : Settings.read(configFile);
    } catch (IOException | IllegalArgumentException e) {
      log.accept(
          "bounded: settings not applied, keeping the previous ones: "
              + (e instanceof IOException ? configFile + ": " : "")
              + e.getMessage());
      return false;
    }
    boolean changed = !next.equals(settings);
    settings = next;
    scanner = new Scanner(settings, root, 1, n -> {});
    generation++;
    return changed;
  }

  /**
   * Returns the {@code .java} files under the workspace's folders that the settings do not exclude.
   *
   * @return the files
   */
  List<Path> javaFiles() {
    List<ScanProblem> problems = new ArrayList<>();
    List<Path> files = scanner.discover(folders, problems);
    for (ScanProblem p : problems) {
      log.accept("bounded: " + p.path() + ": " + p.message());
    }
    return files;
  }

  /**
   * Indexes a file as it is on disk: its declarations replace the ones indexed before. A file that
   * is gone leaves the index; one that cannot be read or parsed keeps its last good declarations.
   *
   * @param file a {@code .java} file
   */
  void indexFromDisk(Path file) {
    Path path = file.toAbsolutePath().normalize();
    if (!Files.exists(path)) {
      forget(path);
      return;
    }
    List<ScanProblem> problems = new ArrayList<>();
    SourceFile source = scanner.read(path, problems);
    if (source == null) {
      return;
    }
    try {
      index(path, ParsedFile.parse(source));
    } catch (JavaParserFrontend.UnparsableException e) {
      // keeps the file's last good declarations, as its diagnostics are kept
    }
  }

  /** Records a file's declarations as saved. */
  void index(Path file, ParsedFile parsed) {
    saved.put(file.toAbsolutePath().normalize(), parsed.declarations());
    indexStale = true;
    generation++;
  }

  /** Takes a deleted file's declarations out of the index. */
  void forget(Path file) {
    if (saved.remove(file.toAbsolutePath().normalize()) != null) {
      indexStale = true;
      generation++;
    }
  }

  /** The number of files in the index. */
  int indexedFiles() {
    return saved.size();
  }

  /**
   * Analyses a document's current text with the workspace's index.
   *
   * @param uri the document
   * @param file its path on disk, or {@code null} for a document that is not a file
   * @param text its text
   * @param version its version
   * @return the analysis, also kept as the document's last good one
   * @throws UnparsableException if the text does not parse (the last good analysis is kept)
   */
  Analysis analyse(String uri, Path file, String text, int version) throws UnparsableException {
    Path path = file == null ? null : file.toAbsolutePath().normalize();
    SourceFile source = new SourceFile(path == null ? uri : scanner.relative(path), text);
    ParsedFile parsed;
    try {
      parsed = ParsedFile.parse(source);
    } catch (JavaParserFrontend.UnparsableException e) {
      throw new UnparsableException(e.getMessage());
    }
    List<ScanFinding> findings = List.of();
    if (path == null || !scanner.isExcluded(path)) {
      FileDeclarations before =
          path == null ? FileDeclarations.NONE : saved.getOrDefault(path, FileDeclarations.NONE);
      JavaParserFrontend frontend =
          new JavaParserFrontend(
              rules.apply(settings),
              settings.ruleConfig(),
              settings.idempotentMethods(),
              settings.runtimeAvailable(),
              index().overlay(before, parsed.declarations()),
              this::readSaved);
      findings = scanner.convert(source, frontend.analyse(parsed));
    }
    Analysis analysis = new Analysis(version, generation, parsed, findings);
    analyses.put(uri, analysis);
    return analysis;
  }

  /**
   * Another file of the workspace as saved, for facts that cross files (which methods retry);
   * {@code null} if it cannot be read or parsed now.
   */
  private ParsedFile readSaved(String reported) {
    SourceFile source = scanner.read(scanner.file(reported), new java.util.ArrayList<>());
    try {
      return source == null ? null : ParsedFile.parse(source);
    } catch (JavaParserFrontend.UnparsableException e) {
      return null;
    }
  }

  /**
   * Returns a document's last good analysis.
   *
   * @param uri the document
   * @return the analysis, or {@code null} if none succeeded
   */
  Analysis lastAnalysis(String uri) {
    return analyses.get(uri);
  }

  /**
   * Tells whether an analysis still holds: computed on this text, with the current index and
   * settings.
   *
   * @param analysis an analysis
   * @param version the document's version
   * @param text the document's text
   * @return {@code true} if nothing it depends on changed
   */
  boolean isCurrent(Analysis analysis, int version, String text) {
    return analysis.version() == version
        && analysis.generation() == generation
        && analysis.source().text().equals(text);
  }

  /**
   * Returns how many times the index or the settings changed: an analysis of an older generation
   * may be out of date.
   *
   * @return the generation
   */
  int generation() {
    return generation;
  }

  /** Forgets a closed document's analysis. */
  void close(String uri) {
    analyses.remove(uri);
  }

  private DeclarationIndex index() {
    if (indexStale) {
      index = DeclarationIndex.of(saved.values());
      indexStale = false;
    }
    return index;
  }
}
