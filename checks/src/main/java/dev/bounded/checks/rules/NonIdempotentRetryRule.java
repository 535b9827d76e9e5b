package dev.bounded.checks.rules;

import dev.bounded.checks.analysis.CallNames;
import dev.bounded.checks.analysis.Flow;
import dev.bounded.checks.analysis.LoopInfo;
import dev.bounded.checks.analysis.MethodAnalysis;
import dev.bounded.checks.analysis.NamePattern;
import dev.bounded.checks.analysis.Nodes;
import dev.bounded.checks.analysis.RetryingMethods;
import dev.bounded.checks.model.Expr;
import dev.bounded.checks.model.Finding;
import dev.bounded.checks.model.MethodModel;
import dev.bounded.checks.model.Node;
import dev.bounded.checks.model.Span;
import dev.bounded.checks.model.Stmt;
import dev.bounded.checks.model.TypeRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Failure mode E: a retry loop repeats a call that may have committed: an HTTP POST or PATCH, a
 * JDBC update, a method marked {@code @NonIdempotent} or listed in {@code
 * -XepOpt:Bounded:NonIdempotent}. A write that timed out after the request was sent may have taken
 * effect; the retry applies it again.
 *
 * <p>Not reported: reads (GET, SELECT); {@code @Idempotent} methods; requests that carry an
 * idempotency-key header whose value is made once, outside the loop; loops that retry only failures
 * that prove nothing was sent ({@code ConnectException}, {@code UnknownHostException}, {@code
 * HttpConnectTimeoutException}). No automatic fix: choosing the key is the author's job.
 */
public final class NonIdempotentRetryRule implements Rule {
  /** The rule's name. */
  public static final String NAME = "NonIdempotentRetry";

  /** Failures that prove the request never left: retrying them cannot duplicate a write. */
  private static final Set<String> NOTHING_SENT =
      Set.of(
          "java.net.ConnectException",
          "java.net.UnknownHostException",
          "java.net.NoRouteToHostException",
          "java.net.http.HttpConnectTimeoutException",
          "java.nio.channels.UnresolvedAddressException");

  private static final Set<String> JDBC_WRITES =
      Set.of("executeUpdate", "executeLargeUpdate", "executeBatch", "executeLargeBatch");

  private static final Set<String> WRITE_METHODS = Set.of("POST", "PATCH");

  /**
   * Well-known non-idempotent client calls, by receiver type: message sends and publishes, Redis
   * increments, pushes and stream adds.
   *
   * @param owner a type the receiver is (a subtype of)
   * @param names the method names
   * @param what how the message names the call
   */
  private record KnownWrite(String owner, Set<String> names, String what) {}

  private static final Set<String> REDIS_WRITES =
      Set.of(
          "incr",
          "incrBy",
          "incrby",
          "incrByFloat",
          "incrbyfloat",
          "decr",
          "decrBy",
          "decrby",
          "hincrBy",
          "hincrby",
          "hincrByFloat",
          "zincrby",
          "zincrBy",
          "lpush",
          "rpush",
          "lpushx",
          "rpushx",
          "xadd",
          "publish",
          "append",
          "lpop",
          "rpop",
          "spop",
          "rpoplpush",
          "lmove",
          "blmove",
          "brpoplpush",
          "pfadd");

