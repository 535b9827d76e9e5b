package dev.bounded.checks.model;

/**
 * Facts about the other methods of the same compilation unit (the compiler frontend) or of every
 * scanned file (the scanner), built once by the frontend so that a rule never walks other methods
 * itself. Each frontend resolves a call to a declaration its own way: the compiler by symbol, the
 * scanner by owner, name and number of arguments.
 */
public interface UnitIndex {

  /** The index that knows no other method. */
  UnitIndex EMPTY = call -> null;

  /**
   * What is known of a method that retries on its own.
   *
   * @param method the method's name, for messages
   * @param attempts the most attempts one call of it makes, or 0 when the cap is unknown
   */
  record RetryingMethod(String method, int attempts) {}

  /**
   * Tells whether a call invokes a method of this unit that holds a retry loop of its own.
   *
   * @param call a call of the analysed method
   * @return what is known of the retrying callee, or {@code null} if the call does not invoke a
   *     method of this unit that retries (or the frontend cannot tell which method it invokes)
   */
  RetryingMethod retryingMethod(Expr.Call call);
}
