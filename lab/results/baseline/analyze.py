#!/usr/bin/env python3
"""Statistics of lab/results/baseline.md from the four tables' traces.

Reads DIR/{sample,constant,sample-prior,constant-prior}/results.json (DIR: the
first argument, default lab/results/baseline; written by the perf table
commands in baseline.md, not committed) and prints: per cell the cumulative
regret mean ± s.e. over the seeds, and the same on the first and the second
half of the seeds apart; the paired difference constant − sample per seed
(same initial design and noise); and diagnostics of the fitted GP on the BO
steps: the fitted m̂ (standardized), the share of fits with the noise at its
lower bound, the median lengthscale relative to the box side and the share
of fits below 5% of it, and the share
of evaluations in a box corner (every coordinate within 2% of the box width
of a bound). Standard library only.
"""
import json
import math
import os
import statistics as st
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIGS = ["sample", "constant", "sample-prior", "constant-prior"]
BOX = {"Ackley2d": 16.0, "Griewank6d": 600.0, "Rastrigin5d": 5.12}


def load(root, name):
    with open(os.path.join(root, name, "results.json")) as f:
        return json.load(f)["runs"]


def msd(v):
    return st.mean(v), (st.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else float("nan"))


def fmt(v):
    m, s = msd(v)
    return f"{m:8.1f} ± {s:6.1f}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else HERE
    runs = {c: load(root, c) for c in CONFIGS}
    cells = {}
    for c, rs in runs.items():
        for r in rs:
            cells.setdefault((r["problem"], r["kernel"]), {}).setdefault(c, {})[r["seed"]] = r
    seeds = sorted({r["seed"] for rs in runs.values() for r in rs})
    h1, h2 = seeds[: len(seeds) // 2], seeds[len(seeds) // 2:]
    print(f"Cumulative regret, mean ± s.e. (seeds {seeds[0]}-{seeds[-1]} | {h1[0]}-{h1[-1]} | {h2[0]}-{h2[-1]})")
    for (p, k), by in sorted(cells.items()):
        for c in CONFIGS:
            rs = by[c]
            reg = lambda ss: [rs[s]["cumulative_regret"][-1] for s in ss if s in rs]
            print(f"{p:12s} {k:7s} {c:15s} {fmt(reg(seeds))} | {fmt(reg(h1))} | {fmt(reg(h2))}")
    print()
    print("Paired difference constant - sample, mean ± s.e. over seeds (all | first half | second half), and seeds where constant is lower")
    for (p, k), by in sorted(cells.items()):
        for a, b in [("constant", "sample"), ("constant-prior", "sample-prior")]:
            d = {s: by[a][s]["cumulative_regret"][-1] - by[b][s]["cumulative_regret"][-1] for s in by[a]}
            part = lambda seeds: [d[s] for s in seeds if s in d]
            wins = sum(1 for v in d.values() if v < 0)
            print(f"{p:12s} {k:7s} {a:15s} {fmt(part(seeds))} | {fmt(part(h1))} | {fmt(part(h2))}  lower on {wins}/{len(d)}")
    print()
    print("Fitted GP on the BO steps: m̂ median [10%, 90%], noise at its lower bound, median ℓ / box side, share of ℓ / side < 0.05, evaluations in a corner")
    for (p, k), by in sorted(cells.items()):
        for c in CONFIGS:
            ms, floor, ls, corner, nbo = [], 0, [], 0, 0
            lo_noise = 1e-4 if "prior" in c else 1e-6
            side = 2 * BOX[p]
            for r in by[c].values():
                for e in r["evaluations"]:
                    if e["phase"] != "bo":
                        continue
                    nbo += 1
                    h = e["hyper"]
                    ms.append(h.get("prior_mean", 0.0))
                    floor += h["noise"] <= lo_noise * (1 + 1e-6)
                    ls.append(h["lengthscale"] / side)
                    if all(abs(abs(x) - BOX[p]) <= 0.02 * side for x in e["x"]):
                        corner += 1
            q = st.quantiles(ms, n=10) if len(set(ms)) > 1 else [ms[0]] * 9
            short = sum(1 for v in ls if v < 0.05) / nbo
            print(f"{p:12s} {k:7s} {c:15s} m̂ {st.median(ms):+6.2f} [{q[0]:+6.2f}, {q[-1]:+6.2f}]  noise floor {floor / nbo:5.1%}"
                  f"  ℓ/side {st.median(ls):7.3f}  ℓ/side < 0.05 {short:5.1%}  corners {corner / nbo:5.1%}")


if __name__ == "__main__":
    sys.exit(main())
