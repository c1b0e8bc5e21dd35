"""The heterogeneous study of issue 40 (item 6): symbo's Optuna sampler on
parameter spaces a user would write, before and after, against the peers.

Three problems of this study's own design (none of them is one of the 24
problems of lab/suite/README.md), each to minimize with f* = 0 known
exactly and attained on the parameters' grids, d = 6..8, box sides that
differ by 10^2..10^5, a group on SOME coordinates only with free
coordinates of other scales, a coordinate the objective nearly ignores, a
log-scaled parameter (Optuna log=True) and an integer one, and the optimum
off the group's fixed points:

  Hetero6d (the issue's example, bo/units_measure_test.go's hetero):
      c1..c4 in [0, 1] (float), lr in [1e-5, 1e-1] (float, log),
      width in [16, 1024] (int).
      f = sum_i (c_(i) - t_i)^2 + ((lr - 0.03)/0.07)^2 + 1e-3*((width - 500)/500)^2,
      c_(i) the sorted c, t = (0.1, 0.4, 0.6, 0.9).
      Group: permutation of (c1..c4) (|G| = 24). Nearly ignored: width.
      Optimum: sorted c = t (distinct: off the fixed points), lr = 0.03,
      width = 500. Sides 1 .. 1008 (ratio 1e4).
  Gains7d: a, b in [-50, 50] (float), dropout in [0, 0.5] (float),
      decay in [1e-6, 1e-1] (float, log), batch in [8, 512] (int, log),
      temp in [0, 0.05] (float), warmup in [0, 5000] (float).
      u = (|a| - 30)/20, v = (|b| - 12)/20,
      f = u^2 + v^2 + 0.3*(1 - cos 2*pi*u) + 0.3*(1 - cos 2*pi*v)
          + ((dropout - 0.12)/0.25)^2 + (log10 decay + 4)^2/4
          + (log2(batch/96))^2/4 + ((temp - 0.02)/0.03)^2
          + 1e-3*((warmup - 2500)/2500)^2.
      Group: sign flips of (a, b) (|G| = 4). Nearly ignored: warmup.
      Optimum: |a| = 30, |b| = 12 (a, b != 0: off the fixed points),
      dropout 0.12, decay 1e-4, batch 96, temp 0.02, warmup 2500; local
      minima at |a| in {10, 50}. Sides 0.05 .. 5000 (ratio 1e5).
  Depots8d: z1, z2, z3 in [0, 2000] (float), momentum in [0.8, 0.99] (float),
      lr in [1e-4, 1e-1] (float, log), heads in [1, 16] (int),
      wd in [0, 0.3] (float), interval in [10, 1000] (int).
      s_i = (z_(i) - t_i)/400, z_(i) the sorted z, t = (300, 900, 1500),
      f = sum_i [s_i^2 + 0.2*(1 - cos 2*pi*s_i)]
          + (log10(lr/(1 - momentum)) + 1)^2 + 0.5*((momentum - 0.9)/0.1)^2
          + ((heads - 6)/5)^2 + ((wd - 0.05)/0.1)^2
          + 1e-3*((interval - 505)/495)^2.
      Group: permutation of (z1, z2, z3) (|G| = 6). Nearly ignored:
      interval. Optimum: sorted z = t (distinct), momentum 0.9, lr 0.01
      (a curved valley lr = 0.1*(1 - momentum) in (log lr, momentum)),
      heads 6, wd 0.05, interval 505. Sides ~0.1 .. 2000 (ratio 2e4).
      (momentum stops at 0.99, so that f stays below about 40 on the box:
      no cliff at momentum 1 for the regret to be about.)

Protocol, per (problem, seed): 5 initial points + 30 BO steps, the
objective noise-free. The 5 initial points are the same for every system
(drawn by numpy's default_rng([seed, problem index, 40]), each parameter
on its own scale: uniform, log-uniform, uniform integer, an integer log
parameter log-uniform on [low - 1/2, high + 1/2] and rounded), enqueued in
every Optuna study (enqueue_trial) and given to BoTorch as its data, so
that systems compare paired by seed. 5 + 30: the issue's 5 + 40 cut to 30
steps so that 6 systems x 3 problems x 50 seeds fit in an afternoon on
one core. Metric: the cumulative regret over the BO steps,
sum_{t=1..30} (f(x_t) - f*). Also counted per run: re-proposals, the BO
steps whose point equals (exactly, after the distributions' rounding:
the trial's parameters as Optuna records them; for BoTorch the point it
evaluates) an earlier evaluated point, initial design included.

Systems (--systems, comma-separated):
  symbo-before  SymboSampler(group=G, params=P, seed=S, n_startup_trials=5,
                normalize=False, allow_repeats=True, ard=False): the previous
                default's behaviour (raw coordinates, one isotropic
                lengthscale, repeats allowed). ard=False is passed only when
                the library has the keyword (symbo.Optimizer's signature and
                the sampler's options); before ARD exists the model is
                isotropic anyway, and the record says which ("ard_passed").
  symbo         SymboSampler(group=G, params=P, seed=S, n_startup_trials=5):
                no settings, the library's current default.
  optuna-tpe    optuna.samplers.TPESampler(seed=S, n_startup_trials=5).
  optuna-gp     optuna.samplers.GPSampler(seed=S, n_startup_trials=5): its
                defaults (log EI; noise fitted, deterministic_objective=False).
  random        optuna.samplers.RandomSampler(seed=S).
  botorch       botorch 0.8.3's SingleTaskGP with its defaults (ConstantMean,
                ScaleKernel(ARD Matern-5/2) with the Gamma(3,6) lengthscale
                and Gamma(2,0.15) outputscale priors, Gaussian likelihood
                with its Gamma(1.1,0.05) noise prior), input_transform=
                Normalize(d, bounds=the box), outcome_transform=Standardize(
                m=1), float64, on the coordinates a careful BoTorch user gives
                it: a float as is, log10 of a log parameter, an integer
                relaxed to [low - 1/2, high + 1/2] (log10 of that for a log
                integer) and rounded to the nearest integer when evaluated;
                the model is told the evaluated (rounded) point. Fitted by
                fit_gpytorch_mll; UpperConfidenceBound(beta_t = 0.5*d*log t,
                t = 1..30) as lab/peers/peers.py, maximized by
                optimize_acqf(num_restarts=NR, raw_samples=RS), with
                NR = 10, RS = 512 (peers.py's) unless --botorch-restarts /
                --botorch-raw-samples say otherwise (the record keeps them).
                The acquisition is maximized over the unit cube, the box
                Normalize maps to (UnitCube below: UCB at lo + span*u), as
                a careful user does: over the raw box, whose sides differ
                by up to 1e5, L-BFGS-B stops at its iteration limit and
                optimize_acqf retries on the OptimizationWarning (measured
                on Gains7d at n = 20: 2.7 s per step against 0.05 s, and a
                lower maximum of the acquisition). The model is the same
                either way. BoTorch maximizes -f. torch.manual_seed(S)
                before the run.

Seconds per step: the wall time of one suggestion (Optuna: ask + tell;
BoTorch: fit + acquisition optimization), f's evaluation excluded.
One thread everywhere: OMP_NUM_THREADS=1 and torch.set_num_threads(1).

Packages: as lab/peers/peers.py ("Getting the packages"); symbo from this
repository's python/ (make python builds libsymbo.so), which this script
puts first on sys.path. Runs (from the repository root):

  make python
  OMP_NUM_THREADS=1 PYTHONPATH=/opt/peers/botorch-src:/opt/peers/gpytorch-src:\
/opt/peers/linear_operator-src:/opt/peers/optuna-src \
  nice -n 5 /usr/bin/python3 lab/peers/hetero.py \
      --systems optuna-tpe,random,optuna-gp,botorch,symbo-before,symbo --seeds 0:50
  ... then --report (table.md and summary.json in lab/results/hetero).

`--self-test` checks the problems (f(optimum) = f*, f >= f* and group
invariance at random points, the optimum off the fixed points, the sides'
ratio) and the statistics on made-up inputs.

Seeds 0-29 run first for every system, then 30-49; within a seed the
problems, within a problem the systems. Records are
lab/results/hetero/records/PROBLEM/SYSTEM/SEED.json, written atomically; a
(problem, system, seed) whose record exists is skipped (resumable).
Progress goes to stderr.

The report: per seed set (0-29, the claim; 30-49, a disjoint replication)
mean +- s.e. of each system per problem, median seconds per step,
re-proposals; then each system against the reference (--ref, default
symbo): the paired difference ref - system with Student t intervals, Holm
over every comparison of the seed set (intervals at the level Holm tested
each at, as the ablation in lab/results/statistics.md), and the ratio of
means ref/system with a paired BCa bootstrap interval (10 000 resamples)
at the Bonferroni level 1 - 0.05/m; a verdict per comparison from both
sets (lab/scripts/defaults.py's verdict).
"""

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python"))
sys.path.insert(1, HERE)
sys.path.insert(2, os.path.join(ROOT, "lab", "scripts"))

