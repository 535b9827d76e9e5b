#!/usr/bin/env python3
"""The retry tables of bench/README.md: before and after, JMH score ± 99.9 % half-width and bytes per op,
then differences and ratios within each run (errors propagated from both half-widths).
usage: python3 retry-2026-12-01-table.py BEFORE.json AFTER.json"""
import json, math, sys
def load(f):
    rows = {}
    for r in json.load(open(f)):
        name = r["benchmark"].rsplit(".", 1)[1]
        pm = r["primaryMetric"]
        rows[name] = (pm["score"], pm["scoreError"], r["secondaryMetrics"]["gc.alloc.rate.norm"]["score"])
    return rows
def fmt_b(b):
    if b < 0.01:
        return "≈ 0 (%.0e)" % b
    return "%.3f" % b
def ratio(rows, a, b):
    s, e, _ = rows[a]; d, de, _ = rows[b]
    r = s / d
    return r, r * math.sqrt((e / s) ** 2 + (de / d) ** 2)
def diff(rows, a, b):
    s, e, _ = rows[a]; d, de, _ = rows[b]
    return s - d, math.sqrt(e * e + de * de)
before, after = load(sys.argv[1]), load(sys.argv[2])
names = ["success_handWritten", "success_bounded", "success_boundedWithDeadline", "success_failsafe", "success_resilience4j",
         "failTwice_handWritten", "failTwice_handWrittenSleepZero", "failTwice_bounded", "failTwice_boundedWithDeadline", "failTwice_failsafe", "failTwice_resilience4j", "clock_nanoTime"]
print("| benchmark | before ns/op | before B/op | after ns/op | after B/op |")
print("|---|---:|---:|---:|---:|")
for n in names:
    if n not in before or n not in after:
        continue
    b, a = before[n], after[n]
    print(f"| {n} | {b[0]:.1f} ± {b[1]:.1f} | {fmt_b(b[2])} | {a[0]:.1f} ± {a[1]:.1f} | {fmt_b(a[2])} |")
print()
print("| measure (same run) | before | after | goal |")
print("|---|---:|---:|---|")
for label, kind, x, y, goal in [
    ("success: with deadline − without (ns)", "d", "success_boundedWithDeadline", "success_bounded", "≤ 10 ns"),
    ("success: with deadline / without", "r", "success_boundedWithDeadline", "success_bounded", ""),
    ("success: one `System.nanoTime()` (ns)", "v", "clock_nanoTime", None, ""),
    ("success: bounded − hand-written (ns)", "d", "success_bounded", "success_handWritten", "≤ 5 ns"),
    ("success: bounded / hand-written", "r", "success_bounded", "success_handWritten", ""),
    ("success: bounded / resilience4j", "r", "success_bounded", "success_resilience4j", ""),
    ("success: bounded / Failsafe", "r", "success_bounded", "success_failsafe", ""),
    ("success: with deadline / resilience4j", "r", "success_boundedWithDeadline", "success_resilience4j", ""),
    ("success: with deadline / Failsafe", "r", "success_boundedWithDeadline", "success_failsafe", ""),
    ("fail twice: bounded (ns)", "v", "failTwice_bounded", None, "< 300 ns"),
    ("fail twice: bounded / hand-written", "r", "failTwice_bounded", "failTwice_handWritten", ""),
    ("fail twice: bounded / resilience4j", "r", "failTwice_bounded", "failTwice_resilience4j", ""),
    ("fail twice: bounded / Failsafe", "r", "failTwice_bounded", "failTwice_failsafe", ""),
    ("fail twice: with deadline / without", "r", "failTwice_boundedWithDeadline", "failTwice_bounded", ""),
]:
    if any(k not in rows for rows in (before, after) for k in (x, y) if k):
        continue
    cells = []
    for rows in (before, after):
        if kind == "d":
            v, e = diff(rows, x, y); cells.append(f"{v:.1f} ± {e:.1f}")
        elif kind == "r":
            v, e = ratio(rows, x, y); cells.append(f"{v:.2f} ± {e:.2f}")
        else:
            v, e, _ = rows[x]; cells.append(f"{v:.1f} ± {e:.1f}")
    print(f"| {label} | {cells[0]} | {cells[1]} | {goal} |")
cells = []
for rows in (before, after):
    v, e = diff(rows, "success_boundedWithDeadline", "success_bounded")
    c, ce, _ = rows["clock_nanoTime"]
    cells.append(f"{v - 2 * c:.1f} ± {math.sqrt(e * e + 4 * ce * ce):.1f}")
print(f"| success: with deadline − without − 2 x `nanoTime` (ns) | {cells[0]} | {cells[1]} | |")
