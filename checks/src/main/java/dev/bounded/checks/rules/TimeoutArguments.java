package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.UnitFacts;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Which parameters of a method carry a timeout that the method applies: a fact across methods and
 * files, derived from the frontend's {@link UnitIndex} and kept in the index of the unit that
 * declares the method ({@link UnitIndex#memo}), for {@link PerAttemptTimeoutRule}.
 *
 * <p>A method applies the timeout of its parameter {@code options} when a wait in its own frame
 * takes its timeout from it ({@code connection.setReadTimeout(options.readTimeoutMillis())}, also
 * through a local assigned from it), or when it hands that parameter on to a method that applies it
 * ({@code client.execute(request, options)}, with the one implementation of {@code Client.execute}
 * in the sources doing the former), at most {@value #DEPTH} calls deep. Waits in a poll loop of the
 * method, waits bounded by a deadline and methods that take a deadline do not count.
 *
 * <p>The timeout moves with the argument, so a caller's retry loop that hands the same argument to
 * every attempt gives every attempt the whole timeout: the depth can be larger than for a timeout a
 * callee sets on its own, which may lie on a path the retry does not take again.
 */
final class TimeoutArguments {
  /** How many calls deep, from the method asked about, a wait is looked for. */
  static final int DEPTH = 3;

  /**
   * A method known to apply no timeout of its parameters; also the mark of one being worked out.
   */
  private static final String[] NONE = new String[0];

  private final IdentityHashMap<MethodModel, String[][]> byMethod = new IdentityHashMap<>();

  private TimeoutArguments() {}

  /**
   * Returns, for each parameter of the method a call invokes, the wait that applies a timeout taken
   * from it, or {@code null} where it applies none.
   *
   * @param analysis the analysis of the calling method
   * @param call a call in it
   * @param config the rule's settings
   * @return one entry per parameter of the callee, or an empty list if its source is not seen, it
   *     is the calling method, or it applies no timeout of its parameters
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static List<String> of(MethodAnalysis analysis, Expr.Call call, RuleConfig config) {
    UnitIndex unit = analysis.context().unit();
    MethodModel callee = unit.declarationInProject(call);
    if (callee == null
        || callee == analysis.method()
        || callee.params().size() != call.args().size()) {
      return List.of(); /* Fast path: source not seen, recursion, or varargs. */
    }
    return Arrays.asList(applied(unit, callee, DEPTH, config));
  }

  /** What the method applies, looking at most {@code depth} calls deep; kept in its own unit. */
  private static String[] applied(
      UnitIndex asking, MethodModel method, int depth, RuleConfig config) {
    SourceContext context;
    try {
      context = asking.contextOf(method);
    } catch (IllegalArgumentException notInIndex) {
      return NONE;
    }
    TimeoutArguments known =
        context.unit().memo(TimeoutArguments.class, u -> new TimeoutArguments());
    String[][] byDepth = known.byMethod.computeIfAbsent(method, m -> new String[DEPTH + 1][]);
    if (byDepth[depth] == null) {
      byDepth[depth] = NONE; // a call cycle back here finds nothing
      byDepth[depth] = compute(context, method, depth, config);
    }
    return byDepth[depth];
  }

  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static String[] compute(
      SourceContext context, MethodModel method, int depth, RuleConfig config) {
    List<MethodModel.Param> params = method.params();
    if (method.body() == null || params.isEmpty() || hasDeadlineParameter(method)) {
      return NONE;
    }
    MethodAnalysis analysis = UnitFacts.of(context.unit()).analysisOf(method);
    if (analysis == null) {
      return NONE;
    }
    String[] found = new String[params.size()];
    boolean any = false;
    for (Node n : analysis.bodyFrameNodes()) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      List<Expr> timeouts = PerAttemptTimeoutRule.timeoutArguments(call, config);
      if (!timeouts.isEmpty()) {
        if (!PerAttemptTimeoutRule.isFreshTimeout(analysis, call, config)
            || PerAttemptTimeoutRule.isPollSlice(analysis, call)) {
          continue;
        }
        for (int i = 0; i < params.size(); i++) {
          for (Expr timeout : timeouts) {
            if (found[i] == null && carries(analysis, timeout, params.get(i).name())) {
              found[i] = PerAttemptTimeoutRule.shortText(analysis, call);
              any = true;
            }
          }
        }
        continue;
      }
      if (depth <= 1) {
        continue;
      }
      MethodModel callee = context.unit().declarationInProject(call);
      if (callee == null || callee == method || callee.params().size() != call.args().size()) {
        continue;
      }
      String[] below = applied(context.unit(), callee, depth - 1, config);
      for (int j = 0; j < below.length; j++) {
        if (below[j] == null) {
          continue;
        }
        for (int i = 0; i < params.size(); i++) {
          if (found[i] == null && carries(analysis, call.args().get(j), params.get(i).name())) {
            found[i] = below[j];
            any = true;
          }
        }
      }
    }
    return any ? found : NONE;
  }

  /** Whether an expression takes its value from the parameter, directly or through a local. */
  private static boolean carries(MethodAnalysis analysis, Expr expr, String param) {
    if (Nodes.mentions(expr, param)) {
      return true;
    }
    for (Node n : Nodes.sameFrame(expr)) {
      if (n instanceof Expr.Name local
          && local.kind() == Expr.NameKind.LOCAL
          && local.isVariable(local.name())
          && analysis.valuesOf(local.name()).stream().anyMatch(v -> Nodes.mentions(v, param))) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasDeadlineParameter(MethodModel method) {
    return PerAttemptTimeoutRule.hasDeadlineParameter(method);
  }
}
