package dev.bounded.checks.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A name pattern answers exactly as its expression; its words only spare running it. */
final class NamePatternTest {
  /** Names around the words: cases, non-ASCII letters that fold to ASCII, line terminators. */
  private static final List<String> NAMES =
      List.of(
          "",
          "r",
          "re",
          "retry",
          "RETRY",
          "reTry",
          "retryLater",
          "scheduleRetry",
          "doRetry",
          "Retry\n",
          "ret\u0131ry",
          "RET\u0130RY",
          "\u212Aeep",
          "onError",
          "handleFailure",
          "exceptionCaught",
          "connectFailed",
          "failed",
          "executeLater",
          "runAfterDelay",
          "delayed",
          "requestTimeout",
          "DEADLINE",
          "timeoutMillis",
          "time_out",
          "nextItem",
          "next",
          "fetchNextBatch",
          "pollTask",
          "poll",
          "MAX_RETRIES",
          "A1",
          "a",
          "_X",
          "X-Y");

  private static void assertSameAnswers(NamePattern pattern) {
    for (String name : NAMES) {
      assertEquals(
          pattern.pattern().matcher(name).matches(),
          pattern.matches(name),
          pattern.pattern().pattern() + ": " + name);
    }
  }

  @Test
  void answersAsTheExpressionDoes() {
    assertSameAnswers(
        NamePattern.containing(
            "(?i).*(retry|requeue|resubmit|reenqueue|redeliver).*",
            "retry",
            "requeue",
            "resubmit",
            "reenqueue",
            "redeliver"));
    assertSameAnswers(
        NamePattern.containing(
            "(?i)\\w*(later|delayed|afterdelay)|schedule(retry|reconnect|restart)\\w*",
            "later",
            "delay",
            "schedule"));
    assertSameAnswers(
        NamePattern.containing(
            "(?i)(on|handle)\\w*(error|exception|failure|throwable|fault)\\w*|exceptioncaught"
                + "|\\w*failed",
            "error",
            "exception",
            "failure",
            "throwable",
            "fault",
            "failed"));
    assertSameAnswers(
        NamePattern.startingWith(
            "(?i)(retry|resubmit|requeue|readd|reenqueue|redeliver|reschedule)\\w*", "re"));
    assertSameAnswers(NamePattern.containing("(?i).*time_?out.*", "timeout", "time_out"));
    assertSameAnswers(
        NamePattern.startingWith(
            "(next|take|pop|dequeue|fetchNext|poll)[A-Z]\\w*",
            "next",
            "take",
            "pop",
            "dequeue",
            "fetchNext",
            "poll"));
  }

  @Test
  void theWordsDecideOnlyNo() {
    NamePattern retry = NamePattern.containing("(?i)retry", "retry");
    assertTrue(retry.matches("Retry"));
    assertFalse(retry.matches("retryLater"), "the expression still decides: whole names only");
    assertFalse(retry.matches("later"));
    NamePattern prefix = NamePattern.startingWith("(?i)re\\w*", "re");
    assertTrue(prefix.matches("REsubmit"));
    assertFalse(prefix.matches("r"), "a name shorter than the word");
    assertFalse(prefix.matches("more"), "the word must start the name");
  }

  @Test
  void nodeNamesAsTheirExpression() {
    // The expression CallNames.isNodeName answered with before its words were put in front.
    Pattern nodes =
        Pattern.compile(
            "(?i).*(address|host|node|server|replica|endpoint|url|uri|broker|peer|member|instance"
                + "|candidate|invoker|connection|channel|seed|target|backend|route|region"
                + "|zone|\\bip|inet|socket|location|mirror|resolver|dns|cluster|shard|master"
                + "|slave|primary|secondary|leader).*");
    List<String> names = new java.util.ArrayList<>(NAMES);
    names.addAll(
        List.of(
            "ip",
            "IP",
            "ipAddress",
            "serverIp",
            "a.ip",
            "skip",
            "zipFile",
            "hosts\n",
            "NODES",
            "replicaSet",
            "getLeader()",
            "endpointUrl",
            "candidates",
            "seedList",
            "items"));
    for (String name : names) {
      assertEquals(nodes.matcher(name).matches(), CallNames.isNodeName(name), name);
    }
    assertTrue(CallNames.isNodeName("a.ip"), "ip after a word boundary");
    assertFalse(CallNames.isNodeName("skip"), "ip inside a word");
  }

  @Test
  void constantNamesAsTheirExpression() {
    Pattern constant = Pattern.compile("[A-Z][A-Z0-9_]*");
    for (String name : NAMES) {
      assertEquals(constant.matcher(name).matches(), NamePattern.isConstantName(name), name);
    }
  }
}
