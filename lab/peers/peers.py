"""The peers on symbo's problems: BoTorch, Optuna (GP, TPE) and random search.

Runs BoTorch's SingleTaskGP + UCB (and, where the group is small enough, the
same model with a BoTorch user's own orbit-averaged kernel), Optuna's
GPSampler, TPESampler and RandomSampler on symbo's benchmark problems with
symbo's protocol, seed by seed, and writes lab/results/peers/ (table.md,
per-seed records, regret curves, versions and commands). Not part of CI.

The protocol, per (problem, seed), matches `perf bo --problem P --seed S`:
  * the same 5 initial points and their noisy observations y: read from
    `perf bo --problem P --kernel base --seed S --iters 1 --json F`;
  * the same observation noise: Gaussian, variance = the trace's
    noise_variance (2% of the variance of f over the box). symbo draws the
    noise of evaluation i from its own stream (seed, i), independent of the
    point and of the problem, so the draws are read back from a 55-evaluation
    symbo run of the seed (z_i = (y_i - f_i)/sqrt(noise variance), on
    Ackley2d) and every system here observes y_i = f(x_i) + sd*z_i: the same
    noise as symbo, up to rounding (checked against each problem's initial
    design);
  * 50 acquisition steps; UCB with symbo's "paper" beta_t = 0.5*d*log t,
    t = 1..50 the acquisition step (beta_1 = 0);
  * the noiseless f is symbo's definition (numpy here, checked against
    `perf eval` at random points before every run; WLAN is evaluated by
    `perf eval` itself);
  * the metric is perf table's: cumulative regret sum_{t=1..50} |f(x_t) - f*|
    over the acquisition steps (initial design excluded) where f* is known,
    and -max f (initial design included) on WLAN8d;
  * one thread: OMP_NUM_THREADS=1 and torch.set_num_threads(1).

Systems:
  botorch        SingleTaskGP with its defaults in botorch 0.8.3 (ConstantMean,
                 ScaleKernel(ARD Matern-5/2) with the classic Gamma(3,6)
                 lengthscale and Gamma(2,0.15) outputscale priors, Gaussian
                 likelihood with its Gamma(1.1,0.05) noise prior), inputs
                 mapped to the unit cube, outcome Standardize(m=1), float64;
                 fit_gpytorch_mll; UpperConfidenceBound(beta_t) maximized by
                 optimize_acqf(num_restarts=10, raw_samples=512) (symbo's 10
                 starts and 512 raw samples). Minimization models -y.
  botorch-orbit  the same model with covar_module = ScaleKernel(OrbitAverage(
                 Matern-5/2)): k(x,y) = mean_g k_b(x, g y) over the group's
                 matrices (the class OrbitAverage below, ~20 lines). The
                 average is PSD only if k_b is G-invariant, so k_b is ARD
                 for sign-flip groups and has one shared lengthscale for
                 groups that permute coordinates. Run only where |G| is
                 finite and small (<= 64): not on Rastrigin5d (|G| = 3840),
                 Radial2d (rotations) or Scaling2d (scalings).
  optuna-gp      optuna.samplers.GPSampler(seed=S, n_startup_trials=5) (its
                 default acquisition, log EI; noise fitted).
  optuna-tpe     optuna.samplers.TPESampler(seed=S, n_startup_trials=5).
  random         optuna.samplers.RandomSampler(seed=S).
The Optuna studies get symbo's 5 initial points by enqueue_trial and are told
symbo's noisy y for them; Optuna minimizes (WLAN: maximizes) the noisy y.

Seconds per step: the wall time of one suggestion (BoTorch: fit + acquisition
optimization; Optuna: ask + tell), f's evaluation excluded.

Getting the packages (no PyPI needed; a user with pip installs the same
versions instead):
  apt-get install python3-torch python3-scipy python3-numpy \
      python3-multipledispatch python3-sqlalchemy python3-alembic \
      python3-colorlog python3-tqdm python3-yaml python3-matplotlib
  for each of pytorch/botorch v0.8.3, cornellius-gp/gpytorch v1.9.1,
  cornellius-gp/linear_operator V0.3.0, optuna/optuna v4.7.0:
      git archive TAG | tar -x -C /opt/peers/NAME-src
  and write NAME/version.py (`version = "0.8.3"` etc.) in the three that
  lack one. optuna 4.7.0 is the newest whose GPSampler runs on torch 1.13
  (4.8+ use `with torch.device(...)`); Debian's python3-optuna 3.1 has no
  GPSampler. botorch imports pyro only for its fully Bayesian models: when
  pyro is absent this script registers a stand-in module (its MCMC/NUTS
  raise if called), which SingleTaskGP never touches; the output says so.

Run from the repository root (about 1-2 h on one core for the 3 problems):
  go build -o /tmp/peers-perf ./cmd/perf
  OMP_NUM_THREADS=1 PYTHONPATH=/opt/peers/botorch-src:/opt/peers/gpytorch-src:\
/opt/peers/linear_operator-src:/opt/peers/optuna-src \
  /usr/bin/python3 lab/peers/peers.py --perf /tmp/peers-perf \
      --out lab/results/peers --problems Ackley2d,Griewank6d,Rastrigin5d \
      --seeds 0:30
  ... then with --report only, to write table.md and the figures.
Runs are resumable: a (problem, system, seed) whose record exists is skipped.
Progress goes to stderr.
"""

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
import types
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import numpy as np

