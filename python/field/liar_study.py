"""What the constant liar should tell for failed and pending points.

The field test's objective (python/field/field_study.py: four widths a
permutation acts on, a log-scaled learning rate, an integer; failing on
about 20% of the box, its optimum 0.6 from the failing region) run with
symbo.Optimizer directly, in rounds of Q points asked together
(ask_batch), evaluated, then told or failed. For each liar (``mean``:
the mean of the observed values, symbo's default; ``worst``: the worst
observed value, SMAC's "crash cost") and each seed it records the best
value after N evaluations and the number of failed evaluations.

Two disjoint seed sets (0..S-1 and 100..100+S-1) are reported separately,
so a claim is read off one and checked on the other. Prints Markdown on
stdout (progress on stderr):

    make python
    /usr/bin/python3 python/field/liar_study.py [--seeds 10] [--evals 120] [--q 8]

lab/results/liar.md holds its output and the command.
"""

import argparse
import math
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import numpy as np  # noqa: E402

import field_study as F  # noqa: E402
import symbo  # noqa: E402

# Modelled coordinates: w0..w3 in [0, 8], log10 lr in [-5, -1], k relaxed
# to [0.5, 8.5] and rounded, as the Optuna sampler does.
LO = np.array([0, 0, 0, 0, -5, 0.5])
HI = np.array([8, 8, 8, 8, -1, 8.5])


def run(liar, seed, evals, q):
    opt = symbo.Optimizer(LO, HI, group="permutation", coords=[0, 1, 2, 3], seed=seed,
                          minimize=True, init=8, liar=liar)
    best, failed, n = math.inf, 0, 0
    while n < evals:
        xs = opt.ask_batch(min(q, evals - n))
        for x in xs:
            v = F.objective_value(x[:4], 10.0 ** x[4], int(round(x[5])))
            if v is None:
                opt.fail(x)
                failed += 1
            else:
                opt.tell(x, v)
                best = min(best, v)
            n += 1
    opt.close()
    return best, failed


def summary(vals):
    m = statistics.mean(vals)
    se = statistics.stdev(vals) / math.sqrt(len(vals)) if len(vals) > 1 else float("nan")
    return m, se, min(vals), max(vals)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--evals", type=int, default=120)
    ap.add_argument("--q", type=int, default=8)
    a = ap.parse_args()
    sets = [("seeds 0–%d" % (a.seeds - 1), range(a.seeds)),
            ("seeds 100–%d" % (100 + a.seeds - 1), range(100, 100 + a.seeds))]
    print("| seed set | liar | best value (mean ± s.e.) | best min–max | failed evaluations (mean, min–max) | mean wins (paired) |")
    print("|---|---|---|---|---|---|")
    for name, seeds in sets:
        res = {}
        for liar in ("mean", "worst"):
            res[liar] = [run(liar, s, a.evals, a.q) for s in seeds]
            print("%s %s done" % (name, liar), file=sys.stderr)
        wins = sum(1 for m, w in zip(res["mean"], res["worst"]) if m[0] < w[0])
        for liar in ("mean", "worst"):
            best = [b for b, _ in res[liar]]
            fails = [f for _, f in res[liar]]
            m, se, lo, hi = summary(best)
            col = "%d of %d" % (wins, len(best)) if liar == "mean" else ""
            print("| %s | %s | %.3f ± %.3f | %.3f–%.3f | %.1f, %d–%d | %s |" % (
                name, liar, m, se, lo, hi, statistics.mean(fails), min(fails), max(fails), col))


if __name__ == "__main__":
    main()
