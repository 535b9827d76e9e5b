package dev.bounded.examples.orders;

import dev.bounded.examples.orders.Dependencies.Inventory;
import dev.bounded.examples.orders.Dependencies.Payments;
import dev.bounded.examples.orders.Dependencies.Pricing;
import dev.bounded.examples.orders.Dependencies.Warehouse;
import dev.bounded.runtime.BoundedExecutor;
import dev.bounded.runtime.Deadline;
import dev.bounded.runtime.RetryBudget;
import dev.bounded.runtime.RetryPolicy;
import dev.bounded.runtime.ShutdownReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * {@link OrderService}'s corrected twin: the same operations, each with bounded failure handling.
 * Bounded's checks find nothing here.
 *
 * <ul>
 *   <li>One {@link Deadline} per request, passed in, spent by every attempt and backoff.
 *   <li>Retries through {@link RetryPolicy}: a total-attempt cap, listed transient failures only
 *       (never an interrupt or an error), capped full-jitter backoff, and a retry budget shared by
 *       all callers of a dependency.
 *   <li>The charge carries one idempotency key per order, so a retried charge is applied once.
 *   <li>A {@link BoundedExecutor} per dependency: background work waits for queue space within the
 *       request's deadline instead of queueing without bound.
 * </ul>
 */
public class BoundedOrderService implements AutoCloseable {
  private static final RetryBudget INVENTORY_BUDGET = RetryBudget.builder().ratio(0.1).build();

  private static final RetryPolicy INVENTORY =
      RetryPolicy.builder()
          .maxAttempts(3)
          .backoff(Duration.ofMillis(50), Duration.ofSeconds(1))
          .retryOn(ExecutionException.class)
          .budget(INVENTORY_BUDGET)
          .build();

  private static final RetryPolicy PAYMENTS =
      RetryPolicy.builder()
          .maxAttempts(3)
          .backoff(Duration.ofMillis(100), Duration.ofSeconds(2))
          .retryOn(ConnectException.class)
          .build();

  private static final RetryPolicy WAREHOUSE =
      RetryPolicy.builder()
          .maxAttempts(5)
          .backoff(Duration.ofMillis(100), Duration.ofSeconds(5))
          .retryOn(UncheckedIOException.class)
          .build();

  private final Inventory inventory;
  private final Pricing pricing;
  private final Payments payments;
  private final Warehouse warehouse;
  private final BoundedExecutor shipping =
      BoundedExecutor.builder("shipping").workers(4).queueCapacity(100).build();

  /**
   * Creates the service.
   *
   * @param inventory the inventory service
   * @param pricing the pricing service
   * @param payments the payment gateway
   * @param warehouse the warehouse
   */
  public BoundedOrderService(
      Inventory inventory, Pricing pricing, Payments payments, Warehouse warehouse) {
    this.inventory = inventory;
    this.pricing = pricing;
    this.payments = payments;
    this.warehouse = warehouse;
  }

  /**
   * Reserves stock. An interrupt stops the call at once; a reservation that timed out is not
   * retried blindly (its outcome is unknown: {@code UnknownOutcomeException}); an attempt that ends
   * is never left running.
   *
   * @param order the order
   * @param deadline the request's deadline
   * @return the reservation id
   * @throws Exception when the inventory service fails in a way that is not transient
   */
  public String reserve(Order order, Deadline deadline) throws Exception {
    return INVENTORY.call(
        deadline,
        attempt -> {
          Future<String> reservation = inventory.reserve(order.sku(), order.quantity());
          try {
            return reservation.get(attempt.remainingNanos(), TimeUnit.NANOSECONDS);
          } finally {
            reservation.cancel(true); // no effect once done; stops an abandoned attempt
          }
        });
  }

  /**
   * Quotes a price: a read, safe to repeat, so a timed-out attempt is retried within the deadline.
   *
   * @param order the order
   * @param deadline the request's deadline
   * @return the price in cents
   * @throws Exception when the pricing service fails in a way that is not transient
   */
  public long quote(Order order, Deadline deadline) throws Exception {
    return INVENTORY.callIdempotent(
        deadline,
        attempt -> pricing.quote(order.sku()).get(attempt.remainingNanos(), TimeUnit.NANOSECONDS));
  }

  /**
   * Charges the card under one idempotency key per order: the gateway applies a key once, so the
   * retry after a timeout cannot charge twice.
   *
   * @param order the order
   * @param deadline the request's deadline
   * @return the receipt
   * @throws IOException when the gateway fails in a way that is not transient
   */
  public String charge(Order order, Deadline deadline) throws IOException {
    String idempotencyKey = "charge-" + order.id();
    return PAYMENTS.callIdempotent(
        deadline, attempt -> payments.charge(order.card(), order.cents(), idempotencyKey));
  }

  /**
   * Tells the warehouse, retrying only failures to reach it; errors and bugs surface at once.
   *
   * @param order the order
   * @param deadline the request's deadline
   */
  public void notifyWarehouse(Order order, Deadline deadline) {
    WAREHOUSE.call(
        deadline,
        attempt -> {
          warehouse.notifyPick(order.id());
          return null;
        });
  }

  /**
   * Ships a batch in the background: each order waits for queue space within the deadline, and a
   * full bulkhead fails the request instead of growing without bound.
   *
   * @param orders the orders
   * @param deadline the request's deadline
   */
  public void shipAll(List<Order> orders, Deadline deadline) {
    for (Order order : orders) {
      shipping.execute(() -> notifyWarehouse(order, deadline), deadline);
    }
  }

  /**
   * Stops accepting shipments and drains the backlog for at most {@code drain}.
   *
   * @param drain how long the queued shipments may take
   * @return what ran and what did not
   */
  public ShutdownReport awaitShipping(Duration drain) {
    return shipping.shutdown(drain);
  }

  @Override
  public void close() {
    shipping.close();
  }
}
