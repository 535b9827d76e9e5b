#!/usr/bin/env python3
"""Precision of a run on survey 7, per half and rule, by the judges' verdicts.

usage: precision.py RUN [--scaffold-out]

RUN is a bench/realcode/run.sh output directory (one <library>.findings.tsv per library). A
finding's verdict is the judges' (judged-*.tsv here); a finding no judge has seen is UNJUDGED and
is listed in RUN/unjudged.tsv for the next judge. --scaffold-out leaves out demo, example, test,
perf and mock packages shipped inside a library's jar.
"""
import csv
import glob
import os
import re
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
SCAFFOLD = re.compile(r'/(demos?|examples?|tests?|perf|mock)/')


def main(argv):
    if len(argv) < 2 or argv[1] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    run, scaffold_out = argv[1], '--scaffold-out' in argv[2:]
    half = {}
    for line in open(os.path.join(HERE, 'split.tsv')):
        if line.startswith('#') or not line.strip():
            continue
        name, which = line.split()
        half[name] = which
    verdicts = {}
    for f in glob.glob(os.path.join(HERE, 'judged-*.tsv')):
        for r in csv.DictReader(open(f), delimiter='\t'):
            verdicts[(r['library'], r['rule'], r['file'], r['line'])] = r['verdict']
    total, per_rule, unjudged = defaultdict(Counter), defaultdict(Counter), []
    for f in sorted(glob.glob(os.path.join(run, '*.findings.tsv'))):
        lib = os.path.basename(f)[: -len('.findings.tsv')]
        if lib not in half:
            continue
        for row in open(f):
            p = row.rstrip('\n').split('\t')
            if len(p) < 3 or p[0] == 'rule':
                continue
            if scaffold_out and SCAFFOLD.search('/' + p[1]):
                continue
            v = verdicts.get((lib, p[0], p[1], p[2]), 'UNJUDGED')
            total[half[lib]][v] += 1
            per_rule[(half[lib], p[0])][v] += 1
            if v == 'UNJUDGED':
                unjudged.append('\t'.join([lib] + p[:3]))
    for h in ('tune', 'score'):
        c = total[h]
        real, n = c['REAL'], sum(c.values())
        print(f'{h}: {n} findings, {real} REAL, {c["FALSE"]} FALSE, {c["UNSURE"]} UNSURE,'
              f' {c["UNJUDGED"]} unjudged' + (f'; {real}/{n} = {real / n:.2f} real' if n else ''))
        for (hh, rule), rc in sorted(per_rule.items()):
            if hh == h:
                print(f'    {rule:28s} ' + ', '.join(f'{k} {rc[k]}' for k in sorted(rc)))
    with open(os.path.join(run, 'unjudged.tsv'), 'w') as out:
        out.write(''.join(u + '\n' for u in unjudged))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
