#!/usr/bin/env python3
"""Scores a run of Bounded's checks against the labelled real-code corpus.

    bench/realcode/corpus/score.py RUN_DIR [--labels DIR] [--libraries FILE]
                                   [--sample N] [--seed S] [--unlabelled FILE] [--strict-rules]

RUN_DIR is what bench/realcode/run.sh wrote (one <library>.findings.tsv per library: rule, file,
line; and status.tsv). Labels are bench/realcode/corpus/labels/<library>.tsv (columns: id,
library, artifact, file, start, end, letter, rule, label, reason); libraries.tsv gives each
library's half ("tune" or "score").

Libraries whose run did not compile (status.tsv) are listed but not scored. A finding matches a
label when it is in the same file, its line lies in [start, end], and its
rule belongs to the label's letter (LETTERS below). Per letter and per half it prints:
  recall           positives with a matching finding / positives
  negatives hit    negatives with a matching finding / negatives
and per rule the same with the rule itself required. Findings that no label of their letter
covers are "unlabelled": counted per rule, listed in --unlabelled (default RUN_DIR/unlabelled.tsv),
and a seeded random sample of --sample of them (default 30) is printed for judging.

Exit status: 0, or 2 when a label file is malformed (every problem is listed first).
"""

import argparse
import csv
import os
import random
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))

# Which rules report which failure mode (DESIGN.md's letters).
LETTERS = {
    "A": {"InterruptRetried", "InterruptSwallowed"},
    "B": {"UnclassifiedRetry", "UnclassifiedExceptionRetry"},
    "C": {"PerAttemptTimeout"},
    "D": {"UnboundedSubmission", "UnboundedExecutor"},
    "E": {"NonIdempotentRetry"},
    "F": {
        "UnboundedRetry",
        "UnboundedBackgroundRetry",
        "BackoffWithoutJitter",
        "UncappedBackoff",
        "RetryPolicyWithoutJitter",
    },
    "G": {"CancellationRetried", "UntimedWait", "UnownedExecutor", "NestedRetry"},
}
LETTER_OF = {rule: letter for letter, rules in LETTERS.items() for rule in rules}
# A rule's variants that report the same defect under another name: issue 9's item 1 (unbounded
# retry) reports background loops (ended only by a stop flag) as UnboundedBackgroundRetry, with its
# own message and a lower severity; the labels name item 1 UnboundedRetry for both (their reasons
# say "background:"), so a per-rule match of an UnboundedRetry label accepts either.
# --strict-rules turns this off.
VARIANTS = {"UnboundedRetry": {"UnboundedBackgroundRetry"}}
COLUMNS = ["id", "library", "artifact", "file", "start", "end", "letter", "rule", "label", "reason"]


def read_libraries(path):
    halves = {}
    runs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            parts = line.split("\t")
            halves[parts[0]] = parts[1]
            runs[parts[0]] = parts[3].split(",") if len(parts) > 3 and parts[3] else [parts[0]]
    return halves, runs


def read_labels(directory, problems):
    labels = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".tsv"):
            continue
        path = os.path.join(directory, name)
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
        if not rows or rows[0] != COLUMNS:
            problems.append(f"{path}: the first line must be the header {COLUMNS}")
            continue
        for number, row in enumerate(rows[1:], start=2):
            if not row or all(not cell.strip() for cell in row):
                continue
            where = f"{path}:{number}"
            if len(row) != len(COLUMNS):
                problems.append(f"{where}: {len(row)} columns, expected {len(COLUMNS)}")
                continue
            label = dict(zip(COLUMNS, (cell.strip() for cell in row)))
            try:
                label["start"] = int(label["start"])
                label["end"] = int(label["end"])
            except ValueError:
                problems.append(f"{where}: start/end must be line numbers")
                continue
            if label["end"] < label["start"]:
                problems.append(f"{where}: end {label['end']} before start {label['start']}")
            if label["letter"] not in LETTERS:
                problems.append(f"{where}: letter {label['letter']!r} is not A-G")
            elif label["rule"] not in LETTERS[label["letter"]]:
                problems.append(f"{where}: rule {label['rule']!r} is not a rule of letter {label['letter']}")
            if label["label"] not in ("pos", "neg"):
                problems.append(f"{where}: label must be pos or neg, got {label['label']!r}")
            if not label["reason"]:
                problems.append(f"{where}: no reason")
            label["where"] = where
            labels.append(label)
    return labels


def read_findings(run_dir, runs):
    """The findings of every run.sh entry that counts for a library; None if none ran."""
    findings = None
    for run in runs:
        path = os.path.join(run_dir, run + ".findings.tsv")
        if not os.path.exists(path):
            continue
        findings = findings or []
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3:
                    findings.append((parts[0], parts[1], int(parts[2])))
    return findings


STRICT_RULES = False


def matches(finding, label, same_rule):
    rule, file, line = finding
    if file != label["file"] or not label["start"] <= line <= label["end"]:
        return False
    if not same_rule:
        return LETTER_OF.get(rule) == label["letter"]
    return rule == label["rule"] or (
        not STRICT_RULES and rule in VARIANTS.get(label["rule"], ()))


