package dev.bounded.examples.orders;

import dev.bounded.examples.orders.Dependencies.Inventory;
import dev.bounded.examples.orders.Dependencies.Payments;
import dev.bounded.examples.orders.Dependencies.Pricing;
import dev.bounded.examples.orders.Dependencies.Warehouse;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An order service as it is often first written: every method handles failure in a way that Bounded
 * reports. {@link BoundedOrderService} is its corrected twin.
 *
 * <p>This class is compiled with Bounded's checks as warnings (see the examples pom) so that the
 * demo can show the diagnostics and the suggested fixes; do not copy it.
 */
public class OrderService {
  private final Inventory inventory;
  private final Pricing pricing;
  private final Payments payments;
  private final Warehouse warehouse;
  private final ExecutorService shipping = Executors.newFixedThreadPool(4);

  /**
   * Creates the service.
   *
   * @param inventory the inventory service
   * @param pricing the pricing service
   * @param payments the payment gateway
   * @param warehouse the warehouse
   */
  public OrderService(
      Inventory inventory, Pricing pricing, Payments payments, Warehouse warehouse) {
    this.inventory = inventory;
    this.pricing = pricing;
    this.payments = payments;
    this.warehouse = warehouse;
  }

  /**
   * Reserves stock, retrying up to three times. (A: the interrupt is retried.)
   *
   * @param order the order
   * @return the reservation id, or null
   */
  public String reserve(Order order) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return inventory.reserve(order.sku(), order.quantity()).get();
      } catch (InterruptedException e) {
        System.err.println("interrupted while reserving, retrying");
      } catch (ExecutionException e) {
        System.err.println("reservation failed, retrying: " + e.getCause());
      }
    }
    return null;
  }

  /**
   * Quotes a price, giving each attempt two seconds. (C: three attempts take six.)
   *
   * @param order the order
   * @return the price in cents
   * @throws Exception when every attempt fails
   */
  public long quote(Order order) throws Exception {
    TimeoutException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return pricing.quote(order.sku()).get(2, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        last = e;
      }
    }
    throw last;
  }

  /**
   * Charges the card, retrying on I/O failures. (E: a timed-out charge may have gone through.)
   *
   * @param order the order
   * @return the receipt
   * @throws IOException when every attempt fails
   */
  public String charge(Order order) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return payments.charge(order.card(), order.cents());
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  /**
   * Reserves stock, retrying any exception. (B, milder: bugs are retried too; and C again.)
   *
   * @param order the order
   * @return the reservation id, or null
   */
  public String reserveOrNull(Order order) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return inventory.reserve(order.sku(), order.quantity()).get(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      } catch (Exception e) {
        System.err.println("retrying: " + e);
      }
    }
    return null;
  }

  /**
   * Tells the warehouse, retrying whatever goes wrong. (B: errors are retried too.)
   *
   * @param order the order
   */
  public void notifyWarehouse(Order order) {
    boolean sent = false;
    while (!sent) {
      try {
        warehouse.notifyPick(order.id());
        sent = true;
      } catch (Throwable t) {
        System.err.println("warehouse unreachable, retrying: " + t);
      }
    }
  }

  /**
   * Ships a batch of orders in the background. (D: the queue has no bound.)
   *
   * @param orders the orders
   */
  public void shipAll(List<Order> orders) {
    for (Order order : orders) {
      shipping.submit(() -> notifyWarehouse(order));
    }
  }

  /**
   * Pre-fetches prices for a batch. (D: the common pool, shared with the whole JVM.)
   *
   * @param orders the orders
   */
  public void warmPrices(List<Order> orders) {
    for (Order order : orders) {
      CompletableFuture.supplyAsync(() -> pricing.quote(order.sku()).join());
    }
  }

  /**
   * Waits for the shipping backlog to drain. (A: the interrupt is swallowed.)
   *
   * @param millis how long to wait
   */
  public void awaitShipping(long millis) {
    shipping.shutdown();
    try {
      shipping.awaitTermination(millis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException ignored) {
      // nothing to do
    }
  }
}