import peers  # noqa: E402  (pyro stand-in, atomic writes, versions)
from defaults import verdict  # noqa: E402  (the two-set verdict)
from fixedpoint import holm, t_quantile, t_sf2  # noqa: E402  (shared Student t and Holm)

SYSTEMS = ["symbo-before", "symbo", "optuna-tpe", "optuna-gp", "random", "botorch"]
INIT, STEPS = 5, 30
SETS = [(0, 30), (30, 50)]
SET_NAMES = ["main (seeds 0–29)", "replication (seeds 30–49)"]


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- problems
#
# A parameter: (name, kind, low, high); kind is "float", "log" (float,
# log=True), "int" or "logint" (int, log=True).


def _hetero6d(p):
    c = np.sort([p["c1"], p["c2"], p["c3"], p["c4"]])
    v = float(np.sum((c - np.array([0.1, 0.4, 0.6, 0.9])) ** 2))
    lr = (p["lr"] - 0.03) / 0.07
    w = (p["width"] - 500) / 500
    return v + lr * lr + 1e-3 * w * w


def _gains7d(p):
    u = (abs(p["a"]) - 30) / 20
    v = (abs(p["b"]) - 12) / 20
    f = u * u + v * v + 0.3 * (1 - math.cos(2 * math.pi * u)) + 0.3 * (1 - math.cos(2 * math.pi * v))
    f += ((p["dropout"] - 0.12) / 0.25) ** 2 + (math.log10(p["decay"]) + 4) ** 2 / 4
    f += math.log2(p["batch"] / 96) ** 2 / 4 + ((p["temp"] - 0.02) / 0.03) ** 2
    return f + 1e-3 * ((p["warmup"] - 2500) / 2500) ** 2


