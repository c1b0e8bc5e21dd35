"""Quick checks behind lab/results/peers/README.md ("Scaling2d"), where
symbo's default is worse than random search. Scaling2d's f = (x₁/x₂ − 1)²
on [0.1, 10]², 5 initial points + 50 steps; prints the cumulative regret of
the 50 steps on f per seed for four arms:

  raw      the default (plus over the scaling group, BoTorch priors,
           constant mean) told the noisy f (Scaling2d's noise variance
           1019.9, 2% of f's variance over the box; numpy's draws, not
           perf's);
  log      the same told log(f + 10⁻³), without noise: does an output
           transform avoid the wedge?
  u        no group: the plain base kernel on the one invariant
           u = log(x₁/x₂) ∈ [−log 100, log 100] (f = (eᵘ − 1)²), told the
           noisy f, with the front ends' defaults: does a geometry without
           the box-clipped orbits' distortion avoid it?
  u-paper  the same under the paper's protocol (no priors, sample mean).

Descriptions, not paired comparisons under perf's protocol.

    make python && /usr/bin/python3 lab/scripts/scaling_logy.py 0 10
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
import symbo  # noqa: E402


def f(x):
    return (x[0] / x[1] - 1) ** 2


U = np.log(100.0)


def run(mode, seed):
    rng = np.random.default_rng(1000 + seed)
    if mode in ("raw", "log"):
        opt = symbo.Optimizer([0.1, 0.1], [10, 10], group="scaling", kernel="plus", seed=seed, minimize=True)
    else:
        kw = dict(prior="none", mean="sample") if mode == "u-paper" else {}
        opt = symbo.Optimizer([-U], [U], group="none", kernel="base", seed=seed, minimize=True, **kw)
    reg = 0.0
    for t in range(55):
        x = opt.ask()
        fx = f(x) if mode in ("raw", "log") else (np.exp(x[0]) - 1) ** 2
        y = np.log(fx + 1e-3) if mode == "log" else fx + rng.normal(0, np.sqrt(1019.9))
        opt.tell(x, y)
        if t >= 5:
            reg += fx
    opt.close()
    return reg


def main(a, b):
    res = {m: [run(m, seed) for seed in range(a, b)] for m in ("raw", "log", "u", "u-paper")}
    for m, v in res.items():
        v = np.array(v)
        print(m, "mean %.1f median %.1f" % (v.mean(), np.median(v)), np.round(v).astype(int).tolist())


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
