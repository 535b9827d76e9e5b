package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds retrying catch clauses of broad types that do not classify the failure: what the two
 * unclassified-retry rules share.
 */
final class CatchAllRetries {
  /** Names of calls that decide whether a failure is worth retrying. */
  private static final NamePattern CLASSIFIER =
      NamePattern.containing(
          "(?i).*(retr|transient|recoverable|classif|fatal|should|throwif|propagateif).*",
          "retr",
          "transient",
          "recoverable",
          "classif",
          "fatal",
          "should",
          "throwif",
          "propagateif");

  /** Calls that hand a failure to a retry engine's policy (besides the propagating calls). */
  private static final NamePattern DELEGATE =
      NamePattern.startingWith("on\\w*Error|register\\w*", "on", "register");

  private CatchAllRetries() {}

  /** A clause that retries every failure of a broad type. */
  record Match(Stmt.Catch clause, LoopInfo loop, int typeIndex) {
    Span typeSpan() {
      return clause.typeSpans().get(typeIndex);
    }

    String typeName() {
      return clause.types().get(typeIndex).name();
    }
  }

  /**
   * Returns the retrying clauses in retry loops that catch one of {@code broadTypes} and do not
   * look at what they caught. A clause is not reported when an earlier clause of the same try
   * already catches {@code witness}, the kind of failure that should not be retried.
   */
  static List<Match> find(MethodAnalysis analysis, Set<String> broadTypes, String witness) {
    return find(analysis, type -> broadTypes.contains(type.name()), witness, false);
  }

  /**
   * Like {@link #find(MethodAnalysis, Set, String)}, with the broad types given by a test, and with
   * {@code background} also in background loops that retry ({@link LoopInfo#isBackgroundRetry()}).
   */
  static List<Match> find(
      MethodAnalysis analysis, Predicate<TypeRef> broad, String witness, boolean background) {
    List<Match> matches = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      int index = broadTypeIndex(clause, broad);
      if (index < 0) {
        continue;
      }
      LoopInfo loop = analysis.loopOf(clause);
      if (loop == null
          || !(loop.isRetryLoop() || (background && loop.endsOnlyWhenStopped()))
          || !analysis.goesRoundAgain(clause, loop)
          || classifies(analysis, clause)
          || earlierClauseTakes(analysis, clause, witness)) {
        continue;
      }
      matches.add(new Match(clause, loop, index));
    }
    return matches;
  }

  private static int broadTypeIndex(Stmt.Catch clause, Predicate<TypeRef> broad) {
    for (int i = 0; i < clause.types().size(); i++) {
      if (broad.test(clause.types().get(i))) {
        return i;
      }
    }
    return -1;
  }

  /** Whether an earlier clause of the same try takes {@code witness} before this one can. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean earlierClauseTakes(
      MethodAnalysis analysis, Stmt.Catch clause, String witness) {
    for (Stmt.Catch earlier : analysis.tryOf(clause).catches()) {
      if (earlier == clause) {
        return false;
      }
      if (earlier.catches(witness)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the handler looks at the failure before retrying: an {@code instanceof} on it, a
   * condition that reads it, or a classifier call such as {@code isRetryable(e)}.
   */
  static boolean classifies(MethodAnalysis analysis, Stmt.Catch clause) {
    String e = clause.parameter();
    boolean handedOn = false;
    String storedIn = null;
    // By identity: model nodes are records, whose equals and hashCode walk the whole subtree.
    Set<Node> testedInIf = Collections.newSetFromMap(new IdentityHashMap<>());
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.If check && Nodes.mentions(check.condition(), e)) {
        // Classification only if some kinds of failure leave: a branch that goes round for every
        // other failure as well does not classify.
        if (Flow.leaves(check.then())
            || (check.otherwise() != null && Flow.leaves(check.otherwise()))) {
          return true;
        }
        testedInIf.addAll(Nodes.sameFrame(check.condition()));
      }
      if (n instanceof Expr.InstanceOf test
          && Nodes.mentions(test.expr(), e)
          && !testedInIf.contains(test)) {
        return true;
      }
      if (n instanceof Stmt.Switch choice && Nodes.mentions(choice.selector(), e)) {
        return true;
      }
      if (n instanceof Expr.Call call && call.args().stream().anyMatch(a -> Nodes.mentions(a, e))) {
        if (CLASSIFIER.matches(call.name())
            || DELEGATE.matches(call.name())
            || Interrupts.isPropagatingCall(call.name())) {
          return true; // a classifier, or a policy that rethrows what it will not retry
        }
        if (!call.method().thrown().isEmpty()) {
          return true; // handed to code that may rethrow it: the policy decides
        }
        handedOn = true;
      }
      if (n instanceof Expr.Assign assign
          && assign.target() instanceof Expr.Name local
          && local.isVariable(local.name())
          && Nodes.mentions(assign.value(), e)) {
        storedIn = local.name();
      }
    }
    // Handed to a policy, then a conditional exit asks it: registerThrowable(e); if
    // (shouldRethrow())
    if (handedOn && hasClassifiedExit(clause.body())) {
      return true;
    }
    // Stored, then judged after the try: attempt = new Attempt(e); ... if
    // (stop.shouldStop(attempt))
    return storedIn != null && judgedAfterTry(analysis, clause, storedIn);
  }

  private static boolean hasClassifiedExit(Stmt body) {
    for (Node n : Nodes.sameFrame(body)) {
      if (n instanceof Stmt.If check && !Flow.canCompleteNormally(check.then())) {
        for (Expr.Call call : Nodes.calls(check.condition())) {
          if (CLASSIFIER.matches(call.name())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean judgedAfterTry(MethodAnalysis analysis, Stmt.Catch clause, String local) {
    Stmt.Try t = analysis.tryOf(clause);
    if (!(analysis.parent(t) instanceof Stmt.Block block)) {
      return false;
    }
    boolean after = false;
    for (Stmt s : block.statements()) {
      if (after) {
        for (Expr.Call call : Nodes.calls(s)) {
          boolean judge =
              CLASSIFIER.matches(call.name())
                  || call.name().equals("apply")
                  || call.name().equals("test");
          if (judge && call.args().stream().anyMatch(a -> Nodes.mentions(a, local))) {
            return true;
          }
        }
      }
      after |= s == t;
    }
    return false;
  }
}