def _depots8d(p):
    z = np.sort([p["z1"], p["z2"], p["z3"]])
    s = (z - np.array([300.0, 900.0, 1500.0])) / 400
    f = float(np.sum(s * s + 0.2 * (1 - np.cos(2 * math.pi * s))))
    m = p["momentum"]
    f += (math.log10(p["lr"] / (1 - m)) + 1) ** 2 + 0.5 * ((m - 0.9) / 0.1) ** 2
    f += ((p["heads"] - 6) / 5) ** 2 + ((p["wd"] - 0.05) / 0.1) ** 2
    return f + 1e-3 * ((p["interval"] - 505) / 495) ** 2


PROBLEMS = {
    "Hetero6d": dict(
        f=_hetero6d, group="permutation", params=["c1", "c2", "c3", "c4"], order=24,
        space=[("c1", "float", 0.0, 1.0), ("c2", "float", 0.0, 1.0), ("c3", "float", 0.0, 1.0),
               ("c4", "float", 0.0, 1.0), ("lr", "log", 1e-5, 1e-1), ("width", "int", 16, 1024)],
        optimum=dict(c1=0.1, c2=0.4, c3=0.6, c4=0.9, lr=0.03, width=500), ignored="width"),
    "Gains7d": dict(
        f=_gains7d, group="signflip", params=["a", "b"], order=4,
        space=[("a", "float", -50.0, 50.0), ("b", "float", -50.0, 50.0), ("dropout", "float", 0.0, 0.5),
               ("decay", "log", 1e-6, 1e-1), ("batch", "logint", 8, 512), ("temp", "float", 0.0, 0.05),
               ("warmup", "float", 0.0, 5000.0)],
        optimum=dict(a=30.0, b=-12.0, dropout=0.12, decay=1e-4, batch=96, temp=0.02, warmup=2500.0), ignored="warmup"),
    "Depots8d": dict(
        f=_depots8d, group="permutation", params=["z1", "z2", "z3"], order=6,
        space=[("z1", "float", 0.0, 2000.0), ("z2", "float", 0.0, 2000.0), ("z3", "float", 0.0, 2000.0),
               ("momentum", "float", 0.8, 0.99), ("lr", "log", 1e-4, 1e-1), ("heads", "int", 1, 16),
               ("wd", "float", 0.0, 0.3), ("interval", "int", 10, 1000)],
        optimum=dict(z1=1500.0, z2=300.0, z3=900.0, momentum=0.9, lr=0.01, heads=6, wd=0.05, interval=505),
        ignored="interval"),
}
FSTAR = 0.0


def check_problems():
    """f(optimum) = f* to rounding, f >= f* at random points and under the group, the optimum off the fixed
    points (the grouped coordinates distinct, or nonzero for sign flips), sides differing by 1e2..1e5."""
    rng = np.random.default_rng(7)
    for i, (name, pr) in enumerate(PROBLEMS.items()):
        f, opt = pr["f"], pr["optimum"]
        if abs(f(opt) - FSTAR) > 1e-12:
            sys.exit(f"hetero: {name}: f(optimum) = {f(opt)!r}, not {FSTAR}")
        for x in initial_design(pr, 1000 + i, 200):
            if f(x) < FSTAR - 1e-12:
                sys.exit(f"hetero: {name}: f below f* at {x}")
            y = dict(x)
            g = pr["params"]
            if pr["group"] == "permutation":
                vals = [x[n] for n in g]
                for n, v in zip(g, rng.permutation(vals)):
                    y[n] = float(v)
            else:
                for n in g:
                    y[n] = -x[n] if rng.random() < 0.5 else x[n]
            if abs(f(y) - f(x)) > 1e-12 * max(1.0, abs(f(x))):
                sys.exit(f"hetero: {name}: f not invariant under its group at {x}")
        gv = [opt[n] for n in pr["params"]]
        fixed = len(set(gv)) < len(gv) if pr["group"] == "permutation" else any(v == 0 for v in gv)
        if fixed:
            sys.exit(f"hetero: {name}: optimum on a fixed point")
        sides = [hi - lo for _, _, lo, hi in pr["space"]]
        r = max(sides) / min(sides)
        if not 1e2 <= r <= 1.0001e5:
            sys.exit(f"hetero: {name}: box sides differ by {r:.3g}")


