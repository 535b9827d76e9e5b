package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.SourceContext;
import dev.bounded.checks.model.UnitIndex;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which arguments a retry library runs once per attempt: of its own calls ({@code
 * Failsafe.with(policy).get(() -> ..)}, {@code policy.call(attempt -> ..)}), or of a method of the
 * project that hands its parameter to one, itself or one call down ({@code execute(() ->
 * stub.withDeadlineAfter(timeout, unit).leaseGrant(..))}, with {@code execute} handing its {@code
 * supplier} to {@code Failsafe.with(..).getStageAsync(() -> supplier.get()..)}). For {@link
 * PerAttemptTimeoutRule}; a fact across methods and files, derived from the frontend's {@link
 * UnitIndex} and kept in the index of the unit that declares the method ({@link UnitIndex#memo}).
 *
 * <p>Retry libraries: Failsafe's {@code FailsafeExecutor} (by type, or written as a chain on {@code
 * Failsafe.with(..)}), resilience4j's {@code Retry}, Spring's {@code RetryOperations} and Bounded's
 * {@code RetryPolicy}. A call that hands the library a deadline ({@code policy.call(deadline, ..)})
 * bounds all attempts together and does not count.
 */
final class RetriedArguments {
  /** How many calls below the method asked about the retry library's call is looked for. */
  static final int DEPTH = 2;

  private static final Set<String> FAILSAFE_CALLS =
      Set.of(
          "get",
          "run",
          "getAsync",
          "runAsync",
          "getStageAsync",
          "getAsyncExecution",
          "runAsyncExecution",
          "getStageAsyncExecution");

  private static final boolean[] NONE = new boolean[0];

  private final IdentityHashMap<MethodModel, boolean[][]> byMethod = new IdentityHashMap<>();

  private RetriedArguments() {}

  /**
   * Tells whether the argument at {@code index} of a call is run once per attempt by a retry
   * library: the call is the library's, or invokes a method of the project that hands that
   * parameter to one.
   *
   * @param analysis the analysis of the calling method
   * @param call a call in it
   * @param index an argument's index
   * @return {@code true} if every attempt runs it again
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  static boolean runsPerAttempt(MethodAnalysis analysis, Expr.Call call, int index) {
    if (isRetryLibraryCall(call)) {
      return !handsDeadline(call);
    }
    UnitIndex unit = analysis.context().unit();
    MethodModel callee = unit.declarationInProject(call);
    if (callee == null
        || callee == analysis.method()
        || callee.params().size() != call.args().size()) {
      return false; /* Fast path: source not seen, recursion, or varargs. */
    }
    boolean[] retried = retried(unit, callee, DEPTH);
    return index < retried.length && retried[index];
  }

  /** Which parameters the method hands to a retry library, looking {@code depth} calls down. */
  private static boolean[] retried(UnitIndex asking, MethodModel method, int depth) {
    SourceContext context;
    try {
      context = asking.contextOf(method);
    } catch (IllegalArgumentException notInIndex) {
      return NONE;
    }
    RetriedArguments known =
        context.unit().memo(RetriedArguments.class, u -> new RetriedArguments());
    boolean[][] byDepth = known.byMethod.computeIfAbsent(method, m -> new boolean[DEPTH + 1][]);
    if (byDepth[depth] == null) {
      byDepth[depth] = NONE; // a call cycle back here finds nothing
      byDepth[depth] = compute(context, method, depth);
    }
    return byDepth[depth];
  }

  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean[] compute(SourceContext context, MethodModel method, int depth) {
    List<MethodModel.Param> params = method.params();
    if (method.body() == null
        || params.isEmpty()
        || PerAttemptTimeoutRule.hasDeadlineParameter(method)) {
      return NONE;
    }
    boolean[] found = new boolean[params.size()];
    boolean any = false;
    for (Node n : Nodes.sameFrame(method.body())) {
      if (!(n instanceof Expr.Call call)) {
        continue;
      }
      if (isRetryLibraryCall(call)) {
        if (handsDeadline(call)) {
          continue;
        }
        for (int i = 0; i < params.size(); i++) {
          for (Expr arg : call.args()) {
            if (Nodes.mentions(arg, params.get(i).name())) {
              found[i] = true;
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
      boolean[] below = retried(context.unit(), callee, depth - 1);
      for (int j = 0; j < below.length; j++) {
        if (below[j]
            && call.args().get(j) instanceof Expr.Name passed
            && passed.kind() == Expr.NameKind.PARAMETER) {
          for (int i = 0; i < params.size(); i++) {
            if (passed.isVariable(params.get(i).name())) {
              found[i] = true;
              any = true;
            }
          }
        }
      }
    }
    return any ? found : NONE;
  }

  /** A retry library's call that runs its operation once per attempt. */
  static boolean isRetryLibraryCall(Expr.Call call) {
    if (FAILSAFE_CALLS.contains(call.name())
        && (isOn(call, "dev.failsafe.FailsafeExecutor") || onFailsafeChain(call))) {
      return true;
    }
    if ((call.name().startsWith("execute") || call.name().startsWith("decorate"))
        && isOn(call, "io.github.resilience4j.retry.Retry")) {
      return true;
    }
    if (call.name().equals("execute") && isOn(call, "org.springframework.retry.RetryOperations")) {
      return true;
    }
    return (call.name().equals("call") || call.name().equals("callIdempotent"))
        && isOn(call, "dev.bounded.runtime.RetryPolicy");
  }

  /** {@code Failsafe.with(policy).with(executor).getStageAsync(..)}, by how it is written. */
  private static boolean onFailsafeChain(Expr.Call call) {
    Expr receiver = call.receiver();
    while (receiver instanceof Expr.Call link) {
      if (link.name().equals("with")
          && link.receiver() instanceof Expr.Name type
          && type.name().equals("Failsafe")) {
        return true;
      }
      receiver = link.receiver();
    }
    return false;
  }

  private static boolean isOn(Expr.Call call, String owner) {
    return (call.receiver() != null && call.receiver().type().isSubtypeOf(owner))
        || call.method().owner().isSubtypeOf(owner);
  }

  /** Whether the call hands the library a deadline that bounds all attempts together. */
  private static boolean handsDeadline(Expr.Call call) {
    for (Expr arg : call.args()) {
      if (arg.type().simpleName().equals("Deadline")
          || (arg instanceof Expr.Name name
              && name.name().toLowerCase(Locale.ROOT).contains("deadline"))) {
        return true;
      }
    }
    return false;
  }
}
