"""Paired comparison of two perf batch results.json files (the constant
liar telling the mean against the worst value), per cell and per seed set
(seeds 0–9 and 10–19 reported separately, so each claim replicates on a
disjoint set). Used by lab/results/liar.md:

    python3 lab/scripts/liar-compare.py MEAN/results.json WORST/results.json
"""
import json, sys, statistics, math
def load(p):
    r = json.load(open(p)); out = {}
    for run in r["runs"]:
        ev = [e for e in run["evaluations"] if e["phase"] != "init"][:50]
        out[(run["problem"], run["kernel"], run["batch"], run["seed"])] = sum(e["regret"] for e in ev)
    return out
m, w = load(sys.argv[1]), load(sys.argv[2])
cells = sorted({k[:3] for k in m})
print("| Benchmark | kernel | q | seeds | mean liar | worst liar | mean lower in | paired difference (worst − mean), mean ± s.e. |")
print("|---|---|---|---|---|---|---|---|")
for lo, hi in ((0, 10), (10, 20)):
    for c in cells:
        s = [k for k in m if k[:3] == c and lo <= k[3] < hi]
        dm = [m[k] for k in s]; dw = [w[k] for k in s]
        diff = [b - a for a, b in zip(dm, dw)]
        wins = sum(d > 0 for d in diff)
        print("| %s | %s | %d | %d–%d | %.0f | %.0f | %d of %d | %.0f ± %.0f |" % (c[0], c[1], c[2], lo, hi-1,
              statistics.mean(dm), statistics.mean(dw), wins, len(s), statistics.mean(diff), statistics.stdev(diff)/math.sqrt(len(diff))))