def initial_design(pr, key, n=INIT):
    """n points drawn by numpy's default_rng(key), each parameter on its own scale."""
    rng = np.random.default_rng(key)
    pts = []
    for _ in range(n):
        x = {}
        for name, kind, lo, hi in pr["space"]:
            u = rng.random()
            if kind == "float":
                x[name] = float(lo + (hi - lo) * u)
            elif kind == "log":
                x[name] = float(min(max(math.exp(math.log(lo) + (math.log(hi) - math.log(lo)) * u), lo), hi))
            elif kind == "int":
                x[name] = int(min(lo + math.floor((hi - lo + 1) * u), hi))
            else:
                a, b = math.log(lo - 0.5), math.log(hi + 0.5)
                x[name] = int(min(max(round(math.exp(a + (b - a) * u)), lo), hi))
        pts.append(x)
    return pts


def design_key(problem, seed):
    return [seed, list(PROBLEMS).index(problem), 40]


def distributions(pr):
    import optuna
    D = optuna.distributions
    out = {}
    for name, kind, lo, hi in pr["space"]:
        if kind in ("float", "log"):
            out[name] = D.FloatDistribution(float(lo), float(hi), log=kind == "log")
        else:
            out[name] = D.IntDistribution(int(lo), int(hi), log=kind == "logint")
    return out


def point_key(pr, x):
    return tuple(x[name] for name, _, _, _ in pr["space"])


# ---------------------------------------------------------------- systems

_HAS_ARD = None


def symbo_has_ard():
    """Whether symbo.Optimizer and SymboSampler take the keyword ard (a TypeError from either: not yet; any
    other error is the library's and propagates)."""
    global _HAS_ARD
    if _HAS_ARD is None:
        import symbo
        import symbo.optuna as so
        try:
            so.SymboSampler(group="permutation", seed=0, ard=False)
            symbo.Optimizer([0.0, 0.0], [1.0, 1.0], group="permutation", ard=False).close()
            _HAS_ARD = True
        except TypeError:
            _HAS_ARD = False
    return _HAS_ARD


def system_settings(system, pr, seed, args):
    """The exact constructor settings of a run (recorded)."""
    if system in ("symbo", "symbo-before"):
        kw = dict(group=pr["group"], params=pr["params"], seed=seed, n_startup_trials=INIT)
        if system == "symbo-before":
            kw.update(normalize=False, allow_repeats=True)
            if symbo_has_ard():
                kw["ard"] = False
        return kw
    if system == "optuna-tpe":
        return dict(seed=seed, n_startup_trials=INIT)
    if system == "optuna-gp":
        return dict(seed=seed, n_startup_trials=INIT)
    if system == "random":
        return dict(seed=seed)
    return dict(num_restarts=args.botorch_restarts, raw_samples=args.botorch_raw_samples,
                beta="0.5*d*log(t), t = 1..%d" % STEPS, input_transform="Normalize(d, bounds=box)",
                outcome_transform="Standardize(m=1)", model="SingleTaskGP defaults (ARD Matern-5/2)")


def run_optuna(system, pr, x0, seed, kw):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    s = optuna.samplers
    if system in ("symbo", "symbo-before"):
        import symbo.optuna as so
        sampler = so.SymboSampler(**kw)
    elif system == "optuna-tpe":
        sampler = s.TPESampler(**kw)
    elif system == "optuna-gp":
        import torch
        torch.set_num_threads(1)
        sampler = s.GPSampler(**kw)
    else:
        sampler = s.RandomSampler(**kw)
    dists = distributions(pr)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    f = pr["f"]
    for x in x0:
        study.enqueue_trial(dict(x))
        tr = study.ask(dists)
        if tr.params != x:
            sys.exit(f"hetero: optuna changed enqueued point {x} to {tr.params}")
        study.tell(tr, f(x))
    xs, fs, secs = [], [], []
    for _ in range(STEPS):
        t0 = time.perf_counter()
        tr = study.ask(dists)
        x = dict(tr.params)
        t1 = time.perf_counter()
        fx = f(x)
        t2 = time.perf_counter()
        study.tell(tr, fx)
        secs.append((t1 - t0) + (time.perf_counter() - t2))
        xs.append(x)
        fs.append(fx)
    return xs, fs, secs


class _BoCoord:
    """A careful BoTorch user's coordinate for one parameter."""

    def __init__(self, kind, lo, hi):
        self.kind = kind
        self.plo, self.phi = lo, hi
        rl, rh = (lo - 0.5, hi + 0.5) if kind in ("int", "logint") else (lo, hi)
        self.lo, self.hi = (math.log10(rl), math.log10(rh)) if kind in ("log", "logint") else (float(rl), float(rh))

    def decode(self, u):
        v = 10 ** u if self.kind in ("log", "logint") else u
        if self.kind in ("int", "logint"):
            return int(min(max(int(np.rint(v)), self.plo), self.phi))
        return float(min(max(v, self.plo), self.phi))

    def encode(self, v):
        return math.log10(v) if self.kind in ("log", "logint") else float(v)


