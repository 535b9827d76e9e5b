#!/usr/bin/env python3
"""Draws a seeded random sample of unlabelled findings of one half, for judging.

  draw_sample.py RUN_DIR OUT.tsv [--half score] [--seed 16] [--size 30] [--exclude JUDGED.tsv ...]

RUN_DIR holds score.py's unlabelled.tsv (library, half, rule, file, line). Findings already
judged in an --exclude file (columns library, rule, file, line, ...) are left out, so that a new
sample judges findings nobody has looked at.
"""
import argparse
import csv
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("out")
    parser.add_argument("--half", default="score")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--size", type=int, default=30)
    parser.add_argument("--exclude", nargs="*", default=[])
    args = parser.parse_args()
    seen = set()
    for path in args.exclude:
        with open(path, encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                seen.add((r["library"], r["rule"], r["file"], r["line"]))
    with open(args.run_dir + "/unlabelled.tsv", encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    pool = [r for r in rows if r[1] == args.half and (r[0], r[2], r[3], r[4]) not in seen]
    random.Random(args.seed).shuffle(pool)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("library\thalf\trule\tfile\tline\n")
        for r in pool[: args.size]:
            f.write("\t".join(r) + "\n")
    print(f"{len(rows)} unlabelled; {len(pool)} candidates in the {args.half} half; "
          f"wrote {min(args.size, len(pool))}")


if __name__ == "__main__":
    main()
