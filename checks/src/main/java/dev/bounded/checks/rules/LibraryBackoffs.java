package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Backoff types of libraries whose delays, as their sources show, have no random part in a given
 * configuration: what {@link RetryPolicyWithoutJitterRule} reports where such a backoff is built,
 * and what {@link Backoffs#isDeterministic} knows of a delay one of them computes, although the
 * frontends see no source of it (the library is a jar on the class path).
 *
 * <ul>
 *   <li>Kafka's {@code org.apache.kafka.common.utils.ExponentialBackoff(initialInterval,
 *       multiplier, maxInterval, jitter)}: {@code backoff(attempts)} multiplies the delay by a
 *       random factor in {@code [1 - jitter, 1 + jitter]} only when the jitter is at least {@code
 *       Double.MIN_NORMAL}; built with a constant jitter of 0 its delays are fixed;
 *   <li>Apollo's {@code com.ctrip.framework.apollo.core.schedule.ExponentialSchedulePolicy(lower,
 *       upper)}: {@code fail()} doubles the last delay up to the upper bound, with no random part
 *       in any configuration.
 * </ul>
 *
 * <p>Reported where they are configured only ({@link RetryPolicyWithoutJitterRule}): Spring
 * Framework's {@code org.springframework.util.backoff.ExponentialBackOff} without {@code
 * setJitter(..)}, Google HTTP client's {@code ExponentialBackOff.Builder} given {@code
 * setRandomizationFactor(0)}.
 *
 * <p>Types that jitter by default (Google HTTP client's {@code ExponentialBackOff} as built,
 * Azure's {@code ExponentialBackoff}, the AWS SDK's full-jitter strategies) are not here.
 */
final class LibraryBackoffs {
  static final String KAFKA_BACKOFF = "org.apache.kafka.common.utils.ExponentialBackoff";
  static final String APOLLO_POLICY =
      "com.ctrip.framework.apollo.core.schedule.ExponentialSchedulePolicy";
  static final String SPRING_BACKOFF = "org.springframework.util.backoff.ExponentialBackOff";
  static final Set<String> GOOGLE_BUILDERS =
      Set.of(
          "com.google.api.client.util.ExponentialBackOff.Builder",
          "com.google.api.client.http.ExponentialBackOffPolicy.Builder");

  /** The packages that declare the types: their own code is not a use of them. */
  static final List<String> PACKAGES =
      List.of(
          "org.apache.kafka.common.utils.",
          "com.ctrip.framework.apollo.core.schedule.",
          "org.springframework.util.backoff.",
          "com.google.api.client.");

  /**
   * Names that say a backoff is for retrying failures: of its variable or field, or of the method
   * that builds it ({@code reconfigureConnectorTasksWithRetry}, {@code m_loadConfigFailPolicy}).
   * Kafka's backoff is a general utility (also the delay between rebalances, which no failure
   * starts): it is reported only with such a name.
   */
  private static final NamePattern FOR_FAILURES =
      NamePattern.containing(
          "(?i).*(retr|fail|error|reconnect|recover).*",
          "retr",
          "fail",
          "error",
          "reconnect",
          "recover");

  /** Names of a callback lambda's failure parameter: {@code (error, result) -> ..}. */
  private static final NamePattern FAILURE_PARAM =
      NamePattern.containing(
          "(?i)(e|t|ex|err|error|.*exception|throwable|failure|cause)",
          "e",
          "t",
          "ex",
          "err",
          "exception",
          "throwable",
          "failure",
          "cause");

  /** How many callers deep a parameter holding a backoff is followed to where it is built. */
  private static final int CALLER_DEPTH = 2;

  private LibraryBackoffs() {}

  /**
   * Returns what a creation builds when it is one of the known backoffs with no random part, in
   * words for a finding ({@code "Kafka's ExponentialBackoff built with jitter 0"}), else {@code
   * null}. The types are matched by their qualified names (the scanner resolves them through the
   * file's imports).
   */
  static String jitterFree(Expr.New created) {
    if (created.hasBody()) {
      return null;
    }
    String type = created.type().name();
    if (type.equals(KAFKA_BACKOFF) && created.args().size() == 4 && isZero(created.args().get(3))) {
      return "Kafka's ExponentialBackoff built with jitter 0";
    }
    if (type.equals(APOLLO_POLICY)) {
      return "Apollo's ExponentialSchedulePolicy";
    }
    return null;
  }

  /**
   * Whether a creation is Spring's {@code ExponentialBackOff} with no random part: before Spring 7
   * it has no jitter at all (its javadoc lists the fixed sequence of delays), from Spring 7 its
   * jitter is 0 unless {@code setJitter(..)} gives one, here or in any method of the class (a
   * constructor may configure the field). Its own package is the library's.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean isSpringWithoutJitter(MethodAnalysis analysis, Expr.New created) {
    if (created.hasBody() || !created.type().name().equals(SPRING_BACKOFF)) {
      return false;
    }
    List<Node> bodies = new ArrayList<>();
    bodies.add(analysis.method().body());
    String owner = analysis.method().owner();
    for (MethodModel method : analysis.context().unit().methods()) {
      if (owner != null && owner.equals(method.owner())) {
        bodies.add(method.body());
      }
    }
    for (Node body : bodies) {
      for (Node n : Nodes.preOrder(body)) {
        if (n instanceof Expr.Call call && call.name().equals("setJitter")) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether a call switches the random part of Google HTTP client's {@code ExponentialBackOff} off:
   * {@code setRandomizationFactor(0)} on its builder (or the deprecated {@code
   * ExponentialBackOffPolicy}'s, which hands it on). With a factor of 0 the randomised interval is
   * the current interval itself; the default factor, 0.5, is jitter.
   */
  static boolean switchesGoogleJitterOff(Expr.Call call) {
    if (!call.name().equals("setRandomizationFactor")
        || call.args().size() != 1
        || !isZero(call.args().get(0))) {
      return false;
    }
    for (Expr e = call.receiver(); e != null; ) {
      if (GOOGLE_BUILDERS.contains(e.type().name())) {
        return true;
      }
      if (e instanceof Expr.New created) {
        return GOOGLE_BUILDERS.contains(created.type().name());
      }
      e = e instanceof Expr.Call inner ? inner.receiver() : null;
    }
    return false;
  }