def run_botorch(pr, x0, seed, kw):
    peers.install_pyro_standin()
    import torch
    torch.set_num_threads(1)
    from botorch.acquisition import UpperConfidenceBound
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.models.transforms.input import Normalize
    from botorch.models.transforms.outcome import Standardize
    from botorch.optim import optimize_acqf
    from gpytorch.mlls import ExactMarginalLogLikelihood
    from botorch.acquisition import AcquisitionFunction

    class UnitCube(AcquisitionFunction):
        """acq at lo + span*u: the acquisition over the unit cube (where Normalize maps the box)."""

        def __init__(self, acq, lo, span):
            super().__init__(model=acq.model)
            self.acq, self.lo, self.span = acq, lo, span

        def forward(self, u):
            return self.acq(self.lo + self.span * u)

    torch.manual_seed(seed)
    names = [n for n, _, _, _ in pr["space"]]
    coords = [_BoCoord(k, lo, hi) for _, k, lo, hi in pr["space"]]
    d = len(coords)
    bounds = torch.tensor([[c.lo for c in coords], [c.hi for c in coords]], dtype=torch.float64)
    lo, span = bounds[0], bounds[1] - bounds[0]
    unit = torch.stack([torch.zeros(d, dtype=torch.float64), torch.ones(d, dtype=torch.float64)])
    f = pr["f"]
    U = [[c.encode(x[n]) for c, n in zip(coords, names)] for x in x0]
    Y = [-f(x) for x in x0]
    xs, fs, secs = [], [], []
    for t in range(1, STEPS + 1):
        t0 = time.perf_counter()
        X = torch.tensor(U, dtype=torch.float64)
        Yt = torch.tensor(Y, dtype=torch.float64).unsqueeze(-1)
        gp = SingleTaskGP(X, Yt, input_transform=Normalize(d=d, bounds=bounds), outcome_transform=Standardize(m=1))
        fit_gpytorch_mll(ExactMarginalLogLikelihood(gp.likelihood, gp))
        acq = UpperConfidenceBound(gp, beta=0.5 * d * math.log(t))
        cand, _ = optimize_acqf(UnitCube(acq, lo, span), bounds=unit, q=1, num_restarts=kw["num_restarts"],
                                raw_samples=kw["raw_samples"])
        u = (lo + span * cand.detach().clamp(0, 1)).numpy()[0]
        secs.append(time.perf_counter() - t0)
        x = {n: c.decode(float(v)) for n, c, v in zip(names, coords, u)}
        fx = f(x)
        U.append([c.encode(x[n]) for c, n in zip(coords, names)])
        Y.append(-fx)
        xs.append(x)
        fs.append(fx)
    return xs, fs, secs


# ---------------------------------------------------------------- runs

def rec_path(out, prob, system, seed):
    return os.path.join(out, "records", prob, system, f"{seed}.json")


def git_state():
    try:
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return rev + ("+dirty" if dirty else "")
    except OSError:
        return "unknown"


def run_one(args, prob, system, seed, env):
    pr = PROBLEMS[prob]
    x0 = initial_design(pr, design_key(prob, seed))
    kw = system_settings(system, pr, seed, args)
    t0 = time.perf_counter()
    if system == "botorch":
        xs, fs, secs = run_botorch(pr, x0, seed, kw)
    else:
        xs, fs, secs = run_optuna(system, pr, x0, seed, kw)
    wall = time.perf_counter() - t0
    seen = {point_key(pr, x) for x in x0}
    repeats, cum, curve = 0, 0.0, []
    for x, fx in zip(xs, fs):
        k = point_key(pr, x)
        repeats += k in seen
        seen.add(k)
        cum += fx - FSTAR
        curve.append(cum)
    settings = {k: v for k, v in kw.items()}
    rec = dict(problem=prob, system=system, seed=seed, metric=cum, cumulative_regret=curve, reproposals=repeats,
               init=INIT, steps=STEPS, fstar=FSTAR, settings=settings,
               ard_passed=("ard" in kw) if system.startswith("symbo") else None,
               init_x=x0, init_f=[pr["f"](x) for x in x0], x=xs, f=fs, step_seconds=secs,
               median_step_seconds=float(np.median(secs)), wall_seconds=wall,
               command=" ".join(sys.argv), revision=env["revision"], env=env)
    peers.write_atomic(rec_path(args.out, prob, system, seed), json.dumps(rec))
    log(f"hetero: {prob} {system} seed {seed}: regret {cum:.4g}, {repeats} re-proposals, "
        f"median {np.median(secs):.3f} s/step, {wall:.1f} s")


def environment(systems):
    env = peers.versions()
    try:
        import symbo
        env["symbo"] = symbo.version()
        env["symbo_path"] = os.path.dirname(symbo.__file__)
        env["symbo_has_ard"] = symbo_has_ard()
    except Exception as e:  # noqa: BLE001
        env["symbo"] = f"unavailable: {e}"
    env["revision"] = git_state()
    with open(os.path.abspath(__file__), "rb") as fh:
        env["hetero_py_sha256"] = hashlib.sha256(fh.read()).hexdigest()
    env["nice"] = os.nice(0)
    return env


