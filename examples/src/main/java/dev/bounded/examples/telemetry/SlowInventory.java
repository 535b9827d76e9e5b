package dev.bounded.examples.telemetry;

import dev.bounded.runtime.Sleeper;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The fault-injected dependency: an inventory service that has become slow. Every read takes longer
 * than the client's read timeout, so every attempt ends, after the timeout, with {@link
 * SocketTimeoutException}.
 */
final class SlowInventory {
  private final Duration readTimeout;
  private final Sleeper sleeper;
  private final StructuredLog log;
  private final AtomicInteger calls = new AtomicInteger();

  SlowInventory(Duration readTimeout, Sleeper sleeper, StructuredLog log) {
    this.readTimeout = readTimeout;
    this.sleeper = sleeper;
    this.log = log;
  }

  /** A read of the stock of {@code sku}: waits the whole read timeout, then times out. */
  int stock(String sku) throws SocketTimeoutException, InterruptedException {
    int call = calls.incrementAndGet();
    sleeper.sleep(readTimeout); // the injected fault: no answer within the read timeout
    log.log(
        "WARN",
        "inventory.read.timeout",
        "sku",
        sku,
        "call",
        call,
        "read_timeout_ms",
        readTimeout.toMillis());
    throw new SocketTimeoutException(
        "inventory: read timed out after " + readTimeout.toMillis() + " ms");
  }

  int calls() {
    return calls.get();
  }
}