SYSTEMS = ["botorch", "botorch-orbit", "optuna-gp", "optuna-tpe", "random"]
PYRO_STANDIN = False
VERSIONS = None


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- problems

def _ackley(z):
    n = len(z)
    return 20 * (1 - math.exp(-0.2 * math.sqrt(float(np.dot(z, z)) / n))) + (math.e - math.exp(float(np.sum(np.cos(2 * math.pi * z))) / n))


def _griewank(z):
    i = np.arange(1, len(z) + 1)
    return float(np.sum(z * z / 4000) + (1 - np.prod(np.cos(z / np.sqrt(i)))))


def _rastrigin(z):
    return float(np.sum(z * z + 10 * (1 - np.cos(2 * math.pi * z))))


def _radial(x, scale=1.0):
    t = scale * (math.hypot(x[0], x[1]) / (10 * math.sqrt(2)) - 0.8)
    return t * t + 10 * (1 - math.cos(2 * math.pi * t))


def _scaling(x):
    r = x[0] / x[1] - 1
    return r * r


def _shift(half, clo, chi, d):
    return np.array([half * (clo + (chi - clo) * (i + 0.5) / d) for i in range(d)])


def _signed_perms(d, signs=True, perms=True):
    """The matrices of sign flips, permutations or both (hyperoctahedral)."""
    import itertools
    mats = []
    for p in (itertools.permutations(range(d)) if perms else [tuple(range(d))]):
        for s in (itertools.product([1.0, -1.0], repeat=d) if signs else [(1.0,) * d]):
            m = np.zeros((d, d))
            for i in range(d):
                m[i, p[i]] = s[i]
            mats.append(m)
    return mats


def _ap_perms(m):
    """Permutations of m access points, x laid out x1..xm, y1..ym."""
    import itertools
    mats = []
    for p in itertools.permutations(range(m)):
        a = np.zeros((2 * m, 2 * m))
        for i in range(m):
            a[i, p[i]] = 1
            a[m + i, m + p[i]] = 1
        mats.append(a)
    return mats


ORBIT_MAX = 64  # largest |G| the orbit-averaged kernel is run with


def problem(name):
    """(f or None for perf eval, d, half width, group description, group order, matrices thunk or None, lo, hi)."""
    sa = _shift(16, 0, 0.8, 2)
    sr = _shift(5.12, -0.8, 0.8, 4)
    sg = _shift(600, 0, 0.8, 6)
    table = {
        "Ackley2d": (_ackley, 2, -16, 16, "hyperoctahedral", 8, lambda: _signed_perms(2), True),
        "Griewank6d": (_griewank, 6, -600, 600, "sign flips", 64, lambda: _signed_perms(6, perms=False), False),
        "Rastrigin5d": (_rastrigin, 5, -5.12, 5.12, "hyperoctahedral", 3840, None, True),
        "Radial2d": (lambda x: _radial(x), 2, -10, 10, "rotations (continuous)", None, None, True),
        "RadialScaled2d": (lambda x: _radial(x, 5.12), 2, -10, 10, "rotations (continuous)", None, None, True),
        "Scaling2d": (_scaling, 2, 0.1, 10, "scalings (continuous)", None, None, True),
        "WLAN8d": (None, 8, -50, 50, "permutations of 4 access points", 24, lambda: _ap_perms(4), True),
        "ShiftedAckley2d": (lambda x: _ackley(np.sort(np.abs(x)) - sa), 2, -16, 16, "hyperoctahedral", 8, lambda: _signed_perms(2), True),
        "ShiftedRastrigin4d": (lambda x: _rastrigin(np.sort(x) - sr), 4, -5.12, 5.12, "permutations", 24, lambda: _signed_perms(4, signs=False), True),
        "ShiftedGriewank6d": (lambda x: _griewank(np.abs(x) - sg), 6, -600, 600, "sign flips", 64, lambda: _signed_perms(6, perms=False), False),
        "CentredAckley2d": (lambda x: _ackley(np.sort(np.abs(x))), 2, -16, 16, "hyperoctahedral", 8, lambda: _signed_perms(2), True),
        "CentredRastrigin4d": (lambda x: _rastrigin(np.sort(x)), 4, -5.12, 5.12, "permutations", 24, lambda: _signed_perms(4, signs=False), True),
        "CentredGriewank6d": (lambda x: _griewank(np.abs(x)), 6, -600, 600, "sign flips", 64, lambda: _signed_perms(6, perms=False), False),
    }
    if name not in table:
        sys.exit(f"peers: unknown problem {name} (want one of {', '.join(table)})")
    f, d, lo, hi, gdesc, order, mats, permutes = table[name]
    return dict(name=name, f=f, d=d, lo=np.full(d, float(lo)), hi=np.full(d, float(hi)), group=gdesc, order=order,
                matrices=mats, permutes=permutes)


