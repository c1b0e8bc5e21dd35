"""The evidence tables of lab/results/anomalies.md (Debian python3 + numpy).

    nystrom TRACE.json…    per perf bo --json trace of nystrom on Ackley2d:
                           R_50, the initial design, the first fit, how often
                           the lengthscale sits at its lower bound, exact
                           re-proposals, k_ny(0,0)/v (the Nyström prior
                           variance at the optimum, relative to the base
                           kernel's) and the first step within ‖x‖ < 3
    scaling RESULTS.json…  per perf table --out results.json of Scaling2d:
                           how much of the cumulative regret comes from the
                           steps where f > 100 (the wedge x₁ > 11·x₂ at the
                           corner (10, 0.1), 3.7% of the box)
"""
import json
import math
import sys

import numpy as np


def matern52(a, b, ell):
    r = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2) / ell
    return (1 + math.sqrt(5) * r + 5 * r * r / 3) * np.exp(-math.sqrt(5) * r)


def nystrom(paths):
    print("| seed | R_50 | best f in design | min ‖x‖ in design | ℓ, σ² at step 1 | steps with ℓ at its bound 1e-3·s "
          "| exact re-proposals | k_ny(0,0)/v at step 1 | max over steps | first step with ‖x‖ < 3 | ‖x_55‖ |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for p in paths:
        d = json.load(open(p))
        init = [e for e in d["evaluations"] if e["phase"] == "init"]
        bo = [e for e in d["evaluations"] if e["phase"] == "bo"]
        xs = [e["x"] for e in init]
        at_bound = repeats = 0
        kny, entered = [], None
        for t, e in enumerate(bo, 1):
            a = np.array(xs)
            s = np.linalg.norm(a.max(0) - a.min(0))  # gp: the data scale, the design's bounding-box diagonal
            h = e["hyper"]
            if h["lengthscale"] <= 1.0001e-3 * s:
                at_bound += 1
            if np.min(np.linalg.norm(a - np.array(e["x"]), axis=1)) == 0:
                repeats += 1
            # The Nyström prior variance at the origin, k(0,X)·K⁺·k(X,0), over
            # the base kernel's v (nystrom truncates K as plus does; a
            # pseudo-inverse stands in for it here).
            k0 = matern52(np.zeros((1, 2)), a, h["lengthscale"])
            kny.append(float(k0 @ np.linalg.pinv(matern52(a, a, h["lengthscale"]), rcond=1e-12, hermitian=True) @ k0.T))
            if entered is None and math.hypot(*e["x"]) < 3:
                entered = t
            xs.append(e["x"])
        print("| %d | %.0f | %.2f | %.1f | %.3g, %.3g | %d | %d | %.2g | %.2g | %s | %.1f |" % (
            d["seed"], d["cumulative_regret"][-1], min(e["f"] for e in init), min(math.hypot(*e["x"]) for e in init),
            bo[0]["hyper"]["lengthscale"], bo[0]["hyper"]["noise"], at_bound, repeats, kny[0], max(kny),
            entered if entered else "never", math.hypot(*bo[-1]["x"])))


def scaling(paths):
    print("| results | kernel | runs | mean R_50 | median R_50 | share of ΣR from steps with f > 100 "
          "| runs with such a step | such steps per run | mean R_50 without them | noise variance (median, range) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for p in paths:
        r = json.load(open(p))
        for k in sorted({run["kernel"] for run in r["runs"]}):
            runs = [run for run in r["runs"] if run["kernel"] == k]
            big = [[e["f"] for e in run["evaluations"] if e["phase"] == "bo" and e["f"] > 100] for run in runs]
            R = np.array([run["cumulative_regret"][-1] for run in runs])
            rest = R - np.array([sum(b) for b in big])  # f* = 0: regret = f
            nv = [run["noise_variance"] for run in runs]
            print("| %s | %s | %d | %.0f | %.0f | %.3f | %d | %.2f | %.0f | %.3g (%.3g–%.3g) |" % (
                p, k, len(runs), R.mean(), np.median(R), 1 - rest.sum() / R.sum(), sum(1 for b in big if b),
                np.mean([len(b) for b in big]), rest.mean(), np.median(nv), min(nv), max(nv)))


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("nystrom", "scaling"):
        sys.exit(__doc__)
    {"nystrom": nystrom, "scaling": scaling}[sys.argv[1]](sys.argv[2:])