  private static final List<KnownWrite> KNOWN_WRITES =
      List.of(
          new KnownWrite(
              "org.apache.kafka.clients.producer.Producer", Set.of("send"), "a Kafka send"),
          new KnownWrite("javax.jms.MessageProducer", Set.of("send"), "a JMS send"),
          new KnownWrite("jakarta.jms.MessageProducer", Set.of("send"), "a JMS send"),
          new KnownWrite("javax.jms.JMSProducer", Set.of("send"), "a JMS send"),
          new KnownWrite("jakarta.jms.JMSProducer", Set.of("send"), "a JMS send"),
          new KnownWrite("com.rabbitmq.client.Channel", Set.of("basicPublish"), "an AMQP publish"),
          new KnownWrite(
              "org.springframework.amqp.core.AmqpTemplate",
              Set.of("send", "convertAndSend", "convertSendAndReceive", "sendAndReceive"),
              "an AMQP send"),
          new KnownWrite("io.nats.client.Connection", Set.of("publish"), "a NATS publish"),
          new KnownWrite(
              "org.apache.pulsar.client.api.Producer",
              Set.of("send", "sendAsync"),
              "a Pulsar send"),
          new KnownWrite(
              "org.apache.rocketmq.client.producer.MQProducer",
              Set.of("send", "sendOneway"),
              "a RocketMQ send"),
          new KnownWrite(
              "org.springframework.kafka.core.KafkaOperations", Set.of("send"), "a Kafka send"),
          new KnownWrite(
              "org.springframework.web.client.RestOperations",
              Set.of("postForObject", "postForEntity", "postForLocation", "patchForObject"),
              "an HTTP POST"),
          new KnownWrite("redis.clients.jedis.commands.JedisCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite("redis.clients.jedis.Jedis", REDIS_WRITES, "a Redis"),
          new KnownWrite("redis.clients.jedis.UnifiedJedis", REDIS_WRITES, "a Redis"),
          new KnownWrite("redis.clients.jedis.PipelineBase", REDIS_WRITES, "a Redis"),
          new KnownWrite("io.lettuce.core.api.sync.RedisStringCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite("io.lettuce.core.api.sync.RedisListCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite("io.lettuce.core.api.sync.RedisHashCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite("io.lettuce.core.api.sync.RedisStreamCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite("io.lettuce.core.api.sync.BaseRedisCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite(
              "io.lettuce.core.api.async.RedisStringAsyncCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite(
              "io.lettuce.core.api.async.RedisListAsyncCommands", REDIS_WRITES, "a Redis"),
          new KnownWrite(
              "io.lettuce.core.api.async.BaseRedisAsyncCommands", REDIS_WRITES, "a Redis"));

  /** Names of calls that send an HTTP POST or PATCH. */
  private static final NamePattern HTTP_WRITE_CALL =
      NamePattern.containing(
          "(?i)(http|do|send)?(post|patch)(for\\w*|form|json|body|async|request)?",
          "post",
          "patch");

  /** Names of HTTP clients. */
  private static final NamePattern HTTP_CLIENT =
      NamePattern.containing(
          "(?i).*(http|rest|webclient|template|agent).*",
          "http",
          "rest",
          "webclient",
          "template",
          "agent");

  /** Request classes of HTTP clients whose method is not idempotent. */
  private static final Set<String> WRITE_REQUESTS =
      Set.of(
          "org.apache.http.client.methods.HttpPost",
          "org.apache.http.client.methods.HttpPatch",
          "org.apache.hc.client5.http.classic.methods.HttpPost",
          "org.apache.hc.client5.http.classic.methods.HttpPatch");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Finding> check(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (LoopInfo loop : analysis.retryLoops()) {
      if (retriesOnlyUnsentFailures(analysis, loop)) {
        continue;
      }
      boolean specific = false;
      for (Node n : analysis.loopLevel(loop)) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        String what = nonIdempotentCall(analysis, loop, call, config);
        if (what != null && checkedAbsentFirst(analysis, loop, call)) {
          continue;
        }
        if (what != null) {
          specific = true;
          Stmt.Catch putBack = puttingBack(analysis, loop, call);
          findings.add(
              new Finding(
                  NAME,
                  putBack == null ? call.nameSpan() : putBack.typeSpan(),
                  (putBack == null
                          ? "This retry loop repeats "
                          : "This handler puts back, to repeat, ")
                      + what
                      + ", which may have committed: an attempt that timed out after the request"
                      + " was sent may have taken effect, and the retry applies it again. "
                      + remedy(what, config),
                  List.of()));
        }
      }
      if (!specific) {
        Finding engine = genericEngine(analysis, loop);
        if (engine != null) {
          findings.add(engine);
          findings.addAll(resendsAfterResult(analysis, loop));
          Finding status = resendsAfterStatus(analysis, loop);
          if (status != null) {
            findings.add(status);
          }
        }
      }
    }
    findings.addAll(handedToRetryEngine(analysis));
    findings.addAll(writesHandedToRetryingHelper(analysis, config));
    if (!callsItself(analysis)) {
      Finding async = asyncEngine(analysis);
      if (async != null) {
        findings.add(async);
      }
    }
    return findings;
  }

  /** Calls by which an attempt reads whether what it would write is there already. */
  private static final java.util.regex.Pattern PRESENCE_READ =
      java.util.regex.Pattern.compile("next|exists\\w*|contains\\w*|has\\w*");

  /**
   * Whether the write runs only when the same attempt has just read that it is not there yet
   * ({@code rs = select.executeQuery(); if (!rs.next()) { insert.executeUpdate(); }}): an earlier
   * attempt's write that committed is seen by the next attempt's read, so the retry does not apply
   * it twice. The test must read a value the round made ({@code rs}) or call a presence check
   * ({@code exists(..)}) under a negation or a null test.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean checkedAbsentFirst(
      MethodAnalysis analysis, LoopInfo loop, Expr.Call write) {
    Set<String> made = Nodes.namesSet(analysis.loopLevel(loop));
    Node child = write;
    for (Node p = analysis.parent(write);
        p != null && p != loop.node();
        child = p, p = analysis.parent(p)) {
      if (!(p instanceof Stmt.If check) || check.then() != child) {
        continue;
      }
      for (Node n : Nodes.sameFrame(check.condition())) {
        if (n instanceof Expr.Unary not
            && not.operator().equals("!")
            && not.operand() instanceof Expr.Call read
            && PRESENCE_READ.matcher(read.name()).matches()
            && ((read.receiver() instanceof Expr.Name source && made.contains(source.name()))
                || read.name().startsWith("exists"))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * An asynchronous retry engine: the method runs an operation it is handed and, on the failure
   * path of a completion callback ({@code whenComplete((r, e) -> { if (e != null) .. })}, {@code
   * exceptionally(..)}), calls itself again, directly or from a task it schedules; nothing in it
   * asks whether the operation may be repeated. Reported at the call that starts the next attempt.
   */
  private static Finding asyncEngine(MethodAnalysis analysis) {
    Expr.Call next = null;
    for (Expr.Call call : DelayedRetries.inFailureLambdas(analysis)) {
      next = analysis.isSelfCall(call) ? call : selfCallInLambdas(analysis, call);
      if (next != null) {
        break;
      }
    }
    if (next == null) {
      return null;
    }
    String operation = null;
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (n instanceof Expr.Call call
          && ASKS_IDEMPOTENCY.matches(call.name())
          && !asksOnlyAboutFailure(analysis, call)) {
        return null;
      }
      if (n instanceof Expr.Name name && ASKS_IDEMPOTENCY.matches(name.name())) {
        return null;
      }
      if (n instanceof Expr.Call call && operation == null && !analysis.isSelfCall(call)) {
        operation = opaqueOperation(analysis, null, call);
      }
    }
    if (operation == null) {
      return null;
    }
    return new Finding(
        NAME,
        next.nameSpan(),
        "This asynchronous retry re-runs an operation it is handed ("
            + operation
            + ") after any failure, which can come after the request was sent, and never asks"
            + " whether the operation may be repeated: a write that timed out may have committed,"
            + " and the retry applies it again. Retry writes only when they are idempotent (an"
            + " idempotency key, an isIdempotent check), or only failures that prove nothing was"
            + " sent (ConnectException)",
        List.of());
  }

  /**
   * A call of the method itself in a lambda handed to {@code call} ({@code schedule(() -> ..)}).
   */
  private static Expr.Call selfCallInLambdas(MethodAnalysis analysis, Expr.Call call) {
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Lambda lambda) {
        for (Node n : Nodes.sameFrame(lambda.body())) {
          if (n instanceof Expr.Call inner && analysis.isSelfCall(inner)) {
            return inner;
          }
        }
      }
    }
    return null;
  }

  /**
   * The catch clause that puts the failed work back to be tried again ({@code events.add(event)}, a
   * timer that re-queues it) when the write failed in its {@code try} block: the retry decision of
   * a re-queue, where the write itself runs in another round of the worker.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static Stmt.Catch puttingBack(MethodAnalysis analysis, LoopInfo loop, Expr.Call write) {
    if (loop.kind() != LoopInfo.Kind.RECURSION || callsItself(analysis)) {
      return null;
    }
    for (Stmt.Catch clause : analysis.catches()) {
      Stmt.Try t = analysis.tryOf(clause);
      if (analysis.loopOf(clause) == loop
          && analysis.goesRoundAgain(clause, loop)
          && Nodes.preOrder(t.body()).stream().anyMatch(n -> n == write)) {
        return clause;
      }
    }
    return null;
  }

  /**
   * In a recursion that re-runs an operation it is handed, a call of itself outside any catch
   * clause, with the same handed-in request, after an unsuccessful result (a 503, a failed status):
   * a retry decision too, reported there.
   */
  private static List<Finding> resendsAfterResult(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() != LoopInfo.Kind.RECURSION) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (n instanceof Expr.Call call
          && analysis.isSelfCall(call)
          && !analysis.isInCatchBody(call, analysis.method().body())
          && passesHandedOperation(analysis, call)) {
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "This retry re-runs the operation it is handed after an unsuccessful result (a"
                    + " failed status can come after the request took effect), and never asks"
                    + " whether the operation may be repeated: a write may be applied twice. Retry"
                    + " writes only when they are idempotent (an idempotency key, an isIdempotent"
                    + " check)",
                List.of()));
      }
    }
    return findings;
  }

  /** Names of calls that read whether a response succeeded: {@code isSuccessStatusCode()}. */
  private static final java.util.regex.Pattern STATUS_READ =
      java.util.regex.Pattern.compile("(?i)(is)?(success\\w*|ok|error\\w*)|(get)?status(code)?");

  /**
   * In a loop that re-runs an operation it is handed, an {@code if} on the response's status that
   * lets the loop go round ({@code if (!response.isSuccessStatusCode()) { ..handled.. }}): the
   * engine resends after an unsuccessful result too, whatever the request's method.
   */
  private static Finding resendsAfterStatus(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() == LoopInfo.Kind.RECURSION) {
      return null;
    }
    for (Node n : analysis.loopLevel(loop)) {
      if (!(n instanceof Stmt.If check)
          || analysis.isInCatchBody(check, loop.node())
          || Flow.leaves(check.then())) {
        continue;
      }
      for (Node m : Nodes.sameFrame(check.condition())) {
        if (m instanceof Expr.Call read
            && read.args().isEmpty()
            && read.receiver() != null
            && STATUS_READ.matcher(read.name()).matches()) {
          return new Finding(
              NAME,
              read.nameSpan(),
              "This retry loop goes round again after an unsuccessful response ("
                  + read.name()
                  + "()) of the operation it is handed, and never asks whether the operation may"
                  + " be repeated: a 5xx can come after the write took effect, and the retry"
                  + " applies it again. Retry writes only when they are idempotent (an idempotency"
                  + " key, an isIdempotent check)",
              List.of());
        }
      }
    }
    return null;
  }

  /** Whether a self-call passes on, unchanged, a parameter that {@link #opaqueOperation} sends. */
  private static boolean passesHandedOperation(MethodAnalysis analysis, Expr.Call self) {
    List<MethodModel.Param> params = analysis.method().params();
    for (int i = 0; i < self.args().size() && i < params.size(); i++) {
      if (self.args().get(i) instanceof Expr.Name name
          && name.qualifier() == null
          && name.name().equals(params.get(i).name())
          && isHandedRequest(name)) {
        return true;
      }
    }
    return false;
  }

  /** Names of objects that retry what they are given: {@code retryTemplate}, {@code retrier}. */
  private static final java.util.regex.Pattern RETRY_ENGINE =
      java.util.regex.Pattern.compile("(?i).*(retry|retrier|retries).*");

  /**
   * An operation handed in, passed to a retry engine of a library or the project ({@code
   * retryTemplate.execute(() -> doExecute(action))}, {@code retrier.call(() -> op.call())}): the
   * engine re-runs it after any failure its policy retries, writes included, and nothing here asks
   * whether it may be repeated.
   */
  private static List<Finding> handedToRetryEngine(MethodAnalysis analysis) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (!(n instanceof Expr.Call call)
          || !OPERATION_RUNS.contains(call.name())
          || call.receiver() == null
          || !receiverIsRetryEngine(call.receiver())) {
        continue;
      }
      for (Expr arg : call.args()) {
        if (!(arg instanceof Expr.Lambda lambda)) {
          continue;
        }
        String operation = null;
        boolean asks = false;
        for (Node m : Nodes.preOrder(lambda.body())) {
          if (m instanceof Expr.Call inner && operation == null) {
            operation = opaqueOperation(analysis, null, inner);
          }
          asks |=
              (m instanceof Expr.Call inner && ASKS_IDEMPOTENCY.matches(inner.name()))
                  || (m instanceof Expr.Name name && ASKS_IDEMPOTENCY.matches(name.name()));
        }
        if (operation != null && !asks) {
          findings.add(
              new Finding(
                  NAME,
                  call.nameSpan(),
                  "This hands an operation it is handed ("
                      + operation
                      + ") to a retry engine, which re-runs it after failures that can come after"
                      + " the request was sent, and nothing asks whether the operation may be"
                      + " repeated: a write that timed out may have committed, and the retry"
                      + " applies it again. Retry only idempotent operations here (an"
                      + " isIdempotent check, an idempotency key)",
                  List.of()));
          break;
        }
      }
    }
    return findings;
  }

  /**
   * A write inside a lambda handed to a method of the project that retries ({@code retry(attempt ->
   * rest.url(url).body(json).post())}, where {@code retry} holds the retry loop that runs the
   * operation it is given): the helper repeats the write after a failure that can follow the send.
   * Reported at the write, where the caller can make it idempotent or keep it out of the helper.
   */
  private static List<Finding> writesHandedToRetryingHelper(
      MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    if (REPEATABLE_OPERATION.matcher(analysis.method().name()).matches()) {
      return findings; // revoke(leaseId), renewSelf(..), createOrUpdateRole(..): the same again
    }
    for (Node n : Nodes.preOrder(analysis.method().body())) {
      if (!(n instanceof Expr.Call helper)
          || !CallNames.isRetryHelperName(helper.name())
          || helper.args().stream().noneMatch(a -> a instanceof Expr.Lambda)) {
        continue;
      }
      RetryingMethods.Retrying retrying = RetryingMethods.of(analysis, helper);
      if (retrying == null) {
        continue;
      }
      for (Expr arg : helper.args()) {
        if (!(arg instanceof Expr.Lambda lambda)) {
          continue;
        }
        for (Node m : Nodes.sameFrame(lambda.body())) {
          if (!(m instanceof Expr.Call write)) {
            continue;
          }
          String what = nonIdempotentCall(analysis, null, write, config);
          if (what != null) {
            findings.add(
                new Finding(
                    NAME,
                    write.nameSpan(),
                    "This operation is handed to "
                        + helper.name()
                        + "(), which retries it, and it sends "
                        + what
                        + ", which may have committed: an attempt that timed out after the"
                        + " request was sent may have taken effect, and the retry applies it"
                        + " again. "
                        + remedy(what, config),
                    List.of()));
          }
        }
      }
    }
    return findings;
  }

  /**
   * Names of operations that, done twice, leave what one does: a revoke, a renew, a delete, a set
   * or an upsert. A write the caller hands to a retrying helper from such a method is repeatable by
   * its meaning, whatever HTTP method carries it.
   */
  private static final java.util.regex.Pattern REPEATABLE_OPERATION =
      java.util.regex.Pattern.compile(
          "(?i)(revoke|renew|delete|remove|put|set|update|upsert|createorupdate)" + "\\w*");

  private static boolean receiverIsRetryEngine(Expr receiver) {
    for (Node n : Nodes.sameFrame(receiver)) {
      if (n instanceof Expr.Name name
          && name.kind() != Expr.NameKind.TYPE
          && RETRY_ENGINE.matcher(name.name()).matches()) {
        return true;
      }
      if (n instanceof Expr.Call getter
          && getter.args().isEmpty()
          && RETRY_ENGINE.matcher(getter.name()).matches()) {
        return true;
      }
    }
    return false;
  }

  /** Calls that run an operation handed in as a parameter: {@code callable.call()}. */
  private static final Set<String> OPERATION_RUNS =
      Set.of(
          "call",
          "apply",
          "run",
          "execute",
          "invoke",
          "proceed",
          "perform",
          "doExecute",
          "doInvoke",
          "get",
          "doCall",
          "process",
          "processSync");

  /** Calls that copy what they are called on: a copy of a handed-in chain runs the same work. */
  private static final Set<String> COPIES = Set.of("clone", "copy", "duplicate");

  /** Calls that send a request handed in as a parameter: {@code chain.proceed(request)}. */
  private static final NamePattern REQUEST_SENDS =
      NamePattern.containing(
          "(?i).*(send|invoke|execute|request|call|proceed|exchange|dispatch|publish|deliver"
              + "|transmit|perform).*",
          "send",
          "invoke",
          "execute",
          "request",
          "call",
          "proceed",
          "exchange",
          "dispatch",
          "publish",
          "deliver",
          "transmit",
          "perform");

  /** Names of parameters that say which HTTP method a request uses. */
  private static final NamePattern METHOD_PARAMETER =
      NamePattern.containing("(?i)(http|request)?_?(method|verb)", "method", "verb");

  /** Names that show the loop asks whether the operation may be repeated. */
  private static final NamePattern ASKS_IDEMPOTENCY =
      NamePattern.containing(
          "(?i).*(idempot|retryable|retriable|replayable|repeatable|oneshot|safetoretry|readonly"
              + "|getmethod|httpmethod|ismutation|iswrite|isread).*",
          "idempot",
          "retryable",
          "retriable",
          "replayable",
          "repeatable",
          "oneshot",
          "safetoretry",
          "readonly",
          "getmethod",
          "httpmethod",
          "ismutation",
          "iswrite",
          "isread");

  /** Collections and values whose {@code get} is a lookup, not an operation. */
  private static final List<String> NOT_OPERATIONS =
      List.of(
          "java.util.Collection",
          "java.util.Map",
          "java.util.Optional",
          "java.lang.CharSequence",
          "java.util.concurrent.atomic.AtomicReference",
          "java.lang.ThreadLocal",
          "java.util.concurrent.Future");

  /**
   * A generic retry engine: the loop re-runs an operation handed in (a parameter: a callable, a
   * request, a command, an invocation) after a failure that can follow the send, and nothing in it
   * asks whether the operation may be repeated. Reported at the retrying catch clause: the retry
   * decision.
   */
  private static Finding genericEngine(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.kind() == LoopInfo.Kind.RECURSION && !callsItself(analysis)) {
      return null; // work put back on a queue: what runs again is not an operation handed in
    }
    String operation = null;
    boolean throwsNothingChecked = false;
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call && operation == null) {
        operation = opaqueOperation(analysis, loop, call);
        throwsNothingChecked = operation != null && throwsNothingChecked(call);
      }
      if ((n instanceof Expr.Call call
              && ASKS_IDEMPOTENCY.matches(call.name())
              && !asksOnlyAboutFailure(analysis, call))
          || (n instanceof Expr.Name name
              && ASKS_IDEMPOTENCY.matches(name.name())
              && (name.kind() != Expr.NameKind.TYPE || decidesToLeave(analysis, name)))) {
        return null;
      }
    }
    if (operation == null) {
      return null;
    }
    for (Stmt.Catch clause : analysis.catches()) {
      if (analysis.loopOf(clause) != loop || !analysis.goesRoundAgain(clause, loop)) {
        continue;
      }
      TypeRef after = null;
      for (TypeRef type : clause.types()) {
        // A Supplier or Runnable throws no checked exception: an InterruptedException caught
        // around supplier.get() comes from the sleep before it, when nothing was sent.
        if (!NOTHING_SENT.contains(type.name())
            && !isLocalFailure(type)
            && !(throwsNothingChecked && isCheckedException(type))) {
          after = type;
        }
      }
      if (after == null) {
        continue;
      }
      return new Finding(
          NAME,
          clause.typeSpan(),
          "This retry loop re-runs an operation it is handed ("
              + operation
              + ") after "
              + (after.isKnown() ? after.simpleName() : "a failure")
              + ", which can come after the request was sent, and never asks whether the"
              + " operation may be repeated: a write that timed out may have committed, and the"
              + " retry applies it again. Retry writes only when they are idempotent (an"
              + " idempotency key, an isIdempotent check), or only failures that prove nothing"
              + " was sent (ConnectException)",
          List.of());
    }
    return null;
  }

  /**
   * Failures of this process, not of a send: a class that cannot be linked or initialised ({@code
   * LinkageError}, {@code NoClassDefFoundError}, {@code ExceptionInInitializerError}) or a broken
   * service provider ({@code ServiceConfigurationError}). An engine that goes round only after them
   * (stepping a {@code ServiceLoader} past a faulty plugin) has no unknown outcome to repeat.
   */
  private static boolean isLocalFailure(TypeRef type) {
    return type.isSubtypeOf("java.lang.LinkageError")
        || type.isSubtypeOf("java.util.ServiceConfigurationError");
  }

  /** Names of predicates that classify a failure, not the operation. */
  private static final java.util.regex.Pattern ABOUT_FAILURE =
      java.util.regex.Pattern.compile(
          "(?i)(?!.*idempot).*(exception|error|failure|throwable|cause).*");

  /**
   * Whether a retryable-named predicate asks only about the caught failure ({@code
   * isRetryableException(e)}): it classifies the failure, it does not ask whether the operation may
   * be repeated.
   */
  private static boolean asksOnlyAboutFailure(MethodAnalysis analysis, Expr.Call call) {
    if (ABOUT_FAILURE.matcher(call.name()).matches()) {
      return true;
    }
    if (call.args().isEmpty()) {
      return false;
    }
    for (Expr arg : call.args()) {
      if (!(arg instanceof Expr.Name name && isCatchParameter(analysis, name.name()))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isCatchParameter(MethodAnalysis analysis, String name) {
    for (Stmt.Catch clause : analysis.catches()) {
      if (clause.parameter().equals(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a constant of a type named for the question ({@code HttpMethods.GET}) is tested by an
   * {@code if} that leaves the loop: the engine stops for some methods. Compared only to log the
   * request, it decides nothing.
   */
  private static boolean decidesToLeave(MethodAnalysis analysis, Node name) {
    for (Node p = analysis.parent(name); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.If check) {
        return Nodes.preOrder(check.condition()).stream().anyMatch(n -> n == name)
            && (Flow.leaves(check.then())
                || (check.otherwise() != null && Flow.leaves(check.otherwise())));
      }
      if (p instanceof Stmt) {
        return false;
      }
    }
    return false;
  }

  private static boolean callsItself(MethodAnalysis analysis) {
    for (Stmt.Catch clause : analysis.catches()) {
      for (Node n : Nodes.sameFrame(clause.body())) {
        if (n instanceof Expr.Call call && analysis.isSelfCall(call)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Functional interfaces of the JDK whose method declares no checked exception. */
  private static final Set<String> UNCHECKED_FUNCTIONS =
      Set.of(
          "Runnable",
          "Supplier",
          "Function",
          "BiFunction",
          "Consumer",
          "BiConsumer",
          "Predicate",
          "BiPredicate",
          "UnaryOperator",
          "BinaryOperator",
          "BooleanSupplier",
          "IntSupplier",
          "LongSupplier",
          "DoubleSupplier");

  /** Checked exceptions that retry loops catch, known by name where types are not. */
  private static final Set<String> CHECKED_BY_NAME =
      Set.of(
          "InterruptedException",
          "ExecutionException",
          "TimeoutException",
          "IOException",
          "InterruptedIOException",
          "SocketTimeoutException",
          "SocketException",
          "ConnectException");

  /**
   * Whether the operation is a {@code Runnable} or a {@code java.util.function} interface handed in
   * as a parameter, whose method declares no checked exception.
   */
  private static boolean throwsNothingChecked(Expr.Call call) {
    if (!(call.receiver() instanceof Expr.Name receiver)) {
      return false;
    }
    TypeRef type = receiver.type();
    String simple = type.simpleName();
    int generic = simple.indexOf('<');
    if (generic >= 0) {
      simple = simple.substring(0, generic);
    }
    return UNCHECKED_FUNCTIONS.contains(simple)
        && (type.name().indexOf('.') < 0
            || type.name().startsWith("java.util.function.")
            || type.name().startsWith("java.lang.Runnable"));
  }

  private static boolean isCheckedException(TypeRef type) {
    if (type.isSubtypeOf("java.lang.Exception")) {
      return !type.isSubtypeOf("java.lang.RuntimeException");
    }
    return CHECKED_BY_NAME.contains(type.simpleName());
  }

  /** Describes the call if it runs an operation handed in to the method, or returns null. */
  private static String opaqueOperation(MethodAnalysis analysis, LoopInfo loop, Expr.Call call) {
    Expr target = call.receiver();
    String copied = "";
    if (target instanceof Expr.Call copy
        && COPIES.contains(copy.name())
        && copy.args().isEmpty()
        && copy.receiver() instanceof Expr.Name) {
      target = copy.receiver(); // next.clone().processSync(): the pipeline handed in, copied
      copied = "." + copy.name() + "()";
    }
    if (OPERATION_RUNS.contains(call.name())
        && target instanceof Expr.Name receiver
        && receiver.kind() == Expr.NameKind.PARAMETER
        && !isLookup(receiver.type())
        && !isJdkValue(receiver.type())
        && (!call.name().equals("get") || call.args().isEmpty())) {
      return receiver.name() + copied + "." + call.name() + "(..)";
    }
    if (!REQUEST_SENDS.matches(call.name())
        || handsOutcomeToCallback(call)
        || returnsFutureUnawaited(analysis, call)
        || READ_NAMED.matcher(call.name()).matches()) {
      return null;
    }
    for (Expr arg : call.args()) {
      // Whatever HTTP method the caller asked for: callServer(api, params, body, method).
      // Or whatever the request object was built with: buildRequest(requestMethod, url).
      if (arg instanceof Expr.Name method
          && (method.kind() == Expr.NameKind.PARAMETER || method.kind() == Expr.NameKind.FIELD)
          && METHOD_PARAMETER.matches(method.name())) {
        return call.name() + "(.., " + method.name() + ")";
      }
    }
    for (Expr arg : call.args()) {
      // A request of the project's or a library's own type: the JDK's (java.net.http, java.sql)
      // are judged by what they are.
      if (arg instanceof Expr.Name handed
          && handed.kind() == Expr.NameKind.PARAMETER
          && isHandedRequest(handed)) {
        return call.name() + "(" + handed.name() + ")";
      }
    }
    for (Expr arg : call.args()) {
      // A request made, once before the loop, from what the caller handed in:
      // template = factory.create(argv); .. executeAndDecode(template, options).
      if (arg instanceof Expr.Name made
          && made.kind() == Expr.NameKind.LOCAL
          && made.qualifier() == null
          && made.type().isKnown()
          && isHandedRequest(made)
          && madeFromParameters(analysis, loop, made.name())) {
        return call.name() + "(" + made.name() + ")";
      }
    }
    return null;
  }

  /**
   * Whether every value of a local is computed, outside the loop, from a call or construction that
   * takes a parameter of the method.
   */
  private static boolean madeFromParameters(MethodAnalysis analysis, LoopInfo loop, String local) {
    List<Expr> values = analysis.valuesOf(local);
    if (values.isEmpty()) {
      return false;
    }
    for (Expr value : values) {
      if (!(value instanceof Expr.Call || value instanceof Expr.New)
          || !value.span().isKnown()
          || (loop != null && loop.span().isKnown() && loop.span().contains(value.span()))) {
        return false;
      }
      boolean fromParameter = false;
      for (Node n : Nodes.sameFrame(value)) {
        fromParameter |= n instanceof Expr.Name name && name.kind() == Expr.NameKind.PARAMETER;
      }
      if (!fromParameter) {
        return false;
      }
    }
    return true;
  }

  /** Names of arguments that receive an operation's outcome later: a callback, a listener. */
  private static final java.util.regex.Pattern CALLBACK =
      java.util.regex.Pattern.compile("(?i).*(callback|listener|observer|handler).*");

  /**
   * Whether the call dispatches the request asynchronously with a callback for its outcome ({@code
   * connection.asyncRequest(request, callback)}, by its name and a callback argument): what it
   * throws is a failure to dispatch, and the outcome is not retried here.
   */
  private static boolean handsOutcomeToCallback(Expr.Call call) {
    if (!call.name().toLowerCase(Locale.ROOT).contains("async")) {
      return false;
    }
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name name && CALLBACK.matcher(name.name()).matches()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the call dispatches the request for a later outcome and the method returns that outcome
   * unawaited ({@code return connection.requestFuture(request);}, by a name that says {@code
   * future} or {@code async}): what it throws in the loop is a failure to dispatch, before the
   * send; the send's own failures arrive later through the future, which this loop never waits on.
   * Waiting on it in the loop ({@code requestFuture(request).get(timeout)}) is still reported.
   */
  private static boolean returnsFutureUnawaited(MethodAnalysis analysis, Expr.Call call) {
    String name = call.name().toLowerCase(Locale.ROOT);
    return (name.contains("future") || name.contains("async"))
        && analysis.parent(call) instanceof Stmt.Return;
  }

  /**
   * Names of calls that read: {@code getTopics(..)}, {@code newLookupRequest(..)}, {@code fetch}.
   */
  private static final java.util.regex.Pattern READ_NAMED =
      java.util.regex.Pattern.compile(
          "(get|fetch|lookup|query|read|list|find|load|search)([A-Z0-9_].*)?"
              + "|.*[a-z0-9](Get|Fetch|Lookup|Query|Read|List|Find|Load|Search)([A-Z0-9_].*)?");

  /**
   * A JDK value whose {@code get()} or {@code run()} is not an operation handed in ({@code
   * AtomicLong.get()}); the JDK's functional types ({@code Supplier}, {@code Callable}, {@code
   * Runnable}, {@code Function}) are.
   */
  private static boolean isJdkValue(TypeRef type) {
    String name = type.name();
    return name.startsWith("java.")
        && !name.startsWith("java.util.function.")
        && !name.equals("java.util.concurrent.Callable")
        && !name.equals("java.lang.Runnable");
  }

  /** A value of the project's or a library's own type, not a JDK value or a lookup. */
  private static boolean isHandedRequest(Expr.Name handed) {
    return !isLookup(handed.type())
        && !handed.type().name().startsWith("java.")
        && !(handed.type().isKnown() && handed.type().name().indexOf('.') < 0);
  }

  private static boolean isLookup(TypeRef type) {
    for (String lookup : NOT_OPERATIONS) {
      if (type.isSubtypeOf(lookup)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What to do instead. For HTTP writes, which headers count as an idempotency key and the flag
   * that adds one: a key already sent under another name (X-Request-Id) is not recognised.
   */
  private static String remedy(String what, RuleConfig config) {
    String fallback =
        "mark the method @Idempotent if repeating it is safe, or stop on an unknown outcome"
            + " (UnknownOutcomeException)";
    if (!what.startsWith("an HTTP ")) {
      return "Send an idempotency key made once before the loop, " + fallback;
    }
    List<String> headers = new ArrayList<>(config.idempotencyKeyHeaders());
    headers.sort(null);
    List<String> shown = new ArrayList<>();
    for (String header : headers) {
      shown.add(
          header.equals(RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER.toLowerCase(Locale.ROOT))
              ? RuleConfig.DEFAULT_IDEMPOTENCY_KEY_HEADER
              : header);
    }
    return "Send an idempotency key made once before the loop in a header that counts as one ("
        + String.join(", ", shown)
        + "; a key sent under another header counts once it is added with"
        + " -XepOpt:Bounded:IdempotencyKeyHeader=Idempotency-Key,X-Request-Id), "
        + fallback;
  }

  /** Describes the call if repeating it may duplicate a write, or returns {@code null}. */
  private static String nonIdempotentCall(
      MethodAnalysis analysis, LoopInfo loop, Expr.Call call, RuleConfig config) {
    if (call.method().hasAnnotation("Idempotent")) {
      return null;
    }
    if ((call.isCallTo("java.net.http.HttpClient", "send")
            || call.isCallTo("java.net.http.HttpClient", "sendAsync"))
        && !call.args().isEmpty()) {
      return httpClientWrite(analysis, loop, call.args().get(0), config);
    }
    if (call.isCallTo("java.net.HttpURLConnection", "setRequestMethod")
        && call.args().size() == 1
        && isWriteMethod(Nodes.stringLiteral(call.args().get(0)))
        && !urlConnectionKeyed(analysis, loop, config)) {
      return "an HTTP " + Nodes.stringLiteral(call.args().get(0)).toUpperCase(Locale.ROOT);
    }
    if (isJdbcStatement(call.receiver())) {
      if (JDBC_WRITES.contains(call.name())) {
        return "a JDBC " + call.name();
      }
      if (call.name().equals("execute")) {
        String sql =
            call.args().isEmpty()
                ? preparedSql(analysis, call.receiver())
                : sql(analysis, call.args().get(0));
        if (sql != null && !isRead(sql)) {
          return "a JDBC execute of " + firstWord(sql);
        }
      }
    }
    String known = knownWrite(analysis, loop, call, config);
    if (known != null) {
      return known;
    }
    if (isBuiltRequestSend(call)) {
      return "an HTTP " + call.name().toUpperCase(Locale.ROOT);
    }
    if (call.method().hasAnnotation("NonIdempotent")) {
      return "@NonIdempotent " + call.name() + "()";
    }
    for (String configured : config.nonIdempotentMethods()) {
      int hash = configured.indexOf('#');
      if (call.isCallTo(configured.substring(0, hash), configured.substring(hash + 1))) {
        return configured + " (configured as non-idempotent)";
      }
    }
    return null;
  }

  /** Steps of a request builder: where it goes, what it carries. */
  private static final Set<String> REQUEST_STEPS =
      Set.of("url", "uri", "path", "target", "header", "headers", "body", "entity", "request");

  /**
   * A request builder's own send, by name: {@code rest.url(url).header(..).body(json).post()} (a
   * client's fluent request whose last step sends it as a POST or PATCH, without arguments).
   */
  private static boolean isBuiltRequestSend(Expr.Call call) {
    if (!(call.name().equals("post") || call.name().equals("patch")) || !call.args().isEmpty()) {
      return false;
    }
    for (Expr e = call.receiver(); e instanceof Expr.Call step; e = step.receiver()) {
      if (REQUEST_STEPS.contains(step.name()) && !step.args().isEmpty()) {
        return true;
      }
    }
    return false;
  }

  /** A well-known non-idempotent client call, or {@code null}. */
  private static String knownWrite(
      MethodAnalysis analysis, LoopInfo loop, Expr.Call call, RuleConfig config) {
    for (KnownWrite write : KNOWN_WRITES) {
      if (write.names().contains(call.name()) && call.isCallTo(write.owner(), call.name())) {
        return write.what().equals("a Redis")
            ? "a Redis " + call.name().toUpperCase(Locale.ROOT)
            : write.what();
      }
    }
    // ZooKeeper: a sequential node created again is a second node.
    if (call.isCallTo("org.apache.zookeeper.ZooKeeper", "create")
        && call.args().stream()
            .anyMatch(a -> a.span().isKnown() && mentionsSequential(analysis, a))) {
      return "a ZooKeeper create of a sequential node";
    }
    // Apache HttpClient: execute(new HttpPost(..)) and execute(post).
    if (call.name().equals("execute") && !call.args().isEmpty()) {
      for (Expr arg : call.args()) {
        for (Expr origin : analysis.origins(arg)) {
          if (origin instanceof Expr.New request
              && WRITE_REQUESTS.contains(request.type().name())
              && !requestKeyed(analysis, loop, arg, config)) {
            return "an HTTP " + request.type().simpleName().substring(4).toUpperCase(Locale.ROOT);
          }
        }
      }
    }
    // OkHttp: client.newCall(request).execute() with a request built by .post(body).
    if ((call.name().equals("execute") || call.name().equals("enqueue"))
        && call.receiver() instanceof Expr.Call newCall
        && newCall.name().equals("newCall")
        && newCall.args().size() == 1) {
      String method =
          builtWith(analysis, newCall.args().get(0), Set.of("post", "patch"), config, loop);
      if (method != null) {
        return "an HTTP " + method.toUpperCase(Locale.ROOT);
      }
    }
    // A project's HTTP client: httpPost(..), postForm(..), patchJson(..) on an HTTP-ish receiver.
    if (HTTP_WRITE_CALL.matches(call.name())
        && !call.args().isEmpty()
        && (call.receiver() == null
            || HTTP_CLIENT.matches(call.receiver().type().simpleName())
            || (call.receiver() instanceof Expr.Name client
                && HTTP_CLIENT.matches(client.name())))) {
      return "an HTTP "
          + (call.name().toLowerCase(Locale.ROOT).contains("patch") ? "PATCH" : "POST");
    }
    // Spring RestTemplate exchange(url, HttpMethod.POST, ..), WebClient post().
    if ((call.name().equals("exchange") || call.name().equals("execute"))
        && call.args().size() >= 2
        && call.args().get(1) instanceof Expr.Name method
        && isWriteMethod(method.name())
        && method.qualifier() instanceof Expr.Name type
        && type.name().equals("HttpMethod")) {
      return "an HTTP " + method.name();
    }
    return null;
  }

  private static boolean mentionsSequential(MethodAnalysis analysis, Expr arg) {
    for (Expr origin : analysis.origins(arg)) {
      if (origin.span().isKnown()
          && analysis.context().text(origin.span()).contains("SEQUENTIAL")) {
        return true;
      }
    }
    return false;
  }

  /** Whether the method sets an idempotency key, made once, on the request held by {@code arg}. */
  private static boolean requestKeyed(
      MethodAnalysis analysis, LoopInfo loop, Expr arg, RuleConfig config) {
    if (!(arg instanceof Expr.Name request)) {
      return false;
    }
    for (Node n : analysis.bodyFrameNodes()) {
      if (n instanceof Expr.Call set
          && (set.name().equals("setHeader") || set.name().equals("addHeader"))
          && set.args().size() == 2
          && set.receiver() instanceof Expr.Name target
          && target.name().equals(request.name())
          && isKeyHeader(set.args().get(0), config)
          && madeOnce(analysis, loop, set.args().get(1))) {
        return true;
      }
    }
    return false;
  }

  /** The write method a request builder chain uses ({@code .post(body)}), unless keyed. */
  private static String builtWith(
      MethodAnalysis analysis,
      Expr request,
      Set<String> methods,
      RuleConfig config,
      LoopInfo loop) {
    for (Expr origin : analysis.origins(request)) {
      String method = null;
      boolean keyed = false;
      for (Expr e = origin; e instanceof Expr.Call step; e = step.receiver()) {
        if (methods.contains(step.name()) && step.args().size() == 1) {
          method = step.name();
        } else if ((step.name().equals("header") || step.name().equals("addHeader"))
            && step.args().size() == 2
            && isKeyHeader(step.args().get(0), config)
            && madeOnce(analysis, loop, step.args().get(1))) {
          keyed = true;
        }
      }
      if (method != null && !keyed) {
        return method;
      }
    }
    return null;
  }

  private static String httpClientWrite(
      MethodAnalysis analysis, LoopInfo loop, Expr request, RuleConfig config) {
    for (Expr origin : analysis.origins(request)) {
      String method = null;
      boolean keyed = false;
      for (Expr e = origin; e instanceof Expr.Call step; e = step.receiver()) {
        if (step.name().equals("POST")) {
          method = "POST";
        } else if (step.name().equals("method") && !step.args().isEmpty()) {
          String m = Nodes.stringLiteral(step.args().get(0));
          if (isWriteMethod(m)) {
            method = m.toUpperCase(Locale.ROOT);
          }
        } else if ((step.name().equals("header") || step.name().equals("setHeader"))
            && step.args().size() == 2
            && isKeyHeader(step.args().get(0), config)
            && madeOnce(analysis, loop, step.args().get(1))) {
          keyed = true;
        }
      }
      if (method != null && !keyed) {
        return "an HTTP " + method;
      }
    }
    return null;
  }

  /** Whether the loop sets an idempotency key, made once, on its HttpURLConnection. */
  private static boolean urlConnectionKeyed(
      MethodAnalysis analysis, LoopInfo loop, RuleConfig config) {
    for (Node n : loop == null ? analysis.bodyFrameNodes() : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call
          && (call.name().equals("setRequestProperty") || call.name().equals("addRequestProperty"))
          && call.args().size() == 2
          && isKeyHeader(call.args().get(0), config)
          && madeOnce(analysis, loop, call.args().get(1))) {
        return true;
      }
    }
    return false;
  }

  private static boolean isKeyHeader(Expr name, RuleConfig config) {
    String header = Nodes.stringLiteral(name);
    return header != null && config.isIdempotencyKeyHeader(header);
  }

  /**
   * Whether a value is made once per logical operation, not once per attempt: written outside the
   * loop, or a parameter, field or constant, or a local assigned only outside the loop.
   */
  private static boolean madeOnce(MethodAnalysis analysis, LoopInfo loop, Expr value) {
    if (loop == null) {
      return true; // an operation handed to a retrying helper: its key is the caller's business
    }
    Span loopSpan = loop.span();
    if (value.span().isKnown() && !loopSpan.contains(value.span())) {
      return true;
    }
    if (value instanceof Expr.Literal) {
      return true;
    }
    if (value instanceof Expr.Name name) {
      if (name.kind() == Expr.NameKind.PARAMETER || name.kind() == Expr.NameKind.FIELD) {
        return true;
      }
      if (name.isVariable(name.name())) {
        List<Expr> values = analysis.valuesOf(name.name());
        return !values.isEmpty()
            && values.stream().allMatch(v -> v.span().isKnown() && !loopSpan.contains(v.span()));
      }
    }
    return false;
  }

  /**
   * Whether the loop goes round only after failures that prove nothing was sent: every retrying
   * catch clause catches only such types, and every try block they guard leaves the loop when it
   * completes (so no result, such as a 5xx status, is retried).
   */
  private static boolean retriesOnlyUnsentFailures(MethodAnalysis analysis, LoopInfo loop) {
    boolean anyRetryingCatch = false;
    for (Stmt.Catch clause : analysis.catches()) {
      if (analysis.loopOf(clause) != loop || !analysis.goesRoundAgain(clause, loop)) {
        continue;
      }
      anyRetryingCatch = true;
      if (goesRoundOnlyOnRefusal(clause)) {
        continue;
      }
      for (TypeRef type : clause.types()) {
        if (!NOTHING_SENT.contains(type.name())) {
          return false;
        }
      }
      if (Flow.canCompleteNormally(analysis.tryOf(clause).body())) {
        return false;
      }
    }
    return anyRetryingCatch;
  }

  /** Names of failure kinds by which the server says it did not take the request. */
  private static final java.util.regex.Pattern REFUSAL =
      java.util.regex.Pattern.compile(
          "(?i).*(reject|refus|not_?leader|throttl|too_?many|overload|busy).*");

  /**
   * Whether a handler goes round only for a failure the server answered as a refusal and rethrows
   * every other: {@code if (e.getType() == SESSION_CREATION_REJECTED) { retry = true; } else {
   * throw e; }}. A refusal is an answer that the request was not taken, so nothing can have been
   * applied twice.
   */
  private static boolean goesRoundOnlyOnRefusal(Stmt.Catch clause) {
    List<Stmt> statements = clause.body().statements();
    if (statements.isEmpty()
        || !(statements.get(0) instanceof Stmt.If check)
        || check.otherwise() == null
        || !Flow.leaves(check.otherwise())
        || !Nodes.mentions(check.condition(), clause.parameter())) {
      return false;
    }
    for (Node n : Nodes.sameFrame(check.condition())) {
      if ((n instanceof Expr.Name name && REFUSAL.matcher(name.name()).matches())
          || (n instanceof Expr.Literal literal
              && literal.value() instanceof String text
              && REFUSAL.matcher(text).matches())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isJdbcStatement(Expr receiver) {
    return receiver != null && receiver.type().isSubtypeOf("java.sql.Statement");
  }

  private static String sql(MethodAnalysis analysis, Expr expr) {
    for (Expr origin : analysis.origins(expr)) {
      String literal = Nodes.stringLiteral(origin);
      if (literal != null) {
        return literal;
      }
    }
    return null;
  }

  private static String preparedSql(MethodAnalysis analysis, Expr statement) {
    for (Expr origin : analysis.origins(statement)) {
      if (origin instanceof Expr.Call prepare
          && (prepare.name().equals("prepareStatement") || prepare.name().equals("prepareCall"))
          && !prepare.args().isEmpty()) {
        return sql(analysis, prepare.args().get(0));
      }
    }
    return null;
  }

  private static boolean isWriteMethod(String method) {
    return method != null && WRITE_METHODS.contains(method.toUpperCase(Locale.ROOT));
  }

  private static boolean isRead(String sql) {
    String word = firstWord(sql);
    return Set.of("SELECT", "WITH", "SHOW", "EXPLAIN", "VALUES", "DESCRIBE", "DESC").contains(word);
  }

  private static String firstWord(String sql) {
    String trimmed = sql.strip();
    int end = 0;
    while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
      end++;
    }
    return trimmed.substring(0, end).toUpperCase(Locale.ROOT);
  }
}