def perf_eval(perf, name, xs):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as fh:
        for x in xs:
            fh.write(",".join(repr(float(v)) for v in x) + "\n")
        path = fh.name
    try:
        out = subprocess.run([perf, "eval", "--problem", name, "--x", path], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    return json.loads(out)["values"]


def check_agreement(perf, p, rng):
    """numpy's f against perf eval at 50 uniform random points of the box (stops above 1e-12 relative)."""
    if p["f"] is None:
        return 0.0
    xs = p["lo"] + (p["hi"] - p["lo"]) * rng.random((50, p["d"]))
    want = perf_eval(perf, p["name"], xs)
    worst = 0.0
    for x, w in zip(xs, want):
        got = p["f"](x)
        err = abs(got - w) / max(1.0, abs(w))
        worst = max(worst, err)
    if worst > 1e-12:
        sys.exit(f"peers: {p['name']}: numpy's f disagrees with perf eval (relative error {worst:.3g})")
    return worst


# ---------------------------------------------------------------- symbo's design and noise

def perf_trace(perf, name, seed, iters, cache):
    path = os.path.join(cache, f"{name}-{seed}-{iters}.json")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}.tmp"
        subprocess.run([perf, "bo", "--problem", name, "--kernel", "base", "--seed", str(seed), "--iters", str(iters),
                        "--json", tmp, "--force"], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.replace(tmp, path)
    with open(path) as fh:
        return json.load(fh)


def design(perf, p, seed, init, iters, cache):
    """symbo's initial design and noise for (problem, seed): x0, y0, f0, sd, z (init+iters standard normal draws)."""
    tr = perf_trace(perf, p["name"], seed, 1, cache)
    if tr["init"] != init:
        sys.exit(f"peers: perf bo used init {tr['init']}, want {init}")
    ev = [e for e in tr["evaluations"] if e["phase"] == "init"]
    sd = math.sqrt(tr["noise_variance"])
    nz = perf_trace(perf, "Ackley2d", seed, iters, cache)
    nsd = math.sqrt(nz["noise_variance"])
    z = [(e["y"] - e["f"]) / nsd for e in nz["evaluations"]]
    if len(z) != init + iters:
        sys.exit(f"peers: noise trace has {len(z)} evaluations, want {init + iters}")
    for i, e in enumerate(ev):  # symbo's noise stream does not depend on the problem: check it
        zi = (e["y"] - e["f"]) / sd
        if abs(zi - z[i]) > 1e-6 * max(1.0, abs(z[i])):
            sys.exit(f"peers: {p['name']} seed {seed}: noise draw {i} is {zi}, Ackley2d's is {z[i]}")
    return dict(x0=[e["x"] for e in ev], y0=[e["y"] for e in ev], f0=[e["f"] for e in ev], sd=sd,
                noise_variance=tr["noise_variance"], z=z, minimize=tr["minimize"], optimum=tr.get("optimum"),
                perf_revision=tr.get("revision"))


# ---------------------------------------------------------------- systems

def install_pyro_standin():
    """botorch 0.8.3 imports pyro at module level (botorch.fit, fully_bayesian) only for its fully Bayesian
    models. When pyro is absent, register a minimal stand-in whose MCMC/NUTS raise if called."""
    global PYRO_STANDIN
    try:
        import pyro  # noqa: F401
        return
    except ImportError:
        pass
    try:
        import gpytorch  # noqa: F401
    except ImportError:
        return  # nothing to stand in for (e.g. --report without the packages)
    PYRO_STANDIN = True
    # gpytorch probes pyro at import (try/except) and uses pyro-aware classes when it finds it: import it
    # first, so that it sees no pyro, then register the stand-in that botorch's module-level imports need.
    import gpytorch  # noqa: F401
    import gpytorch.likelihoods  # noqa: F401

    def unavailable(*a, **k):
        raise RuntimeError("pyro stand-in: fully Bayesian models need the real pyro")

    mods = {}
    for name in ["pyro", "pyro.infer", "pyro.infer.mcmc", "pyro.ops", "pyro.ops.integrator", "pyro.distributions"]:
        mods[name] = types.ModuleType(name)
        mods[name].__path__ = []
        sys.modules[name] = mods[name]
    mods["pyro.infer.mcmc"].MCMC = unavailable
    mods["pyro.infer.mcmc"].NUTS = unavailable
    mods["pyro.infer"].MCMC = unavailable
    mods["pyro.infer"].NUTS = unavailable
    mods["pyro.ops.integrator"].register_exception_handler = lambda *a, **k: None
    for name, m in mods.items():
        if "." in name:
            parent, child = name.rsplit(".", 1)
            setattr(mods[parent], child, m)
    # gpytorch probes pyro.distributions with try/except ImportError; keep the probe failing.
    del sys.modules["pyro.distributions"]
    delattr(mods["pyro"], "distributions")
    for a in ["sample", "plate", "param", "module", "random_module", "deterministic"]:
        setattr(mods["pyro"], a, unavailable)


def make_orbit_kernel_class():
    import gpytorch
    import torch

    class OrbitAverage(gpytorch.kernels.Kernel):
        """k(x, y) = (1/|G|) sum_g k_b(x, g y), the group acting on inputs centred at the unit cube's centre.
        PSD when k_b(gx, gy) = k_b(x, y) for every g. Costs |G| base-kernel evaluations per entry."""

        def __init__(self, base, matrices, **kw):
            super().__init__(**kw)
            self.base = base
            self.register_buffer("mats", torch.as_tensor(np.stack(matrices), dtype=torch.float64))

        def forward(self, x1, x2, diag=False, **params):
            c1, c2 = x1 - 0.5, x2 - 0.5
            gx2 = torch.einsum("gij,...nj->g...ni", self.mats.to(x2), c2)  # |G| x ... x n x d
            k = self.base.forward(c1.unsqueeze(0).expand(gx2.shape[:-2] + c1.shape[-2:]), gx2, diag=diag, **params)
            return k.mean(0)

    return OrbitAverage


class BoTorchSystem:
    def __init__(self, p, orbit):
        install_pyro_standin()
        import torch
        torch.set_num_threads(1)
        self.torch = torch
        self.p = p
        self.orbit = orbit
        if orbit:
            self.OrbitAverage = make_orbit_kernel_class()
            self.mats = p["matrices"]()

    def model(self, X, Y):
        from botorch.models import SingleTaskGP
        from botorch.models.transforms.outcome import Standardize
        if not self.orbit:
            return SingleTaskGP(X, Y, outcome_transform=Standardize(m=1))
        import gpytorch
        from gpytorch.priors import GammaPrior
        d = X.shape[-1]
        base = gpytorch.kernels.MaternKernel(nu=2.5, ard_num_dims=None if self.p["permutes"] else d,
                                             lengthscale_prior=GammaPrior(3.0, 6.0))
        covar = gpytorch.kernels.ScaleKernel(self.OrbitAverage(base, self.mats), outputscale_prior=GammaPrior(2.0, 0.15))
        return SingleTaskGP(X, Y, covar_module=covar, outcome_transform=Standardize(m=1))

    def run(self, dz, sign, f, iters, seed):
        torch = self.torch
        from botorch.acquisition import UpperConfidenceBound
        from botorch.fit import fit_gpytorch_mll
        from botorch.optim import optimize_acqf
        from gpytorch.mlls import ExactMarginalLogLikelihood
        torch.manual_seed(seed)
        p = self.p
        lo, hi = p["lo"], p["hi"]
        d = p["d"]
        U = [list((np.asarray(x) - lo) / (hi - lo)) for x in dz["x0"]]
        Ys = [sign * y for y in dz["y0"]]  # BoTorch maximizes
        bounds = torch.stack([torch.zeros(d, dtype=torch.float64), torch.ones(d, dtype=torch.float64)])
        xs, ys, fs, secs = [], [], [], []
        init = len(U)
        for t in range(1, iters + 1):
            t0 = time.perf_counter()
            X = torch.tensor(U, dtype=torch.float64)
            Y = torch.tensor(Ys, dtype=torch.float64).unsqueeze(-1)
            gp = self.model(X, Y)
            fit_gpytorch_mll(ExactMarginalLogLikelihood(gp.likelihood, gp))
            beta = 0.5 * d * math.log(t)
            acq = UpperConfidenceBound(gp, beta=beta)
            cand, _ = optimize_acqf(acq, bounds=bounds, q=1, num_restarts=10, raw_samples=512)
            u = cand.detach().numpy()[0].clip(0, 1)
            secs.append(time.perf_counter() - t0)
            x = lo + (hi - lo) * u
            x = np.minimum(np.maximum(x, lo), hi)
            fx = f(x)
            y = fx + dz["sd"] * dz["z"][init + t - 1]
            U.append(list(u))
            Ys.append(sign * y)
            xs.append(list(map(float, x)))
            ys.append(y)
            fs.append(fx)
        return xs, ys, fs, secs


class OptunaSystem:
    def __init__(self, p, kind):
        import optuna
        if kind == "optuna-gp":
            import torch
            torch.set_num_threads(1)
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
        self.optuna = optuna
        self.p = p
        self.kind = kind

    def run(self, dz, sign, f, iters, seed):
        optuna = self.optuna
        s = optuna.samplers
        if self.kind == "optuna-gp":
            sampler = s.GPSampler(seed=seed, n_startup_trials=len(dz["x0"]))
        elif self.kind == "optuna-tpe":
            sampler = s.TPESampler(seed=seed, n_startup_trials=len(dz["x0"]))
        else:
            sampler = s.RandomSampler(seed=seed)
        p = self.p
        names = [f"x{i}" for i in range(p["d"])]
        dists = {n: optuna.distributions.FloatDistribution(float(p["lo"][i]), float(p["hi"][i])) for i, n in enumerate(names)}
        study = optuna.create_study(direction="minimize" if sign < 0 else "maximize", sampler=sampler)
        for x, y in zip(dz["x0"], dz["y0"]):
            study.enqueue_trial(dict(zip(names, x)))
            tr = study.ask(dists)
            got = [tr.params[n] for n in names]
            if got != list(x):
                sys.exit(f"peers: optuna changed enqueued point {x} to {got}")
            study.tell(tr, y)
        init = len(dz["x0"])
        xs, ys, fs, secs = [], [], [], []
        for t in range(1, iters + 1):
            t0 = time.perf_counter()
            tr = study.ask(dists)
            x = np.array([tr.params[n] for n in names])
            t1 = time.perf_counter()
            fx = f(x)
            y = fx + dz["sd"] * dz["z"][init + t - 1]
            t2 = time.perf_counter()
            study.tell(tr, y)
            secs.append((t1 - t0) + (time.perf_counter() - t2))
            xs.append(list(map(float, x)))
            ys.append(y)
            fs.append(fx)
        return xs, ys, fs, secs


# ---------------------------------------------------------------- records

def write_atomic(path, data, mode="w"):
    d = os.path.dirname(path) or "."
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
    with os.fdopen(fd, mode) as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def metric_of(dz, fs):
    """perf table's metric: cumulative regret over the acquisition steps, or -max f (init included)."""
    if dz["optimum"] is None:
        best = max(list(dz["f0"]) + list(fs))
        return -best, None
    fstar = dz["optimum"]
    sign = -1 if dz["minimize"] else 1
    cum, curve = 0.0, []
    for v in fs:
        r = max(0.0, sign * (fstar - v))
        cum += r
        curve.append(cum)
    return cum, curve


def versions():
    v = {"python": platform.python_version(), "numpy": np.__version__, "platform": platform.platform(),
         "machine": platform.machine(), "cpu": _cpu(), "nproc": os.cpu_count(),
         "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS")}
    for mod in ["torch", "scipy", "gpytorch", "linear_operator", "botorch", "optuna"]:
        try:
            m = __import__(mod)
            v[mod] = getattr(m, "__version__", "?")
            v[mod + "_path"] = os.path.dirname(m.__file__)
        except Exception as e:  # noqa: BLE001
            v[mod] = f"unavailable: {e}"
    v["pyro"] = "stand-in module (pyro absent)" if PYRO_STANDIN else _pyro_version()
    try:  # the Debian packages, where they are installed that way
        out = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n", "python3-torch", "python3-scipy",
                              "python3-numpy", "python3-matplotlib"], capture_output=True, text=True).stdout
        v["debian"] = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
    except OSError:
        pass
    return v


