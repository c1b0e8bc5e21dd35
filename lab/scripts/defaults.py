"""The defaults study of lab/results/defaults.md: plus under the current
default protocol against plus with BoTorch's priors and the learned
constant mean, and auto against plus on the latter, paired by seed, on a
main seed set (0–29) and a disjoint replication (30–49).

Reads perf table's record.json files (their per-run metric: cumulative
regret, or −max f on WLAN8d; lower is better) and prints Markdown:

    /usr/bin/python3 lab/scripts/defaults.py > /tmp/defaults.md

(Debian's python3 with numpy; nothing else.) Intervals: Student t on the
per-seed differences (the configurations share each seed's initial design
and noise), at the Bonferroni level 1 − 0.05/m over the m problems of a
comparison, per seed set. A difference is established ("holds") when both
seed sets' corrected intervals exclude 0 on the same side. --self-test
checks the statistics against hand-worked values.
"""
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from fixedpoint import t_quantile  # noqa: E402  (shared Student t)

R = os.path.join(HERE, "..", "results")

PROBLEMS = ["Ackley2d", "Griewank6d", "Rastrigin5d", "Radial2d", "Scaling2d", "WLAN8d",
            "ShiftedAckley2d", "ShiftedRastrigin4d", "ShiftedGriewank6d", "CentredRastrigin4d"]

# configuration: (kernel, [(main records), (replication records)])
CONFIGS = {
    "plus, default (sample mean, no priors)": ("plus", [
        ["ablation-own/record.json", "fixedpoint/main/record.json"],
        ["replication/ablation-own/record.json", "fixedpoint/replication/record.json"]]),
    "plus, BoTorch priors": ("plus", [["ablation-prior/record.json"], ["replication/ablation-prior/record.json"]]),
    "plus, BoTorch priors + constant mean": ("plus", [["defaults/main/record.json"], ["defaults/replication/record.json"]]),
    "auto, BoTorch priors + constant mean": ("auto", [["defaults/main/record.json"], ["defaults/replication/record.json"]]),
}

COMPARISONS = [
    ("plus, BoTorch priors + constant mean", "plus, default (sample mean, no priors)"),
    ("plus, BoTorch priors + constant mean", "plus, BoTorch priors"),
    ("auto, BoTorch priors + constant mean", "plus, BoTorch priors + constant mean"),
]


def load(kernel, paths):
    out = {}
    for p in paths:
        r = json.load(open(os.path.join(R, p)))
        for run in r["runs"]:
            if run["kernel"] == kernel and run["problem"] in PROBLEMS:
                out.setdefault((run["problem"], run["seed"]), run["metric"])
    return out


def interval(diffs, level):
    """(mean, lo, hi, n): the Student t interval at level of the mean of
    diffs; NaN bounds (and a NaN mean for none) below two values."""
    v = np.asarray(diffs, dtype=float)
    n = len(v)
    if n < 2:
        return (float(v[0]) if n else math.nan), math.nan, math.nan, n
    m = float(v.mean())
    se = float(v.std(ddof=1) / math.sqrt(n))
    q = t_quantile(1 - (1 - level) / 2, n - 1)
    return m, m - q * se, m + q * se, n


def overlap_cell(ratio, a, b, level):
    """The issue's looser reading of the per-problem fallback for samples
    a (the deciding kernel) and b (the best single kernel): ratio ≤ 1.25
    or the two t intervals of the means at level overlap. Returns (met,
    the Markdown cell)."""
    _, alo, ahi, _ = interval(a, level)
    _, blo, bhi, _ = interval(b, level)
    met = ratio <= 1.25 or (alo <= bhi and blo <= ahi)
    return met, "[%s, %s] against [%s, %s]: %s" % (g(alo), g(ahi), g(blo), g(bhi), "yes" if met else "no")


def verdict(res):
    """The verdict of a paired difference from its intervals on the main
    and the replication seed set: "holds: lower/higher" when both exclude
    0 on the same side, else which set's does, "reversed" or "neither";
    "—" when a set has no interval (fewer than two seeds)."""
    if any(math.isnan(lo) or math.isnan(hi) for _, lo, hi, _ in res):
        return "—"
    signs = [(-1 if hi < 0 else 1 if lo > 0 else 0) for _, lo, hi, _ in res]
    if signs[0] == signs[1] != 0:
        return "holds: %s" % ("lower" if signs[0] < 0 else "higher")
    if signs[0] != 0 and signs[1] == 0:
        return "main only"
    if signs[0] == 0 and signs[1] != 0:
        return "replication only"
    if signs[0] != 0 and signs[1] == -signs[0]:
        return "reversed"
    return "neither"


