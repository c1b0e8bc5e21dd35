"""What the no-repeat rule itself costs in cumulative regret, for any
policy: lab/results/hedge/norepeat.md.

Issue 40 asks for two things that meet on the problems whose optimum a
run finds exactly: no proposal within the exclusion radius r (10⁻³ of
the box diagonal) of an observed point's orbit, and cumulative regret
not resolvably worse than the default of the issue's day, which was
free to re-evaluate its best point. Whether the rule alone puts that
day's figures out of reach is a question about point sets, not about
symbo's policy, so this script answers it for every policy at once. For
the T = 50 BO steps of one run:

- lower bound: the steps are pairwise more than r apart, so at most one
  lies within r/2 of the optimum x*, and at most (1 + 2ρ/r)^d within ρ
  (balls of radius r/2 around them are disjoint and lie in the ball of
  radius ρ + r/2); the j-th closest is thus at least
  ρ_j = max(r/2, (r/2)(j^(1/d) − 1)) from x* (j ≥ 2), and
  Σ_j m(ρ_j) bounds the run's regret from below, where m(ρ) is an
  analytic lower bound on f − f* at distance ρ or more from x* (below).
  The group is ignored (it only forbids more), except for the rotations
  of Radial2d, whose orbits are circles: there the rule keeps the radii
  more than r apart, a packing on a line, at most 1 + 2ρ/r points within
  ρ of the optimal radius. The initial design is ignored too (it only
  forbids more).
- upper bound: the cost of one set of 50 points that obeys the rule under
  the problem's declared group (distances between orbits), chosen
  greedily by exact regret among the points candidates() lists about
  x* (grids, and Griewank's lattice of local minima); the optimum itself
  is the first.
  A policy that knew x* could do this well, so a figure of that day
  above it was not out of reach for the rule.

m(ρ), from the formulas in bo/problem/functions.go:
- Ackley (a = 20, b = 0.2): its first term a(1 − exp(−b‖x‖/√d)) grows
  with ‖x‖; its second, e − exp(mean cos 2πx_i), is ≥ 0, and
  ≥ e(1 − exp(−8‖x‖²/d)) while every |x_i| ≤ 1/2 (the bound on
  1 − cos below); a coordinate beyond 1/2 puts ‖x‖ above 1/2:
  m(ρ) = min(a(1 − e^(−bρ/√d)) + e(1 − e^(−8ρ²/d)), a(1 − e^(−b·max(ρ, ½)/√d))).
- Rastrigin: 1 − cos 2πt ≥ 8t² for |t| ≤ 1/2 (sin u ≥ 2u/π on
  [0, π/2]), so f ≥ 81‖x‖² while every |x_i| ≤ 1/2, and f ≥ x_i² > 1/4
  otherwise: m(ρ) = min(81ρ², 1/4).
- Griewank: cos u ≤ exp(−u²/2) on |u| ≤ π/2, so while every
  |x_i|/√i ≤ π/2, 1 − Π cos(x_i/√i) ≥ 1 − exp(−‖x‖²/(2d)); otherwise
  ‖x‖ > π/2 and only ‖x‖²/4000 is left:
  m(ρ) = min(ρ²/4000 + 1 − exp(−ρ²/(2d)), max(ρ, π/2)²/4000).
- Radial (t = ‖x‖/(10√2) − 0.8, the one-dimensional Rastrigin of t):
  min(81t², 1/4) with t = δ/(10√2) at radius δ from the optimal one.

Usage (from the repository root; reads the committed records):

    /usr/bin/python3 lab/scripts/norepeat.py > lab/results/hedge/norepeat.md
    /usr/bin/python3 lab/scripts/norepeat.py --self-test
"""
import itertools
import json
import math
import os
import statistics
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from defaults import g, interval, verdict as paired_verdict  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
T = 50            # BO steps per run (perf table's protocol: 5 init + 50)
FRACTION = 1e-3   # bo's pendingExclusion: the radius over the box diagonal
RADIAL_A, RADIAL_B = 10 * math.sqrt(2), 0.8


def ackley(x):
    d = x.shape[-1]
    r = np.sqrt((x * x).sum(-1) / d)
    return 20 * (1 - np.exp(-0.2 * r)) + (math.e - np.exp(np.cos(2 * np.pi * x).sum(-1) / d))


def rastrigin(x):
    return (x * x + 10 * (1 - np.cos(2 * np.pi * x))).sum(-1)


def griewank(x):
    i = np.sqrt(np.arange(1, x.shape[-1] + 1))
    return (x * x).sum(-1) / 4000 + (1 - np.prod(np.cos(x / i), axis=-1))


def radial(x):
    t = np.hypot(x[..., 0], x[..., 1]) / RADIAL_A - RADIAL_B
    return t * t + 10 * (1 - np.cos(2 * np.pi * t))