def _pyro_version():
    try:
        import pyro
        return getattr(pyro, "__version__", "?")
    except Exception:  # noqa: BLE001
        return "absent"


def _cpu():
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def rec_path(out, prob, system, seed):
    return os.path.join(out, "records", prob, system, f"{seed}.json")


def run_all(args):
    problems = args.problems.split(",")
    systems = args.systems.split(",")
    for s in systems:
        if s not in SYSTEMS:
            sys.exit(f"peers: unknown system {s} (want {', '.join(SYSTEMS)})")
    a, b = (int(v) for v in args.seeds.split(":")) if ":" in args.seeds else (0, int(args.seeds))
    cache = args.cache
    os.makedirs(cache, exist_ok=True)
    rng = np.random.default_rng(12345)
    probs, fns, sys_objs = {}, {}, {}
    for name in problems:
        p = probs[name] = problem(name)
        err = check_agreement(args.perf, p, rng)
        log(f"peers: {name}: numpy f agrees with perf eval at 50 random points (max relative error {err:.2g})"
            if p["f"] is not None else f"peers: {name}: f evaluated by perf eval")
        fns[name] = p["f"] if p["f"] is not None else (lambda x, n=name: perf_eval(args.perf, n, [x])[0])
    # Seeds outermost, then problems, then systems: the systems alternate run by run (machine load hits all
    # alike), and a run stopped early leaves every problem with the same seeds.
    for seed in range(a, b):
        for name in problems:
            p, f = probs[name], fns[name]
            dz = None
            for s in systems:
                if s == "botorch-orbit" and (p["order"] is None or p["order"] > ORBIT_MAX or p["matrices"] is None):
                    continue
                path = rec_path(args.out, name, s, seed)
                if os.path.exists(path):
                    continue
                if dz is None:
                    dz = design(args.perf, p, seed, args.init, args.iters, cache)
                if (name, s) not in sys_objs:
                    sys_objs[name, s] = BoTorchSystem(p, s == "botorch-orbit") if s.startswith("botorch") else OptunaSystem(p, s)
                sign = -1 if dz["minimize"] else 1
                t0 = time.perf_counter()
                xs, ys, fs, secs = sys_objs[name, s].run(dz, sign, f, args.iters, seed)
                wall = time.perf_counter() - t0
                metric, curve = metric_of(dz, fs)
                rec = dict(problem=name, system=s, seed=seed, metric=metric, cumulative_regret=curve,
                           median_step_seconds=float(np.median(secs)), wall_seconds=wall, step_seconds=secs,
                           init_x=dz["x0"], init_y=dz["y0"], init_f=dz["f0"], x=xs, y=ys, f=fs,
                           noise_variance=dz["noise_variance"], optimum=dz["optimum"], minimize=dz["minimize"],
                           iters=args.iters, beta="0.5*d*log(t), t = 1..iters" if s.startswith("botorch") else None,
                           group=p["group"] if s == "botorch-orbit" else None,
                           group_order=p["order"] if s == "botorch-orbit" else None,
                           perf_revision=dz["perf_revision"], pyro_standin=PYRO_STANDIN, env=VERSIONS)
                write_atomic(path, json.dumps(rec))
                log(f"peers: {name} {s} seed {seed}: metric {metric:.6g}, median {np.median(secs):.3f} s/step, {wall:.1f} s")


