package com.acme;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A team's own code, written before it adopted Bounded: every retry here has a known flaw. */
public final class Checkout {
  private final Payments payments;
  private final ExecutorService mailer = Executors.newFixedThreadPool(2);

  public Checkout(Payments payments) {
    this.payments = payments;
  }

  /** Waits for the reservation; on an interrupt it logs and tries again. */
  public String awaitReservation(Future<String> reservation) {
    while (true) {
      try {
        return reservation.get();
      } catch (InterruptedException e) {
        System.err.println("interrupted while waiting, retrying");
      } catch (ExecutionException e) {
        System.err.println("reservation failed, retrying: " + e.getCause());
      }
    }
  }

  /** A fresh two-second timeout for each attempt. */
  public String quote(Future<String> price) throws InterruptedException, ExecutionException {
    TimeoutException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return price.get(2, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        last = e;
      }
    }
    throw new ExecutionException("no quote after 3 attempts", last);
  }

  /** Retries a charge that may have gone through. */
  public String pay(String card, long cents) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return payments.charge(card, cents);
      } catch (IOException e) {
        last = e;
      }
    }
    throw last;
  }

  /** Retries whatever fails, errors included. */
  public boolean notifyWarehouse(Runnable call) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        call.run();
        return true;
      } catch (Throwable t) {
        System.err.println("warehouse unreachable, retrying: " + t);
      }
    }
    return false;
  }

  /** Retries every exception, bugs included. */
  public String lookUp(Callable<String> call) {
    for (int attempt = 0; attempt < 3; attempt++) {
      try {
        return call.call();
      } catch (Exception e) {
        System.err.println("lookup failed, retrying: " + e);
      }
    }
    return null;
  }

  /** Sends every mail to a pool whose queue never fills. */
  public void mailAll(List<Runnable> mails) {
    for (Runnable mail : mails) {
      mailer.execute(mail);
    }
  }

  /** Sleeps, and forgets that it was asked to stop. */
  public static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException ignored) {
      // nothing to do
    }
  }
}