def run_all(args):
    problems = args.problems.split(",")
    systems = args.systems.split(",")
    for s in systems:
        if s not in SYSTEMS:
            sys.exit(f"hetero: unknown system {s} (want {', '.join(SYSTEMS)})")
    for p in problems:
        if p not in PROBLEMS:
            sys.exit(f"hetero: unknown problem {p} (want {', '.join(PROBLEMS)})")
    a, b = (int(v) for v in args.seeds.split(":")) if ":" in args.seeds else (0, int(args.seeds))
    peers.install_pyro_standin()  # before the versions, so that botorch's is read (see peers.py)
    import torch
    torch.set_num_threads(1)
    env = environment(systems)
    log("hetero: environment " + json.dumps(env))
    # The main seeds first for every system, then the replication.
    blocks = [(max(a, lo), min(b, hi)) for lo, hi in SETS] + [(max(a, 50), b)]
    for lo, hi in blocks:
        for seed in range(lo, hi):
            for prob in problems:
                for s in systems:
                    if os.path.exists(rec_path(args.out, prob, s, seed)):
                        continue
                    run_one(args, prob, s, seed, env)


# ---------------------------------------------------------------- report

def load_records(out):
    recs = {}
    root = os.path.join(out, "records")
    for dp, _, fns in os.walk(root):
        for fn in fns:
            if fn.endswith(".json") and not fn.startswith("."):
                with open(os.path.join(dp, fn)) as fh:
                    r = json.load(fh)
                recs[r["problem"], r["system"], r["seed"]] = r
    return recs


def mse(v):
    v = np.asarray(v, dtype=float)
    return float(v.mean()), (float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else float("nan"))


def g(v):
    if not math.isfinite(v):
        return str(v)
    return "%.3g" % v if abs(v) < 1000 else "%.0f" % v


def bca_ratio(a, b, level, reps=10000, seed=0):
    """Paired BCa bootstrap interval of mean(a)/mean(b) at level (resampling seeds)."""
    from statistics import NormalDist
    a, b = np.asarray(a, float), np.asarray(b, float)
    n = len(a)
    theta = a.mean() / b.mean()
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(reps, n))
    boot = a[idx].mean(1) / b[idx].mean(1)
    N = NormalDist()
    prop = float(np.mean(boot < theta))
    if prop <= 0 or prop >= 1:
        return theta, float(np.min(boot)), float(np.max(boot))
    z0 = N.inv_cdf(prop)
    jack = np.array([np.delete(a, i).mean() / np.delete(b, i).mean() for i in range(n)])
    dj = jack.mean() - jack
    den = 6 * (np.sum(dj ** 2)) ** 1.5
    acc = float(np.sum(dj ** 3) / den) if den > 0 else 0.0
    out = []
    for q in ((1 - level) / 2, 1 - (1 - level) / 2):
        zq = N.inv_cdf(q)
        adj = N.cdf(z0 + (z0 + zq) / (1 - acc * (z0 + zq)))
        out.append(float(np.quantile(boot, min(max(adj, 0.0), 1.0))))
    return theta, out[0], out[1]


def holm_intervals(diffs, alpha=0.05):
    """Each paired difference's t interval at the level Holm tested it at (1 - alpha/(m-j+1) for the j-th
    smallest p-value, frozen at the first acceptance), as the ablation (lab/results/statistics.md).
    Returns [(mean, lo, hi, n, p, adjusted p, level)]."""
    m = len(diffs)
    stats = []
    for v in diffs:
        v = np.asarray(v, float)
        n = len(v)
        mean = float(v.mean())
        se = float(v.std(ddof=1) / math.sqrt(n))
        p = t_sf2(mean / se, n - 1) if se > 0 else (0.0 if mean != 0 else 1.0)
        stats.append((mean, se, n, p))
    adj = holm([s[3] for s in stats])
    order = sorted(range(m), key=lambda i: stats[i][3])
    levels = [0.0] * m
    frozen = None
    for j, i in enumerate(order):
        lev = 1 - alpha / (m - j)
        if frozen is None and stats[i][3] > alpha / (m - j):
            frozen = lev
        levels[i] = frozen if frozen is not None else lev
    out = []
    for (mean, se, n, p), a, lev in zip(stats, adj, levels):
        q = t_quantile(1 - (1 - lev) / 2, n - 1)
        out.append((mean, mean - q * se, mean + q * se, n, p, a, lev))
    return out


def targets(ref, problems, comp, cells):
    """Issue 40's targets for the reference, per problem: regret at most half of TPE's, below GPSampler's and
    SingleTaskGP's, zero re-proposals (the point estimates, with the intervals above)."""
    L = [f"Issue 40's targets for `{ref}` (point estimates; the intervals are in the table above):", "",
         "| problem | ratio to TPE ≤ 0.5 | below optuna-gp | below botorch | zero re-proposals |", "|---|---|---|---|---|"]
    for p in problems:
        row = []
        c = comp.get(f"{p}/optuna-tpe")
        row.append("—" if c is None else f"{g(c['ratio'])}, upper {g(c['ratio_hi'])}: "
                   + ("yes" if c["ratio"] <= 0.5 else "no"))
        for s in ("optuna-gp", "botorch"):
            c = comp.get(f"{p}/{s}")
            row.append("—" if c is None else f"{g(c['diff'])}: " + (
                "yes, resolved" if c["diff"] < 0 and c["holm_p"] < 0.05 else "yes" if c["diff"] < 0 else "no"))
        c = cells.get(f"{p}/{ref}")
        row.append("—" if c is None else f"{c['reproposals']}: " + ("yes" if c["reproposals"] == 0 else "no"))
        L.append(f"| {p} | " + " | ".join(row) + " |")
    return L + [""]