# ---------------------------------------------------------------- report

def load_records(out):
    recs = []
    root = os.path.join(out, "records")
    for dp, _, fns in os.walk(root):
        for fn in fns:
            if fn.endswith(".json"):
                with open(os.path.join(dp, fn)) as fh:
                    recs.append(json.load(fh))
    return recs


def mse(v):
    v = np.asarray(v, dtype=float)
    return v.mean(), (v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else float("nan"))


def fmt(m, s):
    digits = 1 if abs(m) < 1000 else 0
    return f"{m:.{digits}f} ± {s:.{digits}f}"


def symbo_rows(specs, problems, seeds):
    """Rows read from committed perf table records: LABEL=PATH[:kernel,kernel]."""
    rows = []
    for spec in specs:
        label, rest = spec.split("=", 1)
        path, _, kernels = rest.partition(":")
        with open(path) as fh:
            rec = json.load(fh)
        ks = kernels.split(",") if kernels else sorted({r["kernel"] for r in rec["runs"]})
        for k in ks:
            cells = {}
            for prob in problems:
                runs = [r for r in rec["runs"] if r["problem"] == prob and r["kernel"] == k and r["seed"] in seeds]
                if len(runs) == len(seeds):
                    cells[prob] = ([r["metric"] for r in sorted(runs, key=lambda r: r["seed"])],
                                   float(np.median([r["seconds"] for r in runs])) / rec["protocol"]["iters"])
            rows.append((f"symbo {k} ({label})", cells, rec["command"], rec.get("revision")))
    return rows


