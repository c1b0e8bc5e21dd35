"""The wrong-group study of lab/results/wronggroup/README.md: issue 18's
targets for the deciding kernels (auto, portfolio) on objectives whose
declared group is wrong or only approximately right, on the front ends'
default protocol (BoTorch's priors, learned constant mean), main seeds
0–29 and a disjoint replication 30–49.

Reads the two perf table records of lab/results/wronggroup (per-run
metric: cumulative regret; lower is better) and prints Markdown:

    /usr/bin/python3 lab/scripts/wronggroup.py > lab/results/wronggroup/analysis.md

Per seed set and problem: each kernel's mean, its ratio to the best single
kernel's (base, nystrom, avg, plus) and the geometric mean of the ratios;
the targets of lab/scripts/portfolio.py (per problem: ratio ≤ 1.25 or the
paired t interval of K − best, Bonferroni over the problems, reaching 0;
geometric mean below every single kernel's); then portfolio − each single
kernel and portfolio − auto paired by seed, with verdicts as in
lab/scripts/defaults.py.
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults import interval, g, verdict, overlap_cell  # noqa: E402

R = os.path.join(HERE, "..", "results", "wronggroup")
SETS = [("main (0–29)", "main/record.json"), ("replication (30–49)", "replication/record.json")]
SINGLES = ["base", "nystrom", "avg", "plus"]
DECIDERS = ["auto", "portfolio"]


def load(path):
    r = json.load(open(os.path.join(R, path)))
    out, problems = {}, []
    for run in r["runs"]:
        out.setdefault(run["kernel"], {})[(run["problem"], run["seed"])] = run["metric"]
        if run["problem"] not in problems:
            problems.append(run["problem"])
    return out, problems


def means(data, k, p):
    v = [x for (pp, _), x in data[k].items() if pp == p]
    return float(np.mean(v))


def paired(data, a, b, p):
    seeds = sorted(s for (pp, s) in data[a] if pp == p and (pp, s) in data[b])
    return [data[a][(p, s)] - data[b][(p, s)] for s in seeds]


def own(data, k, p):
    """k's metrics on problem p, in seed order."""
    return [v for (pp, _), v in sorted(data[k].items()) if pp == p]


def main():
    sets = [(name,) + load(path) for name, path in SETS]
    problems = sets[0][2]
    level = 1 - 0.05 / len(problems)
    for name, data, _ in sets:
        print("## %s: mean cumulative regret, and ratio to the best single kernel\n" % name)
        print("| kernel | geo. mean | " + " | ".join(problems) + " |")
        print("|---|---|" + "---|" * len(problems))
        best = {p: min(SINGLES, key=lambda k: means(data, k, p)) for p in problems}
        geo = {}
        for k in SINGLES + DECIDERS:
            rs = [means(data, k, p) / means(data, best[p], p) for p in problems]
            geo[k] = math.exp(sum(math.log(r) for r in rs) / len(rs))
            print("| %s | %.2f | %s |" % (k, geo[k], " | ".join(
                "%s (%.2f)" % (g(means(data, k, p)), r) for p, r in zip(problems, rs))))
        print("\nBest single kernel per problem: " + ", ".join("%s %s" % (p, best[p]) for p in problems) + ".\n")
        for k in DECIDERS:
            met, overlap = 0, 0
            print("### %s against the best single kernel (%s)\n" % (k, name))
            print("| problem | best single | ratio | %s − best [interval at %.4f] | target met "
                  "| %s's interval against the best's: ratio ≤ 1.25 or overlapping |" % (k, level, k))
            print("|---|---|---|---|---|---|")
            for p in problems:
                r = means(data, k, p) / means(data, best[p], p)
                m, lo, hi, n = interval(paired(data, k, best[p], p), level)
                ok = r <= 1.25 or lo <= 0
                met += ok
                # The looser wording (lab/scripts/portfolio.py).
                over, cell = overlap_cell(r, own(data, k, p), own(data, best[p], p), level)
                overlap += over
                print("| %s | %s | %.2f | %s [%s, %s] (n=%d) | %s | %s |" % (
                    p, best[p], r, g(m), g(lo), g(hi), n, "yes" if ok else "no", cell))
            below = all(geo[k] < geo[s] for s in SINGLES)
            print("\n%s: per-problem target met on %d of %d (by the looser overlap of the two intervals: %d); "
                  "geometric mean %.2f, %s every single kernel's.\n"
                  % (k, met, len(problems), overlap, geo[k], "below" if below else "not below"))
    for b in SINGLES + ["auto"]:
        print("## portfolio − %s, paired by seed (intervals at %.4f)\n" % (b, level))
        print("| problem | %s | %s | verdict |" % tuple(n for n, _, _ in sets))
        print("|---|---|---|---|")
        for p in problems:
            res = [interval(paired(data, "portfolio", b, p), level) for _, data, _ in sets]
            print("| %s | %s | %s | %s |" % (p, *("%s [%s, %s] (n=%d)" % (g(m), g(lo), g(hi), n)
                                                  for m, lo, hi, n in res), verdict(res)))
        print()


if __name__ == "__main__":
    main()