def m_ackley(rho, d):
    def first(t):
        return 20 * (1 - math.exp(-0.2 * t / math.sqrt(d)))
    return min(first(rho) + math.e * (1 - math.exp(-8 * rho * rho / d)), first(max(rho, 0.5)))


def m_rastrigin(rho, d):
    return min(81 * rho * rho, 0.25)


def m_griewank(rho, d):
    return min(rho * rho / 4000 + 1 - math.exp(-rho * rho / (2 * d)), max(rho, math.pi / 2) ** 2 / 4000)


def m_radial(delta, d):
    t = delta / RADIAL_A
    return min(81 * t * t, 0.25)


# Canonical forms: two orbits are dist(canon(x), canon(y)) apart.
def canon_hyperoctahedral(x):
    return np.sort(np.abs(x), axis=-1)


def canon_signflip(x):
    return np.abs(x)


def canon_rotation(x):
    return np.hypot(x[..., 0], x[..., 1])[..., None]


# name, d, half side of the box, f, m, canonical map, packing dimension
# (d, or 1 for the rotations' radii), Griewank's lattice of local minima
# (None elsewhere).
PROBLEMS = [
    ("Ackley2d", 2, 16, ackley, m_ackley, canon_hyperoctahedral, 2, None),
    ("Ackley3d", 3, 16, ackley, m_ackley, canon_hyperoctahedral, 3, None),
    ("Rastrigin3d", 3, 5.12, rastrigin, m_rastrigin, canon_hyperoctahedral, 3, None),
    ("Rastrigin5d", 5, 5.12, rastrigin, m_rastrigin, canon_hyperoctahedral, 5, None),
    ("Griewank6d", 6, 600, griewank, m_griewank, canon_signflip, 6,
     lambda d: 2 * np.pi * np.sqrt(np.arange(1, d + 1))),
    ("Griewank6d:hyperoctahedral", 6, 600, griewank, m_griewank, canon_hyperoctahedral, 6,
     lambda d: 2 * np.pi * np.sqrt(np.arange(1, d + 1))),
    ("Radial2d", 2, 10, radial, m_radial, canon_rotation, 1, None),
]


def radius(d, half):
    return FRACTION * 2 * half * math.sqrt(d)


def lower_bound(m, d, pack_dim, r, steps=T):
    """Σ_j m(ρ_j) over the steps, ρ_1 = 0 (the optimum itself)."""
    total = 0.0
    for j in range(2, steps + 1):
        if pack_dim == 1:
            rho = (r / 2) * (j - 1)
        else:
            rho = max(r / 2, (r / 2) * (j ** (1 / pack_dim) - 1))
        total += m(rho, d)
    return total


def greedy(points, regret, canon, r, steps=T):
    """Indices of up to steps points, cheapest first, whose orbits are
    pairwise more than r apart (canonical forms more than r apart)."""
    order = np.argsort(regret, kind="stable")
    c = canon(points)[order]
    alive = np.ones(len(order), bool)
    chosen = []
    margin = r * (1 + 1e-9)
    while len(chosen) < steps:
        live = np.flatnonzero(alive)
        if len(live) == 0:
            break
        k = live[0]
        chosen.append(order[k])
        near = ((c - c[k]) ** 2).sum(-1) <= margin * margin
        alive &= ~near
    return chosen


def candidates(name, d, half, lattice, r):
    """Points about the optimum, inside the box: for a function invariant
    under the signed permutations (Ackley, Rastrigin), a grid of step r/4
    on its chamber 0 ≤ x_1 ≤ … ≤ x_d (one point per orbit); for Griewank
    (even in each coordinate only), a grid of step r/2 on the
    nonnegative orthant and its lattice of local minima (2π√i·k_i, where
    every cosine is 1); for Radial, radii r/2 apart about the optimal one."""
    if name == "Radial2d":
        rho = RADIAL_A * RADIAL_B + (r / 2) * np.arange(-400, 401)
        rho = rho[(rho >= 0) & (rho <= half * math.sqrt(2))]
        return np.stack([rho / math.sqrt(2), rho / math.sqrt(2)], -1)
    if lattice is None:
        reach = {2: 48, 3: 36, 5: 28}[d]  # grid steps of r/4
        ks = np.array(list(itertools.combinations_with_replacement(range(reach + 1), d)), float)
        ks = ks[(ks * ks).sum(-1) <= reach * reach]
        return ks * (r / 4)
    reach = 7  # grid steps of r/2
    ks = np.array(list(itertools.product(range(reach + 1), repeat=d)), float)
    ks = ks[(ks * ks).sum(-1) <= reach * reach]
    ls = np.array(list(itertools.product(range(4), repeat=d)), float) * lattice(d)
    return np.concatenate([ks * (r / 2), ls[np.all(ls <= half, -1)]])


