"""The peers on the users' suite (lab/suite/README.md, issue 43).

Runs BoTorch's SingleTaskGP (ARD + Normalize), Optuna's GPSampler (v4.7.0),
TPESampler and RandomSampler -- and, on the problems with log or integer
parameters, symbo through its Optuna sampler -- on the 24 problems of the
users' suite with the suite's protocol, seed by seed, paired by seed with
symbo's `perf bo --problem P --seed S` / `perf table` runs. Not part of CI.
lab/peers/peers.py (the peers on the paper's problems) is unchanged; this
script borrows its helpers (pyro stand-in, atomic writes, versions, perf
eval, metric).

The protocol, per (problem, seed) (the README's "The protocol"):
  * 5 initial points and 50 BO steps. The initial points are symbo's: read
    from `perf bo --problem P --kernel base --seed S --iters 1 --json F`
    (perf bo and perf table draw the same uniform design whatever the
    kernel). Their noisy observations are symbo's y where the problem has
    only continuous parameters (every system then sees the very numbers
    symbo saw).
  * the problem's own noise (bo/problem: Problem.NoiseVariance, none /
    light 1% / moderate 5% / heavy 20% of Var f over the box; the paper's
    2% for Ackley2d, Rastrigin5d, Griewank6d, WLAN8d): Gaussian with the
    trace's noise_variance. symbo draws the noise of evaluation i from its
    own stream (seed, i), independent of the point and of the problem, so
    the standard normal draws z_i (i = 0..54) are read back from a
    55-evaluation symbo run of the seed on Radial2d (a paper problem that
    is in neither half of the suite: nothing runs on a held-out problem to
    get them), z_i = (y_i - f_i)/sqrt(noise variance), checked against the
    problem's own 5 initial observations where it is noisy; every system
    observes y_i = f(x_i) + sd*z_i (noiseless problems: y = f exactly);
  * the noiseless f is symbo's: `perf eval` (one call per BO step; the
    initial design of a log/integer problem and the agreement check are
    batched in one call each), except where a numpy f already exists
    (lab/peers/peers.py: Ackley2d, Griewank6d, Rastrigin5d), which is
    checked against `perf eval` at 50 random points (one batched call)
    before the problem's first run and stops above 1e-12 relative;
  * the metric is perf table's: cumulative regret sum_{t=1..50} |f(x_t) -
    f*| over the BO steps, on the noiseless f, with f* the registry's
    (perf bo's "optimum"); -max f over all 55 evaluations on WLAN8d and
    WLANOther8d (no f*, maximized);
  * one thread: OMP_NUM_THREADS=1 and torch.set_num_threads(1).

How each system sees each kind of parameter. symbo's registry
(bo/problem/suite.go) writes a log parameter as its log10 coordinate and
relaxes an integer one (Net6d's widths) to its continuous range; f is
defined on those coordinates. Three problems have such parameters: Net6d
(widths w1..w4 integers in [16, 1024], lr log in [1e-5, 1e-1], dropout),
Reactor5d (catalyst log in [1e-3, 1], pressure log in [1e2, 1e5]) and
Mixed7d (x6 log in [1e-4, 1e-1]). On them (the README: "Problems with log
or integer parameters run through the Optuna sampler for every Optuna peer
and for symbo"):
  * Optuna peers (and symbo-optuna): the user's distributions,
    IntDistribution(16, 1024) for a width, FloatDistribution(lo, hi,
    log=True) for a log parameter, FloatDistribution(lo, hi) otherwise; a
    trial's parameters are mapped to the registry's coordinates (log10 of
    a log parameter, an integer as a float) and evaluated by perf eval;
  * BoTorch: the coordinates a careful BoTorch user gives it -- a float as
    is, log10 of a log parameter (the registry's coordinate), an integer
    relaxed to [low - 1/2, high + 1/2] and rounded to the nearest integer
    (clamped into [low, high]) when evaluated; the model is told the
    evaluated (rounded) point;
  * the initial design: symbo's 5 points mapped to the distributions
    (widths rounded to the nearest integer, a log parameter 10**z clamped
    into its range) and back to the registry's coordinates; every system
    here sees those same 5 points and the observations f(point) + sd*z_i
    with symbo's draws z_i (f by one batched perf eval). symbo-optuna sees
    them too (enqueued), so it pairs with the peers exactly; perf bo's
    relaxed design differs from them only by the rounding of the widths
    (Net6d) and by ulps of log10(10**z).
On the other 21 problems every parameter is a float: Optuna gets
FloatDistribution(lo, hi) per coordinate and BoTorch the box itself.

Systems (--systems, comma-separated; default all but symbo-optuna):
  botorch      botorch 0.8.3's SingleTaskGP with its defaults (ConstantMean,
               ScaleKernel(ARD Matern-5/2), Gamma(3,6) lengthscale and
               Gamma(2,0.15) outputscale priors, Gaussian likelihood with
               its Gamma(1.1,0.05) noise prior), input_transform=Normalize(
               d, bounds=the box in BoTorch's coordinates), outcome_transform
               =Standardize(m=1), float64; fit_gpytorch_mll; UpperConfidence
               Bound(beta_t = 0.5*d*log t, t = 1..50, symbo's "paper" beta)
               maximized over the unit cube Normalize maps the box to, by
               optimize_acqf(num_restarts=NR, raw_samples=RS). NR = 10, RS =
               512 (symbo's 10 starts and 512 raw samples; peers.py's) unless
               --botorch-restarts / --botorch-raw-samples cut them (the
               record keeps them; a cut changes the system: say so where it
               is reported). BoTorch maximizes -y (WLAN: y).
               torch.manual_seed(S) before the run.
               Its records and table column are "botorch" at the
               default and "botorch[rNR,sRS]" under a cut, so the two never
               mix (resuming with other settings starts the cut's own runs).
  optuna-gp    optuna.samplers.GPSampler(seed=S, n_startup_trials=5): its
               defaults (log EI, noise fitted).
  optuna-tpe   optuna.samplers.TPESampler(seed=S, n_startup_trials=5).
  random       optuna.samplers.RandomSampler(seed=S).
  symbo-optuna symbo.optuna.SymboSampler(group=G, params=the grouped
               parameters, seed=S, n_startup_trials=5, **--symbo-options)
               on Net6d (permutation of w1..w4), Reactor5d (signflip of
               a1, a2) and Mixed7d (hyperoctahedral of x1..x3) only (the
               others run through perf table); symbo from this repository's
               python/ (make python), put first on sys.path. Skipped on the
               other problems.
The Optuna studies get the 5 initial points by enqueue_trial (checked: the
trial's parameters are the enqueued ones) and are told their noisy y; they
minimize (WLAN: maximize) the noisy y.

Seconds per step (step_seconds, one per BO step): the wall time of one
suggestion (BoTorch: fit + acquisition optimization; Optuna: ask + tell),
f's evaluation excluded.

Packages: as lab/peers/peers.py ("Getting the packages").

Smoke test (seed 0, tuning problems only; AMD EPYC, 2 cores shared with
other work, nice 5, one thread): metric, then seconds per run (wall, f's
perf eval calls included) and the median seconds per step.

  problem       botorch            optuna-gp         optuna-tpe       random           symbo-optuna
  OffAckley4d   171.8  22.5 s 0.38  315.6  3.6 s 0.055  231.8  0.9 s 0.004  333.9  0.4 s  --
  Reactor5d      15.1  18.7 s 0.36   47.6  5.1 s 0.063   29.2  1.8 s 0.020   64.0  0.4 s   14.1 2.0 s 0.027
  Fleet8d        31.5  46.2 s 0.74   73.1 10.4 s 0.168
  BumpsPerm10d   77.8  41.1 s 0.71  185.8 10.3 s 0.139
  Fleet8d, --botorch-restarts 4 --botorch-raw-samples 128: 32.2, 11.7 s, 0.21 s/step (3.9x cheaper).

BoTorch's step grows from about 0.34 s (first 5 steps) to 0.8 s (last 5)
on OffAckley4d; its cost depends on the landscape as much as on d (a
stand-in shifted Ackley with a numpy f, not a suite problem, took 15 s per
run at d = 2 and 18 s at d = 12; GPSampler 1.2 s and 2.0 s).

THE HELD-OUT RUN (once, untouched; from the repository root):

  go build -o /tmp/suite-perf ./cmd/perf
  make python       # only for symbo-optuna
  export OMP_NUM_THREADS=1 PYTHONPATH=/opt/peers/botorch-src:/opt/peers/gpytorch-src:\
/opt/peers/linear_operator-src:/opt/peers/optuna-src
  # main seeds 0-29, then the replication 30-49 (resumable: rerun the same
  # command after a stop; a finished (problem, system, seed) is skipped)
  nice -n 5 /usr/bin/python3 lab/peers/suite.py --perf /tmp/suite-perf \
      --problems heldout --systems botorch,optuna-gp,optuna-tpe,random,symbo-optuna \
      --seeds 0:30 --out lab/results/suite/peers
  nice -n 5 /usr/bin/python3 lab/peers/suite.py --perf /tmp/suite-perf \
      --problems heldout --systems botorch,optuna-gp,optuna-tpe,random,symbo-optuna \
      --seeds 30:50 --out lab/results/suite/peers
  # the report (table.md and summary.json in --out; no runs)
  /usr/bin/python3 lab/peers/suite.py --report --problems heldout \
      --out lab/results/suite/peers

(The run of record, at df168c1, cut BoTorch: --botorch-restarts 4
--botorch-raw-samples 128 on both commands; seeds 0:30 and 30:50 ran in
two processes side by side. lab/results/suite/README.md reports it.)

(--symbo-options '{"...": ...}' passes the chosen default's settings to
SymboSampler if they are not the library's defaults by then; two processes
may run the two seed ranges side by side on two cores, at the cost of the
timings' comparability.)

Estimated CPU time of the held-out run (12 problems x 50 seeds, one core,
from the smoke test's per-step timings; BoTorch and GPSampler grow with d
and n, the 12-d problems cost most):
  botorch (10 restarts, 512 raw samples)   600 runs x 15-46 s, about 28 s
                                           on average: ~4.5 h (3-7.5 h)
  botorch[r4,s128] (if the lead cuts it)   ~1.2 h
  optuna-gp                                600 runs x 1-10 s: ~1 h (0.5-1.7 h)
  optuna-tpe                               600 runs x 1-2 s: ~15 min
  random                                   600 runs x 0.4 s: ~5 min
  symbo-optuna (Net6d, Mixed7d only)       100 runs x 2-5 s: ~5 min
  symbo's traces (perf bo --iters 1 per problem and seed; a 50-step
  Radial2d run per seed for the noise draws): a few minutes.
  In all about 6 h of one core at the documented defaults (4-9.5 h), about
  2.5 h with BoTorch cut; the two seed ranges in two processes halve the
  wall time on the two cores.

Seeds outermost, then problems, then systems. Records are
OUT/records/PROBLEM/SYSTEM/SEED.json, written atomically; a (problem,
system, seed) whose record exists is skipped (resumable). Progress goes
to stderr. --problems takes names, or "tuning" / "heldout" / "all" (the
README's split, lab/suite/split.py's halves, in its order), "fresh"
(the fresh held-out set, lab/suite/fresh.md) or "third" (the third,
lab/suite/third.md).
"""

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import peers  # noqa: E402  (pyro stand-in, atomic writes, versions, perf eval, metric)