def report(args):
    recs = load_records(args.out)
    a, b = (int(v) for v in args.seeds.split(":")) if ":" in args.seeds else (0, int(args.seeds))
    seeds = list(range(a, b))
    problems = args.problems.split(",")
    by = {}
    for r in recs:
        if r["seed"] in seeds:
            by.setdefault((r["problem"], r["system"]), []).append(r)
    lines = [f"# The peers on symbo's problems (seeds {a}–{b - 1})", "",
             "Mean ± standard error over the seeds of the cumulative regret over the 50 UCB/acquisition steps "
             "(perf table's metric; WLAN8d: −max f), lower is better; then the median seconds per step. "
             "Every system sees symbo's 5 initial points and noise draws for the seed. "
             "symbo's rows are read from the committed records named below (s/step there: median run time ÷ 50, "
             "initial design included). Written by lab/peers/peers.py; see README.md.", ""]
    head = "| system | " + " | ".join(problems) + " |"
    lines += [head, "|---" * (len(problems) + 1) + "|"]
    curves = {}
    sysnames = [s for s in SYSTEMS if any((p, s) in by for p in problems)]
    for s in sysnames:
        cells = []
        for prob in problems:
            rs = by.get((prob, s), [])
            if not rs:
                cells.append("not run")
                continue
            m, se = mse([r["metric"] for r in rs])
            st = float(np.median([x for r in rs for x in r["step_seconds"]]))
            n = "" if len(rs) == len(seeds) else f" (n={len(rs)})"
            cells.append(f"{fmt(m, se)}{n}; {st:.3f} s")
            if rs[0]["cumulative_regret"] is not None:
                curves[(prob, s)] = np.array([r["cumulative_regret"] for r in rs])
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    srows = symbo_rows(args.symbo or [], problems, seeds)
    for label, cells, _, _ in srows:
        out = []
        for prob in problems:
            if prob in cells:
                m, se = mse(cells[prob][0])
                out.append(f"{fmt(m, se)}; {cells[prob][1]:.3f} s")
            else:
                out.append("—")
        lines.append(f"| {label} | " + " | ".join(out) + " |")
    # Paired differences against BoTorch: the same seeds see the same initial design and noise.
    ref = {prob: {r["seed"]: r["metric"] for r in by.get((prob, "botorch"), [])} for prob in problems}
    lines += ["", "Paired difference from BoTorch's SingleTaskGP (row − botorch, same seeds: the same initial design "
              "and noise), mean ± s.e. over the seeds both have; negative: lower regret than BoTorch. "
              "t-based, uncorrected; bold where |mean| > 2 s.e.", "",
              head.replace("| system |", "| system − botorch |"), "|---" * (len(problems) + 1) + "|"]
    others = [(s, {prob: {r["seed"]: r["metric"] for r in by.get((prob, s), [])} for prob in problems})
              for s in sysnames if s != "botorch"]
    others += [(label, {prob: dict(zip(seeds, cells[prob][0])) for prob in cells}) for label, cells, _, _ in srows]
    for label, per in others:
        out = []
        for prob in problems:
            common = sorted(set(per.get(prob, {})) & set(ref[prob]))
            if len(common) < 2:
                out.append("—")
                continue
            m, se = mse([per[prob][k] - ref[prob][k] for k in common])
            cell = fmt(m, se) + ("" if len(common) == len(seeds) else f" (n={len(common)})")
            out.append(f"**{cell}**" if abs(m) > 2 * se else cell)
        lines.append(f"| {label} | " + " | ".join(out) + " |")
    lines += ["", "symbo's rows come from:", ""]
    seen = set()
    for label, _, cmd, rev in srows:
        if cmd in seen:
            continue
        seen.add(cmd)
        lines.append(f"- ({label.split('(')[-1]} `{cmd}` at {rev}")
    # Versions from one record's run environment
    v = VERSIONS
    keys = ["python", "torch", "gpytorch", "linear_operator", "botorch", "optuna", "scipy", "numpy", "pyro", "cpu", "nproc"]
    envs = sorted({json.dumps({k: r["env"].get(k) for k in keys}) for r in recs if r.get("env")})
    lines += ["", "Versions the runs recorded: " + "; ".join(", ".join(f"{k} {val}" for k, val in json.loads(e).items())
                                                       for e in envs) + f". Debian packages: {v.get('debian')}.", ""]
    write_atomic(os.path.join(args.out, "table.md"), "\n".join(lines) + "\n")
    summary = dict(seeds=[a, b], problems=problems, versions=v, command=" ".join(sys.argv),
                   cells={f"{p}/{s}": dict(n=len(rs), mean=mse([r["metric"] for r in rs])[0],
                                          se=mse([r["metric"] for r in rs])[1],
                                          median_step_seconds=float(np.median([x for r in rs for x in r["step_seconds"]])),
                                          per_seed={r["seed"]: r["metric"] for r in sorted(rs, key=lambda r: r["seed"])})
                          for (p, s), rs in sorted(by.items()) if p in problems},
                   symbo={f"{p}/{label}": dict(per_seed=dict(zip(seeds, cells[p][0])), step_seconds=cells[p][1])
                          for label, cells, _, _ in srows for p in cells})
    write_atomic(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=1))
    strips = {(p, s): [r["metric"] for r in by.get((p, s), [])] for p in problems for s in sysnames}
    strips.update({(p, label): cells[p][0] for label, cells, _, _ in srows for p in cells})
    try:
        plot(args.out, problems, curves)
        plot_strips(args.out, problems, strips)
    except ImportError as e:
        log(f"peers: no figure ({e})")
    print("\n".join(lines))


