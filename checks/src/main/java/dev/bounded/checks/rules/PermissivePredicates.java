package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import dev.bounded.checks.model.UnitIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Retry methods of the project that leave the choice of what to retry to their caller, and the
 * calls that choose everything: a retry loop whose broad catch clause asks a predicate parameter
 * ({@code catch (RuntimeException e) { if (!retry.apply(e)) throw e; .. }}) classifies through its
 * caller, and a caller that hands it a predicate accepting every failure ({@code e -> true}),
 * directly or through an overload that does ({@code retryOnException(runnable, maxRetries)} calling
 * {@code retryOnException(runnable, e -> true, maxRetries)}), retries every failure of the caught
 * type. A fact across methods and files, kept in the index of the unit that declares the method
 * ({@link UnitIndex#memo}).
 */
final class PermissivePredicates {
  /** How many calls below the method asked about the retry loop is looked for. */
  static final int DEPTH = 2;

  /** A parameter of a method, and the broad type of the clause whose retry it decides. */
  private record Decider(int index, TypeRef caught) {}

  /** What is known of a method at one depth. */
  private record Verdict(List<Decider> deciders, TypeRef always) {}

  private static final Verdict NONE = new Verdict(List.of(), null);

  private final IdentityHashMap<MethodModel, Verdict[]> byMethod = new IdentityHashMap<>();

  private PermissivePredicates() {}

  /**
   * A call that makes a retry loop retry every failure of a broad type.
   *
   * @param call the call
   * @param callee the method it calls
   * @param caught the broad type the retry loop catches
   */
  record Match(Expr.Call call, MethodModel callee, TypeRef caught) {}

  /**
   * The findings of {@code rule} at every call {@link #find} returns: the call retries every
   * failure of the caught type, with {@code consequence} saying what that retries besides the
   * transient failures.
   */
  static List<Finding> findings(
      String rule, MethodAnalysis analysis, Predicate<TypeRef> broad, String consequence) {
    List<Finding> findings = new ArrayList<>();
    for (Match match : find(analysis, broad)) {
      findings.add(
          new Finding(
              rule,
              match.call().nameSpan(),
              "This call retries every "
                  + match.caught().simpleName()
                  + ": "
                  + match.callee().name()
                  + " leaves what to retry to a predicate, and the one it is given here (or by the"
                  + " overload called) accepts every failure (e -> true), so "
                  + consequence
                  + ". Pass a predicate that names the transient failures",
              List.of()));
    }
    return findings;
  }

  /**
   * Returns the calls of the method that hand a retry loop of the project a predicate accepting
   * every failure of a type {@code broad} takes, themselves or through the callee. Calls between
   * overloads of one method (the same name) are not reported: the family's outside callers are.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static List<Match> find(MethodAnalysis analysis, Predicate<TypeRef> broad) {
    List<Match> found = new ArrayList<>();
    UnitIndex unit = analysis.context().unit();
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (!(n instanceof Expr.Call call) || call.name().equals(analysis.method().name())) {
        continue;
      }
      MethodModel callee = unit.declarationInProject(call);
      if (callee == null
          || callee == analysis.method()
          || callee.body() == null
          || callee.params().size() != call.args().size()) {
        continue; /* Fast path: source not seen, recursion, or varargs. */
      }
      TypeRef caught = permissive(unit, callee, call, DEPTH);
      if (caught != null && broad.test(caught)) {
        found.add(new Match(call, callee, caught));
      }
    }
    return found;
  }

  /**
   * The broad type whose every failure a call of {@code callee} with these arguments retries, or
   * {@code null}.
   */
  private static TypeRef permissive(
      UnitIndex asking, MethodModel callee, Expr.Call call, int depth) {
    Verdict verdict = verdict(asking, callee, depth);
    if (verdict.always() != null) {
      return verdict.always();
    }
    for (Decider decider : verdict.deciders()) {
      if (acceptsEverything(call.args().get(decider.index()))) {
        return decider.caught();
      }
    }
    return null;
  }

  private static Verdict verdict(UnitIndex asking, MethodModel method, int depth) {
    SourceContext context;
    try {
      context = asking.contextOf(method);
    } catch (IllegalArgumentException notInIndex) {
      return NONE;
    }
    PermissivePredicates known =
        context.unit().memo(PermissivePredicates.class, u -> new PermissivePredicates());
    Verdict[] byDepth = known.byMethod.computeIfAbsent(method, m -> new Verdict[DEPTH + 1]);
    if (byDepth[depth] == null) {
      byDepth[depth] = NONE; // a call cycle back here finds nothing
      byDepth[depth] = compute(context, method, depth);
    }
    return byDepth[depth];
  }

  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static Verdict compute(SourceContext context, MethodModel method, int depth) {
    List<MethodModel.Param> params = method.params();
    if (method.body() == null || params.isEmpty()) {
      return NONE;
    }
    List<Decider> deciders = new ArrayList<>(ownDeciders(context, method));
    TypeRef always = null;
    if (depth > 0) {
      for (Node n : Nodes.sameFrame(method.body())) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        MethodModel callee = context.unit().declarationInProject(call);
        if (callee == null
            || callee == method
            || callee.body() == null
            || callee.params().size() != call.args().size()) {
          continue;
        }
        Verdict below = verdict(context.unit(), callee, depth - 1);
        if (always == null && below.always() != null) {
          always = below.always();
        }
        for (Decider decider : below.deciders()) {
          Expr arg = call.args().get(decider.index());
          if (always == null && acceptsEverything(arg)) {
            always = decider.caught();
          }
          if (arg instanceof Expr.Name passed && passed.kind() == Expr.NameKind.PARAMETER) {
            for (int i = 0; i < params.size(); i++) {
              if (passed.isVariable(params.get(i).name())) {
                deciders.add(new Decider(i, decider.caught()));
              }
            }
          }
        }
      }
    }
    return deciders.isEmpty() && always == null ? NONE : new Verdict(deciders, always);
  }

  /**
   * The parameters that decide, in the method's own retry loops, whether a broad clause goes round:
   * the clause calls a method on the parameter with the failure ({@code retry.apply(exception)},
   * {@code predicate.test(e)}) and tests the failure no other way.
   */
  private static List<Decider> ownDeciders(SourceContext context, MethodModel method) {
    boolean mayRetry = false;
    for (Node n : Nodes.sameFrame(method.body())) {
      mayRetry |= n instanceof Stmt.Loop;
    }
    if (!mayRetry) {
      return List.of();
    }
    MethodAnalysis analysis = MethodAnalysis.of(method, context);
    List<Decider> deciders = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      LoopInfo loop = analysis.loopOf(clause);
      if (loop == null || !loop.isRetryLoop() || !analysis.goesRoundAgain(clause, loop)) {
        continue;
      }
      TypeRef caught = broadType(clause);
      if (caught == null) {
        continue;
      }
      int decider = decidingParameter(method, clause);
      if (decider >= 0) {
        deciders.add(new Decider(decider, caught));
      }
    }
    return deciders;
  }

  private static TypeRef broadType(Stmt.Catch clause) {
    for (TypeRef type : clause.types()) {
      switch (type.name()) {
        case "java.lang.Exception", "java.lang.RuntimeException", "java.lang.Throwable" -> {
          return type;
        }
        default -> {}
      }
    }
    return null;
  }

  /**
   * The index of the parameter the clause asks about the failure, or -1: the failure (or a local
   * made from it, {@code E exception = (E) e}) reaches only calls on one parameter, with no type
   * test of it.
   */
  private static int decidingParameter(MethodModel method, Stmt.Catch clause) {
    Set<String> names = new HashSet<>();
    names.add(clause.parameter());
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Stmt.LocalVar alias
          && alias.init() != null
          && Nodes.mentions(alias.init(), clause.parameter())) {
        names.add(alias.name());
      }
    }
    int decider = -1;
    for (Node n : Nodes.sameFrame(clause.body())) {
      if (n instanceof Expr.InstanceOf || n instanceof Stmt.Switch) {
        return -1;
      }
      if (!(n instanceof Expr.Call call)
          || !(call.receiver() instanceof Expr.Name receiver)
          || receiver.kind() != Expr.NameKind.PARAMETER
          || call.args().stream()
              .noneMatch(a -> names.stream().anyMatch(x -> Nodes.mentions(a, x)))) {
        continue;
      }
      for (int i = 0; i < method.params().size(); i++) {
        if (receiver.isVariable(method.params().get(i).name())) {
          decider = i;
        }
      }
    }
    return decider;
  }

  /**
   * Whether an argument is a predicate that accepts every failure: a lambda whose body is {@code
   * true} ({@code e -> true}, {@code e -> { return true; }}).
   */
  private static boolean acceptsEverything(Expr arg) {
    if (!(arg instanceof Expr.Lambda lambda)) {
      return false;
    }
    Stmt body = lambda.body();
    if (body instanceof Stmt.Block block && block.statements().size() == 1) {
      body = block.statements().get(0);
    }
    Expr value =
        body instanceof Stmt.ExprStmt e
            ? e.expr()
            : body instanceof Stmt.Return r ? r.value() : null;
    return value instanceof Expr.Literal literal && Boolean.TRUE.equals(literal.value());
  }
}