SYSTEMS = ["botorch", "optuna-gp", "optuna-tpe", "random", "symbo-optuna"]
DEFAULT_SYSTEMS = ["botorch", "optuna-gp", "optuna-tpe", "random"]
INIT, ITERS = 5, 50
NOISE_SOURCE = "Radial2d"  # a paper problem in neither half: symbo's noise draws are read from its run
SETS = [(0, 30), (30, 50)]

# The split (lab/suite/README.md, "The split"), each half in its order there.
TUNING = ["WLAN8d", "Rastrigin5d", "WLANOther8d", "PhaseRing6d", "OffAckley4d", "BumpsPerm6d",
          "Cluster3x2d", "ApproxPerm5d", "WrongSign4d", "Reactor5d", "Fleet8d", "BumpsPerm10d"]
HELDOUT = ["Griewank6d", "Ackley2d", "BumpsPerm4dHeavy", "OffGriewank8d", "ShiftedRastrigin3dHeavy", "Ring2d",
           "Sphere6dCentred", "Anisotropic2d:rotation2d", "Mixed7d", "Net6d", "OffGriewank12d",
           "ShiftedAckley12dPerm"]
# The fresh held-out set (lab/suite/fresh.md), in its order.
FRESH = ["StyblinskiAbs4d", "OffLevy6d", "OffRosen5d", "Targets4x2d", "Halo2d", "Salomon4d", "DiagRastrigin6d",
         "TiltedRing2d", "WrongPerm4d", "Pumps6d", "Rig7d", "OffLevy10dPerm"]
