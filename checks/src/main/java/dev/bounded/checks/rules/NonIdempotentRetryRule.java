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
import java.util.IdentityHashMap;
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
    // A loop that goes round after its attempt put the failed item back retries it, whether or not
    // the loop looks like a retry loop otherwise (a reconnect loop on a connect call).
    Set<LoopInfo> resendsPutBack = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    for (LoopInfo loop : analysis.loops()) {
      Finding putBack = resendsWhatCalleePutBack(analysis, loop);
      if (putBack != null) {
        findings.add(putBack);
        resendsPutBack.add(loop);
      }
    }
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
      if (!specific && !resendsPutBack.contains(loop)) {
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
    findings.addAll(resendsFromFailureCallback(analysis));
    findings.addAll(resentByAnotherPath(analysis));
    findings.addAll(reactiveRetriesOfWrites(analysis, config));
    findings.addAll(retryInstalledOnSender(analysis));
    findings.addAll(failedWritesPutBack(analysis));
    findings.addAll(createsDeclaredRepeatable(analysis));
    findings.addAll(pendingWritesReplayed(analysis));
    PendingReplays.Kept kept = PendingReplays.keptForReplay(analysis);
    if (kept != null
        && kept.condition().span().isKnown()
        && !asksAnywhere(analysis, analysis.method())) {
      findings.add(
          new Finding(
              NAME,
              kept.condition().span(),
              "This test keeps the failed request in "
                  + kept.field()
                  + " for the failures that take the branch that does not remove it, and the class"
                  + " runs every request "
                  + kept.field()
                  + " holds again on the new connection: a send that failed with an I/O error after"
                  + " it reached the peer may have been applied, and is applied twice. Fail the"
                  + " writes whose outcome the failure left unknown, or let the peer recognise a"
                  + " repeat (an idempotency key)",
              List.of()));
    }
    return findings;
  }

  /**
   * A re-send of the writes still waiting for their acknowledgement on a new connection ({@code
   * resendMessages(cnx)}, which writes every item of {@code pendingMessages} again): an item whose
   * acknowledgement was lost with the old connection may have been applied, and is applied again.
   * Reported where the re-send method writes them or calls the method that does.
   */
  private static List<Finding> pendingWritesReplayed(MethodAnalysis analysis) {
    List<PendingReplays.Replay> replays = PendingReplays.replays(analysis);
    if (replays.isEmpty() || asksAnywhere(analysis, analysis.method())) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    for (PendingReplays.Replay replay : replays) {
      findings.add(
          new Finding(
              NAME,
              replay.call().nameSpan(),
              "This re-sends every item of "
                  + replay.field()
                  + " ("
                  + replay.call().name()
                  + "), the writes still waiting for their acknowledgement: one whose"
                  + " acknowledgement was lost with the old connection may have been applied, and"
                  + " sent again it is applied twice. Mark the repeat so the peer can drop it (a"
                  + " sequence id it deduplicates, a DUP flag), or fail the writes whose outcome"
                  + " is unknown",
              List.of()));
    }
    return findings;
  }

  /** Names of parameters by which a caller declares an operation safe to repeat: autoRetry. */
  private static final java.util.regex.Pattern REPEATABLE_FLAG =
      java.util.regex.Pattern.compile(
          "(?i)(auto_?retry|retry|retryable|retriable|idempotent|safe_?to_?retry|safe_?redo\\w*)");

  /** Words of operation names that create something new each time: leaseGrant, memberAdd. */
  private static final Set<String> CREATES =
      Set.of(
          "grant",
          "create",
          "add",
          "insert",
          "append",
          "increment",
          "incr",
          "allocate",
          "issue",
          "generate",
          "mint",
          "enqueue",
          "publish",
          "send",
          "post",
          "push");

  /**
   * With types: an operation handed as a lambda to a method of the project together with {@code
   * true} for a parameter by which the caller declares it safe to repeat ({@code execute(() ->
   * stub.leaseGrant(request), LeaseGrantResponse::new, true)}, where the third parameter is {@code
   * autoRetry}), when the operation creates something new each time (a name with the word grant,
   * create, add, insert, append, increment, allocate, issue, generate, publish, send, post, push):
   * the helper retries it after failures that can follow the send, and each repeat creates another.
   * Reported at the operation.
   */
  private static List<Finding> createsDeclaredRepeatable(MethodAnalysis analysis) {
    if (REPEATABLE_OPERATION.matcher(analysis.method().name()).matches()
        || READ_NAMED.matcher(analysis.method().name()).matches()) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call helper)
          || helper.args().stream().noneMatch(a -> a instanceof Expr.Lambda)) {
        continue;
      }
      List<String> names = helper.method().parameterNames();
      String flag = null;
      for (int i = 0; i < names.size() && i < helper.args().size(); i++) {
        if (helper.args().get(i) instanceof Expr.Literal literal
            && Boolean.TRUE.equals(literal.value())
            && REPEATABLE_FLAG.matcher(names.get(i)).matches()) {
          flag = names.get(i);
        }
      }
      if (flag == null || names.size() != helper.args().size()) {
        continue;
      }
      for (Expr arg : helper.args()) {
        if (!(arg instanceof Expr.Lambda lambda)) {
          continue;
        }
        for (Node m : Nodes.sameFrame(lambda.body())) {
          if (m instanceof Expr.Call operation
              && operation.receiver() != null
              && createsByName(operation.name())) {
            findings.add(
                new Finding(
                    NAME,
                    operation.nameSpan(),
                    "This operation ("
                        + operation.name()
                        + ") is handed to "
                        + helper.name()
                        + "() with "
                        + flag
                        + " = true, which lets it be repeated after a failure, but each call"
                        + " creates something new: a first attempt whose reply was lost (a"
                        + " timeout, an unavailable server after the write) already created one,"
                        + " and the repeat creates another. Pass false for operations that create,"
                        + " or make the operation recognise a repeat (an idempotency key)",
                    List.of()));
            break;
          }
        }
      }
    }
    return findings;
  }

  /** Whether a camel-case name has a word that says it creates something new: leaseGrant. */
  private static boolean createsByName(String name) {
    int start = 0;
    for (int i = 1; i <= name.length(); i++) {
      if (i == name.length()
          || name.charAt(i) == '_'
          || (Character.isUpperCase(name.charAt(i))
              && !Character.isUpperCase(name.charAt(i - 1)))) {
        if (CREATES.contains(name.substring(start, i).toLowerCase(Locale.ROOT))) {
          return true;
        }
        start = i < name.length() && name.charAt(i) == '_' ? i + 1 : i;
      }
    }
    return false;
  }

  /**
   * An item whose write failed, put back into a buffer field that the class writes from again
   * ({@code case FAILED_RETRY_POSSIBLE: addToBatchQueue(batch)} after {@code result =
   * tryToWrite(batch)}, and {@code tryToWrite(entry)} over {@code batchQueue} on the next flush): a
   * write that failed after it was sent may have been applied, and the next flush applies it again.
   * Reported at the put-back: the retry decision.
   */
  private static List<Finding> failedWritesPutBack(MethodAnalysis analysis) {
    if (analysis.method().body() == null) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    Set<Span> reported = new java.util.HashSet<>();
    for (Node n : Nodes.sameFrame(analysis.method().body())) {
      if (!(n instanceof Expr.Call write) || READ_NAMED.matcher(write.name()).matches()) {
        continue;
      }
      Expr.Name item = ResentBuffers.writtenItem(write);
      ResentBuffers.PutBack back =
          item == null ? null : ResentBuffers.putBack(analysis, write, item);
      if (back == null
          || !reported.add(back.call().nameSpan())
          || asksAnywhere(analysis, analysis.method())) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              back.call().nameSpan(),
              "This puts "
                  + item.name()
                  + " back into "
                  + back.buffer()
                  + " after its write ("
                  + write.name()
                  + ") failed, and the class writes what "
                  + back.buffer()
                  + " holds again: a write that failed after it was sent (a read timeout) may have"
                  + " been applied, and sent again it is applied twice. Put back only items whose"
                  + " write failed before it was sent (ConnectException), or let the server"
                  + " recognise a repeat (an idempotency key, a timestamp or id that makes the"
                  + " repeat overwrite the first)",
              List.of()));
    }
    return findings;
  }

  /**
   * A retry decided where a send's failure is handled, outside the sending method: in a failure
   * callback of an anonymous class the sending method declares ({@code client.execute(request, new
   * FutureCallback() { failed(e) { performRequestAsync(nodes, request, listener); } })}), or in a
   * failure handler the sending method calls from its catch clause or its failure callback ({@code
   * onExceptionImpl(.., request, ..)}, which calls {@code sendMessageAsync(.., request, ..)}). The
   * call that starts the sending method again with its own request, unchanged, is the retry
   * decision: reported there, when the sending method is named for a send and nothing asks whether
   * the request may be repeated.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static List<Finding> resendsFromFailureCallback(MethodAnalysis analysis) {
    MethodModel method = analysis.method();
    if (!method.span().isKnown() || asksAnywhere(analysis, method)) {
      return List.of();
    }
    List<Finding> findings = new ArrayList<>();
    for (Node n : Nodes.sameFrame(method.body())) {
      if (!(n instanceof Expr.Call call) || analysis.isSelfCall(call)) {
        continue;
      }
      MethodModel sender = analysis.context().unit().declarationOf(call);
      if (sender == null
          || sender == method
          || sender.body() == null
          || !sender.span().isKnown()
          || !REQUEST_SENDS.matches(sender.name())
          || READ_NAMED.matcher(sender.name()).matches()
          || handsOnRequest(call, sender) == null) {
        continue;
      }
      boolean inCallback =
          sender.span().contains(method.span())
              && (isFailureCallback(method) || analysis.isInCatchBody(call, method.body()));
      if (!inCallback && !callsFromFailurePath(analysis, sender, method)) {
        continue;
      }
      MethodAnalysis senderAnalysis = analysis.calleeAnalysis(sender);
      if (senderAnalysis == null || asksAnywhere(senderAnalysis, sender)) {
        continue;
      }
      findings.add(
          new Finding(
              NAME,
              call.nameSpan(),
              "This "
                  + (inCallback ? "failure callback" : "failure handler")
                  + " sends the same request again ("
                  + sender.name()
                  + "(.., "
                  + handsOnRequest(call, sender)
                  + ", ..)) after a failure that can come after the request was sent, and nothing"
                  + " asks whether the request may be repeated: a write that timed out may have"
                  + " committed, and the retry applies it again. Retry writes only when they are"
                  + " idempotent (an idempotency key, an isIdempotent check), or only failures that"
                  + " prove nothing was sent (ConnectException)",
              List.of()));
    }
    return findings;
  }

  /** Names of calls that report or park a failed send rather than make it: a dead letter. */
  private static final java.util.regex.Pattern REPORTS_FAILURE =
      java.util.regex.Pattern.compile(
          "(error|fail|dead|dlq|reject|nack|discard|respon|repl|notif|callback|ack).*"
              + "|.*(Error|Fail|Dead|Dlq|DLQ|Reject|Nack|Discard|Respon|Repl|Notif|Callback).*"
              + "|.*[a-z0-9]Ack([A-Z0-9_].*)?");

  /**
   * A send whose failure is answered by sending the same message again another way: {@code try {
   * api.consumerSendMessageBack(addr, msg, ..); } catch (Throwable t) {
   * sendMessageBackAsNormalMessage(msg); }}. The first send may have been applied before the
   * failure (a timeout after the broker took it), and the fallback applies it again. Reported at
   * the fallback send: the retry decision. A handler that parks the message as failed (a dead
   * letter, an error report) makes no second attempt.
   */
  private static List<Finding> resentByAnotherPath(MethodAnalysis analysis) {
    List<Finding> findings = new ArrayList<>();
    for (Stmt.Catch clause : analysis.catches()) {
      if (analysis.enclosingLambda(clause) != null
          || analysis.loopOf(clause) != null
          || clause.types().stream().allMatch(t -> NOTHING_SENT.contains(t.name()))) {
        continue;
      }
      java.util.Map<String, List<Expr.Call>> sentFirst = new java.util.HashMap<>();
      for (Node n : Nodes.sameFrame(analysis.tryOf(clause).body())) {
        String sent = n instanceof Expr.Call send ? isSendOfHanded(send) : null;
        if (sent != null) {
          sentFirst.computeIfAbsent(sent, k -> new ArrayList<>()).add((Expr.Call) n);
        }
      }
      if (sentFirst.isEmpty() || asksAnywhere(analysis, analysis.method())) {
        continue;
      }
      for (Node n : Nodes.sameFrame(clause.body())) {
        if (!(n instanceof Expr.Call again)) {
          continue;
        }
        String message = isSendOfHanded(again);
        if (message == null
            || !sentFirst.containsKey(message)
            || REPORTS_FAILURE.matcher(again.name()).matches()) {
          continue;
        }
        findings.add(
            new Finding(
                NAME,
                again.nameSpan(),
                "This handler sends "
                    + message
                    + " again another way ("
                    + again.name()
                    + ") after "
                    + firstOtherThan(sentFirst.get(message), again.name())
                    + " failed, though that send may have been applied before the failure (a"
                    + " timeout after the peer took it): the message is then delivered twice. Send"
                    + " the fallback only after a failure that proves nothing was sent"
                    + " (ConnectException), or let the peer recognise a repeat (an idempotency"
                    + " key)",
                List.of()));
      }
    }
    return findings;
  }

  /** The name of the first send not named {@code name}, else of the first. */
  private static String firstOtherThan(List<Expr.Call> sends, String name) {
    for (Expr.Call send : sends) {
      if (!send.name().equals(name)) {
        return send.name();
      }
    }
    return sends.get(0).name();
  }

  /**
   * The parameter a call sends, when its name says it sends and the parameter is a message or
   * request of the project's or a library's own type: {@code consumerSendMessageBack(addr, msg)}.
   */
  private static String isSendOfHanded(Expr.Call call) {
    if (!SENDS.matcher(call.name()).matches() || READ_NAMED.matcher(call.name()).matches()) {
      return null;
    }
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name handed
          && handed.qualifier() == null
          && handed.kind() == Expr.NameKind.PARAMETER
          && handed.type().isKnown()
          && isHandedRequest(handed)
          && !isFailureType(handed.type())
          && !CALLBACK.matcher(handed.type().simpleName()).matches()
          && Character.isUpperCase(handed.type().simpleName().charAt(0))) {
        return handed.name();
      }
    }
    return null;
  }

  /** Names of calls that send a message on. */
  private static final java.util.regex.Pattern SENDS =
      java.util.regex.Pattern.compile("(?i).*(send|publish|deliver|transmit|produce).*");

  /** Reactive operators that re-subscribe to their source after an error. */
  private static final Set<String> REACTIVE_RETRIES = Set.of("retry", "retryWhen", "retryUntil");

  /** Reactive operators whose function makes the source that the chain goes on with. */
  private static final Set<String> SOURCE_OPERATORS =
      Set.of(
          "flatMap",
          "flatMapMaybe",
          "flatMapSingle",
          "flatMapCompletable",
          "concatMap",
          "switchMap",
          "defer",
          "fromCallable",
          "fromSupplier",
          "then");

  /**
   * A reactive retry operator ({@code retry(..)}, {@code retryWhen(..)}) on a chain whose source is
   * a write the rule knows: {@code service.postWriteRx(..).toMaybe().retryWhen(..)}, the source
   * followed through locals and through the functions of operators that make the source ({@code
   * flatMap(it -> post.toMaybe())}). Resubscribing sends the write again after an error that can
   * follow the send. Reported at the retry operator.
   */
  private static List<Finding> reactiveRetriesOfWrites(MethodAnalysis analysis, RuleConfig config) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call retry)
          || !REACTIVE_RETRIES.contains(retry.name())
          || retry.receiver() == null
          || (retry.receiver() instanceof Expr.Name type && type.kind() == Expr.NameKind.TYPE)) {
        continue;
      }
      String what = writeAtSource(analysis, retry.receiver(), config, new java.util.HashSet<>());
      if (what != null) {
        findings.add(
            new Finding(
                NAME,
                retry.nameSpan(),
                "This reactive retry subscribes again to "
                    + what
                    + ", which may have committed: an attempt that timed out after the request was"
                    + " sent may have taken effect, and the retry applies it again. "
                    + remedy(what, config),
                List.of()));
      }
    }
    return findings;
  }

  /** The write a reactive chain starts from, or {@code null}. */
  private static String writeAtSource(
      MethodAnalysis analysis, Expr chain, RuleConfig config, Set<String> seen) {
    for (Expr e = chain; e != null; ) {
      if (e instanceof Expr.Call step) {
        String what = nonIdempotentCall(analysis, null, step, config);
        if (what != null) {
          return what;
        }
        if (SOURCE_OPERATORS.contains(step.name())) {
          for (Expr arg : step.args()) {
            if (arg instanceof Expr.Lambda lambda
                && lambda.body() instanceof Stmt.ExprStmt body
                && (what = writeAtSource(analysis, body.expr(), config, seen)) != null) {
              return what;
            }
          }
        }
        e = step.receiver();
      } else if (e instanceof Expr.Name local
          && local.qualifier() == null
          && local.kind() == Expr.NameKind.LOCAL
          && seen.add(local.name())) {
        for (Expr value : analysis.valuesOf(local.name())) {
          String what = writeAtSource(analysis, value, config, seen);
          if (what != null) {
            return what;
          }
        }
        return null;
      } else {
        return null;
      }
    }
    return null;
  }

  /** Setters that give a client a retry policy of its own: {@code setRetryTemplate(..)}. */
  private static final Set<String> INSTALLS_RETRY = Set.of("setRetryTemplate", "setRetryPolicy");

  /** Sends of a message client: AMQP and JMS templates, producers. */
  private static final Set<String> CLIENT_SENDS =
      Set.of(
          "send",
          "convertAndSend",
          "sendAndReceive",
          "convertSendAndReceive",
          "basicPublish",
          "publish");

  /**
   * A retry policy installed on a client field that the class sends messages with ({@code
   * rabbitTemplate.setRetryTemplate(new RetryTemplate(..))}, and {@code rabbitTemplate.send(..)}
   * elsewhere in the class): every send is then repeated after any failure, a publish that reached
   * the broker included. Reported at the installation.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static List<Finding> retryInstalledOnSender(MethodAnalysis analysis) {
    List<Finding> findings = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call install)
          || !INSTALLS_RETRY.contains(install.name())
          || install.args().size() != 1
          || (install.args().get(0) instanceof Expr.Literal)
          || !(install.receiver() instanceof Expr.Name client)
          || client.kind() != Expr.NameKind.FIELD) {
        continue;
      }
      String send = null;
      for (MethodModel other : analysis.context().unit().methods()) {
        if (other.body() == null || !other.owner().equals(analysis.method().owner())) {
          continue;
        }
        for (Node m : Nodes.preOrder(other.body())) {
          if (m instanceof Expr.Call call
              && CLIENT_SENDS.contains(call.name())
              && call.receiver() instanceof Expr.Name receiver
              && receiver.kind() == Expr.NameKind.FIELD
              && receiver.name().equals(client.name())) {
            send = call.name();
          }
        }
      }
      if (send != null) {
        findings.add(
            new Finding(
                NAME,
                install.nameSpan(),
                "This gives "
                    + client.name()
                    + " a retry policy, and the class sends with it ("
                    + send
                    + "): a send that failed after the message reached the broker is sent again,"
                    + " and the message is delivered twice. Retry only failures that prove nothing"
                    + " was sent, or let the consumer recognise a repeat (a message id it"
                    + " deduplicates)",
                List.of()));
      }
    }
    return findings;
  }

  /**
   * The parameter of {@code sender} that the call passes on unchanged, by the same name at the same
   * place, when it is a request of the project's or a library's own type; or {@code null}.
   */
  private static String handsOnRequest(Expr.Call call, MethodModel sender) {
    List<MethodModel.Param> params = sender.params();
    for (int i = 0; i < call.args().size() && i < params.size(); i++) {
      TypeRef type = params.get(i).type();
      if (call.args().get(i) instanceof Expr.Name name
          && name.qualifier() == null
          && name.name().equals(params.get(i).name())
          && type.isKnown()
          && !type.name().startsWith("java.")
          // An array (javac names its erased class Array): bytes or values, not a request object.
          && !type.name().equals("Array")
          && !type.name().endsWith("[]")
          && !isLookup(type)
          && !isFailureType(type)
          && !CALLBACK.matcher(type.simpleName()).matches()
          && Character.isUpperCase(type.simpleName().charAt(0))) {
        return name.name();
      }
    }
    return null;
  }

  /** Whether a method is a failure callback: it is handed the failure ({@code failed(e)}). */
  private static boolean isFailureCallback(MethodModel method) {
    for (MethodModel.Param param : method.params()) {
      if (isFailureType(param.type())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isFailureType(TypeRef type) {
    String simple = type.simpleName();
    return type.isSubtypeOf("java.lang.Throwable")
        || simple.endsWith("Exception")
        || simple.endsWith("Throwable")
        || simple.endsWith("Error");
  }

  /**
   * Whether {@code sender} calls {@code handler} on a failure path: from one of its catch clauses,
   * or from a failure callback of an anonymous class it declares.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean callsFromFailurePath(
      MethodAnalysis analysis, MethodModel sender, MethodModel handler) {
    MethodAnalysis senderAnalysis = analysis.calleeAnalysis(sender);
    if (senderAnalysis == null) {
      return false;
    }
    for (Node n : Nodes.sameFrame(sender.body())) {
      if (n instanceof Expr.Call call
          && call.name().equals(handler.name())
          && senderAnalysis.isInCatchBody(call, sender.body())
          && analysis.context().unit().declarationOf(call) == handler) {
        return true;
      }
    }
    for (MethodModel callback : analysis.context().unit().methods()) {
      if (callback == sender
          || !callback.span().isKnown()
          || !sender.span().contains(callback.span())
          || !isFailureCallback(callback)) {
        continue;
      }
      for (Node n : Nodes.sameFrame(callback.body())) {
        if (n instanceof Expr.Call call
            && call.name().equals(handler.name())
            && analysis.context().unit().declarationOf(call) == handler) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a call or name anywhere in the method asks whether the operation may be repeated. */
  private static boolean asksAnywhere(MethodAnalysis analysis, MethodModel method) {
    for (Node n : Nodes.preOrder(method.body())) {
      if ((n instanceof Expr.Call call
              && ASKS_IDEMPOTENCY.matches(call.name())
              && !asksOnlyAboutFailure(analysis, call))
          || (n instanceof Expr.Name name
              && name.kind() != Expr.NameKind.TYPE
              && ASKS_IDEMPOTENCY.matches(name.name()))) {
        return true;
      }
    }
    return false;
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
    List<Expr.Call> onFailure = new ArrayList<>(DelayedRetries.inFailureLambdas(analysis));
    onFailure.addAll(inTypedFailureLambdas(analysis));
    for (Expr.Call call : onFailure) {
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
      if (n instanceof Expr.Call call
          && operation == null
          && !analysis.isSelfCall(call)
          && !handedTheFailure(analysis, call)) {
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

  /** Calls that take the next item from a queue. */
  private static final Set<String> TAKES =
      Set.of(
          "take",
          "takeFirst",
          "takeLast",
          "poll",
          "pollFirst",
          "pollLast",
          "remove",
          "removeFirst");

  /**
   * A reconnect loop whose attempt is a helper that takes items from a queue and writes them, and,
   * when a write fails, puts the item back into the queue before it rethrows ({@code catch
   * (IOException e) { deque.offerFirst(event); throw e; }}): the loop goes round, reconnects, and
   * the helper writes the same item again, though the failed write may have reached the peer.
   * Reported at the loop's clause that goes round: the retry decision.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static Finding resendsWhatCalleePutBack(MethodAnalysis analysis, LoopInfo loop) {
    for (Stmt.Catch clause : analysis.catches()) {
      if (analysis.loopOf(clause) != loop
          || !analysis.goesRoundAgain(clause, loop)
          || clause.types().stream().allMatch(t -> NOTHING_SENT.contains(t.name()))) {
        continue;
      }
      for (Node n : Nodes.sameFrame(analysis.tryOf(clause).body())) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        MethodModel helper = analysis.context().unit().declarationOf(call);
        if (helper == null || helper == analysis.method() || helper.body() == null) {
          continue;
        }
        MethodAnalysis helperAnalysis = analysis.calleeAnalysis(helper);
        String queue = helperAnalysis == null ? null : putsBackBeforeRethrow(helperAnalysis);
        if (queue != null) {
          return new Finding(
              NAME,
              clause.typeSpan(),
              "This retry loop goes round after "
                  + call.name()
                  + "() put the item whose write failed back into "
                  + queue
                  + ": the next round writes it again, though the failed write may have reached"
                  + " the peer, which then gets it twice. Drop or report an item whose write"
                  + " failed after bytes may have left, or let the peer recognise a repeat (an"
                  + " idempotency key, a sequence number)",
              List.of());
        }
      }
    }
    return null;
  }

  /**
   * The queue field a method puts an item back into, before it rethrows, when the write of the item
   * (taken from that queue) fails; or {@code null}. The put-back may be a call of a helper of the
   * class that is handed the item ({@code tryReAddingEventToFrontOfQueue(event)}).
   */
  private static String putsBackBeforeRethrow(MethodAnalysis analysis) {
    for (Stmt.Catch clause : analysis.catches()) {
      List<Node> handler = Nodes.sameFrame(clause.body());
      if (!Flow.leaves(clause.body()) || handler.stream().noneMatch(n -> n instanceof Stmt.Throw)) {
        continue;
      }
      boolean writes = false;
      for (Node n : Nodes.sameFrame(analysis.tryOf(clause).body())) {
        writes |=
            n instanceof Expr.Call call
                && (call.name().startsWith("write") || REQUEST_SENDS.matches(call.name()));
      }
      if (!writes) {
        continue;
      }
      for (Node n : handler) {
        if (!(n instanceof Expr.Call call)) {
          continue;
        }
        for (Expr arg : call.args()) {
          String queue = arg instanceof Expr.Name item ? takenFrom(analysis, item) : null;
          if (queue != null && putsBack(analysis, call, queue)) {
            return queue;
          }
        }
      }
    }
    return null;
  }

  /** The queue field a local's item was taken from ({@code event = deque.takeFirst()}). */
  private static String takenFrom(MethodAnalysis analysis, Expr.Name item) {
    if (item.qualifier() != null || item.kind() != Expr.NameKind.LOCAL) {
      return null;
    }
    for (Expr value : analysis.valuesOf(item.name())) {
      if (value instanceof Expr.Call take
          && TAKES.contains(take.name())
          && take.receiver() instanceof Expr.Name queue
          && queue.kind() == Expr.NameKind.FIELD) {
        return queue.name();
      }
    }
    return null;
  }

  /**
   * Whether a call puts an item back into the queue field: directly ({@code deque.offerFirst(e)}),
   * or through a method of the class whose body does so with its parameter.
   */
  @SuppressWarnings("ReferenceEquality") // the index hands out one model per method
  private static boolean putsBack(MethodAnalysis analysis, Expr.Call call, String queue) {
    if (isEnqueueOn(call, queue)) {
      return true;
    }
    MethodModel helper = analysis.context().unit().declarationOf(call);
    if (helper == null || helper == analysis.method() || helper.body() == null) {
      return false;
    }
    for (Node n : Nodes.sameFrame(helper.body())) {
      if (n instanceof Expr.Call inner && isEnqueueOn(inner, queue)) {
        for (Expr arg : inner.args()) {
          if (arg instanceof Expr.Name name
              && helper.params().stream().anyMatch(p -> p.name().equals(name.name()))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isEnqueueOn(Expr.Call call, String queue) {
    return CallNames.ENQUEUES.contains(call.name())
        && call.receiver() instanceof Expr.Name receiver
        && receiver.kind() == Expr.NameKind.FIELD
        && receiver.name().equals(queue);
  }

  /**
   * Whether a call is handed the failure being handled ({@code onErrorResume.apply(exception,
   * written)} in a failure handler): a recovery, not the operation the retry repeats.
   */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean handedTheFailure(MethodAnalysis analysis, Expr.Call call) {
    Set<String> failures = new java.util.HashSet<>();
    for (Node p = analysis.parent(call); p != null; p = analysis.parent(p)) {
      if (p instanceof Stmt.Catch clause) {
        failures.add(clause.parameter());
      }
      if (p instanceof Expr.Lambda lambda
          && analysis.parent(lambda) instanceof Expr.Call handler
          && !lambda.params().isEmpty()) {
        if (FAILURE_HANDLERS.contains(handler.name())) {
          failures.add(lambda.params().get(0));
        } else if (CallNames.COMPLETION_CALLBACKS.contains(handler.name())
            && lambda.params().size() > 1) {
          failures.add(lambda.params().get(1));
        }
      }
    }
    for (Expr arg : call.args()) {
      if (arg instanceof Expr.Name name
          && name.qualifier() == null
          && failures.contains(name.name())) {
        return true;
      }
    }
    return false;
  }

  /** Calls that register a handler run only on a failure, whatever comes before the handler. */
  private static final Set<String> FAILURE_HANDLERS =
      Set.of("onErrorResume", "onErrorResumeNext", "exceptionally", "exceptionallyCompose");

  /**
   * Calls in a failure handler that is not the first argument: {@code
   * onErrorResume(Exception.class, err -> ..)}, where a filter of the failures comes first. (A
   * handler that is the first argument is found by {@link DelayedRetries#inFailureLambdas}.)
   */
  private static List<Expr.Call> inTypedFailureLambdas(MethodAnalysis analysis) {
    List<Expr.Call> found = new ArrayList<>();
    for (Node n : analysis.bodyNodes()) {
      if (!(n instanceof Expr.Call handler)
          || !FAILURE_HANDLERS.contains(handler.name())
          || handler.args().size() < 2
          || !(handler.args().get(handler.args().size() - 1) instanceof Expr.Lambda lambda)) {
        continue;
      }
      for (Node m : Nodes.sameFrame(lambda.body())) {
        if (m instanceof Expr.Call call) {
          found.add(call);
        }
      }
    }
    return found;
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
      String invocation = handedInvocation(call);
      if (invocation != null && !asksAnywhere(analysis, analysis.method())) {
        findings.add(
            new Finding(
                NAME,
                call.nameSpan(),
                "This has a retry engine run again the invocation it is handed ("
                    + invocation
                    + ") after a failure that can come after the request was sent, and nothing"
                    + " asks whether the operation may be repeated: a write that timed out may have"
                    + " committed, and the retry applies it again. Retry only idempotent operations"
                    + " here (an isIdempotent check, an idempotency key)",
                List.of()));
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

  /** Calls by which a retry engine re-runs an invocation: {@code retry.invoke(op, params, ..)}. */
  private static final Set<String> INVOCATION_RUNS =
      Set.of("invoke", "execute", "call", "perform", "doInvoke", "doExecute");

  /**
   * The invocation handed in that a retry engine is given to run again, not as a lambda but as the
   * invocation itself or its parts ({@code retry.invoke(invocation.getOperation(),
   * invocation.getParams(), exchange)}, on a {@code Retryable retry}): a parameter of the project's
   * or a library's own type, or a getter on one. Returns how to name it, or {@code null}.
   */
  private static String handedInvocation(Expr.Call call) {
    if (!INVOCATION_RUNS.contains(call.name())
        || isLookup(call.receiver().type())
        || isJdkValue(call.receiver().type())
        // Work handed as a lambda or a method reference is judged by what it does (below).
        || call.args().stream()
            .anyMatch(a -> a instanceof Expr.Lambda || a instanceof Expr.Other)) {
      return null;
    }
    for (Expr arg : call.args()) {
      Expr handed = arg;
      if (arg instanceof Expr.Call getter
          && getter.args().isEmpty()
          && getter.receiver() instanceof Expr.Name) {
        handed = getter.receiver();
      }
      if (handed instanceof Expr.Name name
          && name.qualifier() == null
          && name.kind() == Expr.NameKind.PARAMETER
          && name.type().isKnown()
          && isHandedRequest(name)
          && !CALLBACK.matcher(name.type().simpleName()).matches()) {
        return name.name();
      }
    }
    return null;
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
    if (REPEATABLE_OPERATION.matcher(analysis.method().name()).matches()
        || READ_NAMED.matcher(analysis.method().name()).matches()) {
      // revoke(leaseId), renewSelf(..), createOrUpdateRole(..): the same again; lookupWrap(..):
      // a read carried by a POST.
      return findings;
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
    Expr.Call operationCall = null;
    boolean throwsNothingChecked = false;
    for (Node n : analysis.loopLevel(loop)) {
      if (n instanceof Expr.Call call && operation == null) {
        operation = opaqueOperation(analysis, loop, call);
        operationCall = operation == null ? null : call;
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
    if (operation == null || capAsksAboutOperation(analysis, loop)) {
      return null;
    }
    Stmt.Catch decision = null;
    TypeRef after = null;
    for (Stmt.Catch clause : analysis.catches()) {
      if (analysis.loopOf(clause) != loop || !analysis.goesRoundAgain(clause, loop)) {
        continue;
      }
      TypeRef retried = null;
      for (TypeRef type : clause.types()) {
        // A Supplier or Runnable throws no checked exception: an InterruptedException caught
        // around supplier.get() comes from the sleep before it, when nothing was sent.
        if (!NOTHING_SENT.contains(type.name())
            && !isLocalFailure(type)
            && !(throwsNothingChecked && isCheckedException(type))) {
          retried = type;
        }
      }
      if (retried == null) {
        continue;
      }
      // The clause around the operation decides its retry; another clause that goes round (a
      // failed health check before the send) stands in only when none does.
      boolean aroundOperation = guards(analysis, clause, operationCall);
      if (decision == null || (aroundOperation && !guards(analysis, decision, operationCall))) {
        decision = clause;
        after = retried;
      }
    }
    if (decision != null) {
      Stmt.Catch clause = decision;
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

  /** Whether a catch clause's try block holds the call. */
  @SuppressWarnings("ReferenceEquality") // model nodes are compared by identity
  private static boolean guards(MethodAnalysis analysis, Stmt.Catch clause, Expr.Call call) {
    return call != null
        && Nodes.preOrder(analysis.tryOf(clause).body()).stream().anyMatch(n -> n == call);
  }

  /**
   * Whether the loop's bound is read from what the operation says of itself: a local in the loop's
   * condition computed from its method or its idempotency ({@code tryCount =
   * url.getMethodParameter(request.getMethodName(), .., "retries", 0)}). The retries are then the
   * operation's own, declared per method (none by default), not the engine's blanket choice.
   */
  private static boolean capAsksAboutOperation(MethodAnalysis analysis, LoopInfo loop) {
    if (loop.condition() == null) {
      return false;
    }
    for (Node n : Nodes.sameFrame(loop.condition())) {
      if (!(n instanceof Expr.Name bound)
          || bound.qualifier() != null
          || bound.kind() != Expr.NameKind.LOCAL) {
        continue;
      }
      for (Expr value : analysis.valuesOf(bound.name())) {
        for (Node m : Nodes.sameFrame(value)) {
          if ((m instanceof Expr.Call call
                  && ASKS_IDEMPOTENCY.matches(call.name())
                  && !asksOnlyAboutFailure(analysis, call))
              || (m instanceof Expr.Name name
                  && name.kind() != Expr.NameKind.TYPE
                  && ASKS_IDEMPOTENCY.matches(name.name()))) {
            return true;
          }
        }
      }
    }
    return false;
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
    if (!(REQUEST_SENDS.matches(call.name()) || writesToConnection(call))
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

  /**
   * A write onto a connection: a call named {@code write..} handed a socket ({@code
   * writeEvent(socket, outputStream, event)}). Bytes that left before the failure may have reached
   * the peer; written again on a new connection, the peer gets them twice.
   */
  private static boolean writesToConnection(Expr.Call call) {
    if (!call.name().startsWith("write")) {
      return false;
    }
    for (Expr arg : call.args()) {
      TypeRef type = arg.type();
      if (type.isSubtypeOf("java.net.Socket")
          || type.isSubtypeOf("java.nio.channels.SocketChannel")
          || type.simpleName().equals("Socket")
          || type.simpleName().equals("SSLSocket")
          || type.simpleName().equals("SocketChannel")) {
        return true;
      }
    }
    return false;
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
    // An HTTP client interface's method declared as a POST or PATCH (Retrofit, JAX-RS and
    // MicroProfile REST clients): @POST("api/v2/write") Call<Void> postWrite(..).
    for (String method : WRITE_METHODS) {
      if (call.method().hasAnnotation(method)) {
        return "an HTTP " + method;
      }
    }
    if (isBuiltRequestSend(analysis, call)) {
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
   * client's fluent request whose last step sends it as a POST or PATCH, without arguments). The
   * builder may be a local the chain was assigned to ({@code Rest rest = new Rest().url(url);
   * rest.post()}).
   */
  private static boolean isBuiltRequestSend(MethodAnalysis analysis, Expr.Call call) {
    if (!(call.name().equals("post") || call.name().equals("patch"))
        || !call.args().isEmpty()
        || call.receiver() == null) {
      return false;
    }
    List<Expr> builders =
        call.receiver() instanceof Expr.Name local
                && local.qualifier() == null
                && local.kind() == Expr.NameKind.LOCAL
            ? analysis.origins(local)
            : List.of(call.receiver());
    for (Expr builder : builders) {
      for (Expr e = builder; e instanceof Expr.Call step; e = step.receiver()) {
        if (REQUEST_STEPS.contains(step.name()) && !step.args().isEmpty()) {
          return true;
        }
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
