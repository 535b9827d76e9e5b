#!/usr/bin/env python3
"""CPU time of a running process's threads, by kind, until it exits (for breakdown.sh).

    threads.py PID

Polls /proc/PID/task/*/stat every 20 ms and keeps each thread's last user+sys ticks, so threads
that end before the process (the JIT's compiler threads come and go) are counted too; what a
thread spends in its last 20 ms is missed. Prints one line per kind: main (the compiling
thread), jit-c1, jit-c2, gc, other; then the total.
"""
import os
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def kind(name):
    if name == "java" or name == "javac" or name == "main":
        return "main"
    if name.startswith("C1 CompilerThre"):
        return "jit-c1"
    if name.startswith("C2 CompilerThre"):
        return "jit-c2"
    if name.startswith("GC Thread") or name.startswith("G1 "):
        return "gc"
    return "other"


def main():
    pid = sys.argv[1]
    last = {}
    while os.path.exists(f"/proc/{pid}/task"):
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            break
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    stat = f.read()
            except OSError:
                continue
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2 :].split()
            ticks = int(fields[11]) + int(fields[12])  # utime, stime
            last[tid] = (name, ticks)
        time.sleep(0.02)
    totals = {}
    for name, ticks in last.values():
        totals[kind(name)] = totals.get(kind(name), 0) + ticks
    for k in ("main", "jit-c1", "jit-c2", "gc", "other"):
        print(f"{k}\t{totals.get(k, 0) / TICK:.2f}")
    print(f"total\t{sum(totals.values()) / TICK:.2f}")


if __name__ == "__main__":
    main()