def plot(out, problems, curves):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ps = [p for p in problems if any(k[0] == p for k in curves)]
    if not ps:
        return
    fig, axes = plt.subplots(1, len(ps), figsize=(4.2 * len(ps), 3.4), squeeze=False)
    for ax, prob in zip(axes[0], ps):
        for i, s in enumerate(SYSTEMS):
            c = curves.get((prob, s))
            if c is None:
                continue
            t = np.arange(1, c.shape[1] + 1)
            m = c.mean(0)
            se = c.std(0, ddof=1) / math.sqrt(c.shape[0]) if c.shape[0] > 1 else 0 * m
            ax.plot(t, m, label=s, color=f"C{i}")
            ax.fill_between(t, m - se, m + se, alpha=0.2, color=f"C{i}")
        ax.set_title(prob)
        ax.set_xlabel("BO step t")
        ax.set_ylabel("cumulative regret")
    axes[0][0].legend(fontsize=8)
    save_figure(fig, out, "regret")


def save_figure(fig, out, name):
    """Writes fig as out/name.png and .svg, each atomically."""
    fig.tight_layout()
    for ext in ["png", "svg"]:
        fd, tmp = tempfile.mkstemp(dir=out, prefix=".tmp-", suffix="." + ext)
        os.close(fd)
        fig.savefig(tmp, dpi=110)
        os.replace(tmp, os.path.join(out, name + "." + ext))


