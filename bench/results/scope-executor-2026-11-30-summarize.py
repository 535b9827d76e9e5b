"""Summarizes scope-executor-2026-11-30.json (6 interleaved rounds, 1 fork each): the median of
all measured iterations per benchmark, and the ratio of each pair within each round (paired, so
that load from other jobs on the shared machine falls on both sides alike).

Usage: python3 scope-executor-2026-11-30-summarize.py [file.json]
"""
import json
import statistics
import sys

path = sys.argv[1] if len(sys.argv) > 1 else "scope-executor-2026-11-30.json"
iterations, round_means, alloc = {}, {}, {}
for b in json.load(open(path)):
    name = ".".join(b["benchmark"].split(".")[-2:])
    params = b.get("params", {})
    key = params.get("tasks") or params.get("workers")
    raw = [x for fork in b["primaryMetric"]["rawData"] for x in fork]
    iterations.setdefault((name, key), []).extend(raw)
    round_means.setdefault((name, key), {})[b["round"]] = statistics.mean(raw)
    alloc.setdefault((name, key), []).append(
        b.get("secondaryMetrics", {}).get("gc.alloc.rate.norm", {}).get("score"))

print("| benchmark | param | unit | median | mean | round means min..max | B/op | n |")
print("|---|---:|---|---:|---:|---|---:|---:|")
for k in sorted(iterations):
    v, rm = iterations[k], list(round_means[k].values())
    unit = "ops/us" if k[0].startswith("BoundedExecutor") else "us/op"
    print(f"| {k[0]} | {k[1]} | {unit} | {statistics.median(v):.2f} | {statistics.mean(v):.2f} | "
          f"{min(rm):.2f}..{max(rm):.2f} | {statistics.mean(alloc[k]):.0f} | {len(v)} |")


def compare(a, b, key, label):
    ra, rb = round_means[(a, key)], round_means[(b, key)]
    paired = [ra[r] / rb[r] for r in sorted(ra) if r in rb]
    med = statistics.median(iterations[(a, key)]) / statistics.median(iterations[(b, key)])
    print(f"{label}: ratio of medians {med:.2f}; per-round ratios median {statistics.median(paired):.2f}"
          f" (range {min(paired):.2f}..{max(paired):.2f})")


print()
print("TaskScope time / baseline time (below 1: TaskScope faster)")
for n in ["1", "10", "100"]:
    for base in ["ownedCachedPool", "ownedCachedPoolJoined", "rawThreads", "sharedCachedPool"]:
        compare("TaskScopeBenchmark.taskScope", "TaskScopeBenchmark." + base, n, f"  N={n} vs {base}")
print("BoundedExecutor throughput / ThreadPoolExecutor throughput (above 1: BoundedExecutor faster)")
for w in ["1", "2"]:
    compare("BoundedExecutorBenchmark.boundedExecutor", "BoundedExecutorBenchmark.threadPoolExecutor",
            w, f"  workers={w}")
