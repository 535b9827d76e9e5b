package dev.bounded.scanner.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bounded.checks.model.Finding;
import dev.bounded.checks.rules.Rule;
import dev.bounded.scanner.Samples;
import dev.bounded.scanner.Scanner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.MessageType;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The language server over the protocol, through lsp4j's client on piped streams. */
final class LanguageServerTest {
  static final String WAITER_WITHOUT_INTERRUPT =
      """
      package demo;

      interface Waiter {
        void await();
      }
      """;

  @TempDir Path root;

  private static List<String> codes(PublishDiagnosticsParams p) {
    return p.getDiagnostics().stream().map(d -> d.getCode().getLeft()).toList();
  }

  private static boolean reports(PublishDiagnosticsParams p, String rule) {
    return codes(p).contains(rule);
  }

  /** Writes a file at once, as an editor's safe write does: a reader never sees half of it. */
  private static void writeAtomically(Path file, String text) throws java.io.IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, text);
    Files.move(
        tmp,
        file,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  private static Diagnostic only(PublishDiagnosticsParams p) {
    assertThat(p.getDiagnostics()).hasSize(1);
    return p.getDiagnostics().get(0);
  }

  @Test
  void publishesAFindingOffersItsFixAndTheFixedTextIsClean() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      InitializeResult init = lsp.initialize();
      assertThat(init.getCapabilities().getTextDocumentSync().getRight().getChange())
          .isEqualTo(TextDocumentSyncKind.Incremental);
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED);

      Diagnostic d = only(lsp.awaitDiagnostics(uri, 1));
      assertThat(d.getCode().getLeft()).isEqualTo("InterruptSwallowed");
      assertThat(d.getSource()).isEqualTo("bounded");
      assertThat(d.getSeverity()).isEqualTo(DiagnosticSeverity.Warning);
      assertThat(d.getCodeDescription().getHref())
          .startsWith("https://")
          .endsWith("/docs/rules/InterruptSwallowed.md");
      assertThat(d.getRange().getStart().getLine()).isEqualTo(6);

      List<CodeAction> actions = lsp.codeActions(uri, d.getRange());
      CodeAction fix = actions.get(0);
      assertThat(fix.getKind()).isEqualTo(CodeActionKind.QuickFix);
      assertThat(fix.getIsPreferred()).isTrue();
      assertThat(fix.getDiagnostics()).containsExactly(d);
      assertThat(fix.getEdit().getDocumentChanges().get(0).getLeft().getTextDocument())
          .satisfies(
              id -> {
                assertThat(id.getUri()).isEqualTo(uri);
                assertThat(id.getVersion()).isEqualTo(1);
              });
      String fixed = LspHarness.apply(Samples.SWALLOWED, fix.getEdit());
      assertThat(fixed).contains("Thread.currentThread().interrupt();");

      lsp.change(uri, 2, fixed);
      assertThat(lsp.awaitDiagnostics(uri, 2).getDiagnostics()).isEmpty();
    }
  }

  @Test
  void incrementalChangesAreApplied() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED);
      only(lsp.awaitDiagnostics(uri, 1));
      // Insert the restore into the empty catch block (line 7, 0-based, after its '{').
      int line = 6;
      int col = Samples.SWALLOWED.lines().toList().get(line).length();
      lsp.server
          .getTextDocumentService()
          .didChange(
              new org.eclipse.lsp4j.DidChangeTextDocumentParams(
                  new org.eclipse.lsp4j.VersionedTextDocumentIdentifier(uri, 2),
                  List.of(
                      new org.eclipse.lsp4j.TextDocumentContentChangeEvent(
                          new Range(new Position(line, col), new Position(line, col)),
                          " Thread.currentThread().interrupt();"))));
      assertThat(lsp.awaitDiagnostics(uri, 2).getDiagnostics()).isEmpty();
    }
  }

  @Test
  void suppressesForTheMethodAndTheDiagnosticGoesAway() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED);
      Diagnostic d = only(lsp.awaitDiagnostics(uri, 1));

      CodeAction suppress =
          lsp.codeActions(uri, d.getRange()).stream()
              .filter(a -> a.getTitle().equals("Suppress InterruptSwallowed for method pause"))
              .findFirst()
              .orElseThrow();
      assertThat(suppress.getKind()).isEqualTo(CodeActionKind.QuickFix);
      String suppressed = LspHarness.apply(Samples.SWALLOWED, suppress.getEdit());
      assertThat(suppressed)
          .contains(
              "  @SuppressWarnings(\"InterruptSwallowed\")\n  void pause(java.util.concurrent.BlockingQueue<String> queue) {\n");

      lsp.change(uri, 2, suppressed);
      assertThat(lsp.awaitDiagnostics(uri, 2).getDiagnostics()).isEmpty();
    }
  }

  @Test
  void hoverExplainsTheRule() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED);
      Diagnostic d = only(lsp.awaitDiagnostics(uri, 1));

      Hover hover = lsp.hover(uri, d.getRange().getStart());
      String markdown = hover.getContents().getRight().getValue();
      assertThat(hover.getContents().getRight().getKind()).isEqualTo("markdown");
      assertThat(markdown)
          .contains("**[InterruptSwallowed](" + d.getCodeDescription().getHref() + ")** (warning)")
          .contains(d.getMessage())
          .contains("## The problem")
          .contains("## What to do instead")
          .doesNotContain("## Suppression");
      assertThat(hover.getRange()).isEqualTo(d.getRange());

      assertThat(lsp.hover(uri, new Position(0, 0))).isNull();
    }
  }

  @Test
  void crossFileFactsComeFromTheIndexAndFollowWatchedFiles() throws Exception {
    Files.createDirectories(root.resolve("src/demo"));
    Path waiter = root.resolve("src/demo/Waiter.java");
    Files.writeString(waiter, Samples.WAITER);
    Files.writeString(root.resolve("src/demo/UsesWaiter.java"), Samples.CALLS_OTHER_FILE);
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/UsesWaiter.java");
      lsp.open(uri, Samples.CALLS_OTHER_FILE);
      PublishDiagnosticsParams first = lsp.awaitDiagnostics(uri, 1);
      assertThat(codes(first)).contains("InterruptRetried");
      assertThat(lsp.client.registrations).hasSize(1);

      // Waiter.await no longer throws InterruptedException: the finding goes.
      writeAtomically(waiter, WAITER_WITHOUT_INTERRUPT);
      lsp.server
          .getWorkspaceService()
          .didChangeWatchedFiles(
              new DidChangeWatchedFilesParams(
                  List.of(new FileEvent(waiter.toUri().toString(), FileChangeType.Changed))));
      assertThat(codes(lsp.awaitDiagnostics(uri, p -> !reports(p, "InterruptRetried"))))
          .isNotEmpty(); // the loop's other findings stay

      // It comes back when Waiter is edited and saved in the editor.
      String waiterUri = waiter.toUri().toString();
      lsp.open(waiterUri, WAITER_WITHOUT_INTERRUPT);
      lsp.change(waiterUri, 2, Samples.WAITER);
      writeAtomically(waiter, Samples.WAITER);
      lsp.save(waiterUri);
      lsp.awaitDiagnostics(uri, p -> reports(p, "InterruptRetried"));

      // Deleted: gone from the index.
      lsp.server
          .getTextDocumentService()
          .didClose(
              new org.eclipse.lsp4j.DidCloseTextDocumentParams(
                  new org.eclipse.lsp4j.TextDocumentIdentifier(waiterUri)));
      Files.delete(waiter);
      lsp.server
          .getWorkspaceService()
          .didChangeWatchedFiles(
              new DidChangeWatchedFilesParams(
                  List.of(new FileEvent(waiterUri, FileChangeType.Deleted))));
      lsp.awaitDiagnostics(uri, p -> !reports(p, "InterruptRetried"));
    }
  }

  @Test
  void aRetryLoopAroundAnotherFilesRetryingMethodIsReported() throws Exception {
    Files.createDirectories(root.resolve("src/demo"));
    Files.writeString(
        root.resolve("src/demo/Transport.java"),
        """
        package demo;
        class Transport {
          String request(String body) throws java.io.IOException {
            for (int attempt = 1; ; attempt++) {
              try {
                return send(body);
              } catch (java.io.IOException e) {
                if (attempt == 3) {
                  throw e;
                }
              }
            }
          }

          String send(String body) throws java.io.IOException {
            return body;
          }
        }
        """);
    String caller =
        """
        package demo;
        class Caller {
          private final Transport transport = new Transport();

          String load(String body) throws java.io.IOException {
            for (int attempt = 0; attempt < 2; attempt++) {
              try {
                return transport.request(body);
              } catch (java.io.IOException e) {
                // try again
              }
            }
            return null;
          }
        }
        """;
    Files.writeString(root.resolve("src/demo/Caller.java"), caller);
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Caller.java");
      lsp.open(uri, caller);
      PublishDiagnosticsParams published =
          lsp.awaitDiagnostics(uri, p -> reports(p, "NestedRetry"));
      assertThat(published.getDiagnostics())
          .filteredOn(d -> "NestedRetry".equals(d.getCode().getLeft()))
          .singleElement()
          .satisfies(
              d -> {
                assertThat(d.getRange().getStart().getLine()).isEqualTo(7);
                assertThat(d.getMessage()).contains("2 x 3 = 6 calls");
              });
    }
  }

  @Test
  void everyWorkspaceFolderIsIndexed() throws Exception {
    Path app = root.resolve("app");
    Path lib = root.resolve("lib");
    Files.createDirectories(app.resolve("demo"));
    Files.createDirectories(lib.resolve("demo"));
    Files.writeString(lib.resolve("demo/Waiter.java"), Samples.WAITER);
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize(List.of(app, lib));
      String uri = app.resolve("demo/UsesWaiter.java").toUri().toString();
      lsp.open(uri, Samples.CALLS_OTHER_FILE);
      assertThat(codes(lsp.awaitDiagnostics(uri, 1))).contains("InterruptRetried");
    }
  }

  @Test
  void theDocumentsOwnNewDeclarationsCountBeforeItIsSaved() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/UsesWaiter.java");
      lsp.open(uri, Samples.CALLS_OTHER_FILE);
      assertThat(codes(lsp.awaitDiagnostics(uri, 1))).doesNotContain("InterruptRetried");
      String withWaiter =
          Samples.CALLS_OTHER_FILE
              + "\ninterface Waiter {\n  void await() throws InterruptedException;\n}\n";
      lsp.change(uri, 2, withWaiter);
      assertThat(codes(lsp.awaitDiagnostics(uri, 2))).contains("InterruptRetried");
    }
  }

  @Test
  void readsTheSettingsFileAndReadsItAgainWhenItChanges() throws Exception {
    Path config = root.resolve("bounded.properties");
    writeAtomically(config, "severity.InterruptSwallowed = error\n");
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED);
      assertThat(only(lsp.awaitDiagnostics(uri, 1)).getSeverity())
          .isEqualTo(DiagnosticSeverity.Error);

      writeAtomically(config, "severity.InterruptSwallowed = note\ndocsUrl = https://x.test/r\n");
      notifyChanged(lsp, config);
      Diagnostic d =
          only(
              lsp.awaitDiagnostics(
                  uri,
                  p ->
                      !p.getDiagnostics().isEmpty()
                          && p.getDiagnostics().get(0).getSeverity()
                              == DiagnosticSeverity.Information));
      assertThat(d.getCodeDescription().getHref())
          .isEqualTo("https://x.test/r/InterruptSwallowed.md");

      writeAtomically(config, "severity.InterruptSwallowed = off\n");
      notifyChanged(lsp, config);
      lsp.awaitDiagnostics(uri, p -> p.getDiagnostics().isEmpty());

      // A bad file is reported and the previous settings stay.
      writeAtomically(config, "severity.NoSuchRule = error\n");
      notifyChanged(lsp, config);
      lsp.change(uri, 2, Samples.SWALLOWED + "\n");
      assertThat(lsp.awaitDiagnostics(uri, 2).getDiagnostics()).isEmpty();
      assertThat(lsp.client.logs)
          .anySatisfy(
              m -> {
                assertThat(m.getType()).isEqualTo(MessageType.Error);
                assertThat(m.getMessage()).contains("no rule named NoSuchRule");
              });
    }
  }

  private static void notifyChanged(LspHarness lsp, Path file) {
    lsp.server
        .getWorkspaceService()
        .didChangeWatchedFiles(
            new DidChangeWatchedFilesParams(
                List.of(new FileEvent(file.toUri().toString(), FileChangeType.Changed))));
  }

  @Test
  void aFileThatDoesNotParseKeepsItsLastDiagnostics() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED);
      Diagnostic d = only(lsp.awaitDiagnostics(uri, 1));

      String broken =
          Samples.SWALLOWED.replace(
              "void pause(java.util.concurrent.BlockingQueue<String> queue) {",
              "void pause(java.util.concurrent.BlockingQueue<String> queue {");
      lsp.change(uri, 2, broken);
      // No fix is offered against a text that does not parse (its offsets are stale)...
      assertThat(lsp.codeActions(uri, d.getRange())).isEmpty();
      assertThat(lsp.hover(uri, d.getRange().getStart())).isNull();

      lsp.change(uri, 3, Samples.SWALLOWED.replace("Pause", "Pause2"));
      PublishDiagnosticsParams next = lsp.awaitDiagnostics(uri, p -> true);
      // ... and nothing was published for it: the next diagnostics are those of version 3.
      assertThat(next.getVersion()).isEqualTo(3);
      assertThat(only(next).getCode().getLeft()).isEqualTo("InterruptSwallowed");
      assertThat(lsp.client.logged("keeping the last diagnostics")).isTrue();
    }
  }

  /** Fails on every method named {@code boom}. */
  private static final Rule EXPLODING =
      new Rule() {
        @Override
        public String name() {
          return "Exploding";
        }

        @Override
        public List<Finding> check(
            dev.bounded.checks.analysis.MethodAnalysis analysis,
            dev.bounded.checks.rules.RuleConfig config) {
          if (analysis.method().name().equals("boom")) {
            throw new IllegalStateException("the rule failed");
          }
          return List.of();
        }
      };

  @Test
  void survivesBadInput() throws Exception {
    try (LspHarness lsp =
        LspHarness.start(
            root,
            settings -> {
              List<Rule> rules = new ArrayList<>(Scanner.enabledRules(settings));
              rules.add(0, EXPLODING);
              return rules;
            })) {
      // Bytes that are not the protocol, then a header with a body that is not JSON.
      lsp.writeRaw("this is not a header\r\n\r\n");
      lsp.writeRaw("Content-Length: 9\r\n\r\n{not json");
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      // A change to a document never opened, a hover on one, a method too deep to parse, a
      // rule that throws.
      lsp.change(lsp.uri("Nope.java"), 2, "class Nope {}");
      assertThat(lsp.hover(lsp.uri("Nope.java"), new Position(0, 0))).isNull();
      String deep = "class Deep { int x = " + "(".repeat(20_000) + "1" + ")".repeat(20_000) + "; }";
      lsp.open(lsp.uri("Deep.java"), deep);
      lsp.open(
          lsp.uri("Boom.java"),
          "class Boom { void boom(java.util.concurrent.BlockingQueue<String> q) {"
              + " try { q.take(); } catch (InterruptedException e) {} } }");
      // The server still answers, and analyses the next file.
      lsp.open(uri, Samples.SWALLOWED);
      assertThat(only(lsp.awaitDiagnostics(uri, 1)).getCode().getLeft())
          .isEqualTo("InterruptSwallowed");
      assertThat(lsp.client.logged("internal error while analysing")).isTrue();
      assertThat(lsp.client.logged("the rule failed")).isTrue();
    }
  }

  @Test
  void shutdownThenExitEndsWithZeroAndNoThreadLeft() throws Exception {
    LspHarness lsp = LspHarness.start(root);
    try (lsp) {
      lsp.initialize();
      lsp.open(lsp.uri("src/demo/Pause.java"), Samples.SWALLOWED);
      lsp.awaitDiagnostics(lsp.uri("src/demo/Pause.java"), 1);
      lsp.server.shutdown().get(LspHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      lsp.server.exit();
      assertThat(lsp.awaitExit()).isEqualTo(LanguageServerRunner.EXIT_OK);
    }
    LspHarness.assertNoServerThreadLeft();
  }

  @Test
  void exitWithoutShutdownEndsWithOne() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      lsp.server.exit();
      assertThat(lsp.awaitExit()).isEqualTo(LanguageServerRunner.EXIT_WITHOUT_SHUTDOWN);
    }
    LspHarness.assertNoServerThreadLeft();
  }

  @Test
  void closedInputEndsTheServer() throws Exception {
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      lsp.open(lsp.uri("src/demo/Pause.java"), Samples.SWALLOWED);
      lsp.awaitDiagnostics(lsp.uri("src/demo/Pause.java"), 1);
      lsp.closeInput();
      assertThat(lsp.awaitExit()).isEqualTo(LanguageServerRunner.EXIT_WITHOUT_SHUTDOWN);
    }
    LspHarness.assertNoServerThreadLeft();
    try (LspHarness lsp = LspHarness.start(root)) {
      lsp.initialize();
      lsp.server.shutdown().get(LspHarness.TIMEOUT_SECONDS, TimeUnit.SECONDS);
      lsp.closeInput();
      assertThat(lsp.awaitExit()).isEqualTo(LanguageServerRunner.EXIT_OK);
    }
    LspHarness.assertNoServerThreadLeft();
  }

  @Test
  void changesAreDebouncedOnTheInjectedClock() throws Exception {
    ManualScheduler clock = new ManualScheduler();
    try (LspHarness lsp = LspHarness.start(root, clock)) {
      lsp.initialize();
      String uri = lsp.uri("src/demo/Pause.java");
      lsp.open(uri, Samples.SWALLOWED); // an open is analysed at once
      only(lsp.awaitDiagnostics(uri, 1));
      String fixed =
          Samples.SWALLOWED.replace("ignored) {", "ignored) { Thread.currentThread().interrupt();");
      lsp.change(uri, 2, Samples.SWALLOWED + "\n");
      lsp.change(uri, 3, Samples.SWALLOWED + "\n\n");
      lsp.change(uri, 4, fixed);
      clock.awaitScheduled(3);
      assertThat(clock.cancelled()).isEqualTo(2);
      assertThat(clock.pending()).isEqualTo(1);

      clock.advance(java.time.Duration.ZERO);

      // The workspace's first index may finish meanwhile and have the document analysed again
      // at the version it had then (2 or 3): the debounced analysis is the one of version 4.
      PublishDiagnosticsParams next =
          lsp.awaitDiagnostics(uri, p -> p.getVersion() != null && p.getVersion() == 4);
      assertThat(next.getVersion()).isEqualTo(4);
      assertThat(next.getDiagnostics()).isEmpty();
    }
  }
}
