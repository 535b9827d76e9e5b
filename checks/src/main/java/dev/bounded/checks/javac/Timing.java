package dev.bounded.checks.javac;

import dev.bounded.checks.rules.Rule;
import dev.bounded.checks.rules.Rules;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Where the checks' time goes in one javac process, for {@code bench/compile}: exclusive CPU time
 * of the compiling thread per stage ({@link ThreadMXBean#getCurrentThreadCpuTime}, so that other
 * processes on a loaded machine do not count), and counters. Off unless the JVM runs with {@code
 * -Dbounded.timing=true} (javac: {@code -J-Dbounded.timing=true}); when off, every method returns
 * at once on a constant test. When on, the totals are printed to standard error at exit.
 *
 * <p>Times are exclusive: entering a stage stops the clock of the one it interrupts (a model built
 * lazily while a rule runs counts as model building, not as the rule). Not thread-safe: javac
 * analyses on one thread, and the figures are for measurement only.
 */
final class Timing {
  /** Whether timing is on; read once. */
  static final boolean ON = Boolean.getBoolean("bounded.timing");

  /** The fast-path relevance scan. */
  static final int RELEVANCE = 0;

  /** Building models from javac's trees (and the unit index's lookups). */
  static final int MODEL = 1;

  /** {@code MethodAnalysis.of}: indexing and classifying loops. */
  static final int ANALYSIS = 2;

  /** Building descriptions and suggested fixes of findings. */
  static final int DESCRIBE = 3;

  /** Error Prone's handling of a reported match (suppression, fix rendering, the diagnostic). */
  static final int REPORT = 4;

  /** Bounded's own dispatch: the checkers' entry points and the cache lookups. */
  static final int DISPATCH = 5;

  /** The first rule's stage; rule {@code i} of {@link Rules#all()} is {@code FIRST_RULE + i}. */
  static final int FIRST_RULE = 6;

  /** Outside Bounded's code. */
  private static final int OUTSIDE = FIRST_RULE + Rules.all().size();

  private static final String[] NAMES = names();
  private static final long[] NANOS = new long[OUTSIDE + 1];
  private static final long[] ENTRIES = new long[OUTSIDE + 1];

  /** The counters. */
  static final int METHODS_OFFERED = 0;

  static final int METHODS_RELEVANT = 1;
  static final int CLASSES_OFFERED = 2;
  static final int CLASSES_RELEVANT = 3;
  static final int MODELS_BUILT = 4;
  static final int UNITS_INDEXED = 5;
  static final int FINDINGS = 6;
  static final int FIXES = 7;
  private static final String[] COUNTER_NAMES = {
    "methods offered",
    "methods relevant (modelled for every rule)",
    "classes offered (initialisers)",
    "classes relevant",
    "models built (relevant + built for cross-method facts)",
    "units indexed",
    "findings reported",
    "fixes built",
  };
  private static final long[] COUNTERS = new long[COUNTER_NAMES.length];

  private static final ThreadMXBean THREADS = ON ? ManagementFactory.getThreadMXBean() : null;
  private static int current = OUTSIDE;
  private static long last;

  private static long clockReads;

  static {
    if (ON) {
      last = now();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> print(System.err), "bounded-timing"));
    }
  }

  private Timing() {}

  private static long now() {
    clockReads++;
    return THREADS.getCurrentThreadCpuTime();
  }

  /**
   * Enters a stage.
   *
   * @param stage the stage
   * @return the stage it interrupts, to give back to {@link #exit}
   */
  static int enter(int stage) {
    if (!ON) {
      return 0;
    }
    long now = now();
    NANOS[current] += now - last;
    last = now;
    int previous = current;
    current = stage;
    ENTRIES[stage]++;
    return previous;
  }

  /**
   * The stage of a rule.
   *
   * @param name the rule's name
   * @return its stage, or {@link #DISPATCH} for a rule not in {@link Rules#all()}
   */
  static int ruleStage(String name) {
    List<Rule> rules = Rules.all();
    for (int i = 0; i < rules.size(); i++) {
      if (rules.get(i).name().equals(name)) {
        return FIRST_RULE + i;
      }
    }
    return DISPATCH;
  }

  /** Enters Bounded's code from Error Prone. */
  static int enterFromOutside() {
    return enter(DISPATCH);
  }

  /**
   * Leaves the current stage.
   *
   * @param previous what {@link #enter} returned
   */
  static void exit(int previous) {
    if (!ON) {
      return;
    }
    long now = now();
    NANOS[current] += now - last;
    last = now;
    current = previous;
  }

  /** Leaves Bounded's code for Error Prone (or javac). */
  static void exitToOutside() {
    exit(OUTSIDE);
  }

  /**
   * Adds to a counter.
   *
   * @param counter the counter
   * @param n how much
   */
  static void count(int counter, long n) {
    if (ON) {
      COUNTERS[counter] += n;
    }
  }

  private static String[] names() {
    List<Rule> rules = Rules.all();
    String[] names = new String[FIRST_RULE + rules.size() + 1];
    names[RELEVANCE] = "fast-path relevance scan";
    names[MODEL] = "model building";
    names[ANALYSIS] = "method analysis (index, loop classification)";
    names[DESCRIBE] = "descriptions and fixes";
    names[REPORT] = "Error Prone reporting (fix rendering)";
    names[DISPATCH] = "Bounded dispatch and caches";
    for (int i = 0; i < rules.size(); i++) {
      names[FIRST_RULE + i] = "rule " + rules.get(i).name();
    }
    names[names.length - 1] = "between Bounded calls (Error Prone's walk, javac)";
    return names;
  }

  /**
   * What one reading of the clock costs once compiled (measured at exit, after as many warm-up
   * reads), to estimate the timers' own share of the stages.
   */
  private static long clockNanos() {
    long reads = clockReads;
    long sink = 0;
    for (int i = 0; i < 20_000; i++) {
      sink += now();
    }
    long before = now();
    for (int i = 0; i < 20_000; i++) {
      sink += now();
    }
    long nanos = (now() - before) / 20_000;
    clockReads = reads;
    return sink == 42 ? 0 : nanos;
  }

  private static void print(PrintStream out) {
    long clockNanos = clockNanos();
    // At exit (another thread): what the compiling thread spent outside since its last entry is
    // not known here; the outside figure is the compiling thread's time up to then.
    long inside = 0;
    for (int i = 0; i < OUTSIDE; i++) {
      inside += NANOS[i];
    }
    // About one clock read per entry falls inside the stage entered: the last column takes it off.
    StringBuilder text =
        new StringBuilder("bounded-timing: stage\tms\tentries\tms less the timers (estimate)\n");
    for (int i = 0; i <= OUTSIDE; i++) {
      text.append(
          String.format(
              "bounded-timing: %s\t%.1f\t%d\t%.1f%n",
              NAMES[i],
              NANOS[i] / 1e6,
              ENTRIES[i],
              Math.max(0, NANOS[i] - ENTRIES[i] * clockNanos) / 1e6));
    }
    text.append(String.format("bounded-timing: all Bounded stages\t%.1f\t-%n", inside / 1e6));
    text.append(
        String.format(
            "bounded-timing: of which the timers themselves (%d clock reads x %d ns)\t%.1f\t-%n",
            clockReads, clockNanos, clockReads * clockNanos / 1e6));
    for (int i = 0; i < COUNTERS.length; i++) {
      text.append(String.format("bounded-counter: %s\t%d%n", COUNTER_NAMES[i], COUNTERS[i]));
    }
    out.print(text);
    out.flush();
  }
}
