"""The scalingdir study of lab/results/scalingdir/README.md: Scaling2d
under the paper's orbit geometry (group scaling: the distance between the
orbits' segments) against ScalingDir2d (the same problem, seeds, initial
designs and noise; group scalingdir: the chord between directions), paired
by seed, on the main seeds 0–29 and the disjoint replication 30–49.

Reads perf table's record.json files under lab/results (scalingdir/,
defaults/) and the peers' per-seed records (peers/records,
peers/replication/records) and prints Markdown:

    /usr/bin/python3 lab/scripts/scalingdir.py

Intervals: Student t on the per-seed differences at the Bonferroni level
1 − 0.05/K over all K comparisons of the table, per seed set. A difference
holds when both seed sets' intervals exclude 0 on the same side. Because
Scaling2d's regrets are heavy-tailed (a few seeds in the wedge near an
axis carry the mean; lab/results/statistics.md: t undercovers there), each
cell also gives the seeds where a is lower and the exact two-sided sign
test's p-value times K (Bonferroni), a check on the median difference
that one extreme seed cannot move.
"""
import math
import glob
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults import interval, g  # noqa: E402  (Student t interval, number format)

R = os.path.join(HERE, "..", "results")
SETS = ["main", "replication"]

# A configuration: (problem, kernel, record path with {set}), or
# ("peer", problem, system) for a peer's per-seed records.
CONF = {
    "Scaling2d base": ("Scaling2d", "base", "scalingdir/{set}/record.json"),
    "Scaling2d plus": ("Scaling2d", "plus", "scalingdir/{set}/record.json"),
    "Scaling2d auto": ("Scaling2d", "auto", "scalingdir/{set}/record.json"),
    "ScalingDir2d plus": ("ScalingDir2d", "plus", "scalingdir/{set}/record.json"),
    "ScalingDir2d max": ("ScalingDir2d", "max", "scalingdir/{set}/record.json"),
    "ScalingDir2d auto": ("ScalingDir2d", "auto", "scalingdir/{set}/record.json"),
    "Scaling2d plus, defaults": ("Scaling2d", "plus", "defaults/{set}/record.json"),
    "Scaling2d auto, defaults": ("Scaling2d", "auto", "defaults/{set}/record.json"),
    "ScalingDir2d plus, defaults": ("ScalingDir2d", "plus", "scalingdir/defaults-{set}/record.json"),
    "ScalingDir2d auto, defaults": ("ScalingDir2d", "auto", "scalingdir/defaults-{set}/record.json"),
    "random search": ("peer", "Scaling2d", "random"),
    "Optuna TPE": ("peer", "Scaling2d", "optuna-tpe"),
}

# (a, b): a − b; negative means a is lower (better).
COMPARISONS = [
    ("ScalingDir2d plus", "Scaling2d plus"),
    ("ScalingDir2d auto", "Scaling2d auto"),
    ("ScalingDir2d max", "ScalingDir2d plus"),
    ("ScalingDir2d plus", "Scaling2d base"),
    ("ScalingDir2d plus, defaults", "Scaling2d plus, defaults"),
    ("ScalingDir2d auto, defaults", "Scaling2d auto, defaults"),
    ("ScalingDir2d plus, defaults", "ScalingDir2d plus"),
    ("ScalingDir2d plus", "random search"),
    ("ScalingDir2d plus", "Optuna TPE"),
    ("ScalingDir2d plus, defaults", "random search"),
]


def load(name, set_):
    c = CONF[name]
    if c[0] == "peer":
        base = os.path.join(R, "peers") if set_ == "main" else os.path.join(R, "peers", "replication")
        out = {}
        for f in glob.glob(os.path.join(base, "records", c[1], c[2], "*.json")):
            r = json.load(open(f))
            out[r["seed"]] = r["metric"]
        return out
    problem, kernel, path = c
    rec = json.load(open(os.path.join(R, path.format(set=set_))))
    return {x["seed"]: x["metric"] for x in rec["runs"] if x["problem"] == problem and x["kernel"] == kernel}


def sign_p(wins, losses):
    """Exact two-sided sign test p-value (ties dropped)."""
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main():
    data = {n: {s: load(n, s) for s in SETS} for n in CONF}
    print("## Mean cumulative regret (main seeds 0–29 / replication 30–49)\n")
    print("| configuration | main | replication |")
    print("|---|---|---|")
    for n, sets in data.items():
        cells = []
        for s in SETS:
            v = list(sets[s].values())
            if not v:
                cells.append("—")
                continue
            se = float(np.std(v, ddof=1) / np.sqrt(len(v)))
            cells.append("%s ± %s (median %s, n=%d)" % (g(float(np.mean(v))), g(se), g(float(np.median(v))), len(v)))
        print("| %s | %s |" % (n, " | ".join(cells)))
    k = len(COMPARISONS)
    level = 1 - 0.05 / k
    print("\n## Paired differences (Bonferroni over the %d comparisons, level %.4f per seed set)\n" % (k, level))
    print("| a − b | main | replication | holds |")
    print("|---|---|---|---|")
    for a, b in COMPARISONS:
        cells, sides = [], []
        for s in SETS:
            da, db = data[a][s], data[b][s]
            seeds = sorted(set(da) & set(db))
            if len(seeds) < 3:
                cells.append("—")
                sides.append(0)
                continue
            diffs = [da[x] - db[x] for x in seeds]
            m, lo, hi, n = interval(diffs, level)
            side = -1 if hi < 0 else (1 if lo > 0 else 0)
            sides.append(side)
            mark = "**" if side else ""
            wins, losses = sum(v < 0 for v in diffs), sum(v > 0 for v in diffs)
            cells.append("%s%s [%s, %s]%s; a lower on %d/%d, sign p·K %s" % (
                mark, g(m), g(lo), g(hi), mark, wins, n, "%.2g" % min(1.0, k * sign_p(wins, losses))))
        holds = {-1: "yes, a lower", 1: "yes, a higher"}.get(sides[0], "no") if sides[0] == sides[1] else "no"
        print("| %s − %s | %s | %s | %s |" % (a, b, cells[0], cells[1], holds))


if __name__ == "__main__":
    main()
