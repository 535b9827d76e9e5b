package dev.bounded.runtime;

import dev.bounded.runtime.internal.NamedThreadFactory;
import dev.bounded.runtime.internal.Threads;
import dev.bounded.runtime.internal.Waits;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Subtasks with one owner and one lifetime: structured concurrency on Java 17, with threads from an
 * injectable {@link ThreadFactory} (on Java 21+ pass {@code Thread.ofVirtual().factory()}).
 *
 * <pre>{@code
 * Deadline deadline = Deadline.after(Duration.ofSeconds(2));
 * try (TaskScope scope = TaskScope.open(deadline)) {
 *   Subtask<Stock> stock = scope.fork(() -> inventory.stock(sku));
 *   Subtask<Price> price = scope.fork(() -> pricing.price(sku));
 *   scope.join();           // both succeeded, or this threw and neither is still running
 *   return new Offer(stock.get(), price.get());
 * }                         // no thread forked here outlives this line
 * }</pre>
 *
 * <h2>Lifetime</h2>
 *
 * <p>The thread that opens a scope owns it: only the owner may {@link #fork fork}, {@link #join()}
 * and {@link #close()}; any other thread gets {@link IllegalCallerException}. A fork runs on a
 * thread from the factory: a new one, or a thread of the same scope whose subtask has finished
 * (starting a platform thread costs far more than a trivial task, so a scope reuses its own threads
 * while the owner is still forking). Threads are never shared between scopes and none outlives its
 * scope. A subtask starts with its interrupt flag clear; a thread-local that a subtask sets and
 * does not remove may be seen by a later subtask of the same scope. The scope is <em>cancelled</em>
 * at the first of: a subtask failing, its deadline passing while the owner joins, the owner being
 * interrupted while it joins, or {@link #close()} without a join. Cancelling interrupts every
 * unfinished subtask; subtasks forked afterwards are not started.
 *
 * <h2>Outcomes of {@link #join()}</h2>
 *
 * <ul>
 *   <li>Every subtask finished without failing: join returns. A subtask that ends with {@link
 *       CancellationException} of its own accord is {@link Subtask.State#CANCELLED} and does not
 *       fail the scope.
 *   <li>A subtask failed (any exception or {@link Error} other than cancellation): the others are
 *       cancelled and awaited, then {@link TaskScopeFailedException} is thrown with the first
 *       failure as its cause and later failures suppressed.
 *   <li>The scope's {@link Deadline} passed first: the subtasks are cancelled and awaited, then the
 *       runtime's {@link DeadlineExceededException} is thrown (not a {@link CancellationException}:
 *       running out of time is an ordinary failure of the request).
 *   <li>The owner was interrupted first: the subtasks are cancelled and awaited, the owner's
 *       interrupt flag is set again and {@link TaskScopeInterruptedException} is thrown.
 * </ul>
 *
 * <p>Every join outcome is unchecked: most callers propagate it, and a checked {@code
 * ExecutionException} or {@code InterruptedException} would push them to catch and rewrap, where
 * interrupts get lost. The interrupt flag carries cancellation on instead, as in {@link
 * RetryPolicy}.
 *
 * <h2>Cleanup</h2>
 *
 * <p>{@link #close()} returns only when every thread the scope started has terminated. Closing
 * without having joined after a fork is a bug: close cancels and awaits the subtasks, then throws
 * {@link IllegalStateException} carrying any failures that would otherwise go unseen. Cancellation
 * is by interruption, so a subtask that ignores interrupts holds up {@link #join()} and {@link
 * #close()} until it finishes: the scope never abandons a thread it started.
 *
 * <p>Thread-safety: the scope is confined to its owner, as above; subtasks report to it from their
 * own threads safely. {@link Subtask} results may be read from any thread after the join.
 */
public final class TaskScope implements AutoCloseable {
  /** Keep at most this many later failures as suppressed exceptions. */
  private static final int MAX_SUPPRESSED = 16;

  private static final AtomicLong SCOPE_IDS = new AtomicLong();

  /** Why the subtasks were cancelled, if they were. */
  private enum Ending {
    FAILED,
    DEADLINE,
    INTERRUPTED,
    CLOSED
  }

  /** The owner's view: forks allowed, then joined, then closed. */
  private enum Phase {
    OPEN,
    JOINED,
    CLOSED
  }

  private final String name;
  private final Deadline deadline;
  private final ThreadFactory threadFactory;
  private final Thread owner;

  /*
   * The path of a subtask takes no lock: a fork counts it in `unfinished` and hands it to an idle
   * thread of the scope (popped from the lock-free `idle` stack, given it in its `next` slot and
   * unparked) or starts a new thread; the thread runs it, publishes its state, counts it down and
   * pushes itself back on `idle`. The lock guards only what is rare: failures, the cancellation
   * decision, the list of threads, and the owner's wait (a thread signals it when the count reaches
   * zero, on a failure, or on each completion when the scope has a deadline).
   */
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  /** Subtasks forked and not yet finished (started or not). */
  private final AtomicInteger unfinished = new AtomicInteger();

  /** Threads of this scope waiting for a subtask: a stack that only the owner pops. */
  private final AtomicReference<Worker> idle = new AtomicReference<>();

  /** Set when the owner joins or closes: no more forks, so idle threads end. */
  private volatile boolean forksClosed;

  /** Set before the owner first waits on {@link #changed}; from then on threads signal it. */
  private volatile boolean ownerWaits;

  // Guarded by lock: every thread the scope started, and what happened to the scope.
  private final List<Worker> workers = new ArrayList<>();
  private Ending ending;
  private int cancelledUnfinished;
  private Throwable firstFailure;
  private final List<Throwable> laterFailures = new ArrayList<>();
  private int failureCount;

  /**
   * Set (before any interrupt is sent) once the scope is cancelled; checked as a subtask starts.
   */
  private volatile boolean cancelled;

  /** Set once join or close has settled every subtask; read by {@link Subtask#get()}. */
  private volatile boolean settled;

  // Confined to the owner.
  private Phase phase = Phase.OPEN;
  private int forked;

  private TaskScope(String name, Deadline deadline, ThreadFactory threadFactory) {
    this.name = name;
    this.deadline = deadline;
    this.threadFactory = threadFactory;
    this.owner = Thread.currentThread();
  }

  /**
   * Opens a scope with no deadline, owned by the calling thread, on platform threads named {@code
   * scope-<id>-<n>}.
   *
   * @return the new scope
   */
  public static TaskScope open() {
    return builder().open();
  }

  /**
   * Opens a scope that cancels its subtasks if {@code deadline} passes while the owner joins.
   *
   * @param deadline the request's deadline
   * @return the new scope, owned by the calling thread
   * @throws NullPointerException if {@code deadline} is null
   */
  public static TaskScope open(Deadline deadline) {
    return builder().deadline(deadline).open();
  }

  /**
   * Returns a builder for a scope with a name, a deadline or a thread factory of your choice.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Starts {@code task} in a thread owned by this scope: a new one from the factory, or an idle
   * thread of this scope.
   *
   * <p>If the scope is already cancelled (a subtask failed), the task is not started and the
   * returned subtask is {@link Subtask.State#CANCELLED}.
   *
   * @param task the work; it should respond to interruption by stopping
   * @param <T> the result type
   * @return the handle of the subtask, whose result can be read after {@link #join()}
   * @throws NullPointerException if {@code task} is null
   * @throws IllegalCallerException if the calling thread is not the owner
   * @throws IllegalStateException if the scope has already been joined or closed
   * @throws RejectedExecutionException if the thread factory returned {@code null}
   */
  public <T> Subtask<T> fork(Callable<? extends T> task) {
    Objects.requireNonNull(task, "task");
    checkOwner("fork");
    if (phase != Phase.OPEN) {
      throw new IllegalStateException(
          "cannot fork in task scope '"
              + name
              + "': it is already "
              + (phase == Phase.JOINED ? "joined (fork every subtask before join())" : "closed"));
    }
    Subtask<T> subtask = new Subtask<>(this, task);
    forked++;
    if (cancelled) {
      subtask.cancel(new CancellationException("task scope '" + name + "' was already cancelled"));
      return subtask;
    }
    unfinished.incrementAndGet();
    Worker waiting = popIdle();
    if (waiting != null) { // a thread of this scope has finished its subtask: reuse it
      handOver(waiting, subtask);
      return subtask;
    }
    try {
      startWorker(subtask);
    } catch (RuntimeException | Error e) {
      forked--;
      unfinished.decrementAndGet(); // the owner is here, not waiting: nobody to signal
      throw e;
    }
    return subtask;
  }

  private void startWorker(Subtask<?> first) {
    Worker worker = new Worker(first);
    Thread thread = threadFactory.newThread(worker);
    if (thread == null) {
      throw new RejectedExecutionException(
          "thread factory " + threadFactory + " of task scope '" + name + "' returned null");
    }
    worker.thread = thread;
    lock.lock();
    try {
      workers.add(worker);
    } finally {
      lock.unlock();
    }
    try {
      thread.start();
    } catch (RuntimeException | Error e) {
      lock.lock();
      try {
        workers.remove(worker);
      } finally {
        lock.unlock();
      }
      throw e;
    }
  }

  /**
   * Waits until every subtask has finished, or until the scope is cancelled and then every subtask
   * has finished; see the class documentation for the outcomes.
   *
   * @throws TaskScopeFailedException if a subtask failed: the first failure is the cause
   * @throws DeadlineExceededException if the scope's deadline passed first
   * @throws TaskScopeInterruptedException if the owner was interrupted first (the flag is set
   *     again)
   * @throws IllegalCallerException if the calling thread is not the owner
   * @throws IllegalStateException if the scope was already joined or closed
   */
  public void join() {
    checkOwner("join");
    if (phase != Phase.OPEN) {
      throw new IllegalStateException(
          "task scope '" + name + "' is already " + (phase == Phase.JOINED ? "joined" : "closed"));
    }
    boolean interrupted = false;
    InterruptedException interruption = null;
    Thread[] toInterrupt = null;
    closeForks();
    ownerWaits = true;
    lock.lock();
    try {
      while (unfinished.get() != 0 && ending == null) {
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          toInterrupt = cancelLocked(Ending.DEADLINE);
          break;
        }
        try {
          if (deadline.isUnbounded()) {
            changed.await();
          } else {
            changed.awaitNanos(Waits.sliceNanos(deadline.ticker(), nanos));
          }
        } catch (InterruptedException e) {
          interrupted = true;
          interruption = e;
          toInterrupt = cancelLocked(Ending.INTERRUPTED);
        }
      }
    } finally {
      lock.unlock();
    }
    interruptAll(toInterrupt);
    interrupted |= awaitAllFinished();
    phase = Phase.JOINED;
    settled = true;
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    RuntimeException outcome = outcome(interruption);
    if (outcome != null) {
      throw outcome;
    }
  }

  /**
   * Closes the scope: cancels the subtasks that are still running (there are none after a {@link
   * #join()}), waits until every thread the scope started has terminated, and forbids further
   * forks. Calling it again does nothing.
   *
   * <p>If the owner is interrupted meanwhile, close still waits, then sets the interrupt flag
   * again.
   *
   * @throws IllegalStateException if subtasks were forked but {@link #join()} was never called:
   *     they were cancelled; failures of theirs that were never reported are suppressed in it
   * @throws IllegalCallerException if the calling thread is not the owner
   */
  @Override
  public void close() {
    checkOwner("close");
    if (phase == Phase.CLOSED) {
      return;
    }
    boolean joined = phase == Phase.JOINED;
    Thread[] toInterrupt = null;
    int stillRunning;
    closeForks();
    List<Worker> started;
    lock.lock();
    try {
      stillRunning = unfinished.get();
      if (stillRunning > 0) {
        toInterrupt = cancelLocked(Ending.CLOSED);
      }
    } finally {
      lock.unlock();
    }
    interruptAll(toInterrupt);
    boolean interrupted = awaitAllFinished();
    phase = Phase.CLOSED;
    settled = true;
    lock.lock();
    try {
      started = new ArrayList<>(workers); // no thread is added once forks are closed
      workers.clear();
    } finally {
      lock.unlock();
    }
    for (Worker worker : started) {
      interrupted |= Threads.joinUninterruptibly(worker.thread);
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (!joined && forked > 0) {
      IllegalStateException misuse =
          new IllegalStateException(
              "task scope '"
                  + name
                  + "' closed without join(): "
                  + stillRunning
                  + " of "
                  + forked
                  + " subtasks were still running and were cancelled");
      lock.lock();
      try {
        if (firstFailure != null) {
          misuse.addSuppressed(firstFailure);
        }
        laterFailures.forEach(misuse::addSuppressed);
      } finally {
        lock.unlock();
      }
      throw misuse;
    }
  }

  /**
   * Returns the scope's name, which its default thread factory puts in thread names.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * Returns the deadline that {@link #join()} waits within.
   *
   * @return the deadline; {@link Deadline#none()} if the scope has none
   */
  public Deadline deadline() {
    return deadline;
  }

  /**
   * Tells whether the scope has been cancelled: a subtask failed, the deadline passed, the owner
   * was interrupted while joining, or the scope was closed with subtasks running. Any thread may
   * ask.
   *
   * @return {@code true} once the subtasks have been told to stop
   */
  public boolean isCancelled() {
    return cancelled;
  }

  @Override
  public String toString() {
    return "TaskScope[name="
        + name
        + ", owner="
        + owner.getName()
        + ", "
        + phase
        + (cancelled ? ", cancelled" : "")
        + ", deadline="
        + deadline
        + "]";
  }

  boolean isSettled() {
    return settled;
  }

  private void checkOwner(String what) {
    Thread current = Thread.currentThread();
    if (current != owner) {
      throw new IllegalCallerException(
          what
              + " called from thread '"
              + current.getName()
              + "', but task scope '"
              + name
              + "' is owned by thread '"
              + owner.getName()
              + "'");
    }
  }

  /** A thread of this scope: runs its first subtask, then those the owner hands it. */
  private final class Worker implements Runnable {
    /** Set by the owner before the thread starts. */
    Thread thread;

    /** The first subtask; then null. */
    private Subtask<?> first;

    /** A subtask handed to this thread while idle, not yet taken. */
    volatile Subtask<?> next;

    /** The subtask being run, null when idle: what a cancellation interrupts. */
    volatile Subtask<?> current;

    /** Set while the thread parks (or is about to) waiting for {@link #next}. */
    volatile boolean parked;

    /** The next idle thread below this one in the stack; written before the push. */
    Worker below;

    Worker(Subtask<?> first) {
      this.first = first;
    }

    @Override
    public void run() {
      Subtask<?> subtask = first;
      first = null;
      while (subtask != null) {
        runOne(this, subtask);
        subtask = awaitNext(this);
      }
    }
  }

  /** Runs one subtask on {@code worker}'s thread, unless the scope is cancelled, and settles it. */
  private <T> void runOne(Worker worker, Subtask<T> subtask) {
    worker.current = subtask; // before reading cancelled: a cancellation sees one or the other
    // An interrupt left by the previous subtask is its own business, not this one's; one from a
    // cancellation is not lost: cancelled is set before it is sent, and is read below.
    Thread.interrupted();
    if (cancelled) {
      subtask.cancel(
          new CancellationException(
              "task scope '" + name + "' was cancelled before the subtask started"));
    } else {
      T result = null;
      Throwable failure = null;
      try {
        result = subtask.task.call();
      } catch (Throwable t) { // Errors too: every failure is reported to the owner.
        failure = t;
      }
      if (failure == null) {
        subtask.succeed(result);
      } else if (isCancellation(failure)) {
        subtask.cancel(failure);
      } else {
        failed(subtask, failure);
      }
    }
    worker.current = null;
    // The subtask's state is published (volatile) before the count: the owner that sees zero sees
    // every outcome.
    if ((unfinished.decrementAndGet() == 0 || !deadline.isUnbounded()) && ownerWaits) {
      signalOwner();
    }
  }

  private void failed(Subtask<?> subtask, Throwable failure) {
    Thread[] toInterrupt = null;
    lock.lock();
    try {
      subtask.fail(failure);
      recordFailure(failure);
      if (ending == null) {
        toInterrupt = cancelLocked(Ending.FAILED);
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    interruptAll(toInterrupt);
  }

  private void signalOwner() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits, while the owner may still fork, for a subtask to be handed to this thread; null once
   * forks are closed. A thread runs subtasks of this scope only, one after another, and never
   * outlives it.
   */
  private Subtask<?> awaitNext(Worker worker) {
    pushIdle(worker);
    while (true) {
      Subtask<?> handed = worker.next;
      if (handed == null && forksClosed) {
        handed = worker.next; // written before forksClosed, if at all
        if (handed == null) {
          return null;
        }
      }
      if (handed != null) {
        worker.next = null;
        worker.parked = false;
        return handed;
      }
      // No spin first: on two shared cores a spin (64 x onSpinWait) cost more CPU than the park it
      // saved (ScopeThreadCount, bench/README.md).
      if (!worker.parked) {
        worker.parked = true; // then read next again: a handover sees this flag or is seen
      } else {
        // Not interrupted by the scope: it is in no subtask now; a late interrupt meant for the
        // subtask that just finished would only end park() at once.
        Thread.interrupted();
        LockSupport.park(this);
      }
    }
  }

  /** Gives {@code subtask} to an idle thread popped from the stack, waking it if it parked. */
  private static void handOver(Worker waiting, Subtask<?> subtask) {
    waiting.next = subtask;
    if (waiting.parked) {
      LockSupport.unpark(waiting.thread);
    }
  }

  private void pushIdle(Worker worker) {
    Worker top;
    do {
      top = idle.get();
      worker.below = top;
    } while (!idle.compareAndSet(top, worker));
  }

  /**
   * Pops an idle thread, or returns null. Only the owner pops, so a worker cannot be popped and
   * pushed again between the read and the compare-and-set (no ABA).
   */
  private Worker popIdle() {
    Worker top;
    do {
      top = idle.get();
      if (top == null) {
        return null;
      }
    } while (!idle.compareAndSet(top, top.below));
    return top;
  }

  /** Closes forks and wakes every idle thread, which then ends. */
  private void closeForks() {
    if (!forksClosed) {
      forksClosed = true;
      Worker waiting;
      while ((waiting = popIdle()) != null) {
        LockSupport.unpark(waiting.thread);
      }
    }
  }

  /**
   * A subtask's own {@link CancellationException} is never a failure; once the scope has cancelled
   * its subtasks, neither is any of the runtime's interruption signals they end with: {@link
   * InterruptedException}, {@link TaskScopeInterruptedException}, {@link
   * RetryInterruptedException}, {@link AdmissionInterruptedException}.
   */
  private boolean isCancellation(Throwable failure) {
    if (failure instanceof CancellationException) {
      return true;
    }
    return cancelled
        && (failure instanceof InterruptedException
            || failure instanceof TaskScopeInterruptedException
            || failure instanceof RetryInterruptedException
            || failure instanceof AdmissionInterruptedException);
  }

  private void recordFailure(Throwable failure) {
    failureCount++;
    if (firstFailure == null) {
      firstFailure = failure;
    } else if (laterFailures.size() < MAX_SUPPRESSED) {
      laterFailures.add(failure);
    }
  }

  /** Marks the scope cancelled and returns the threads to interrupt once the lock is released. */
  private Thread[] cancelLocked(Ending why) {
    if (ending == null) {
      ending = why;
      cancelledUnfinished = unfinished.get();
    }
    cancelled = true; // before reading current: a subtask that has not started yet sees it
    List<Thread> result = new ArrayList<>(workers.size());
    for (Worker worker : workers) {
      if (worker.current != null) { // idle, or handed a subtask not yet taken: it will not start
        result.add(worker.thread);
      }
    }
    return result.toArray(new Thread[0]);
  }

  private static void interruptAll(Thread[] threads) {
    if (threads != null) {
      for (Thread thread : threads) {
        thread.interrupt();
      }
    }
  }

  /** Waits until no subtask is unfinished; returns whether the owner was interrupted meanwhile. */
  private boolean awaitAllFinished() {
    boolean interrupted = false;
    ownerWaits = true;
    lock.lock();
    try {
      while (unfinished.get() != 0) {
        try {
          changed.await();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      lock.unlock();
    }
    return interrupted;
  }

  /** The exception join throws, or null when every subtask finished without failing. */
  private RuntimeException outcome(InterruptedException interruption) {
    lock.lock();
    try {
      if (ending == null || ending == Ending.CLOSED) {
        return null;
      }
      List<Throwable> suppressed = new ArrayList<>(laterFailures);
      if (ending != Ending.FAILED) {
        addFirst(suppressed, firstFailure);
      }
      RuntimeException outcome =
          switch (ending) {
            case FAILED ->
                new TaskScopeFailedException(
                    "task scope '"
                        + name
                        + "': "
                        + failureCount
                        + " of "
                        + forked
                        + (forked == 1 ? " subtask" : " subtasks")
                        + " failed; first: "
                        + firstFailure,
                    firstFailure,
                    failureCount);
            case DEADLINE ->
                new DeadlineExceededException(
                    "task scope '"
                        + name
                        + "' did not finish within its deadline: cancelled "
                        + cancelledUnfinished
                        + " of "
                        + forked
                        + " subtasks");
            case INTERRUPTED, CLOSED ->
                new TaskScopeInterruptedException(
                    "task scope '"
                        + name
                        + "' was interrupted while joining: cancelled "
                        + cancelledUnfinished
                        + " of "
                        + forked
                        + " subtasks",
                    interruption);
          };
      suppressed.forEach(outcome::addSuppressed);
      return outcome;
    } finally {
      lock.unlock();
    }
  }

  private static void addFirst(List<Throwable> list, Throwable first) {
    if (first != null) {
      list.add(0, first);
    }
  }

  /**
   * Configures a {@link TaskScope} before opening it. Not thread-safe; each {@link #open()} gives a
   * new scope owned by the thread that calls it.
   *
   * <pre>{@code
   * try (TaskScope scope = TaskScope.builder()
   *     .name("checkout")                          // threads checkout-1, checkout-2, ...
   *     .deadline(deadline)
   *     .open()) {
   *   ...
   * }
   * }</pre>
   */
  public static final class Builder {
    private String name;
    private Deadline deadline = Deadline.none();
    private ThreadFactory threadFactory;

    private Builder() {}

    /**
     * Names the scope, for messages and for the default factory's thread names ({@code name-1},
     * {@code name-2}, ...). By default {@code scope-<id>} with a process-wide counter.
     *
     * @param name a non-blank name
     * @return this builder
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public Builder name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException(
            "a task scope's name must not be blank, was '" + name + "'");
      }
      this.name = name;
      return this;
    }

    /**
     * Sets the deadline that {@link TaskScope#join()} waits within. By default {@link
     * Deadline#none()}.
     *
     * @param deadline the deadline, usually the request's
     * @return this builder
     */
    public Builder deadline(Deadline deadline) {
      this.deadline = Objects.requireNonNull(deadline, "deadline");
      return this;
    }

    /**
     * Sets the factory of the subtasks' threads (a new thread for each fork that finds no idle
     * thread of the scope). By default platform, non-daemon threads named after the scope; on Java
     * 21+ virtual threads suit scopes best ({@code Thread.ofVirtual().name("checkout-",
     * 1).factory()}).
     *
     * @param threadFactory the factory; it must return a new, unstarted thread each time
     * @return this builder
     */
    public Builder threadFactory(ThreadFactory threadFactory) {
      this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
      return this;
    }

    /**
     * Opens a scope with these settings, owned by the calling thread.
     *
     * @return the new scope
     */
    public TaskScope open() {
      String scopeName = name != null ? name : "scope-" + SCOPE_IDS.incrementAndGet();
      ThreadFactory factory =
          threadFactory != null ? threadFactory : new NamedThreadFactory(scopeName);
      return new TaskScope(scopeName, deadline, factory);
    }
  }
}
