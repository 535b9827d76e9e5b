#!/usr/bin/env python3
"""precision.py RUN [--round DIR] [--list-unjudged OUT]: a labelling round's precision per half (the round of
DIR, which holds its split.tsv and judged-*.tsv; default: round 5, this script's directory). A finding is
REAL/FALSE by a label of its letter covering its line (pos/neg), else by a judge's verdict, else unjudged.
Eclipse Milo's generated model wrappers (org/eclipse/milo/opcua/sdk/client/model/) are counted apart."""
import sys, csv, glob, os
from collections import Counter, defaultdict
run = sys.argv[1]
L={'InterruptRetried':'A','InterruptSwallowed':'A','UnclassifiedRetry':'B','UnclassifiedExceptionRetry':'B','PerAttemptTimeout':'C','UnboundedSubmission':'D','UnboundedExecutor':'D','NonIdempotentRetry':'E','UnboundedRetry':'F','UnboundedBackgroundRetry':'F','BackoffWithoutJitter':'F','UncappedBackoff':'F','RetryPolicyWithoutJitter':'F','CancellationRetried':'G','UntimedWait':'G','UnownedExecutor':'G','NestedRetry':'G'}
HERE=os.path.dirname(os.path.abspath(__file__)); C=os.path.dirname(HERE)
if '--round' in sys.argv: HERE=os.path.abspath(sys.argv[sys.argv.index('--round')+1])
half={}
for l in open(f'{C}/libraries.tsv'):
    if l.startswith('#') or not l.strip(): continue
    p=l.rstrip('\n').split('\t'); half[p[0]]=p[1]
libs=[l.split('\t')[0] for l in open(f'{HERE}/split.tsv')]
verdict={}
for f in glob.glob(f'{HERE}/judged-*.tsv'):
    for r in csv.DictReader(open(f),delimiter='\t'):
        verdict[(r['library'],r['rule'],r['file'],r['line'])]=r['verdict'].strip()
out=None
if '--list-unjudged' in sys.argv: out=open(sys.argv[sys.argv.index('--list-unjudged')+1],'w')
tot=defaultdict(Counter); byrule=defaultdict(Counter); gen=Counter()
for lib in libs:
    labels=list(csv.DictReader(open(f'{C}/labels/{lib}.tsv'),delimiter='\t'))
    fn=f'{run}/{lib}.findings.tsv'
    rows=[l.rstrip('\n').split('\t') for l in open(fn)] if os.path.exists(fn) else []
    for p in rows:
        if len(p)<3: continue
        rule,file,line=p[0],p[1],p[2]
        same=[r for r in labels if r['file']==file and int(r['start'])<=int(line)<=int(r['end']) and r['letter']==L[rule]]
        if any(r['label']=='pos' for r in same): k='REAL'
        elif same: k='FALSE'
        else: k=verdict.get((lib,rule,file,line),'UNJUDGED')
        if lib=='milo-sdk-client' and file.startswith('org/eclipse/milo/opcua/sdk/client/model/'):
            gen[k]+=1; continue
        tot[half[lib]][k]+=1; byrule[(half[lib],rule)][k]+=1
        if k=='UNJUDGED' and out: out.write('\t'.join([lib,rule,file,line])+'\n')
for h in ('tune','score'):
    c=tot[h]; n=sum(c.values())
    print(f"{h}: {n} findings, REAL {c['REAL']}, FALSE {c['FALSE']}, UNSURE {c['UNSURE']}, unjudged {c['UNJUDGED']}; REAL/n = {c['REAL']}/{n} = {c['REAL']/max(n,1):.2f}; REAL/(REAL+FALSE) = {c['REAL']/max(c['REAL']+c['FALSE'],1):.2f}")
    for (hh,r),cc in sorted(byrule.items()):
        if hh==h: print(f"    {r:28s} {dict(cc)}")
if gen: print(f"milo generated model wrappers (tune half, not counted above): {dict(gen)}")
