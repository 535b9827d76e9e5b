#!/usr/bin/env python3
"""The TaskScope table of bench/README.md from scope-2026-12-01.json: per N, round and code (before/after),
JMH's score ± 99.9 % half-width, the ratios (error propagated from both half-widths) and bytes per op.
usage: python3 scope-2026-12-01-table.py scope-2026-12-01-first.json (or -final.json)"""
import json, math, sys
def load(f, rnd, code):
    rows = {}
    for r in json.load(open(f)):
        if r["round"] != rnd or r["code"] != code:
            continue
        name = r["benchmark"].rsplit(".", 1)[1]
        n = int(r["params"]["tasks"])
        pm = r["primaryMetric"]
        rows[(name, n)] = (pm["score"], pm["scoreError"], r["secondaryMetrics"]["gc.alloc.rate.norm"]["score"])
    return rows
def ratio(rows, a, b, n):
    s, e, _ = rows[(a, n)]; d, de, _ = rows[(b, n)]
    r = s / d
    return r, r * math.sqrt((e / s) ** 2 + (de / d) ** 2)
base = sys.argv[1]
rounds = sorted({r["round"] for r in json.load(open(base))})
print("| N | round | code | `taskScope` us/op | `ownedCachedPool` us/op | `ownedCachedPoolJoined` us/op | scope / pool | scope / pool joined | scope B/op | pool B/op |")
print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
for n in (1, 10, 100, 1000):
    for r in rounds:
        for code in ("before", "after"):
            rows = load(base, r, code)
            t = rows[("taskScope", n)]; p = rows[("ownedCachedPool", n)]; j = rows[("ownedCachedPoolJoined", n)]
            r1 = ratio(rows, "taskScope", "ownedCachedPool", n); r2 = ratio(rows, "taskScope", "ownedCachedPoolJoined", n)
            label = code
            print(f"| {n:,} | {r} | {label} | {t[0]:,.0f} ± {t[1]:,.0f} | {p[0]:,.0f} ± {p[1]:,.0f} | {j[0]:,.0f} ± {j[1]:,.0f} | {r1[0]:.2f} ± {r1[1]:.2f} | {r2[0]:.2f} ± {r2[1]:.2f} | {t[2]:,.0f} | {p[2]:,.0f} |")