def upper_bound(name, d, half, f, canon, lattice, r):
    pts = candidates(name, d, half, lattice, r)
    reg = f(pts)
    chosen = greedy(pts, reg, canon, r)
    if len(chosen) < T:
        raise RuntimeError("%s: only %d points" % (name, len(chosen)))
    return float(reg[chosen].sum()), pts[chosen]


def by_seed(paths, problem):
    """{seed: metric} of problem's runs in the first of paths that ran it."""
    for path in paths:
        runs = json.load(open(os.path.join(ROOT, path, "record.json")))["runs"]
        got = {r["seed"]: r["metric"] for r in runs if r["problem"] == problem}
        if got:
            return got
    raise KeyError("%s: in none of %s" % (problem, paths))


# Per seed set (main, replication), the records that ran each problem:
# then, the default of issue 40's day (repeats allowed); now, the default
# before UCB's β/4 (today's adds β/4: hedge/soft-beta025-*).
THEN = (("lab/results/soft/window-main", "lab/results/soft/window-fresh-main"),
        ("lab/results/soft/window-replication", "lab/results/soft/window-fresh-replication"))
NOW = (("lab/results/hedge/soft-starts3-main",), ("lab/results/hedge/soft-starts3-replication",))
# The soft suite's 24 problems: the Bonferroni family of hedge.py.
LEVEL = 1 - 0.05 / 24


def verdict(lb, ub, then):
    """What the rule alone does to that day's figures, from the bounds
    and that day's samples on both seed sets: "forbids" when even the
    lower bound, which every rule-abiding policy's mean reaches, lies
    above the upper end of that day's t interval (level LEVEL) on both
    sets; "allows" when a rule-abiding set costs less than that day's
    mean on both sets; else "undecided"."""
    if all(lb > interval(t, LEVEL)[2] for t in then):
        return "forbids"
    if all(ub < statistics.mean(t) for t in then):
        return "allows"
    return "undecided"


# The decomposition of then → now on the same problems and seeds, each
# step one change (lab/scripts/results.sh, "repeats"): the old kernel
# (avg and its fixed-point probe among the candidates) under today's
# protocol with repeats allowed; today's kernel with repeats allowed.
STAGES = [
    ("then", THEN),
    ("old kernel, today's protocol, repeats allowed",
     (("lab/results/hedge/avg-repeats-main",), ("lab/results/hedge/avg-repeats-replication",))),
    ("today's kernel, repeats allowed",
     (("lab/results/hedge/repeats-main",), ("lab/results/hedge/repeats-replication",))),
    ("now (the rule)", NOW),
]
STEPS = ["the protocol (normalized, ARD, hedged, three ascents)", "the kernel (avg and its probe out)",
         "the rule (no repeats, stepping aside)"]


def decomposition():
    names = [n for n, _ in STAGES]
    level = 1 - 0.05 / (len(PROBLEMS) * len(STEPS))
    print("\n## Then to now, one change at a time\n")
    print("Records: then `soft/window-*`; the old kernel (`portfolio:nystrom+avg:soft+plus`, its fixed-point "
          "probe in the first five steps) under today's protocol with repeats allowed `hedge/avg-repeats-*`; "
          "today's kernel with repeats allowed `hedge/repeats-*`; now `hedge/soft-starts3-*` "
          "(lab/scripts/results.sh, blocks repeats and starts). "
          "Mean cumulative regret, main / replication seeds; each step's cell: the ratio of the means "
          "(main / replication) and the verdict of the paired t intervals at %.4f (Bonferroni over %d problems "
          "× %d steps), a verdict only where both sets agree.\n" % (level, len(PROBLEMS), len(STEPS)))
    print("| problem | " + " | ".join(names) + " | " + " | ".join(STEPS) + " |")
    print("|---|" + "---|" * (len(names) + len(STEPS)))
    for name, *_ in PROBLEMS:
        data = [[by_seed(ps, name) for ps in sets] for _, sets in STAGES]
        cells = ["%s / %s" % (g(statistics.mean(a.values())), g(statistics.mean(b.values()))) for a, b in data]
        for i in range(len(STEPS)):
            old, new = data[i], data[i + 1]
            res, ratios = [], []
            for k in range(2):
                seeds = sorted(set(old[k]) & set(new[k]))
                res.append(interval([new[k][s] - old[k][s] for s in seeds], level))
                ratios.append(statistics.mean(new[k][s] for s in seeds) / statistics.mean(old[k][s] for s in seeds))
            v = paired_verdict(res)
            cells.append("%.2f / %.2f, %s" % (ratios[0], ratios[1], v))
        print("| %s | %s |" % (name, " | ".join(cells)))


def fmt(v):
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return "%.0f" % v
    if abs(v) >= 1:
        return "%.3g" % v
    return "%.2g" % v