def g(v):
    return "%.3g" % v if abs(v) < 1000 else "%.0f" % v


def main():
    data = {name: [load(k, ps) for ps in sets] for name, (k, sets) in CONFIGS.items()}
    print("## Mean metric per configuration (main seeds 0–29 / replication 30–49)\n")
    print("| configuration | " + " | ".join(PROBLEMS) + " |")
    print("|---|" + "---|" * len(PROBLEMS))
    for name, sets in data.items():
        cells = []
        for p in PROBLEMS:
            ms = []
            for s in sets:
                v = [x for (pp, _), x in s.items() if pp == p]
                ms.append(g(float(np.mean(v))) if v else "—")
            cells.append(" / ".join(ms))
        print("| %s | %s |" % (name, " | ".join(cells)))
    for a, b in COMPARISONS:
        print("\n## %s − %s\n" % (a, b))
        print("Paired by seed; intervals at the Bonferroni level over the problems compared, per seed set; "
              "negative: %s is lower (better).\n" % a)
        print("| problem | main (0–29) | replication (30–49) | verdict |")
        print("|---|---|---|---|")
        rows = []
        for p in PROBLEMS:
            ivs = []
            for sa, sb in zip(data[a], data[b]):
                seeds = sorted(s for (pp, s) in sa if pp == p and (pp, s) in sb)
                ivs.append([sa[(p, s)] - sb[(p, s)] for s in seeds] if len(seeds) > 2 else None)
            rows.append((p, ivs))
        m = sum(1 for _, ivs in rows if all(iv is not None for iv in ivs))
        level = 1 - 0.05 / max(m, 1)
        tally = {}
        for p, ivs in rows:
            if any(iv is None for iv in ivs):
                print("| %s | — | — | not run in both |" % p)
                continue
            res = [interval(iv, level) for iv in ivs]
            v = verdict(res)
            tally[v] = tally.get(v, 0) + 1
            print("| %s | %s | %s | %s |" % (p, *("%s [%s, %s] (n=%d)" % (g(mm), g(lo), g(hi), n)
                                                  for mm, lo, hi, n in res), v))
        print("\nVerdicts: " + ", ".join("%s %d" % kv for kv in sorted(tally.items())) +
              " (intervals at %.4f)." % level)


def self_test():
    # t_{0.975, 9} = 2.262 (Student's table); the interval of 1..10 at 95%:
    # mean 5.5, s.e. 0.9574, half-width 2.1659.
    m, lo, hi, n = interval(range(1, 11), 0.95)
    assert n == 10 and abs(m - 5.5) < 1e-12 and abs((hi - lo) / 2 - 2.262157 * 0.957427) < 1e-4, (m, lo, hi)
    # Bonferroni over 10 problems: level 0.995, t_{0.9975, 29} = 3.038.
    assert abs(t_quantile(0.9975, 29) - 3.0380) < 1e-3, t_quantile(0.9975, 29)
    # Verdicts from (mean, lo, hi, n) on the main and replication sets.
    below, above, spans = (-2, -3, -1, 30), (2, 1, 3, 20), (0, -1, 1, 20)
    assert verdict([below, below]) == "holds: lower" and verdict([above, above]) == "holds: higher"
    assert verdict([below, spans]) == "main only" and verdict([spans, above]) == "replication only"
    assert verdict([below, above]) == "reversed" and verdict([spans, spans]) == "neither"
    # Fewer than two seeds on a set: no interval, and no verdict (not
    # "neither", which reads as measured and level); none at all: no crash.
    one, none = interval([2.0], 0.95), interval([], 0.95)
    assert one[0] == 2.0 and math.isnan(one[1]) and math.isnan(one[2]) and one[3] == 1, one
    assert math.isnan(none[0]) and math.isnan(none[1]) and none[3] == 0, none
    assert verdict([below, one]) == "—" and verdict([none, below]) == "—"
    print("self-test: ok")


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    else:
        main()