def report(args):
    recs = load_records(args.out)
    problems = [p for p in PROBLEMS if any(k[0] == p for k in recs)]
    systems = [s for s in SYSTEMS if any(k[1] == s for k in recs)]
    ref = args.ref
    L = ["# Heterogeneous parameter spaces: symbo's Optuna sampler before and after, against the peers", "",
         "Written by `lab/peers/hetero.py --report` (problems, systems and protocol: that file's docstring). "
         f"Metric: cumulative regret over {STEPS} BO steps after {INIT} initial points shared by every system "
         "(Σ f(x_t) − f*, f* = 0), lower is better. Cells: mean ± s.e. over the seeds (n when short of the set), "
         "the median seconds per step, and re-proposals (BO steps re-evaluating an earlier point: total over the "
         "runs / runs with any).", ""]
    summary = dict(protocol=dict(init=INIT, steps=STEPS, fstar=FSTAR), problems={}, sets={}, ref=ref)
    for name, pr in PROBLEMS.items():
        summary["problems"][name] = dict(space=pr["space"], group=pr["group"], params=pr["params"],
                                         order=pr["order"], optimum=pr["optimum"], ignored=pr["ignored"])
    comparisons = {}
    for (lo, hi), sname in zip(SETS, SET_NAMES):
        seeds = list(range(lo, hi))
        L += [f"## {sname}", "", "| system | " + " | ".join(problems) + " |", "|---" * (len(problems) + 1) + "|"]
        cells = {}
        for s in systems:
            row = []
            for p in problems:
                rs = [recs[p, s, k] for k in seeds if (p, s, k) in recs]
                if not rs:
                    row.append("not run")
                    continue
                m, se = mse([r["metric"] for r in rs])
                med = float(np.median([r["metric"] for r in rs]))
                st = float(np.median([x for r in rs for x in r["step_seconds"]]))
                rep = sum(r["reproposals"] for r in rs)
                anyrep = sum(r["reproposals"] > 0 for r in rs)
                n = "" if len(rs) == len(seeds) else f" (n={len(rs)})"
                medtxt = f" (median {g(med)})" if len(rs) > 1 and abs(med - m) > 1.96 * se else ""
                row.append(f"{g(m)} ± {g(se)}{n}{medtxt}; {st:.3f} s; {rep}/{anyrep}")
                cells[f"{p}/{s}"] = dict(n=len(rs), mean=m, se=se, median=med, median_step_seconds=st,
                                         reproposals=rep, runs_with_reproposals=anyrep,
                                         per_seed={r["seed"]: r["metric"] for r in rs},
                                         reproposals_per_seed={r["seed"]: r["reproposals"] for r in rs})
            L.append(f"| {s} | " + " | ".join(row) + " |")
        L.append("")
        # Paired comparisons with the reference: one Holm family per seed set.
        fam, keys = [], []
        for s in systems:
            if s == ref:
                continue
            for p in problems:
                common = [k for k in seeds if (p, s, k) in recs and (p, ref, k) in recs]
                if len(common) >= 3:
                    keys.append((s, p, common))
                    fam.append([recs[p, ref, k]["metric"] - recs[p, s, k]["metric"] for k in common])
        comp = {}
        if fam:
            res = holm_intervals(fam)
            m = len(fam)
            bonf = 1 - 0.05 / m
            L += [f"Paired against `{ref}` ({m} comparisons, one family): the difference {ref} − system "
                  "(negative: the reference's regret is lower) with its t interval at Holm's level, bold where "
                  f"Holm rejects 0; the ratio of means {ref}/system with a paired BCa interval at the Bonferroni "
                  f"level {bonf:.4f}.", "",
                  "| system | problem | n | difference (Holm interval) | Holm-adjusted p | ratio (BCa interval) |",
                  "|---|---|---|---|---|---|"]
            for (s, p, common), (mean, dlo, dhi, n, pv, adj, lev) in zip(keys, res):
                a = [recs[p, ref, k]["metric"] for k in common]
                b = [recs[p, s, k]["metric"] for k in common]
                rt, rlo, rhi = bca_ratio(a, b, bonf) if np.mean(b) > 0 else (float("nan"),) * 3
                dcell = f"{g(mean)} [{g(dlo)}, {g(dhi)}]"
                if adj < 0.05:
                    dcell = f"**{dcell}**"
                L.append(f"| {s} | {p} | {n} | {dcell} | {adj:.2g} | {g(rt)} [{g(rlo)}, {g(rhi)}] |")
                comp[f"{p}/{s}"] = dict(n=n, diff=mean, lo=dlo, hi=dhi, p=pv, holm_p=adj, level=lev,
                                        ratio=rt, ratio_lo=rlo, ratio_hi=rhi, ratio_level=bonf)
                comparisons.setdefault((s, p), []).append((mean, dlo if adj < 0.05 else min(dlo, 0.0),
                                                           dhi if adj < 0.05 else max(dhi, 0.0), n))
            L.append("")
            L += targets(ref, problems, comp, cells)
        else:
            L += [f"No paired comparison with `{ref}`: it has no runs in this set.", ""]
        summary["sets"][sname] = dict(seeds=[lo, hi], cells=cells, comparisons=comp)
    both = [(k, v) for k, v in comparisons.items() if len(v) == 2]
    if both:
        L += ["## Verdicts (both seed sets; lab/scripts/defaults.py's rule on the Holm intervals)", "",
              f"| system | problem | {ref} − system |", "|---|---|---|"]
        for (s, p), v in both:
            L.append(f"| {s} | {p} | {verdict(v)} |")
        L.append("")
    envs = {}
    cmds = set()
    for r in recs.values():
        e = r.get("env") or {}
        key = json.dumps({k: e.get(k) for k in ["python", "torch", "gpytorch", "linear_operator", "botorch",
                                                 "optuna", "scipy", "numpy", "pyro", "symbo", "symbo_has_ard"]})
        envs.setdefault(key, set()).add(e.get("revision"))  # the revision when the run's process started
        cmds.add(r.get("command"))
    L += ["## Versions and commands", "", "Versions the runs recorded (with the revisions they ran at):", ""]
    for k, revs in sorted(envs.items()):
        L.append(f"- {', '.join(f'{a} {b}' for a, b in json.loads(k).items())} — at {', '.join(sorted(map(str, revs)))}")
    L += ["", "Commands the records were written by (from the repository root, with OMP_NUM_THREADS=1, "
          "PYTHONPATH the /opt/peers sources as in the docstring):", ""]
    for c in sorted(c for c in cmds if c):
        L.append(f"- `/usr/bin/python3 {c}`")
    L += ["", f"This report: `/usr/bin/python3 {' '.join(sys.argv)}`", ""]
    summary["versions"] = [json.loads(k) for k in envs]
    summary["commands"] = sorted(c for c in cmds if c)
    summary["report_command"] = " ".join(sys.argv)
    peers.write_atomic(os.path.join(args.out, "table.md"), "\n".join(L) + "\n")
    peers.write_atomic(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=1, default=str) + "\n")
    print("\n".join(L))


