"""A quick check behind docs/results/peers/README.md ("Scaling2d"): does
fitting symbo's default (plus, BoTorch priors, constant mean) to log f
instead of the noisy f avoid Scaling2d's wedge? Scaling2d's f = (x₁/x₂ − 1)²
on [0.1, 10]², scaling group, 5 initial points + 50 steps; prints the
cumulative regret of the 50 steps on f per seed for both arms. The raw arm
gets Scaling2d's noise (variance 1019.9, 2% of f's variance over the box;
numpy's generator, not perf's draws), the log arm log(f + 10⁻³) without
noise, so this is a description, not a paired comparison of perf's
protocol.

    make python && /usr/bin/python3 scripts/scaling_logy.py 0 10
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import symbo  # noqa: E402


def f(x):
    return (x[0] / x[1] - 1) ** 2


def main(a, b):
    res = {"raw": [], "log": []}
    for seed in range(a, b):
        rng = np.random.default_rng(1000 + seed)
        for mode in ("raw", "log"):
            opt = symbo.Optimizer([0.1, 0.1], [10, 10], group="scaling", kernel="plus", seed=seed, minimize=True)
            reg = 0.0
            for t in range(55):
                x = opt.ask()
                fx = f(x)
                y = fx + rng.normal(0, np.sqrt(1019.9)) if mode == "raw" else np.log(fx + 1e-3)
                opt.tell(x, y)
                if t >= 5:
                    reg += fx
            res[mode].append(reg)
            opt.close()
    for m, v in res.items():
        v = np.array(v)
        print(m, "mean %.1f median %.1f" % (v.mean(), np.median(v)), np.round(v).astype(int).tolist())


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
