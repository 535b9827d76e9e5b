#!/usr/bin/env bash
# The statistics of bench/compile/run.sh, from its runs.tsv (also usable on a run still going or
# stopped early: only complete rounds count).
#
#   bench/compile/stats.sh RUNS_TSV [VARIANTS]
#
# VARIANTS (space-separated) is the order to print them in; default: their first appearance.
# run.sh prints its summary with this script.
#
# Prints mean +- standard deviation per variant, and the ratios of each variant to ep-off (and
# the others run.sh names) as the mean of the per-round ratios with a 95 % confidence interval
# (Student t; rounds are paired), plus the ratio of the means.
set -euo pipefail
TSV="$1"
# The variants, in the order of their first appearance.
variants="${2:-$(awk -F'\t' 'NR > 1 && !seen[$4]++ { printf "%s ", $4 }' "$TSV")}"
# Only rounds in which every variant ran.
nv="$(wc -w <<<"$variants")"
complete="$(awk -F'\t' -v nv="$nv" 'NR > 1 { n[$1]++ } END { for (r in n) if (n[r] == nv) printf "%s ", r }' "$TSV")"
awk -F'\t' -v complete="$complete" 'NR == 1 || index(" " complete, " " $1 " ")' "$TSV" \
  | awk -F'\t' -v variants="$variants" '
  function tcrit(df) {  # two-sided 95% Student t
    split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
    return df <= 30 ? t[df] : 1.96
  }
  function stats(x, n,   i, m, s) {
    m = 0; for (i = 1; i <= n; i++) m += x[i]; m /= n
    s = 0; for (i = 1; i <= n; i++) s += (x[i] - m) ^ 2
    MEAN = m; SD = n > 1 ? sqrt(s / (n - 1)) : 0
  }
  NR > 1 && $2 == "measured" {
    r = $1; v = $4
    wall[v, r] = $5; cpu[v, r] = $8
    rounds[r] = 1
  }
  END {
    n = 0; for (r in rounds) order[++n] = r
    nv = split(variants, vs, " ")
    printf "%-15s %22s %22s\n", "variant", "wall s (mean +- sd)", "user+sys s (mean +- sd)"
    for (k = 1; k <= nv; k++) {
      v = vs[k]
      for (i = 1; i <= n; i++) { xw[i] = wall[v, order[i]]; xc[i] = cpu[v, order[i]] }
      stats(xw, n); mw[v] = MEAN; sw = SD
      stats(xc, n); mc[v] = MEAN; sc = SD
      printf "%-15s %13.3f +- %5.3f %13.3f +- %5.3f\n", v, mw[v], sw, mc[v], sc
      have[v] = 1
    }
    printf "\n%-32s %-6s %26s %16s\n", "ratio", "metric", "mean of per-round ratios", "ratio of means"
    nr = split("ep-bounded/ep-off ep-bounded-base/ep-off ep-bounded/ep-bounded-base ep-one/ep-off ep-off/javac ep-bounded/javac", rs, " ")
    for (k = 1; k <= nr; k++) {
      split(rs[k], p, "/")
      if (!(p[1] in have) || !(p[2] in have)) continue
      for (m = 1; m <= 2; m++) {
        for (i = 1; i <= n; i++) {
          if (m == 1) x[i] = wall[p[1], order[i]] / wall[p[2], order[i]]
          else x[i] = cpu[p[1], order[i]] / cpu[p[2], order[i]]
        }
        stats(x, n); h = tcrit(n - 1) * SD / sqrt(n)
        rom = m == 1 ? mw[p[1]] / mw[p[2]] : mc[p[1]] / mc[p[2]]
        printf "%-32s %-6s %8.4f [95%% CI %.4f, %.4f] %16.4f\n", rs[k], (m == 1 ? "wall" : "cpu"), MEAN, MEAN - h, MEAN + h, rom
      }
    }
    printf "\nrounds measured: %d\n", n
  }
'