def report():
    print("# The no-repeat rule's own cost: bounds for any policy\n")
    print("Generated by `/usr/bin/python3 lab/scripts/norepeat.py` (its docstring gives the bounds and their "
          "proofs) from the committed records `soft/window-*` (then: the default of issue 40's day, repeats "
          "allowed) and `hedge/soft-starts3-*` (now: the default before UCB's β/4; today's default, β/4 "
          "included, is `hedge/soft-beta025-*`, whose means [beta.md](beta.md) gives), seeds 0–29 / 30–49. The bounds are "
          "on the cumulative regret of the 50 BO steps of one run, for **any** policy that never proposes "
          "a point within r = 10⁻³ of the box diagonal of an observed point's orbit.\n")
    print("| problem | r | any policy under the rule: at least | a rule-abiding set of 50 points: at most | "
          "then: mean (main / replication) | then: upper end of its interval (main / replication) | now: mean (main / replication) | the rule alone |")
    print("|---|---|---|---|---|---|---|---|")
    for name, d, half, f, m, canon, pack, lattice in PROBLEMS:
        r = radius(d, half)
        lb = lower_bound(m, d, pack, r)
        ub, _ = upper_bound(name, d, half, f, canon, lattice, r)
        then = [list(by_seed(p, name).values()) for p in THEN]
        now = [list(by_seed(p, name).values()) for p in NOW]
        ends = [interval(t, LEVEL)[2] for t in then]
        print("| %s | %s | %s | %s | %s / %s | %s / %s | %s / %s | %s |" % (
            name, fmt(r), fmt(lb), fmt(ub), fmt(statistics.mean(then[0])), fmt(statistics.mean(then[1])),
            fmt(ends[0]), fmt(ends[1]), fmt(statistics.mean(now[0])), fmt(statistics.mean(now[1])),
            verdict(lb, ub, then)))


def self_test():
    # The packing bound in one dimension: 50 points more than r apart
    # about 0 with m(ρ) = ρ: 0 + r/2·(1 + 2 + … + 49).
    assert abs(lower_bound(lambda rho, d: rho, 1, 1, 2.0) - sum(range(50))) < 1e-9
    # In d dimensions the second point is at least r/2 away.
    assert abs(lower_bound(lambda rho, d: 1.0 if rho >= 0.5 else 0.0, 3, 3, 1.0, steps=2) - 1) < 1e-12
    # Each m is a lower bound of its function: sampled shells.
    rng = np.random.default_rng(1)
    for name, d, half, f, m, canon, pack, lattice in PROBLEMS:
        for rho in (1e-3, 0.01, 0.1, 0.5, 1, 3, 10):
            if name == "Radial2d":
                delta = rho
                ang = rng.uniform(0, 2 * np.pi, 2000)
                for s in (1, -1):
                    rad = RADIAL_A * RADIAL_B + s * delta
                    x = np.stack([rad * np.cos(ang), rad * np.sin(ang)], -1)
                    assert f(x).min() >= m(delta, d) - 1e-12, (name, rho)
                continue
            u = rng.normal(size=(4000, d))
            u /= np.linalg.norm(u, axis=-1, keepdims=True)
            for scale in (1, 1.5, 4):
                x = u * rho * scale
                assert f(x).min() >= m(rho, d) - 1e-12, (name, rho, scale)
    # The greedy set obeys the rule under its group: signed permutations
    # of a point are one orbit, so only one of them is kept.
    pts = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, -1.0], [2.0, 0.0]])
    chosen = greedy(pts, np.array([0.0, 1.0, 1.0, 4.0]), canon_hyperoctahedral, 0.5)
    assert sorted(chosen) == [0, 1, 3], chosen
    # ...and under the sign flips alone both are kept.
    assert sorted(greedy(pts, np.array([0.0, 1.0, 1.0, 4.0]), canon_signflip, 0.5)) == [0, 1, 2, 3]
    # Every upper-bound set is rule-abiding: orbit distances above r.
    for name, d, half, f, m, canon, pack, lattice in PROBLEMS:
        r = radius(d, half)
        ub, pts = upper_bound(name, d, half, f, canon, lattice, r)
        c = canon(pts)
        d2 = ((c[:, None, :] - c[None, :, :]) ** 2).sum(-1)
        np.fill_diagonal(d2, np.inf)
        assert d2.min() > r * r, name
        assert np.all(np.abs(pts) <= half * (1 + 1e-12)), name
        assert lower_bound(m, d, pack, r) <= ub + 1e-9, name
    # The verdicts.
    then = [[1.0, 2.0, 3.0], [1.0, 2.0, 3.5]]
    assert verdict(100.0, 200.0, then) == "forbids"
    assert verdict(0.1, 1.5, then) == "allows"
    assert verdict(2.0, 2.5, then) == "undecided"
    print("self-test: ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    else:
        report()
        decomposition()