# The third held-out set (lab/suite/third.md), in its order.
THIRD = ["QingAbs5d", "AlpineShell4d", "ZakharovSorted6d", "Blocks2x3d", "CosineShell2d", "AlpineAbs5d",
         "CentreZakharov4d", "TiltedSign3d", "WrongRot2d", "Mixer6d", "Antenna5d", "OffZakharov8dHyper"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- problems
#
# A parameter: (name, kind, low, high) in the user's units; kind "float",
# "log" (float, log=True; the registry's coordinate is its log10) or "int"
# (the registry's coordinate is the integer as a float, relaxed). The boxes
# are bo/problem's (Problem.Bounds), checked against every trace's initial
# design.

def _cube(d, lo, hi, prefix="x"):
    return [(f"{prefix}{i + 1}", "float", float(lo), float(hi)) for i in range(d)]


SPACES = {
    "WLAN8d": _cube(8, -50, 50),
    "Rastrigin5d": _cube(5, -5.12, 5.12),
    "WLANOther8d": _cube(8, -50, 50),
    "PhaseRing6d": _cube(6, -math.pi, math.pi),
    "OffAckley4d": _cube(4, -5, 5),
    "BumpsPerm6d": _cube(6, 0, 1),
    "Cluster3x2d": _cube(6, -2, 2),
    "ApproxPerm5d": _cube(5, -2, 2),
    "WrongSign4d": _cube(4, -3, 3),
    "Reactor5d": [("a1", "float", -1.0, 1.0), ("a2", "float", -1.0, 1.0), ("T", "float", 300.0, 900.0),
                  ("catalyst", "log", 1e-3, 1.0), ("pressure", "log", 1e2, 1e5)],
    "Fleet8d": _cube(6, 0, 1000) + [("speed", "float", 1.0, 10.0), ("buffer", "float", 0.0, 1.0)],
    "BumpsPerm10d": _cube(10, 0, 1),
    "Griewank6d": _cube(6, -600, 600),
    "Ackley2d": _cube(2, -16, 16),
    "BumpsPerm4dHeavy": _cube(4, 0, 1),
    "OffGriewank8d": _cube(8, -10, 10),
    "ShiftedRastrigin3dHeavy": _cube(3, -5.12, 5.12),
    "Ring2d": _cube(2, -3, 3),
    "Sphere6dCentred": _cube(6, -2, 2),
    "Anisotropic2d:rotation2d": _cube(2, -2, 2),
    "Mixed7d": _cube(3, -2, 2) + [("x4", "float", 0.0, 1.0), ("x5", "float", 1.0, 100.0),
                                  ("x6", "log", 1e-4, 1e-1), ("x7", "float", 0.0, 1e4)],
    "Net6d": [("w1", "int", 16, 1024), ("w2", "int", 16, 1024), ("w3", "int", 16, 1024), ("w4", "int", 16, 1024),
              ("lr", "log", 1e-5, 1e-1), ("dropout", "float", 0.0, 0.5)],
    "OffGriewank12d": _cube(12, -10, 10),
    "ShiftedAckley12dPerm": _cube(12, -5, 5),
    "StyblinskiAbs4d": _cube(4, -5, 5),
    "OffLevy6d": _cube(6, -5, 5),
    "OffRosen5d": _cube(5, -3, 3),
    "Targets4x2d": _cube(8, -2, 2),
    "Halo2d": _cube(2, -2.5, 2.5),
    "Salomon4d": _cube(4, -4, 4),
    "DiagRastrigin6d": _cube(6, -3, 3),
    "TiltedRing2d": _cube(2, -2.5, 2.5),
    "WrongPerm4d": _cube(4, -2, 2),
    "Pumps6d": _cube(3, 0, 500, "q") + [("T", "float", 250.0, 400.0), ("log10_pressure", "float", 0.0, 4.0),
                                        ("valve", "float", 0.0, 1.0)],
    "Rig7d": _cube(3, -90, 90, "a") + [("frequency", "float", 1e3, 1e6), ("gain", "float", 0.0, 0.01),
                                       ("x6", "float", 0.0, 1e5), ("x7", "float", -1.0, 1.0)],
    "OffLevy10dPerm": _cube(10, -5, 5),
    "QingAbs5d": _cube(5, -3, 3),
    "AlpineShell4d": _cube(4, -6, 6),
    "ZakharovSorted6d": _cube(6, -4, 4),
    "Blocks2x3d": _cube(6, -2, 2),
    "CosineShell2d": _cube(2, -3, 3),
    "AlpineAbs5d": _cube(5, -3, 3),
    "CentreZakharov4d": _cube(4, -2, 3),
    "TiltedSign3d": _cube(3, -3, 3),
    "WrongRot2d": _cube(2, -2.5, 2.5),
    "Mixer6d": _cube(3, 100, 3000, "s") + [("T", "float", 273.0, 373.0), ("log10_time", "float", 0.0, 5.0),
                                           ("x6", "float", 0.0, 1e5)],
    "Antenna5d": _cube(2, -180, 180, "a") + [("spacing", "float", 0.001, 0.1), ("power", "float", 0.0, 1000.0),
                                             ("gain", "float", -1.0, 1.0)],
    "OffZakharov8dHyper": _cube(8, -2, 2),
}
# symbo's group through its Optuna sampler (symbo-optuna), on the problems with log/integer parameters.
SYMBO_GROUPS = {
    "Net6d": ("permutation", ["w1", "w2", "w3", "w4"]),
    "Reactor5d": ("signflip", ["a1", "a2"]),
    "Mixed7d": ("hyperoctahedral", ["x1", "x2", "x3"]),
}
NUMPY_F = ["Ackley2d", "Griewank6d", "Rastrigin5d"]  # peers.py's numpy f


def hetero(name):
    """Whether the problem has a log or integer parameter (runs through the Optuna sampler)."""
    return any(k != "float" for _, k, _, _ in SPACES[name])


def registry_box(name):
    """The registry's box: log10 bounds of a log parameter, the integer range of an integer one."""
    lo = np.array([math.log10(a) if k == "log" else float(a) for _, k, a, _ in SPACES[name]])
    hi = np.array([math.log10(b) if k == "log" else float(b) for _, k, _, b in SPACES[name]])
    return lo, hi


def to_params(name, x):
    """Registry coordinates -> the user's parameters (an int rounded and clamped, a log parameter 10**z
    clamped into its range)."""
    out = {}
    for (n, k, a, b), v in zip(SPACES[name], x):
        v = float(v)
        if k == "int":
            out[n] = int(min(max(int(np.rint(v)), a), b))
        elif k == "log":
            out[n] = float(min(max(10.0 ** v, a), b))
        else:
            out[n] = float(min(max(v, a), b))
    return out


def to_registry(name, params):
    """The user's parameters -> the registry's coordinates f is defined on."""
    return [math.log10(params[n]) if k == "log" else float(params[n]) for n, k, _, _ in SPACES[name]]


def botorch_box(name):
    """BoTorch's coordinates: the registry's, an integer relaxed to [low - 1/2, high + 1/2]."""
    lo, hi = registry_box(name)
    for i, (_, k, _, _) in enumerate(SPACES[name]):
        if k == "int":
            lo[i] -= 0.5
            hi[i] += 0.5
    return lo, hi


def botorch_point(name, u):
    """A BoTorch candidate (its coordinates) -> the evaluated point in registry coordinates (an integer
    rounded to the nearest and clamped; every coordinate clamped into the box)."""
    lo, hi = registry_box(name)
    x = []
    for (_, k, a, b), v, l, h in zip(SPACES[name], u, lo, hi):
        v = float(v)
        if k == "int":
            v = float(min(max(int(np.rint(v)), a), b))
        x.append(float(min(max(v, l), h)))
    return x


class Evaluator:
    """f in registry coordinates: numpy (checked against perf eval) or perf eval."""

    def __init__(self, perf, name, rng):
        self.perf, self.name = perf, name
        self.f = peers.problem(name)["f"] if name in NUMPY_F else None
        self.calls = 0
        if self.f is not None:
            lo, hi = registry_box(name)
            xs = lo + (hi - lo) * rng.random((50, len(lo)))
            want = peers.perf_eval(perf, name, xs)
            worst = max(abs(self.f(x) - w) / max(1.0, abs(w)) for x, w in zip(xs, want))
            if worst > 1e-12:
                sys.exit(f"suite: {name}: numpy's f disagrees with perf eval (relative error {worst:.3g})")
            log(f"suite: {name}: numpy f agrees with perf eval at 50 random points (max relative error {worst:.2g})")
        else:
            log(f"suite: {name}: f evaluated by perf eval")

    def many(self, xs):
        if not len(xs):
            return []
        if self.f is not None:
            return [float(self.f(np.asarray(x, dtype=float))) for x in xs]
        self.calls += 1
        return [float(v) for v in peers.perf_eval(self.perf, self.name, xs)]

    def __call__(self, x):
        return self.many([x])[0]


# ---------------------------------------------------------------- symbo's design and noise

def design(perf, name, seed, cache, ev):
    """symbo's initial design and noise for (problem, seed), as every system here sees it."""
    tr = peers.perf_trace(perf, name, seed, 1, cache)
    if tr["init"] != INIT:
        sys.exit(f"suite: perf bo used init {tr['init']}, want {INIT}")
    if tr["d"] != len(SPACES[name]):
        sys.exit(f"suite: {name}: perf bo says d = {tr['d']}, the space here has {len(SPACES[name])}")
    evs = [e for e in tr["evaluations"] if e["phase"] == "init"]
    lo, hi = registry_box(name)
    for e in evs:
        if any(v < a or v > b for v, a, b in zip(e["x"], lo, hi)):
            sys.exit(f"suite: {name}: symbo's initial point {e['x']} lies outside the box here")
    nv = tr["noise_variance"]
    sd = math.sqrt(nv)
    nz = peers.perf_trace(perf, NOISE_SOURCE, seed, ITERS, cache)
    nsd = math.sqrt(nz["noise_variance"])
    z = [(e["y"] - e["f"]) / nsd for e in nz["evaluations"]]
    if len(z) != INIT + ITERS:
        sys.exit(f"suite: noise trace has {len(z)} evaluations, want {INIT + ITERS}")
    for i, e in enumerate(evs):
        if sd == 0:
            if e["y"] != e["f"]:
                sys.exit(f"suite: {name} seed {seed}: noiseless, yet y {e['y']} != f {e['f']}")
            continue
        zi = (e["y"] - e["f"]) / sd  # symbo's noise stream does not depend on the problem: check it
        if abs(zi - z[i]) > 1e-6 * max(1.0, abs(z[i])):
            sys.exit(f"suite: {name} seed {seed}: noise draw {i} is {zi}, {NOISE_SOURCE}'s is {z[i]}")
    symbo_x0 = [e["x"] for e in evs]
    p0 = [to_params(name, x) for x in symbo_x0]  # the points as the distributions hold them
    if hetero(name):
        x0 = [to_registry(name, p) for p in p0]
        f0 = ev.many(x0)
        y0 = [fv + sd * z[i] for i, fv in enumerate(f0)]
    else:
        x0, y0, f0 = symbo_x0, [e["y"] for e in evs], [e["f"] for e in evs]
        if [to_registry(name, p) for p in p0] != x0:
            sys.exit(f"suite: {name}: symbo's initial design does not survive the map to Optuna's parameters")
    return dict(x0=x0, p0=p0, y0=y0, f0=f0, sd=sd, noise_variance=nv, z=z, minimize=tr["minimize"],
                optimum=tr.get("optimum"), perf_revision=tr.get("revision"), symbo_x0=symbo_x0,
                symbo_y0=[e["y"] for e in evs])


# ---------------------------------------------------------------- systems

def run_botorch(name, dz, sign, ev, seed, restarts, raw):
    peers.install_pyro_standin()
    import torch
    torch.set_num_threads(1)
    from botorch.acquisition import AcquisitionFunction, UpperConfidenceBound
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.models.transforms.input import Normalize
    from botorch.models.transforms.outcome import Standardize
    from botorch.optim import optimize_acqf
    from gpytorch.mlls import ExactMarginalLogLikelihood

    class UnitCube(AcquisitionFunction):
        """acq at lo + span*u: the acquisition over the unit cube (where Normalize maps the box)."""

        def __init__(self, acq, lo, span):
            super().__init__(model=acq.model)
            self.acq, self.lo, self.span = acq, lo, span

        def forward(self, u):
            return self.acq(self.lo + self.span * u)

    torch.manual_seed(seed)
    blo, bhi = botorch_box(name)
    d = len(blo)
    bounds = torch.tensor(np.stack([blo, bhi]), dtype=torch.float64)
    lo, span = bounds[0], bounds[1] - bounds[0]
    unit = torch.stack([torch.zeros(d, dtype=torch.float64), torch.ones(d, dtype=torch.float64)])
    U = [list(map(float, x)) for x in dz["x0"]]  # BoTorch's coordinates of an evaluated point are the registry's
    Ys = [sign * y for y in dz["y0"]]  # BoTorch maximizes
    xs, ys, fs, secs = [], [], [], []
    for t in range(1, ITERS + 1):
        t0 = time.perf_counter()
        X = torch.tensor(U, dtype=torch.float64)
        Y = torch.tensor(Ys, dtype=torch.float64).unsqueeze(-1)
        gp = SingleTaskGP(X, Y, input_transform=Normalize(d=d, bounds=bounds), outcome_transform=Standardize(m=1))
        fit_gpytorch_mll(ExactMarginalLogLikelihood(gp.likelihood, gp))
        acq = UpperConfidenceBound(gp, beta=0.5 * d * math.log(t))
        cand, _ = optimize_acqf(UnitCube(acq, lo, span), bounds=unit, q=1, num_restarts=restarts, raw_samples=raw)
        u = (lo + span * cand.detach().clamp(0, 1)).numpy()[0]
        secs.append(time.perf_counter() - t0)
        x = botorch_point(name, u)
        fx = ev(x)
        y = fx + dz["sd"] * dz["z"][INIT + t - 1]
        U.append(x)
        Ys.append(sign * y)
        xs.append(x)
        ys.append(y)
        fs.append(fx)
    return xs, ys, fs, secs


def distributions(name):
    import optuna
    D = optuna.distributions
    return {n: (D.IntDistribution(int(a), int(b)) if k == "int" else D.FloatDistribution(float(a), float(b), log=k == "log"))
            for n, k, a, b in SPACES[name]}


def optuna_settings(system, name, seed, symbo_options):
    if system == "symbo-optuna":
        g, params = SYMBO_GROUPS[name]
        return dict(group=g, params=params, seed=seed, n_startup_trials=INIT, **symbo_options)
    if system == "random":
        return dict(seed=seed)
    return dict(seed=seed, n_startup_trials=INIT)


def run_optuna(system, name, dz, sign, ev, kw):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    s = optuna.samplers
    if system == "symbo-optuna":
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import symbo.optuna as so
        sampler = so.SymboSampler(**kw)
    elif system == "optuna-gp":
        import torch
        torch.set_num_threads(1)
        sampler = s.GPSampler(**kw)
    elif system == "optuna-tpe":
        sampler = s.TPESampler(**kw)
    else:
        sampler = s.RandomSampler(**kw)
    dists = distributions(name)
    names = [n for n, _, _, _ in SPACES[name]]
    study = optuna.create_study(direction="minimize" if sign < 0 else "maximize", sampler=sampler)
    for want, x, y in zip(dz["p0"], dz["x0"], dz["y0"]):
        study.enqueue_trial(dict(want))
        tr = study.ask(dists)
        if tr.params != want or to_registry(name, tr.params) != list(x):
            sys.exit(f"suite: {name}: optuna changed enqueued point {want} to {tr.params}")
        study.tell(tr, y)
    xs, ys, fs, secs = [], [], [], []
    for t in range(1, ITERS + 1):
        t0 = time.perf_counter()
        tr = study.ask(dists)
        x = to_registry(name, {n: tr.params[n] for n in names})
        t1 = time.perf_counter()
        fx = ev(x)
        y = fx + dz["sd"] * dz["z"][INIT + t - 1]
        t2 = time.perf_counter()
        study.tell(tr, y)
        secs.append((t1 - t0) + (time.perf_counter() - t2))
        xs.append(x)
        ys.append(y)
        fs.append(fx)
    return xs, ys, fs, secs


# ---------------------------------------------------------------- runs

def rec_path(out, prob, system, seed):
    return os.path.join(out, "records", prob.replace(":", "_"), system, f"{seed}.json")


def parse_problems(spec):
    out = []
    for p in spec.split(","):
        out += {"tuning": TUNING, "heldout": HELDOUT, "all": TUNING + HELDOUT, "fresh": FRESH,
                "third": THIRD}.get(p, [p])
    for p in out:
        if p not in SPACES:
            sys.exit(f"suite: unknown problem {p} (want a suite problem, tuning, heldout, all, fresh or third)")
    return out


def parse_seeds(spec):
    try:
        a, b = (int(v) for v in spec.split(":")) if ":" in spec else (0, int(spec))
    except ValueError:
        sys.exit(f"suite: --seeds {spec!r}: want N or A:B")
    if not 0 <= a < b:
        sys.exit(f"suite: --seeds {spec!r}: want 0 <= A < B")
    return a, b


def git_state():
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return rev + ("+dirty" if dirty else "")
    except OSError:
        return "unknown"


def environment():
    env = peers.versions()
    env["revision"] = git_state()
    with open(os.path.abspath(__file__), "rb") as fh:
        env["suite_py_sha256"] = hashlib.sha256(fh.read()).hexdigest()
    env["nice"] = os.nice(0)
    return env


def run_all(args):
    problems = parse_problems(args.problems)
    systems = args.systems.split(",")
    for s in systems:
        if s not in SYSTEMS:
            sys.exit(f"suite: unknown system {s} (want {', '.join(SYSTEMS)})")
    if args.botorch_restarts < 1 or args.botorch_raw_samples < args.botorch_restarts:
        sys.exit("suite: want --botorch-restarts >= 1 and --botorch-raw-samples >= --botorch-restarts")
    try:
        symbo_options = json.loads(args.symbo_options)
    except ValueError as e:
        sys.exit(f"suite: --symbo-options: {e}")
    if not isinstance(symbo_options, dict):
        sys.exit("suite: --symbo-options: want a JSON object")
    a, b = parse_seeds(args.seeds)
    os.makedirs(args.cache, exist_ok=True)
    env = environment()
    log("suite: versions " + json.dumps(env))
    rng = np.random.default_rng(12345)
    evs = {}
    label = {s: botorch_label(args.botorch_restarts, args.botorch_raw_samples) if s == "botorch" else s
             for s in systems}
    todo = [(seed, p, s) for seed in range(a, b) for p in problems for s in systems
            if not (s == "symbo-optuna" and p not in SYMBO_GROUPS)]
    left = [k for k in todo if not os.path.exists(rec_path(args.out, k[1], label[k[2]], k[0]))]
    log(f"suite: {len(todo)} runs, {len(todo) - len(left)} already recorded, {len(left)} to go")
    done, t_start = 0, time.perf_counter()
    designs = {}
    for seed, name, s in left:
        if name not in evs:
            evs[name] = Evaluator(args.perf, name, rng)
        ev = evs[name]
        if (name, seed) not in designs:
            designs = {(name, seed): design(args.perf, name, seed, args.cache, ev)}
        dz = designs[name, seed]
        sign = -1 if dz["minimize"] else 1
        t0 = time.perf_counter()
        if s == "botorch":
            settings = dict(num_restarts=args.botorch_restarts, raw_samples=args.botorch_raw_samples,
                            beta="0.5*d*log(t), t = 1..%d" % ITERS, input_transform="Normalize(d, bounds=box)",
                            outcome_transform="Standardize(m=1)", model="SingleTaskGP defaults (ARD Matern-5/2)",
                            coordinates=botorch_coordinates(name))
            xs, ys, fs, secs = run_botorch(name, dz, sign, ev, seed, args.botorch_restarts, args.botorch_raw_samples)
        else:
            settings = optuna_settings(s, name, seed, symbo_options)
            xs, ys, fs, secs = run_optuna(s, name, dz, sign, ev, settings)
            settings = dict(settings, distributions={n: [k, a_, b_] for n, k, a_, b_ in SPACES[name]})
        wall = time.perf_counter() - t0
        metric, curve = peers.metric_of(dz, fs)
        rec = dict(problem=name, system=label[s], seed=seed, metric=metric, cumulative_regret=curve,
                   median_step_seconds=float(np.median(secs)), wall_seconds=wall, step_seconds=secs,
                   settings=settings, init=INIT, iters=ITERS, hetero=hetero(name),
                   init_x=dz["x0"], init_y=dz["y0"], init_f=dz["f0"], symbo_init_x=dz["symbo_x0"],
                   symbo_init_y=dz["symbo_y0"], x=xs, y=ys, f=fs, noise_variance=dz["noise_variance"],
                   optimum=dz["optimum"], minimize=dz["minimize"], noise_source=NOISE_SOURCE,
                   perf_revision=dz["perf_revision"], pyro_standin=peers.PYRO_STANDIN,
                   command=" ".join(sys.argv), env=env)
        peers.write_atomic(rec_path(args.out, name, label[s], seed), json.dumps(rec))
        done += 1
        el = time.perf_counter() - t_start
        log(f"suite: [{done}/{len(left)}] {name} {label[s]} seed {seed}: metric {metric:.6g}, median "
            f"{np.median(secs):.3f} s/step, {wall:.1f} s (elapsed {el / 60:.1f} min, "
            f"about {el / done * (len(left) - done) / 60:.0f} min to go)")


def botorch_label(restarts, raw):
    """The system's name in records and tables: botorch at the documented default (10 restarts, 512 raw
    samples), botorch[rNR,sRS] when --botorch-restarts/--botorch-raw-samples cut it (a different system:
    its records never mix with the default's)."""
    return "botorch" if (restarts, raw) == (10, 512) else f"botorch[r{restarts},s{raw}]"


def botorch_coordinates(name):
    return {n: ("log10, relaxed" if k == "log" else "integer relaxed to [low-1/2, high+1/2], rounded" if k == "int"
                else "as is") for n, k, _, _ in SPACES[name]}


# ---------------------------------------------------------------- report

def report(args):
    problems = parse_problems(args.problems)
    recs = peers.load_records(args.out)
    by = {}
    for r in recs:
        by.setdefault((r["problem"], r["system"]), {})[r["seed"]] = r
    names = SYSTEMS + sorted({s for (_, s) in by if s.startswith("botorch[")})
    systems = [s for s in names if any((p, s) in by for p in problems)]
    lines = ["# The peers on the users' suite", "",
             "Mean ± standard error over the seeds of perf table's metric (cumulative regret over the 50 BO "
             "steps on the noiseless f; −max f on the WLAN problems), lower is better; then the median seconds "
             "per step (suggestion only). Every system sees symbo's 5 initial points and noise draws for the "
             "seed (log/integer problems: the points as the distributions hold them). Written by "
             "lab/peers/suite.py; its docstring gives the protocol and how each system sees each parameter.", ""]
    summary = dict(problems=problems, command=" ".join(sys.argv), sets={}, settings={})
    for a, b in SETS:
        seeds = list(range(a, b))
        lines += [f"## Seeds {a}–{b - 1}", "", "| problem | " + " | ".join(systems) + " |",
                  "|---" * (len(systems) + 1) + "|"]
        cells = {}
        for p in problems:
            row = []
            for s in systems:
                rs = [by.get((p, s), {}).get(k) for k in seeds]
                rs = [r for r in rs if r is not None]
                if not rs:
                    row.append("—")
                    continue
                m, se = peers.mse([r["metric"] for r in rs])
                st = float(np.median([x for r in rs for x in r["step_seconds"]]))
                n = "" if len(rs) == len(seeds) else f" (n={len(rs)})"
                row.append(f"{peers.fmt(m, se)}{n}; {st:.3f} s")
                cells[f"{p}/{s}"] = dict(n=len(rs), mean=m, se=se, median_step_seconds=st,
                                        cpu_seconds=float(sum(sum(r["step_seconds"]) for r in rs)),
                                        per_seed={r["seed"]: r["metric"] for r in rs})
                summary["settings"][f"{p}/{s}"] = rs[0].get("settings")
            lines.append(f"| {p} | " + " | ".join(row) + " |")
        lines.append("")
        summary["sets"][f"{a}:{b}"] = cells
    envs = sorted({json.dumps({k: r["env"].get(k) for k in ["python", "torch", "gpytorch", "linear_operator",
                                                            "botorch", "optuna", "scipy", "numpy", "pyro", "cpu"]})
                   for r in recs if r.get("env")})
    lines += ["Versions the runs recorded: " + "; ".join(", ".join(f"{k} {v}" for k, v in json.loads(e).items())
                                                       for e in envs) + ".", ""]
    os.makedirs(args.out, exist_ok=True)
    peers.write_atomic(os.path.join(args.out, "table.md"), "\n".join(lines) + "\n")
    peers.write_atomic(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=1))
    print("\n".join(lines))


