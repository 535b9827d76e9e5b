package com.acme;

import java.io.IOException;

/** A payment provider: charging twice charges the customer twice. */
public interface Payments {
  /**
   * Charges a card.
   *
   * @param card the card
   * @param cents the amount
   * @return the provider's receipt
   * @throws IOException when the provider cannot be reached or does not answer in time
   */
  String charge(String card, long cents) throws IOException;
}