def ratio(hit, total):
    return f"{hit}/{total} = {hit / total:.2f}" if total else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir")
    parser.add_argument("--labels", default=os.path.join(HERE, "labels"))
    parser.add_argument("--libraries", default=os.path.join(HERE, "libraries.tsv"))
    parser.add_argument("--sample", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--unlabelled")
    parser.add_argument("--misses", help="write the missed positives and the negatives hit, per rule, "
                        "to this TSV (half, kind, rule, id, file, start, end, reason)")
    parser.add_argument("--strict-rules", action="store_true",
                        help="per rule, count only the label's own rule (no VARIANTS)")
    args = parser.parse_args()
    global STRICT_RULES
    STRICT_RULES = args.strict_rules

    problems = []
    halves, runs = read_libraries(args.libraries)
    labels = read_labels(args.labels, problems)
    for label in labels:
        if label["library"] not in halves:
            problems.append(f"{label['where']}: library {label['library']!r} not in {args.libraries}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2

    status = {}
    status_path = os.path.join(args.run_dir, "status.tsv")
    if os.path.exists(status_path):
        with open(status_path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    status[parts[0]] = parts[2]

    findings = {}
    for library in sorted(halves):
        findings[library] = read_findings(args.run_dir, runs[library])
        # A library that did not compile was not analysed (Error Prone stops at javac's errors):
        # its sites are not scored, rather than counted as missed.
        if any(status.get(run, "ok") != "ok" for run in runs[library]):
            findings[library] = None

    print("libraries:")
    for library in sorted(halves, key=lambda l: (halves[l], l)):
        found = findings[library]
        n = "not scored" if found is None else f"{len(found)} findings"
        sites = sum(1 for label in labels if label["library"] == library)
        ran = ",".join(status.get(run, "-") for run in runs[library])
        print(f"  {library:24} {halves[library]:5} {ran:12} {n:14} {sites} labelled sites")

    # Recall and negatives hit, per half, per letter and per rule.
    for half in ("tune", "score"):
        scored = [l for l in labels if halves[l["library"]] == half and findings.get(l["library"]) is not None]
        print(f"\n== {half} half: {len(scored)} labelled sites in libraries that ran")
        print(f"  {'':28} {'recall (pos hit)':>22} {'negatives hit':>22}")
        for letter in sorted(LETTERS):
            rows = [l for l in scored if l["letter"] == letter]
            if not rows:
                continue
            pos = [l for l in rows if l["label"] == "pos"]
            neg = [l for l in rows if l["label"] == "neg"]
            pos_hit = sum(1 for l in pos if any(matches(f, l, False) for f in findings[l["library"]]))
            neg_hit = sum(1 for l in neg if any(matches(f, l, False) for f in findings[l["library"]]))
            print(f"  {letter:28} {ratio(pos_hit, len(pos)):>22} {ratio(neg_hit, len(neg)):>22}")
            for rule in sorted({l["rule"] for l in rows}):
                rpos = [l for l in pos if l["rule"] == rule]
                rneg = [l for l in neg if l["rule"] == rule]
                rpos_hit = sum(1 for l in rpos if any(matches(f, l, True) for f in findings[l["library"]]))
                rneg_hit = sum(1 for l in rneg if any(matches(f, l, True) for f in findings[l["library"]]))
                print(f"    {rule:26} {ratio(rpos_hit, len(rpos)):>22} {ratio(rneg_hit, len(rneg)):>22}")

    if args.misses:
        with open(args.misses, "w", encoding="utf-8") as f:
            for l in labels:
                found = findings.get(l["library"])
                if found is None:
                    continue
                hit = any(matches(x, l, True) for x in found)
                kind = "missed" if l["label"] == "pos" and not hit else (
                    "neg-hit" if l["label"] == "neg" and hit else None)
                if kind:
                    f.write("\t".join([halves[l["library"]], kind, l["rule"], l["id"], l["file"],
                                       str(l["start"]), str(l["end"]), l["reason"]]) + "\n")

    # Findings no label of their letter covers.
    unlabelled = []
    for library, found in sorted(findings.items()):
        for finding in found or []:
            letter = LETTER_OF.get(finding[0])
            covered = any(
                l["library"] == library
                and l["letter"] == letter
                and l["file"] == finding[1]
                and l["start"] <= finding[2] <= l["end"]
                for l in labels
            )
            if not covered:
                unlabelled.append((library, halves[library]) + finding)
    by_rule = defaultdict(int)
    for row in unlabelled:
        by_rule[(row[1], row[2])] += 1
    print(f"\n== unlabelled findings: {len(unlabelled)}")
    for (half, rule), n in sorted(by_rule.items()):
        print(f"  {half:5} {rule:28} {n}")
    out = args.unlabelled or os.path.join(args.run_dir, "unlabelled.tsv")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for row in unlabelled:
            f.write("\t".join(str(c) for c in row) + "\n")
    if unlabelled and args.sample:
        sample = random.Random(args.seed).sample(unlabelled, min(args.sample, len(unlabelled)))
        print(f"\n== a random sample of {len(sample)} unlabelled findings (seed {args.seed}), to judge:")
        for row in sorted(sample):
            print("  " + "\t".join(str(c) for c in row))
    print(f"\n(unlabelled findings listed in {out})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