def self_test():
    """The spaces' round trips (no problem is evaluated)."""
    for name in SPACES:
        lo, hi = registry_box(name)
        rng = np.random.default_rng(1)
        for _ in range(100):
            x = lo + (hi - lo) * rng.random(len(lo))
            p = to_params(name, x)
            r = to_registry(name, p)
            if any(v < l or v > h for v, l, h in zip(r, lo, hi)):
                sys.exit(f"suite: self-test: {name}: {x} -> {p} -> {r} leaves the box")
            if not hetero(name) and r != list(x):
                sys.exit(f"suite: self-test: {name}: a float point changed: {x} -> {r}")
            if any(abs(a - b) > (0.5 if k == "int" else 1e-12) for a, b, (_, k, _, _) in zip(r, x, SPACES[name])):
                sys.exit(f"suite: self-test: {name}: {x} -> {r} moves too far")
            for (n, k, a, b) in SPACES[name]:
                if not a <= p[n] <= b or (k == "int") != isinstance(p[n], int):
                    sys.exit(f"suite: self-test: {name}: {n} = {p[n]!r} outside [{a}, {b}] or of the wrong type")
            u = botorch_point(name, x)
            if any(v < l or v > h for v, l, h in zip(u, lo, hi)):
                sys.exit(f"suite: self-test: {name}: BoTorch's point {u} outside the box")
            for (n, k, _, _), v in zip(SPACES[name], u):
                if k == "int" and v != round(v):
                    sys.exit(f"suite: self-test: {name}: BoTorch's {n} = {v} not rounded")
    if sorted(TUNING + HELDOUT + FRESH + THIRD) != sorted(SPACES) or len(set(TUNING + HELDOUT)) != 24 \
            or len(set(FRESH)) != 12 or len(set(THIRD)) != 12:
        sys.exit("suite: self-test: the halves and the two held-out sets do not cover the 48 problems once each")
    if sorted(n for n in SPACES if hetero(n)) != sorted(SYMBO_GROUPS):
        sys.exit("suite: self-test: the log/integer problems are not symbo-optuna's")
    print("suite: self-test ok")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--perf", default="/tmp/suite-perf", help="a built perf binary (go build ./cmd/perf)")
    ap.add_argument("--out", default="lab/results/suite/peers")
    ap.add_argument("--problems", required=True,
                    help="names, or tuning / heldout / all / fresh / third (comma-separated); no default, so that nothing runs the "
                         "held-out half by accident")
    ap.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS), help=", ".join(SYSTEMS))
    ap.add_argument("--seeds", default="0:30", help="N or A:B (seeds A..B-1)")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "suite-peers-inputs"),
                    help="where symbo's perf bo traces (initial design, noise) are kept")
    ap.add_argument("--botorch-restarts", type=int, default=10,
                    help="optimize_acqf's num_restarts (default 10, symbo's; fewer cuts BoTorch's cost)")
    ap.add_argument("--botorch-raw-samples", type=int, default=512,
                    help="optimize_acqf's raw_samples (default 512, symbo's)")
    ap.add_argument("--symbo-options", default="{}", help="JSON object of extra SymboSampler options (symbo-optuna)")
    ap.add_argument("--report", action="store_true", help="only write table.md and summary.json")
    ap.add_argument("--self-test", action="store_true", help="check the spaces' mappings (evaluates nothing)")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    peers.install_pyro_standin()
    if not args.report:
        run_all(args)
    report(args)


if __name__ == "__main__":
    main()