def self_test():
    """The problems' checks, and the statistics on made-up inputs (numpy only)."""
    check_problems()
    from defaults import interval
    rng = np.random.default_rng(3)
    v = rng.normal(1.0, 2.0, 30)
    (m1, lo1, hi1, n1, p1, a1, l1), = holm_intervals([v])
    m0, lo0, hi0, n0 = interval(v, 0.95)
    assert (n1, l1) == (30, 0.95) and abs(m1 - m0) < 1e-12 and abs(lo1 - lo0) < 1e-9 and abs(hi1 - hi0) < 1e-9
    for trial in range(200):
        fam = [rng.normal(rng.normal(0, 0.7), 1.0, 20) for _ in range(6)]
        res = holm_intervals(fam)
        adj = holm([r[4] for r in res])
        for (m, lo, hi, n, p, a, lev), b in zip(res, adj):
            assert abs(a - b) < 1e-15 and lev >= 0.95 - 1e-15
            assert (lo > 0 or hi < 0) == (a < 0.05), (trial, m, lo, hi, a)
    a = rng.uniform(1, 3, 25)
    r, lo, hi = bca_ratio(2.5 * a, a, 0.99)
    assert abs(r - 2.5) < 1e-12 and abs(lo - 2.5) < 1e-9 and abs(hi - 2.5) < 1e-9
    b = rng.uniform(1, 3, 25)
    r, lo, hi = bca_ratio(a, b, 0.95)
    assert lo < r < hi
    x = initial_design(PROBLEMS["Gains7d"], [0, 1, 40])
    assert len(x) == INIT and all(isinstance(p["batch"], int) and 8 <= p["batch"] <= 512 for p in x)
    print("self-test: ok")


def main():
    if "--self-test" in sys.argv[1:]:
        self_test()
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join("lab", "results", "hetero"))
    ap.add_argument("--problems", default=",".join(PROBLEMS))
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--seeds", default="0:50", help="N or A:B (seeds A..B-1)")
    ap.add_argument("--botorch-restarts", type=int, default=10)
    ap.add_argument("--botorch-raw-samples", type=int, default=512)
    ap.add_argument("--report", action="store_true", help="only write table.md and summary.json")
    ap.add_argument("--ref", default="symbo", help="the system the report pairs every other one with")
    args = ap.parse_args()
    check_problems()
    if not args.report:
        run_all(args)
    report(args)


if __name__ == "__main__":
    main()
