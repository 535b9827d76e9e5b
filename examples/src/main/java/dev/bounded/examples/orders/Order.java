package dev.bounded.examples.orders;

/**
 * An order to fulfil.
 *
 * @param id the order's id
 * @param sku the product
 * @param quantity how many
 * @param cents the price to charge, in cents
 * @param card the card to charge
 */
public record Order(String id, String sku, int quantity, long cents, String card) {}
