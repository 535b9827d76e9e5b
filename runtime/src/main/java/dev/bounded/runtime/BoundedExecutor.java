package dev.bounded.runtime;

import dev.bounded.runtime.internal.NamedThreadFactory;
import dev.bounded.runtime.internal.Waits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An {@link ExecutorService} with a fixed number of workers and a bounded queue: one per
 * dependency, so a slow dependency fills its own bulkhead instead of every thread of the service.
 *
 * <pre>{@code
 * static final BoundedExecutor INVENTORY = BoundedExecutor.builder("inventory")
 *     .workers(4)            // at most 4 calls to the inventory service at once
 *     .queueCapacity(100)    // at most 100 more waiting
 *     .build();              // threads inventory-1 .. inventory-4
 *
 * Future<Stock> now = INVENTORY.submit(() -> inventory.stock(sku));  // full: rejected at once
 * Future<Stock> later = INVENTORY.submit(() -> inventory.stock(sku), deadline); // full: waits
 * }</pre>
 *
 * <h2>Admission</h2>
 *
 * <p>The executor holds at most {@code workers + queueCapacity} unfinished tasks: one running on
 * each worker and {@code queueCapacity} more waiting. An idle worker counts as room, so on an idle
 * executor that many tasks submitted back to back are all accepted, even before a worker has woken
 * to take the first. Admission is explicit in the method called; no task is ever silently dropped:
 *
 * <ul>
 *   <li>{@link #execute(Runnable)}, and the {@code submit} and {@code invokeAll}/{@code invokeAny}
 *       methods inherited from {@link ExecutorService}, never wait: when the executor is full they
 *       throw {@link ExecutorFullException} at once (load shedding).
 *   <li>{@link #execute(Runnable, Deadline)}, {@link #submit(Callable, Deadline)} and {@link
 *       #submit(Runnable, Deadline)} refuse at once with {@link AdmissionDeadlineExceededException}
 *       if the deadline has already passed (no work starts after it, even with room); otherwise
 *       they wait for room until the deadline (backpressure), then throw {@link
 *       ExecutorFullException}; if interrupted meanwhile they throw {@link
 *       AdmissionInterruptedException} with the interrupt flag set again.
 *   <li>With an {@link AdaptiveThrottle} ({@link Builder#throttle}), a task that has room may still
 *       be rejected locally with {@link ThrottledException} when the dependency has been refusing
 *       much of the traffic.
 *   <li>After shutdown every method refuses with {@link ExecutorShutdownException}, including those
 *       that were waiting for space.
 * </ul>
 *
 * <h2>Every accepted task is accounted for</h2>
 *
 * <p>It runs; or {@link #shutdownNow()} returns it; or {@link #shutdown(Duration)} reports it as
 * not run. {@link #shutdown()} and {@link #close()} run every queued task before the workers exit.
 * A task given to {@code execute} that throws is reported to its worker's {@link
 * Thread.UncaughtExceptionHandler}, and the worker goes on with the next task (a {@code submit}ted
 * task's failure goes to its {@link Future}, as usual).
 *
 * <h2>Counters</h2>
 *
 * <p>{@link #queued()}, {@link #active()}, {@link #completed()} and {@link #rejected()} are cheap
 * to read and meant to be exported as gauges.
 *
 * <h2>Time</h2>
 *
 * <p>Admission waits run on the deadline's {@link Ticker}; {@link #shutdown(Duration)} and {@link
 * #awaitTermination} on the executor's ({@link Builder#ticker}). On a ticker other than {@link
 * Ticker#system()} a wait re-reads the ticker at least every 10 ms of real time, so a test that
 * advances a manual ticker from another thread sees the wait end promptly, without a wall-clock
 * wait of the manual duration.
 *
 * <p>The workers start in {@link Builder#build()} and live until shutdown. Thread-safe: any thread
 * may submit, read the counters or shut the executor down.
 */
public final class BoundedExecutor extends AbstractExecutorService implements AutoCloseable {
  private static final int RUNNING = 0;
  private static final int SHUTDOWN = 1;
  private static final int STOP = 2;
  private static final int TERMINATED = 3;

  private final String name;
  private final Ticker ticker;

  /**
   * Tasks accepted and not yet taken by a worker. Room for {@code queueCapacity + workers}: a task
   * handed to a worker that is idle but has not woken yet is not a queued task (see {@link
   * #hasRoomLocked()}).
   */
  private final Runnable[] queue;

  private final int queueCapacity;
  private final Thread[] workers;
  private final AdaptiveThrottle throttle;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  private final Condition stateChanged = lock.newCondition();

  // Guarded by lock.
  private int head;
  private int tail;
  private int count;
  private int liveWorkers;
  private int active;
  private long completed;
  private long rejected;

  /** RUNNING, SHUTDOWN, STOP or TERMINATED; only ever increases. Written under lock. */
  private volatile int state = RUNNING;

  private BoundedExecutor(Builder b) {
    this.name = b.name;
    this.ticker = b.ticker;
    this.queue = new Runnable[b.queueCapacity + b.workers];
    this.queueCapacity = b.queueCapacity;
    this.workers = new Thread[b.workers];
    this.throttle = b.throttle;
  }

  /**
   * Returns a builder for an executor named {@code name}; set at least {@link Builder#workers} and
   * {@link Builder#queueCapacity}, the two sizes of the bulkhead.
   *
   * @param name names the executor in messages and (with the default thread factory) its threads;
   *     usually the dependency it calls
   * @return a new builder
   * @throws IllegalArgumentException if {@code name} is blank
   */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /**
   * Queues {@code task} if there is room, or refuses it at once.
   *
   * @param task the task
   * @throws ExecutorFullException if the queue is full
   * @throws ExecutorShutdownException if the executor has been shut down
   */
  @Override
  public void execute(Runnable task) {
    Objects.requireNonNull(task, "task");
    boolean shut;
    int depth;
    int running;
    lock.lock();
    try {
      if (state == RUNNING && hasRoomLocked()) {
        admitLocked(task);
        return;
      }
      rejected++;
      shut = state != RUNNING;
      depth = count;
      running = active;
    } finally {
      lock.unlock();
    }
    throw shut ? shutdownException() : fullException(depth, running, "");
  }

  /**
   * Queues {@code task}, waiting for room until {@code deadline} if the queue is full.
   *
   * @param task the task
   * @param deadline how long the caller can wait for room
   * @throws AdmissionDeadlineExceededException if the deadline had already passed: refused at once,
   *     even when there is room
   * @throws ExecutorFullException if the executor was still full when the deadline passed
   * @throws ExecutorShutdownException if the executor is or gets shut down before the task is
   *     queued
   * @throws AdmissionInterruptedException if the caller is interrupted while waiting (the flag is
   *     set again)
   */
  public void execute(Runnable task, Deadline deadline) {
    Objects.requireNonNull(task, "task");
    Objects.requireNonNull(deadline, "deadline");
    int depth;
    int running;
    InterruptedException interruption = null;
    lock.lock();
    try {
      if (state == RUNNING && deadline.isExpired()) {
        // The one-deadline rule: no work starts after the deadline, even when there is room.
        rejected++;
        throw new AdmissionDeadlineExceededException(
            "the caller's deadline had already passed; executor '"
                + name
                + "' refused the task without queueing it",
            name);
      }
      while (true) {
        if (state != RUNNING) {
          rejected++;
          throw shutdownException();
        }
        if (hasRoomLocked()) {
          admitLocked(task);
          return;
        }
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          rejected++;
          depth = count;
          running = active;
          break;
        }
        try {
          if (deadline.isUnbounded()) {
            notFull.await();
          } else {
            notFull.awaitNanos(Waits.sliceNanos(deadline.ticker(), nanos));
          }
        } catch (InterruptedException e) {
          rejected++;
          interruption = e;
          depth = count;
          running = active;
          break;
        }
      }
    } finally {
      lock.unlock();
    }
    if (interruption != null) {
      Thread.currentThread().interrupt();
      throw new AdmissionInterruptedException(
          "interrupted while waiting for room in executor '"
              + name
              + "' ("
              + occupancy(depth, running)
              + ")",
          interruption);
    }
    throw fullException(depth, running, " until the deadline");
  }

  /**
   * Queues {@code task}, waiting for room until {@code deadline} if the queue is full.
   *
   * @param task the task
   * @param deadline how long the caller can wait for room
   * @param <T> the result type
   * @return the future of the task's result
   * @throws AdmissionDeadlineExceededException if the deadline had already passed
   * @throws ExecutorFullException if the queue was still full when the deadline passed
   * @throws ExecutorShutdownException if the executor is or gets shut down before the task is
   *     queued
   * @throws AdmissionInterruptedException if the caller is interrupted while waiting
   */
  public <T> Future<T> submit(Callable<T> task, Deadline deadline) {
    Objects.requireNonNull(task, "task");
    RunnableFuture<T> future = newTaskFor(task);
    execute(future, deadline);
    return future;
  }

  /**
   * Queues {@code task}, waiting for room until {@code deadline} if the queue is full.
   *
   * @param task the task
   * @param deadline how long the caller can wait for room
   * @return a future that completes with {@code null} when the task has run
   * @throws AdmissionDeadlineExceededException if the deadline had already passed
   * @throws ExecutorFullException if the queue was still full when the deadline passed
   * @throws ExecutorShutdownException if the executor is or gets shut down before the task is
   *     queued
   * @throws AdmissionInterruptedException if the caller is interrupted while waiting
   */
  public Future<?> submit(Runnable task, Deadline deadline) {
    Objects.requireNonNull(task, "task");
    RunnableFuture<Void> future = newTaskFor(task, null);
    execute(future, deadline);
    return future;
  }

  /**
   * Stops accepting tasks; queued tasks still run, then the workers exit. Does not wait: use {@link
   * #awaitTermination}, {@link #close()} or {@link #shutdown(Duration)} for that.
   */
  @Override
  public void shutdown() {
    lock.lock();
    try {
      advanceLocked(SHUTDOWN);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Stops accepting tasks, removes the queued tasks and interrupts the running ones.
   *
   * @return the accepted tasks that never started, in queue order (for {@code submit}, the
   *     incomplete {@link Future}s: cancel them if someone may wait on them)
   */
  @Override
  public List<Runnable> shutdownNow() {
    List<Runnable> notRun;
    lock.lock();
    try {
      notRun = drainLocked();
      advanceLocked(STOP);
    } finally {
      lock.unlock();
    }
    interruptWorkers();
    return notRun;
  }

  /**
   * Shuts down gracefully within {@code drain}: stops accepting tasks and lets the workers run the
   * queued ones; if the drain time is up (or the caller is interrupted) first, removes the tasks
   * that did not start and interrupts the running ones, and says so.
   *
   * @param drain how long queued tasks may keep running; zero stops at once
   * @return what did not run, and whether the workers had all exited
   */
  public ShutdownReport shutdown(Duration drain) {
    Deadline deadline = Deadline.after(drain, ticker);
    boolean interrupted = false;
    List<Runnable> notRun;
    int stillRunning;
    lock.lock();
    try {
      advanceLocked(SHUTDOWN);
      while (state != TERMINATED) {
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          break;
        }
        try {
          stateChanged.awaitNanos(Waits.sliceNanos(ticker, nanos));
        } catch (InterruptedException e) {
          interrupted = true;
          break;
        }
      }
      if (state == TERMINATED) {
        return new ShutdownReport(List.of(), 0, true);
      }
      notRun = drainLocked();
      stillRunning = active;
      advanceLocked(STOP);
    } finally {
      lock.unlock();
    }
    interruptWorkers();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return new ShutdownReport(notRun, stillRunning, isTerminated());
  }

  /**
   * Shuts down and waits, without a time limit, until every queued task has run and every worker
   * thread has terminated. If interrupted meanwhile it keeps waiting and sets the interrupt flag
   * again at the end: unlike {@code ExecutorService.close()} on Java 19+, it never discards queued
   * tasks. For a bounded wait use {@link #shutdown(Duration)}.
   */
  @Override
  public void close() {
    shutdown();
    boolean interrupted = false;
    while (true) {
      try {
        awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public boolean isShutdown() {
    return state != RUNNING;
  }

  /**
   * Tells whether the executor has shut down and every worker has left its loop.
   *
   * @return {@code true} once terminated; {@link #awaitTermination} also waits for the worker
   *     threads themselves to end
   */
  @Override
  public boolean isTerminated() {
    return state == TERMINATED;
  }

  /**
   * Waits until the executor has terminated and its worker threads have ended, or the timeout
   * passes (measured on the executor's {@link Ticker}).
   *
   * @param timeout how long to wait
   * @param unit the unit of {@code timeout}
   * @return {@code true} if terminated and every worker thread has ended; {@code false} on timeout
   * @throws InterruptedException if interrupted while waiting
   */
  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    Deadline deadline = Deadline.after(Duration.ofNanos(unit.toNanos(timeout)), ticker);
    lock.lock();
    try {
      while (state != TERMINATED) {
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          return false;
        }
        stateChanged.awaitNanos(Waits.sliceNanos(ticker, nanos));
      }
    } finally {
      lock.unlock();
    }
    // Every worker has left its loop; wait for the threads' last instructions.
    for (Thread worker : workers) {
      while (worker != null && worker.isAlive()) {
        long nanos = deadline.remainingNanos();
        if (nanos <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedJoin(worker, Waits.sliceNanos(ticker, nanos));
      }
    }
    return true;
  }

  /**
   * Returns the number of tasks accepted and not yet started: queued, or handed to an idle worker
   * that has not started it yet.
   *
   * @return the tasks waiting; briefly up to {@code queueCapacity() + workers()} while idle workers
   *     wake up
   */
  public int queued() {
    lock.lock();
    try {
      return count;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns the number of tasks running now.
   *
   * @return at most {@link #workers()}
   */
  public int active() {
    lock.lock();
    try {
      return active;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns the number of tasks that have finished running, normally or by throwing.
   *
   * @return the completed count since the executor was built
   */
  public long completed() {
    lock.lock();
    try {
      return completed;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns the number of tasks refused: queue full, shut down, or submitter interrupted.
   *
   * @return the rejected count since the executor was built
   */
  public long rejected() {
    lock.lock();
    try {
      return rejected;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Returns the executor's name.
   *
   * @return the name given to the builder
   */
  public String name() {
    return name;
  }

  /**
   * Returns the number of workers: the most tasks that run at once.
   *
   * @return the worker count
   */
  public int workers() {
    return workers.length;
  }

  /**
   * Returns the queue's capacity: the most tasks that wait for a worker.
   *
   * @return the capacity
   */
  public int queueCapacity() {
    return queueCapacity;
  }

  @Override
  public String toString() {
    lock.lock();
    try {
      return "BoundedExecutor["
          + name
          + ", workers="
          + workers.length
          + ", queued="
          + count
          + ", queueCapacity="
          + queueCapacity
          + ", active="
          + active
          + ", completed="
          + completed
          + ", rejected="
          + rejected
          + ", "
          + (state == RUNNING
              ? "running"
              : state == SHUTDOWN ? "shutdown" : state == STOP ? "stopped" : "terminated")
          + "]";
    } finally {
      lock.unlock();
    }
  }

  /**
   * Whether one more task fits: at most {@code workers + queueCapacity} accepted tasks that have
   * not finished. A task given to an idle worker that has not woken yet takes that worker's room,
   * not a queue slot, so on an idle executor {@code workers + queueCapacity} tasks submitted back
   * to back are all accepted.
   */
  private boolean hasRoomLocked() {
    return count + active < queue.length;
  }

  /** Queues a task there is room for, unless the throttle (if any) sheds it. */
  private void admitLocked(Runnable task) {
    if (throttle != null && !throttle.tryAcquire()) {
      rejected++;
      throw throttle.rejection("task for executor '" + name + "'");
    }
    enqueueLocked(task);
  }

  private void enqueueLocked(Runnable task) {
    queue[tail] = task;
    tail = tail + 1 == queue.length ? 0 : tail + 1;
    count++;
    notEmpty.signal();
  }

  private Runnable dequeueLocked() {
    Runnable task = queue[head];
    queue[head] = null;
    head = head + 1 == queue.length ? 0 : head + 1;
    count--;
    return task; // room is freed when the task finishes, not when it starts (hasRoomLocked)
  }

  private List<Runnable> drainLocked() {
    List<Runnable> drained = new ArrayList<>(count);
    while (count > 0) {
      drained.add(dequeueLocked());
    }
    notFull.signalAll();
    return drained;
  }

  private void advanceLocked(int to) {
    if (state >= to) {
      return;
    }
    state = liveWorkers == 0 ? TERMINATED : to;
    notEmpty.signalAll();
    notFull.signalAll();
    stateChanged.signalAll();
  }

  private void interruptWorkers() {
    for (Thread worker : workers) {
      if (worker != null) {
        worker.interrupt();
      }
    }
  }

  private ExecutorShutdownException shutdownException() {
    return new ExecutorShutdownException("executor '" + name + "' is shut down; task refused");
  }

  private ExecutorFullException fullException(int depth, int running, String how) {
    return new ExecutorFullException(
        "executor '"
            + name
            + "' is full"
            + how
            + ": "
            + occupancy(depth, running)
            + "; task refused",
        name,
        queueCapacity,
        depth - Math.min(depth, workers.length - running));
  }

  /**
   * What the executor holds, as it is: {@code running} tasks on workers and {@code waiting}
   * accepted and not started, of which up to one per free worker is being handed to it (not
   * queued).
   */
  private String occupancy(int waiting, int running) {
    int starting = Math.min(waiting, workers.length - running);
    return "queue depth "
        + (waiting - starting)
        + " of capacity "
        + queueCapacity
        + ", "
        + running
        + " of "
        + workers.length
        + " workers running a task"
        + (starting == 0 ? "" : " and " + starting + " about to start one");
  }

  private void start(ThreadFactory factory) {
    lock.lock();
    try {
      liveWorkers = workers.length;
    } finally {
      lock.unlock();
    }
    for (int i = 0; i < workers.length; i++) {
      Thread worker;
      try {
        worker = factory.newThread(this::work);
      } catch (RuntimeException | Error e) {
        abortStart(i); // the workers already started exit at once
        throw e;
      }
      if (worker == null) {
        abortStart(i);
        throw new IllegalStateException(
            "thread factory " + factory + " of executor '" + name + "' returned null");
      }
      workers[i] = worker;
      try {
        worker.start();
      } catch (RuntimeException | Error e) {
        abortStart(i);
        throw e;
      }
    }
  }

  /** Undoes a start that failed after {@code started} workers: they exit at once. */
  private void abortStart(int started) {
    lock.lock();
    try {
      liveWorkers -= workers.length - started;
      advanceLocked(STOP);
    } finally {
      lock.unlock();
    }
  }

  /** A worker's loop: take a task, run it, account for it, until shut down and drained. */
  private void work() {
    boolean ranTask = false;
    while (true) {
      Runnable task;
      lock.lock();
      try {
        if (ranTask) {
          active--;
          completed++;
          notFull.signal(); // a finished task frees room (hasRoomLocked)
          if (state != RUNNING) {
            stateChanged.signalAll(); // a draining shutdown re-reads its deadline
          }
        }
        while (count == 0 && state == RUNNING) {
          try {
            notEmpty.await();
          } catch (InterruptedException e) {
            // shutdownNow, or a stray interrupt: the loop re-reads the state either way.
          }
        }
        if (count == 0 || state >= STOP) {
          liveWorkers--;
          if (liveWorkers == 0) {
            state = TERMINATED;
            stateChanged.signalAll();
          }
          return;
        }
        task = dequeueLocked();
        active++;
      } finally {
        lock.unlock();
      }
      // A task starts with the interrupt flag clear unless the executor is stopping (JLS 17.4.4:
      // seeing the interrupt makes the STOP written before it visible).
      if (Thread.interrupted() && state >= STOP) {
        Thread.currentThread().interrupt();
      }
      runTask(task, throttle);
      ranTask = true;
    }
  }

  private static void runTask(Runnable task, AdaptiveThrottle throttle) {
    try {
      task.run();
      if (throttle != null) {
        recordOutcome(task, throttle);
      }
    } catch (Throwable failure) { // the worker survives; the failure is reported, not swallowed
      if (throttle != null) {
        throttle.record(failure);
      }
      Thread worker = Thread.currentThread();
      try {
        worker.getUncaughtExceptionHandler().uncaughtException(worker, failure);
      } catch (Throwable handlerFailure) {
        // A failing handler has nowhere left to report to; the worker must live on regardless.
      }
    }
  }

  /**
   * Tells the throttle whether a task that returned was accepted: a {@code submit}ted task's
   * failure is in its {@link Future}, which is done by now (so {@code get()} does not wait).
   */
  private static void recordOutcome(Runnable task, AdaptiveThrottle throttle) {
    if (task instanceof RecordingTask<?>) {
      return; // recorded before its future completed
    }
    if (!(task instanceof Future<?> future) || !future.isDone()) {
      throttle.recordAccepted();
      return;
    }
    if (future.isCancelled()) {
      return;
    }
    try {
      future.get();
      throttle.recordAccepted();
    } catch (ExecutionException e) {
      throttle.record(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // not reached for a done future; keep the flag anyway
    }
  }

  @Override
  protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
    return throttle == null ? super.newTaskFor(callable) : new RecordingTask<>(callable, throttle);
  }

  @Override
  protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
    return throttle == null
        ? super.newTaskFor(runnable, value)
        : new RecordingTask<>(Executors.callable(runnable, value), throttle);
  }

  /**
   * A submitted task that tells the throttle its outcome before its future completes: a caller
   * woken by {@code get()} then already sees the outcome counted (recording after completion raced
   * with the caller's next submission).
   */
  private static final class RecordingTask<T> extends FutureTask<T> {
    private final AdaptiveThrottle throttle;

    RecordingTask(Callable<T> callable, AdaptiveThrottle throttle) {
      super(callable);
      this.throttle = throttle;
    }

    @Override
    protected void set(T value) {
      throttle.recordAccepted();
      super.set(value);
    }

    @Override
    protected void setException(Throwable failure) {
      throttle.record(failure);
      super.setException(failure);
    }
  }

  /**
   * Configures a {@link BoundedExecutor}. Not thread-safe; {@link #build()} copies the settings.
   *
   * <pre>{@code
   * BoundedExecutor payments = BoundedExecutor.builder("payments")
   *     .workers(8)
   *     .queueCapacity(16)
   *     .threadFactory(Thread.ofVirtual().name("payments-", 1).factory()) // Java 21+
   *     .build();
   * }</pre>
   */
  public static final class Builder {
    private final String name;
    private int workers;
    private int queueCapacity;
    private ThreadFactory threadFactory;
    private Ticker ticker = Ticker.system();
    private AdaptiveThrottle throttle;

    private Builder(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException(
            "an executor's name must not be blank, was '" + name + "'");
      }
      this.name = name;
    }

    /**
     * Sets the number of workers: the most tasks that run at once. Required.
     *
     * @param workers at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code workers} is less than 1
     */
    public Builder workers(int workers) {
      if (workers < 1) {
        throw new IllegalArgumentException("workers must be at least 1, was " + workers);
      }
      this.workers = workers;
      return this;
    }

    /**
     * Sets the queue's capacity: the most tasks that wait for a worker. Required.
     *
     * @param queueCapacity at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code queueCapacity} is less than 1
     */
    public Builder queueCapacity(int queueCapacity) {
      if (queueCapacity < 1) {
        throw new IllegalArgumentException(
            "queueCapacity must be at least 1, was " + queueCapacity);
      }
      this.queueCapacity = queueCapacity;
      return this;
    }

    /**
     * Sets the factory of the worker threads. By default platform, non-daemon threads named {@code
     * name-1}, {@code name-2}, ...
     *
     * @param threadFactory the factory; it must return a new, unstarted thread each time
     * @return this builder
     */
    public Builder threadFactory(ThreadFactory threadFactory) {
      this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
      return this;
    }

    /**
     * Sets the ticker that {@link BoundedExecutor#shutdown(Duration)} and {@link
     * BoundedExecutor#awaitTermination} measure time with. By default {@link Ticker#system()}.
     *
     * @param ticker the ticker
     * @return this builder
     */
    public Builder ticker(Ticker ticker) {
      this.ticker = Objects.requireNonNull(ticker, "ticker");
      return this;
    }

    /**
     * Puts an adaptive client-side throttle at admission: a task the throttle rejects locally is
     * refused with {@link ThrottledException} (counted in {@link BoundedExecutor#rejected()}) and
     * never runs. A task that runs counts as accepted unless it fails with an {@link
     * OverloadedException}; for {@code submit}, as its {@link Future} records.
     *
     * @param throttle the throttle of the dependency the tasks call
     * @return this builder
     */
    public Builder throttle(AdaptiveThrottle throttle) {
      this.throttle = Objects.requireNonNull(throttle, "throttle");
      return this;
    }

    /**
     * Builds the executor and starts its workers.
     *
     * @return the running executor
     * @throws IllegalStateException if {@link #workers} or {@link #queueCapacity} was not set, or
     *     the thread factory returned {@code null}
     */
    public BoundedExecutor build() {
      if (workers == 0) {
        throw new IllegalStateException("executor '" + name + "': set workers(n)");
      }
      if (queueCapacity == 0) {
        throw new IllegalStateException("executor '" + name + "': set queueCapacity(n)");
      }
      BoundedExecutor executor = new BoundedExecutor(this);
      executor.start(threadFactory != null ? threadFactory : new NamedThreadFactory(name));
      return executor;
    }
  }
}