  /**
   * Whether a creation of a known backoff with no random part is there to retry failures: Apollo's
   * schedule policy always is (its delay method is {@code fail()}); Kafka's backoff when its
   * variable or field, or the method that builds it, is named for retrying failures.
   */
  static boolean servesRetries(MethodAnalysis analysis, Expr.New created) {
    if (created.type().name().equals(APOLLO_POLICY)) {
      return true;
    }
    String holder = Backoffs.assignedName(analysis, created);
    return (holder != null && FOR_FAILURES.matches(holder))
        || FOR_FAILURES.matches(analysis.method().name());
  }

  /**
   * Whether a call computes a delay with a known backoff of no random part: Kafka's {@code
   * backoff(attempts)} or Apollo's {@code fail()} on a receiver every origin of which is such a
   * creation: built there, a local given one, a field given one in its class, or a parameter every
   * caller in the unit (and the method calling itself) gives one or passes its own on.
   */
  static boolean isJitterFreeDelay(MethodAnalysis analysis, Expr.Call call) {
    boolean kafka = call.name().equals("backoff") && call.args().size() == 1;
    boolean apollo = call.name().equals("fail") && call.args().isEmpty();
    if (!(kafka || apollo) || call.receiver() == null) {
      return false;
    }
    String type = kafka ? KAFKA_BACKOFF : APOLLO_POLICY;
    if (apollo
        && call.receiver() instanceof Expr.Name declared
        && declared.type().name().equals(APOLLO_POLICY)) {
      return true; // declared as the policy itself, not as an interface it implements
    }
    return holdsJitterFree(analysis, call.receiver(), type, CALLER_DEPTH);
  }

  private static boolean holdsJitterFree(
      MethodAnalysis analysis, Expr holder, String type, int depth) {
    if (holder instanceof Expr.New created) {
      return created.type().name().equals(type) && jitterFree(created) != null;
    }
    if (!(holder instanceof Expr.Name name)) {
      return false;
    }
    if (name.kind() == Expr.NameKind.PARAMETER) {
      return depth > 0 && givenByCallers(analysis, name.name(), type, depth);
    }
    List<Expr> origins = analysis.origins(name);
    if (origins.isEmpty() || (origins.size() == 1 && origins.get(0) == holder)) {
      return false;
    }
    for (Expr origin : origins) {
      if (!holdsJitterFree(analysis, origin, type, depth)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether every call of the method in the unit gives the parameter a known backoff with no random
   * part, or (the method calling itself) passes the parameter on; at least one caller must build
   * it.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean givenByCallers(
      MethodAnalysis analysis, String param, String type, int depth) {
    MethodModel method = analysis.method();
    int index = -1;
    for (int i = 0; i < method.params().size(); i++) {
      index = method.params().get(i).name().equals(param) ? i : index;
    }
    if (index < 0 || method.name().equals(MethodModel.INITIALISERS)) {
      return false;
    }
    List<MethodModel> callers = new ArrayList<>(analysis.unitFacts().callers(method));
    if (callers.isEmpty()) {
      return false;
    }
    callers.add(method);
    for (MethodModel caller : callers) {
      MethodAnalysis callerAnalysis =
          caller == method ? analysis : analysis.unitFacts().analysisOf(caller);
      if (callerAnalysis == null) {
        return false;
      }
      for (Node n : callerAnalysis.bodyNodes()) {
        if (!(n instanceof Expr.Call call)
            || call.args().size() != method.params().size()
            || callerAnalysis.context().unit().declarationOf(call) != method) {
          continue;
        }
        Expr given = call.args().get(index);
        boolean passedOn =
            caller == method
                && given instanceof Expr.Name same
                && same.kind() == Expr.NameKind.PARAMETER
                && same.name().equals(param);
        if (!passedOn && !holdsJitterFree(callerAnalysis, given, type, depth - 1)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether a call runs after a failure: in a catch clause, in a failure callback (or a method only
   * such callbacks call), or on the branch of a callback lambda that its failure parameter is set
   * ({@code (error, result) -> { if (error != null) { .. } }}).
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  static boolean afterFailure(MethodAnalysis analysis, Expr.Call call) {
    if (analysis.isInCatchBody(call, null) || DelayedRetries.onFailurePath(analysis)) {
      return true;
    }
    for (Node p = analysis.parent(call); p != null; p = analysis.parent(p)) {
      if (p instanceof Expr.Lambda lambda) {
        for (String param : lambda.params()) {
          if (FAILURE_PARAM.matches(param)
              && DelayedRetries.onFailureBranch(analysis, call, lambda, param)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isZero(Expr value) {
    return value instanceof Expr.Literal literal
        && literal.value() instanceof Number number
        && number.doubleValue() == 0;
  }
}
