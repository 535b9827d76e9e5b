package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.ReactorRetries;
import dev.bounded.checks.model.Edit;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.Fix;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Failure mode F, in retry libraries: a policy built with exponential backoff but no jitter, or no
 * cap. Reported at the builder call:
 *
 * <ul>
 *   <li>Failsafe: {@code withBackoff(..)} and no {@code withJitter(..)} in the method;
 *   <li>resilience4j: {@code IntervalFunction.ofExponentialBackoff(..)}, which never randomises
 *       (and without a {@code maxInterval} argument never caps);
 *   <li>Spring Retry: {@code new ExponentialBackOffPolicy()} when {@code
 *       ExponentialRandomBackOffPolicy} is on the class path, and {@code
 *       RetryTemplateBuilder.exponentialBackoff(initial, multiplier, max)} without {@code
 *       withRandom = true};
 *   <li>Spring Framework's core retry ({@code org.springframework.core.retry.RetryPolicy}): a
 *       builder given a {@code multiplier(..)} (an exponential backoff) and no {@code jitter(..)}
 *       in the method (reported at the multiplier; no fix);
 *   <li>Bounded: {@code RetryPolicy.Builder.random(..)} given a constant, which switches the jitter
 *       off;
 *   <li>Project Reactor ({@link ReactorRetries}): {@code Retry.fixedDelay(n, d)} (no jitter, and
 *       {@code jitter(..)} cannot add one) with no {@code minBackoff}/{@code maxBackoff} in the
 *       method; {@code jitter(0)} on a {@code RetryBackoffSpec}; {@code Retry.backoff(n, min)} with
 *       no {@code maxBackoff(..)} in the method when {@code n} is {@code Long.MAX_VALUE} or a
 *       constant of at least {@value #UNCAPPED_ATTEMPTS} (Reactor's default cap is {@code
 *       Duration.ofMillis(Long.MAX_VALUE)}: none). Reactor's default jitter of 0.5 is not reported;
 *   <li>library backoffs whose delays have no random part ({@link LibraryBackoffs}): Kafka's {@code
 *       new ExponentialBackoff(initial, multiplier, max, 0)} where its variable, field or method is
 *       named for retrying failures, Apollo's {@code new ExponentialSchedulePolicy(lower, upper)}.
 * </ul>
 *
 * <p>Fixes: Failsafe gets {@code .withJitter(0.5)} after the backoff; Spring's policy becomes its
 * random subclass, which takes the same settings.
 */
public final class RetryPolicyWithoutJitterRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "RetryPolicyWithoutJitter";

  private static final Set<String> FAILSAFE_BUILDERS =
      Set.of("dev.failsafe.RetryPolicyBuilder", "net.jodah.failsafe.RetryPolicy");
  private static final String INTERVAL_FUNCTION = "io.github.resilience4j.core.IntervalFunction";
  private static final String SPRING_POLICY =
      "org.springframework.retry.backoff.ExponentialBackOffPolicy";
  private static final String SPRING_RANDOM_POLICY =
      "org.springframework.retry.backoff.ExponentialRandomBackOffPolicy";
  private static final String SPRING_TEMPLATE_BUILDER =
      "org.springframework.retry.support.RetryTemplateBuilder";
  private static final String BOUNDED_BUILDER = "dev.bounded.runtime.RetryPolicy.Builder";
  private static final String SPRING_CORE_BUILDER =
      "org.springframework.core.retry.RetryPolicy.Builder";
  private static final String SPRING_CORE_POLICY = "org.springframework.core.retry.RetryPolicy";

  private static final String REACTOR_BACKOFF_SPEC = "reactor.util.retry.RetryBackoffSpec";

  /**
   * The attempts from which an uncapped Reactor backoff is reported: the 20th retry waits {@code
   * 2^19} times the first delay (100 ms become 14.5 hours). Below it, the attempt cap bounds the
   * growth.
   */
  static final long UNCAPPED_ATTEMPTS = 20;

  private static final String HERD =
      ": clients that failed together retry together, in waves that keep the dependency down.";

  @Override
  public String name() {
    return NAME;
  }

  /** The retry libraries' own packages: their builders implement policies, they do not use them. */
  private static final List<String> LIBRARY_PACKAGES =
      List.of(
          "dev.failsafe.",
          "net.jodah.failsafe.",
          "io.github.resilience4j.",
          "org.springframework.retry.",
          "org.springframework.core.retry.",
          "dev.bounded.runtime.",
          "reactor.",
          "org.apache.kafka.common.utils.",
          "com.ctrip.framework.apollo.core.schedule.",
          "org.springframework.util.backoff.",
          "com.google.api.client.");

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    String owner = analysis.method().owner();
    // A constant random source is how a test makes the backoff deterministic (the runtime's
    // testing guide says so): it is reported outside test classes only.
    for (String library : LIBRARY_PACKAGES) {
      if (owner != null && owner.startsWith(library)) {
        return findings; /* Fast path: the library's own implementation. */
      }
    }
    Boolean hasJitterCall = null;
    Boolean hasSpringJitter = null;
    Boolean hasReactorMax = null;
    Boolean hasReactorBounds = null;
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call call && isSelfDelegation(call)) {
        continue; // an overload delegating to another: the caller configures
      }
      if (n instanceof Expr.Call call) {
        if (ReactorRetries.isFactory(call) || call.name().equals("jitter")) {
          if (hasReactorBounds == null) {
            hasReactorMax = callsNamed(analysis, "maxBackoff");
            hasReactorBounds =
                (hasReactorMax || callsNamed(analysis, "minBackoff"))
                    && callsNamed(analysis, "jitter");
          }
          Finding reactor = reactor(analysis, call, hasReactorBounds, hasReactorMax);
          if (reactor != null) {
            findings.add(reactor);
          }
        } else if (call.name().equals("withBackoff") && isOn(call, FAILSAFE_BUILDERS)) {
          if (hasJitterCall == null) {
            hasJitterCall = callsWithJitter(analysis);
          }
          if (!hasJitterCall) {
            findings.add(failsafe(call));
          }
        } else if (call.name().equals("multiplier")
            && call.args().size() == 1
            && isSpringCoreBuilder(call)) {
          if (hasSpringJitter == null) {
            hasSpringJitter = callsNamed(analysis, "jitter");
          }
          if (!hasSpringJitter) {
            findings.add(springCore(call));
          }
        } else if (call.name().equals("ofExponentialBackoff")
            && Nodes.isStaticCallOn(call, INTERVAL_FUNCTION)) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "IntervalFunction.ofExponentialBackoff never randomises the interval"
                      + (call.args().size() < 3 ? " and, without a maxInterval, never caps it" : "")
                      + HERD
                      + " Use IntervalFunction.ofExponentialRandomBackoff with a maximum interval",
                  List.of()));
        } else if (call.name().equals("exponentialBackoff")
            && isOn(call, Set.of(SPRING_TEMPLATE_BUILDER))
            && withoutRandom(call)) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "This exponential backoff has no random part"
                      + HERD
                      + " Pass withRandom = true: exponentialBackoff(initial, multiplier, max,"
                      + " true)",
                  List.of()));
        } else if (LibraryBackoffs.switchesGoogleJitterOff(call)) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "setRandomizationFactor(0) switches the random part of this ExponentialBackOff"
                      + " off"
                      + HERD
                      + " Keep the default randomization factor (0.5), or set one above 0",
                  List.of()));
        } else if (call.name().equals("random")
            && call.args().size() == 1
            && isOn(call, Set.of(BOUNDED_BUILDER))
            && isConstant(call.args().get(0))
            && !isTestClass(owner)) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "A constant random source switches RetryPolicy's jitter off"
                      + HERD
                      + " Keep the default random source outside tests",
                  List.of()));
        }
      } else if (n instanceof Expr.New created && isSpringPolicy(analysis, created)) {
        findings.add(spring(analysis, created));
      } else if (n instanceof Expr.New created
          && LibraryBackoffs.isSpringWithoutJitter(analysis, created)) {
        findings.add(
            new Finding(
                NAME,
                created.span(),
                "Spring's ExponentialBackOff computes every delay with no random part (no jitter"
                    + " before Spring 7, and a jitter of 0 unless setJitter(..) sets one)"
                    + HERD
                    + " Set a jitter (Spring 7: setJitter(..)), or use a backoff with full jitter",
                List.of()));
      } else if (n instanceof Expr.New created
          && LibraryBackoffs.jitterFree(created) != null
          && LibraryBackoffs.servesRetries(analysis, created)) {
        findings.add(
            new Finding(
                NAME,
                created.span(),
                "This backoff ("
                    + LibraryBackoffs.jitterFree(created)
                    + ") computes every delay with no random part"
                    + HERD
                    + " Give it a jitter, or use a backoff with full jitter",
                List.of()));
      }
    }
    return findings;
  }

  /**
   * Reactor's specs: a fixed delay (unless the method also sets a min or max backoff, which
   * switches it to exponential, and a jitter, as its own is 0), a jitter switched off, an
   * exponential backoff without a cap that its attempts do not bound. No fix: the delays are the
   * caller's choice.
   */
  private static Finding reactor(
      MethodAnalysis analysis, Expr.Call call, boolean setsBackoffs, boolean setsMax) {
    if (call.name().equals("fixedDelay") && !setsBackoffs) {
      return new Finding(
          NAME,
          call.nameSpan(),
          "Retry.fixedDelay waits the same delay before every retry, with no random part (its"
              + " jitter is 0, and jitter(..) adds none while the min and max backoff are equal)"
              + HERD
              + " Use Retry.backoff(maxAttempts, minBackoff).maxBackoff(cap), which randomises each"
              + " delay by half by default",
          List.of());
    }
    if (call.name().equals("jitter")
        && call.args().size() == 1
        && isZero(call.args().get(0))
        && isReactorSpec(call)) {
      return new Finding(
          NAME,
          call.nameSpan(),
          "jitter(0) switches the random part of this Reactor backoff off"
              + HERD
              + " Keep Reactor's default jitter (0.5), or set one above 0",
          List.of());
    }
    if (call.name().equals("backoff") && !setsMax) {
      long attempts = ReactorRetries.specAt(analysis, call).attempts();
      if (attempts >= UNCAPPED_ATTEMPTS) {
        return new Finding(
            NAME,
            call.nameSpan(),
            "This Reactor backoff has no maxBackoff, and Reactor's default cap is"
                + " Duration.ofMillis(Long.MAX_VALUE): the delay doubles with every one of its"
                + (attempts == ReactorRetries.FOREVER ? " unlimited" : " " + attempts)
                + " retries, to hours and more. Add .maxBackoff(cap)",
            List.of());
      }
    }
    return null;
  }

  private static boolean isZero(Expr value) {
    return value instanceof Expr.Literal literal
        && literal.value() instanceof Number number
        && number.doubleValue() == 0;
  }

  /**
   * A call on a {@code RetryBackoffSpec}: typed so, or in a chain from one of Retry's factories.
   */
  private static boolean isReactorSpec(Expr.Call call) {
    if (isOn(call, Set.of(REACTOR_BACKOFF_SPEC))) {
      return true;
    }
    for (Expr e = call.receiver(); e instanceof Expr.Call inner; e = inner.receiver()) {
      if (ReactorRetries.isFactory(inner)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isSelfDelegation(Expr.Call call) {
    return call.receiver() == null
        || (call.receiver() instanceof Expr.Name name && name.name().equals("this"));
  }

  private static boolean isOn(Expr.Call call, Set<String> owners) {
    for (String owner : owners) {
      if (call.method().owner().name().equals(owner)
          || (call.receiver() != null && call.receiver().type().isSubtypeOf(owner))) {
        return true;
      }
    }
    return false;
  }

  /**
   * A call on Spring Framework's {@code RetryPolicy.Builder} (Spring 7's core retry): typed so, or
   * (without types) in a chain that starts at {@code RetryPolicy.builder()}.
   */
  private static boolean isSpringCoreBuilder(Expr.Call call) {
    if (isOn(call, Set.of(SPRING_CORE_BUILDER))) {
      return true;
    }
    for (Expr e = call.receiver(); e instanceof Expr.Call inner; e = inner.receiver()) {
      if (inner.name().equals("builder") && Nodes.isStaticCallOn(inner, SPRING_CORE_POLICY)) {
        return true;
      }
    }
    return false;
  }

  private static boolean callsNamed(MethodAnalysis analysis, String name) {
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call call && call.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** No fix: how much jitter suits the delay is the caller's choice. */
  private static Finding springCore(Expr.Call call) {
    return new Finding(
        NAME,
        call.nameSpan(),
        "This RetryPolicy's backoff has no random part"
            + HERD
            + " Add .jitter(..) to the builder (RetryPolicy.Builder.jitter(Duration))",
        List.of());
  }

  private static boolean callsWithJitter(MethodAnalysis analysis) {
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.Call call && call.name().equals("withJitter")) {
        return true;
      }
    }
    return false;
  }

  private static Finding failsafe(Expr.Call call) {
    List<Fix> fixes = List.of();
    if (call.span().isKnown()) {
      fixes =
          List.of(
              new Fix(
                  "Randomise each delay by up to half: withJitter(0.5)",
                  List.of(Edit.insert(call.span().end(), ".withJitter(0.5)")),
                  Set.of()));
    }
    return new Finding(
        NAME,
        call.nameSpan(),
        "This RetryPolicy backs off without jitter"
            + HERD
            + " Add withJitter(..) after withBackoff(..)",
        fixes);
  }

  private static boolean withoutRandom(Expr.Call call) {
    if (call.args().size() == 3) {
      return true;
    }
    return call.args().size() == 4
        && call.args().get(3) instanceof Expr.Literal literal
        && Boolean.FALSE.equals(literal.value());
  }

  private static boolean isConstant(Expr random) {
    if (random instanceof Expr.Lambda lambda) {
      Stmt body = lambda.body();
      if (body instanceof Stmt.ExprStmt e) {
        return isConstantValue(e.expr());
      }
      return body instanceof Stmt.Block block
          && block.statements().size() == 1
          && block.statements().get(0) instanceof Stmt.Return r
          && isConstantValue(r.value());
    }
    return false;
  }

  /** A literal or a named constant ({@code Long.MAX_VALUE}). */
  private static boolean isConstantValue(Expr value) {
    return value instanceof Expr.Literal
        || (value instanceof Expr.Name name && NamePattern.isConstantName(name.name()));
  }

  private static boolean isSpringPolicy(MethodAnalysis analysis, Expr.New created) {
    return created.type().name().equals(SPRING_POLICY)
        && !created.hasBody()
        && analysis.context().hasType(SPRING_RANDOM_POLICY)
        && !alsoCreatesRandomPolicy(analysis);
  }

  /** {@code random ? new ExponentialRandomBackOffPolicy() : new ExponentialBackOffPolicy()}. */
  private static boolean alsoCreatesRandomPolicy(MethodAnalysis analysis) {
    for (Node n : analysis.bodyNodes()) {
      if (n instanceof Expr.New created && created.type().name().equals(SPRING_RANDOM_POLICY)) {
        return true;
      }
    }
    return false;
  }

  private static Finding spring(MethodAnalysis analysis, Expr.New created) {
    List<Fix> fixes = List.of();
    if (created.span().isKnown()) {
      String text = analysis.context().text(created.span());
      int at = text.lastIndexOf("ExponentialBackOffPolicy", text.indexOf('('));
      if (at >= 0) {
        int start = created.span().start() + at;
        boolean qualified = at > 0 && text.charAt(at - 1) == '.';
        fixes =
            List.of(
                new Fix(
                    "Use ExponentialRandomBackOffPolicy, which takes the same settings",
                    List.of(
                        Edit.replace(
                            new Span(start, start + "ExponentialBackOffPolicy".length()),
                            "ExponentialRandomBackOffPolicy")),
                    qualified ? Set.of() : Set.of(SPRING_RANDOM_POLICY)));
      }
    }
    return new Finding(
        NAME,
        created.span(),
        "ExponentialBackOffPolicy backs off without jitter"
            + HERD
            + " Use ExponentialRandomBackOffPolicy, which takes the same settings",
        fixes);
  }

  private static final java.util.regex.Pattern TEST_CLASS =
      java.util.regex.Pattern.compile("\\w(Test|Tests|IT)(\\.|\\$|$)");

  /**
   * A test class (or a class nested in one) by the name conventions of JUnit and Maven: {@code
   * FooTest}, {@code FooTests}, {@code FooIT}.
   */
  private static boolean isTestClass(String owner) {
    if (owner == null) {
      return false;
    }
    return TEST_CLASS.matcher(owner).find();
  }
}