def plot_strips(out, problems, strips):
    """Every run's metric, one dot per seed, per problem and system, with the mean (bar) and median (diamond)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = []
    for (_, s) in strips:
        if s not in labels:
            labels.append(s)
    ps = [p for p in problems if any(strips.get((p, s)) for s in labels)]
    fig, axes = plt.subplots(1, len(ps), figsize=(4.6 * len(ps), 0.35 * len(labels) + 1.6), squeeze=False)
    rng = np.random.default_rng(0)
    for ax, prob in zip(axes[0], ps):
        for i, s in enumerate(labels):
            v = np.asarray(strips.get((prob, s)) or [])
            if not len(v):
                continue
            ax.plot(v, i + 0.15 * rng.uniform(-1, 1, len(v)), ".", ms=3, alpha=0.6, color=f"C{i % 10}")
            ax.plot([v.mean()] * 2, [i - 0.3, i + 0.3], "k-", lw=1.2)
            ax.plot([np.median(v)], [i], "kD", ms=3)
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels if ax is axes[0][0] else [""] * len(labels), fontsize=7)
        ax.set_title(prob)
        ax.set_xlabel("cumulative regret")
        if prob != "WLAN8d" and all(min(strips.get((prob, s)) or [1]) > 0 for s in labels):
            ax.set_xscale("log")
    save_figure(fig, out, "strips")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--perf", default="/tmp/peers-perf", help="a built perf binary (go build ./cmd/perf)")
    ap.add_argument("--out", default="lab/results/peers")
    ap.add_argument("--problems", default="Ackley2d,Griewank6d,Rastrigin5d")
    ap.add_argument("--systems", default=",".join(SYSTEMS))
    ap.add_argument("--seeds", default="0:30", help="N or A:B (seeds A..B-1)")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "peers-inputs"),
                    help="where symbo's perf bo traces (initial design, noise) are kept")
    ap.add_argument("--init", type=int, default=5)
    ap.add_argument("--report", action="store_true", help="only write table.md, summary.json and the figures")
    ap.add_argument("--symbo", action="append", help="LABEL=record.json[:kernels] rows for the table (repeatable)")
    args = ap.parse_args()
    install_pyro_standin()
    global VERSIONS
    VERSIONS = versions()
    if not args.report:
        log("peers: versions " + json.dumps(VERSIONS))
        run_all(args)
    report(args)


if __name__ == "__main__":
    main()
