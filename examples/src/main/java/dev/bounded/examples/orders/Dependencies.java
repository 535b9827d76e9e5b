package dev.bounded.examples.orders;

import dev.bounded.runtime.Idempotent;
import dev.bounded.runtime.NonIdempotent;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/** The order service's dependencies, as interfaces: each is a remote call in a real service. */
public final class Dependencies {
  private Dependencies() {}

  /** The inventory service. */
  public interface Inventory {
    /**
     * Reserves stock, asynchronously.
     *
     * @param sku the product
     * @param quantity how many
     * @return the reservation id, when it completes
     */
    Future<String> reserve(String sku, int quantity);
  }

  /** The pricing service. */
  public interface Pricing {
    /**
     * Quotes a price, asynchronously.
     *
     * @param sku the product
     * @return the price in cents, when it completes
     */
    CompletableFuture<Long> quote(String sku);
  }

  /** The payment gateway. */
  public interface Payments {
    /**
     * Charges a card: charging twice takes the money twice.
     *
     * @param card the card
     * @param cents the amount
     * @return the receipt
     * @throws IOException when the gateway cannot be reached or does not answer in time
     */
    @NonIdempotent
    String charge(String card, long cents) throws IOException;

    /**
     * Charges a card under an idempotency key: the gateway applies a key at most once.
     *
     * @param card the card
     * @param cents the amount
     * @param idempotencyKey one key per logical charge, reused by every attempt
     * @return the receipt
     * @throws IOException when the gateway cannot be reached or does not answer in time
     */
    @Idempotent
    String charge(String card, long cents, String idempotencyKey) throws IOException;
  }

  /** The warehouse's notification endpoint. */
  public interface Warehouse {
    /**
     * Tells the warehouse to pick an order.
     *
     * @param orderId the order
     */
    void notifyPick(String orderId);
  }
}
