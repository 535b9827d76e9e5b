package dev.bounded.scanner;

import com.github.javaparser.ast.CompilationUnit;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import dev.bounded.scanner.javaparser.DeclarationIndex;
import dev.bounded.scanner.javaparser.JavaParserFrontend;
import dev.bounded.scanner.javaparser.ParsedFile;
import dev.bounded.scanner.javaparser.SourceFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * Scans source trees: finds the {@code .java} files under the given paths, indexes every file's
 * declarations (first pass), then analyses the files that hold a relevant method (second pass). The
 * first pass keeps the parsed trees of relevant files up to a fixed amount of source ({@link
 * #KEPT_CHARS}); the others are parsed again, so memory does not grow with the tree. Bad input (a
 * file that cannot be read, decoded or parsed, a path that does not exist, a symbolic-link loop)
 * becomes a {@link ScanProblem} and the scan goes on.
 */
public final class Scanner {
  /** Files larger than this are not read (generated code, data). */
  static final long MAX_FILE_BYTES = 16L * 1024 * 1024;

  /**
   * How much source (in characters) the first pass may keep parsed for the second: files beyond it
   * are parsed again. A bound, so that memory stays flat however large the tree.
   */
  static final long KEPT_CHARS = 4L * 1024 * 1024;

  /** Worker threads get a deep stack: javaparser and the model recurse into nested expressions. */
  private static final long STACK_BYTES = 64L * 1024 * 1024;

  private final Settings settings;
  private final Path base;
  private final int jobs;
  private final IntConsumer progress;

  /**
   * Creates a scanner.
   *
   * @param settings the settings
   * @param base the directory paths are reported relative to
   * @param jobs how many files to work on at once
   * @param progress told the number of files done so far in each pass (may do nothing)
   */
  public Scanner(Settings settings, Path base, int jobs, IntConsumer progress) {
    this.settings = settings;
    this.base = base.toAbsolutePath().normalize();
    this.jobs = Math.max(1, jobs);
    this.progress = progress;
  }

  /**
   * Scans paths: directories (recursively) and files.
   *
   * @param paths what to scan
   * @return the findings and problems
   */
  public ScanReport scan(List<Path> paths) {
    List<ScanProblem> problems = Collections.synchronizedList(new ArrayList<>());
    List<Path> files = discover(paths, problems);
    List<Rule> rules = enabledRules(settings);
    Map<Path, Parsed> kept = new java.util.concurrent.ConcurrentHashMap<>();
    Map<String, Path> scanned = new java.util.concurrent.ConcurrentHashMap<>();
    JavaParserFrontend frontend =
        new JavaParserFrontend(
            rules,
            settings.ruleConfig(),
            settings.idempotentMethods(),
            settings.runtimeAvailable(),
            new DeclarationIndex(),
            reported -> readAgain(scanned.get(reported), kept));
    AtomicLong lines = new AtomicLong();
    AtomicInteger parsedFiles = new AtomicInteger();
    List<Path> relevant = Collections.synchronizedList(new ArrayList<>());
    AtomicLong keptChars = new AtomicLong();
    List<ScanFinding> findings = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(jobs, new DeepStackThreads());
    try {
      AtomicInteger done = new AtomicInteger();
      runAll(
          pool,
          files,
          file -> {
            SourceFile source = read(file, problems);
            if (source != null) {
              CompilationUnit unit = parse(source, problems);
              if (unit != null) {
                parsedFiles.incrementAndGet();
                lines.addAndGet(source.lineCount());
                scanned.put(source.path(), file);
                if (frontend.index(unit, source.path())) {
                  relevant.add(file);
                  if (keptChars.addAndGet(source.text().length()) <= KEPT_CHARS) {
                    kept.put(file, new Parsed(source, unit));
                  } else {
                    keptChars.addAndGet(-source.text().length());
                  }
                }
              }
            }
            progress.accept(done.incrementAndGet());
          });
      AtomicInteger analysed = new AtomicInteger();
      runAll(
          pool,
          relevant,
          file -> {
            Parsed parsed = kept.remove(file);
            SourceFile source = parsed != null ? parsed.source() : read(file, new ArrayList<>());
            CompilationUnit unit =
                parsed != null
                    ? parsed.unit()
                    : source == null ? null : parse(source, new ArrayList<>());
            if (unit != null) {
              try {
                findings.addAll(convert(source, frontend.analyse(source, unit)));
              } catch (StackOverflowError e) {
                problems.add(new ScanProblem(source.path(), "too deeply nested to analyse", true));
              } catch (RuntimeException e) {
                problems.add(
                    new ScanProblem(source.path(), "internal error while analysing: " + e, true));
              }
            }
            progress.accept(analysed.incrementAndGet());
          });
    } finally {
      pool.shutdownNow();
    }
    List<ScanFinding> sorted = new ArrayList<>(findings);
    sorted.sort(
        Comparator.comparing(ScanFinding::path)
            .thenComparingInt(ScanFinding::start)
            .thenComparing(ScanFinding::rule));
    List<ScanProblem> sortedProblems = new ArrayList<>(problems);
    sortedProblems.sort(Comparator.comparing(ScanProblem::path));
    List<RuleInfo> infos = new ArrayList<>();
    for (Rule rule : rules) {
      infos.add(RuleInfo.of(rule.name()));
    }
    return new ScanReport(
        sorted, sortedProblems, parsedFiles.get(), relevant.size(), lines.get(), infos);
  }

  /**
   * Returns the rules the settings leave on.
   *
   * @param settings the settings
   * @return the rules whose level is not {@link Severity#OFF}, in the registry's order
   */
  public static List<Rule> enabledRules(Settings settings) {
    List<Rule> rules = new ArrayList<>();
    for (Rule rule : Rules.all()) {
      if (settings.severity(rule.name()) != Severity.OFF) {
        rules.add(rule);
      }
    }
    return rules;
  }

  /** A file the first pass parsed and keeps for the second. */
  private record Parsed(SourceFile source, CompilationUnit unit) {}

  /**
   * The last files read again for another file's analysis, per analysing thread: the files a
   * package's retry helpers live in are asked for by many of its files.
   */
  private static final ThreadLocal<Map<Path, ParsedFile>> READ_AGAIN =
      ThreadLocal.withInitial(
          () ->
              new java.util.LinkedHashMap<>(16, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Path, ParsedFile> eldest) {
                  return size() > 16;
                }
              });

  /**
   * Another scanned file, for facts that cross files: from the first pass if it still keeps the
   * file, else read and parsed again; {@code null} if that fails now (the first pass reported
   * whatever was wrong with it).
   */
  private ParsedFile readAgain(Path file, Map<Path, Parsed> kept) {
    if (file == null) {
      return null;
    }
    Map<Path, ParsedFile> recent = READ_AGAIN.get();
    ParsedFile parsed = recent.get(file);
    if (parsed == null) {
      Parsed first = kept.get(file);
      if (first != null) {
        parsed = ParsedFile.of(first.source(), first.unit());
      } else {
        SourceFile source = read(file, new ArrayList<>());
        try {
          parsed = source == null ? null : ParsedFile.parse(source);
        } catch (JavaParserFrontend.UnparsableException e) {
          parsed = null;
        }
      }
      if (parsed != null) {
        recent.put(file, parsed);
      }
    }
    return parsed;
  }

  /** Runs the task on every file, on the pool, and waits for all. */
  private static void runAll(ExecutorService pool, List<Path> files, FileTask task) {
    List<Future<?>> futures = new ArrayList<>();
    for (Path file : files) {
      futures.add(
          pool.submit(
              () -> {
                task.run(file);
                return null;
              }));
    }
    for (Future<?> f : futures) {
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("scan interrupted", e);
      } catch (ExecutionException e) {
        throw new IllegalStateException("scan failed: " + e.getCause(), e.getCause());
      }
    }
  }

  @FunctionalInterface
  private interface FileTask {
    void run(Path file);
  }

  private static final class DeepStackThreads implements ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(null, r, "bounded-scan-" + count.incrementAndGet(), STACK_BYTES);
      t.setDaemon(true);
      return t;
    }
  }

  /**
   * Finds the {@code .java} files under the paths, leaving out those the settings exclude.
   *
   * @param paths directories (searched recursively) and files, relative to the base
   * @param problems where a path that does not exist or cannot be read is reported
   * @return the files, absolute, in a stable order
   */
  public List<Path> discover(List<Path> paths, List<ScanProblem> problems) {
    List<PathMatcher> excludes = new ArrayList<>();
    for (String glob : settings.excludes()) {
      excludes.add(base.getFileSystem().getPathMatcher("glob:" + glob));
    }
    List<Path> files = new ArrayList<>();
    for (Path given : paths) {
      Path path = base.resolve(given).normalize();
      if (!Files.exists(path)) {
        problems.add(new ScanProblem(given.toString(), "no such file or directory", true));
        continue;
      }
      if (!Files.isDirectory(path)) {
        if (!isExcluded(path, excludes)) {
          files.add(path);
        }
        continue;
      }
      try {
        Files.walkFileTree(
            path,
            EnumSet.of(FileVisitOption.FOLLOW_LINKS),
            Integer.MAX_VALUE,
            new SimpleFileVisitor<>() {
              @Override
              public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(path) && isExcluded(dir, excludes)
                    ? FileVisitResult.SKIP_SUBTREE
                    : FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (file.getFileName().toString().endsWith(".java")
                    && !isExcluded(file, excludes)) {
                  files.add(file);
                }
                return FileVisitResult.CONTINUE;
              }

              @Override
              public FileVisitResult visitFileFailed(Path file, IOException e) {
                problems.add(new ScanProblem(relative(file), describe(e), true));
                return FileVisitResult.CONTINUE;
              }
            });
      } catch (IOException e) {
        problems.add(new ScanProblem(given.toString(), describe(e), true));
      }
    }
    List<Path> unique = new ArrayList<>(new java.util.LinkedHashSet<>(files));
    unique.sort(Comparator.comparing(Path::toString));
    return unique;
  }

  /**
   * Tells whether the settings' {@code exclude} globs leave a file out.
   *
   * @param file a file
   * @return {@code true} if a glob matches its path relative to the base
   */
  public boolean isExcluded(Path file) {
    List<PathMatcher> excludes = new ArrayList<>();
    for (String glob : settings.excludes()) {
      excludes.add(base.getFileSystem().getPathMatcher("glob:" + glob));
    }
    return isExcluded(file, excludes);
  }

  private boolean isExcluded(Path path, List<PathMatcher> excludes) {
    Path rel = Path.of(relative(path));
    for (PathMatcher m : excludes) {
      if (m.matches(rel)) {
        return true;
      }
    }
    return false;
  }

  private static String describe(IOException e) {
    if (e instanceof FileSystemLoopException) {
      return "symbolic link loop (not followed)";
    }
    if (e instanceof AccessDeniedException) {
      return "cannot be read: permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    return "cannot be read: " + e.getMessage();
  }

  /**
   * Returns the path to report: relative to the base when under it, with {@code /} separators.
   *
   * @param file a file
   * @return the path to report
   */
  public String relative(Path file) {
    Path abs = file.toAbsolutePath().normalize();
    Path shown = abs.startsWith(base) ? base.relativize(abs) : abs;
    return shown.toString().replace('\\', '/');
  }

  /**
   * Returns the file a reported path names: the inverse of {@link #relative}.
   *
   * @param reported a path as {@link #relative} reports it
   * @return the file
   */
  public Path file(String reported) {
    return base.resolve(reported).normalize();
  }

  /**
   * Reads a file as strict UTF-8 (a byte-order mark dropped).
   *
   * @param file the file
   * @param problems where a file that cannot be read, is too large, empty, binary or not UTF-8 is
   *     reported
   * @return the file, or {@code null} after a problem
   */
  public SourceFile read(Path file, List<ScanProblem> problems) {
    String path = relative(file);
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        problems.add(new ScanProblem(path, "larger than 16 MiB: not scanned", true));
        return null;
      }
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      problems.add(new ScanProblem(path, describe(e), true));
      return null;
    }
    if (bytes.length == 0) {
      problems.add(new ScanProblem(path, "empty file: nothing to scan", false));
      return null;
    }
    for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
      if (bytes[i] == 0) {
        problems.add(new ScanProblem(path, "binary file (holds NUL bytes): not Java source", true));
        return null;
      }
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      problems.add(new ScanProblem(path, "not valid UTF-8: not scanned", true));
      return null;
    }
    if (!text.isEmpty() && text.charAt(0) == '\uFEFF') {
      text = text.substring(1); // a byte-order mark: javac skips it too
    }
    return new SourceFile(path, text);
  }

  private static CompilationUnit parse(SourceFile source, List<ScanProblem> problems) {
    try {
      return JavaParserFrontend.parse(source.text());
    } catch (JavaParserFrontend.UnparsableException e) {
      problems.add(new ScanProblem(source.path(), e.getMessage(), true));
      return null;
    } catch (RuntimeException e) {
      problems.add(new ScanProblem(source.path(), "cannot be parsed: " + e, true));
      return null;
    }
  }

  /**
   * Returns the findings as the outputs see them: positions, levels, fingerprints, and fixes whose
   * edits include the imports they add or remove.
   *
   * @param source the analysed file
   * @param located what the frontend found in it
   * @return the findings, in the frontend's order
   */
  public List<ScanFinding> convert(SourceFile source, List<JavaParserFrontend.Located> located) {
    List<ScanFinding> result = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (JavaParserFrontend.Located l : located) {
      Finding f = l.finding();
      int start = f.span().start();
      int end = Math.max(start, f.span().end());
      int line = source.line(start);
      String lineText = source.lineText(line);
      List<ScanFinding.FixView> fixes = new ArrayList<>();
      for (Fix fix : f.fixes()) {
        List<Edit> own = new ArrayList<>(fix.edits());
        own.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
        List<String> preview = new ArrayList<>();
        for (Edit e : Imports.edits(source.text(), fix.imports())) {
          preview.add("+" + e.replacement().strip());
        }
        preview.addAll(preview(source, own));
        List<Edit> edits = new ArrayList<>(fix.edits());
        edits.addAll(Imports.edits(source.text(), fix.imports()));
        edits.addAll(Imports.removals(source.text(), fix.removedImports()));
        edits.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
        List<ScanFinding.EditView> views = new ArrayList<>();
        for (Edit e : edits) {
          views.add(editView(source, e));
        }
        fixes.add(new ScanFinding.FixView(fix.description(), views, fix.imports(), preview));
      }
      result.add(
          new ScanFinding(
              source.path(),
              f.rule(),
              settings.severity(f.rule()),
              f.message(),
              start,
              end,
              line,
              source.column(start),
              source.line(end),
              source.column(end),
              l.member(),
              lineText,
              Fingerprints.of(f.rule(), source.path(), l.member(), lineText, seen),
              fixes));
    }
    return result;
  }

  /** The lines a fix changes, before and after, as {@code -} and {@code +} lines. */
  private static List<String> preview(SourceFile source, List<Edit> edits) {
    List<String> lines = new ArrayList<>();
    if (edits.isEmpty()) {
      return lines;
    }
    String text = source.text();
    int from = source.line(edits.get(0).start());
    int to = from;
    StringBuilder changed = new StringBuilder();
    int at = source.offset(from, 1);
    for (Edit e : edits) {
      to = Math.max(to, source.line(e.end()));
      changed.append(text, at, e.start()).append(e.replacement());
      at = e.end();
    }
    int regionEnd = to < source.lineCount() ? source.offset(to + 1, 1) : text.length();
    changed.append(text, at, Math.max(at, regionEnd));
    for (int l = from; l <= to; l++) {
      lines.add("-" + source.lineText(l));
    }
    for (String l : changed.toString().split("\\R", -1)) {
      lines.add("+" + l);
    }
    if (lines.get(lines.size() - 1).equals("+")) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  private static ScanFinding.EditView editView(SourceFile source, Edit e) {
    int startLine = source.line(e.start());
    int endLine = source.line(e.end());
    return new ScanFinding.EditView(
        e.start(),
        e.end(),
        startLine,
        source.column(e.start()),
        endLine,
        source.column(e.end()),
        byteColumn(source, e.start()),
        byteColumn(source, e.end()),
        e.replacement());
  }

  private static int byteColumn(SourceFile source, int offset) {
    int lineStart = offset - source.column(offset) + 1;
    String prefix = source.text().substring(lineStart, offset);
    return prefix.getBytes(StandardCharsets.UTF_8).length + 1;
  }
}
