"""SymboSampler against Optuna's BaseSampler contract, checked the way
Optuna checks its own samplers (its tests/samplers_tests/test_samplers.py:
every distribution type through sample_independent and sample_relative,
single-point distributions, whole studies over every pair of suggest
methods, conditional and dynamic search spaces, nan objectives,
PartialFixedSampler, reproducibility and reseed_rng, multi-objective
refusal, after_trial with every trial state, pickling, threads). Each test
runs over several sampler configurations; the studies are short so that the
module stays fast."""

import math
import pickle
import warnings

import numpy as np
import pytest

optuna = pytest.importorskip("optuna")
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution  # noqa: E402
from optuna.trial import TrialState  # noqa: E402

import symbo  # noqa: E402
from symbo.optuna import FallbackWarning, SymboSampler  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.WARNING)

# The contract crosses every pair of distributions, log-scale with linear
# under groups that move values between them: the ScaleWarning is expected.
pytestmark = pytest.mark.filterwarnings("ignore::symbo.optuna.ScaleWarning")

# Sampler configurations: (id, factory(seed)). An invariant kernel with a
# large group (the orbit checks and the group acting on relaxed integers and
# log coordinates), a kernel without a group, and a non-default
# acquisition and base kernel.
SAMPLERS = [
    ("hyperoctahedral-plus", lambda seed=1: SymboSampler(group="hyperoctahedral", seed=seed, n_startup_trials=2)),
    ("none-base", lambda seed=1: SymboSampler(group="none", kernel="base", seed=seed, n_startup_trials=2)),
    ("permutation-max-ucb", lambda seed=1: SymboSampler(group="permutation", kernel="max", base="matern52",
                                                         acq="ucb", seed=seed, n_startup_trials=3)),
]
parametrize_sampler = pytest.mark.parametrize("make", [m for _, m in SAMPLERS], ids=[i for i, _ in SAMPLERS])

FLOATS = [
    FloatDistribution(-1.0, 1.0),
    FloatDistribution(0.0, 1.0),
    FloatDistribution(-1.0, 0.0),
    FloatDistribution(1e-7, 1.0, log=True),
    FloatDistribution(-10, 10, step=0.1),
    FloatDistribution(-10.2, 10.2, step=0.1),
]
INTS = [
    IntDistribution(-10, 10),
    IntDistribution(0, 10),
    IntDistribution(-10, 0),
    IntDistribution(-10, 10, step=2),
    IntDistribution(0, 10, step=2),
    IntDistribution(-10, 0, step=2),
    IntDistribution(1, 100, log=True),
]
RELATIVE = [
    FloatDistribution(-1.0, 1.0),
    FloatDistribution(1e-7, 1.0, log=True),
    FloatDistribution(-10, 10, step=0.5),
    IntDistribution(3, 10),
    IntDistribution(1, 100, log=True),
    IntDistribution(3, 9, step=2),
]
SUGGEST = [
    lambda name: (lambda t: t.suggest_float(name, 0, 10)),
    lambda name: (lambda t: t.suggest_int(name, 0, 10)),
    lambda name: (lambda t: float(t.suggest_categorical(name, [0, 1, 2]))),
    lambda name: (lambda t: t.suggest_float(name, 0, 10, step=0.5)),
    lambda name: (lambda t: t.suggest_float(name, 1e-7, 10, log=True)),
    lambda name: (lambda t: t.suggest_int(name, 1, 10, log=True)),
]
SUGGEST_IDS = ["float", "int", "categorical", "step", "logfloat", "logint"]


@pytest.fixture(autouse=True)
def _quiet():
    # The categorical fallback warns (tested on its own below).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        yield


def new_trial(study):
    """A fresh RUNNING trial, as Optuna's sampler tests make them."""
    return study._storage.get_trial(study._storage.create_new_trial(study._study_id))


def check_value(value, dist):
    """value is a plain int/float of dist (on its grid)."""
    assert not isinstance(value, (np.floating, np.integer))
    if isinstance(dist, CategoricalDistribution):
        assert value in dist.choices
        return
    assert isinstance(value, int if isinstance(dist, IntDistribution) else float)
    assert dist.low <= value <= dist.high
    assert dist._contains(dist.to_internal_repr(value))


# ---------------------------------------------------------------- sample_independent (the fallback)


@parametrize_sampler
@pytest.mark.parametrize("dist", FLOATS + INTS, ids=repr)
def test_sample_independent_numeric(make, dist):
    study = optuna.create_study(sampler=make())
    for _ in range(20):
        check_value(study.sampler.sample_independent(study, new_trial(study), "x", dist), dist)


@parametrize_sampler
@pytest.mark.parametrize("choices", [(1, 2, 3), ("a", "b", "c"), (1, "a")], ids=str)
def test_sample_independent_categorical(make, choices):
    dist = CategoricalDistribution(choices)
    study = optuna.create_study(sampler=make())
    for _ in range(20):
        check_value(study.sampler.sample_independent(study, new_trial(study), "x", dist), dist)


# ---------------------------------------------------------------- sample_relative, any search space


def relative_study(make, space, n_told=3):
    """A study with n_told trials of space told (values varying), so that
    symbo fits its GP (n_startup_trials ≤ 3)."""
    study = optuna.create_study(sampler=make())
    for i in range(n_told):
        t = study.ask(space)
        study.tell(t, float(i) + sum(float(v) for v in t.params.values() if not isinstance(v, str)))
    return study


@parametrize_sampler
@pytest.mark.parametrize("x", RELATIVE, ids=repr)
@pytest.mark.parametrize("y", RELATIVE, ids=repr)
def test_sample_relative_numerical(make, x, y):
    """Every numeric pair is modelled by symbo (the trial records its point:
    nothing went to the fallback); ints stay ints, steps and log ranges
    hold."""
    space = {"x": x, "y": y}
    study = relative_study(make, space)
    for _ in range(4):
        trial = new_trial(study)
        params = study.sampler.sample_relative(study, trial, space)
        assert set(params) == {"x", "y"}
        for n, d in space.items():
            check_value(params[n], d)
        recorded = study._storage.get_trial(trial._trial_id).system_attrs["symbo:x"]
        assert recorded == params


@parametrize_sampler
def test_sample_relative_categorical(make):
    space = {"x": CategoricalDistribution([1, 10, 100]), "y": CategoricalDistribution([-1, -10, -100])}
    study = relative_study(make, space)
    for _ in range(5):
        params = study.sampler.sample_relative(study, new_trial(study), space)
        for n, d in space.items():
            check_value(params[n], d)
            assert isinstance(params[n], int)


@parametrize_sampler
@pytest.mark.parametrize("x", RELATIVE, ids=repr)
def test_sample_relative_mixed(make, x):
    space = {"x": x, "y": CategoricalDistribution([-1, -10, -100])}
    study = relative_study(make, space)
    for _ in range(4):
        params = study.sampler.sample_relative(study, new_trial(study), space)
        check_value(params["x"], x)
        check_value(params["y"], space["y"])


SINGLES = {
    "a": CategoricalDistribution([1]),
    "b": IntDistribution(low=1, high=1),
    "c": IntDistribution(low=1, high=1, log=True),
    "d": FloatDistribution(low=1.0, high=1.0),
    "e": FloatDistribution(low=1.0, high=1.0, log=True),
    "f": FloatDistribution(low=1.0, high=1.0, step=1.0),
}


@parametrize_sampler
def test_single_point_distributions(make):
    """low == high: the value, through study.ask and through sample_relative
    (alone, and beside a modelled parameter)."""
    study = optuna.create_study(sampler=make())
    for _ in range(3):
        trial = study.ask(fixed_distributions=SINGLES)
        study.tell(trial, 1.0)
        assert all(trial.params[n] == 1 for n in SINGLES)
    assert study.sampler.sample_relative(study, new_trial(study), SINGLES) == {n: 1 for n in SINGLES}
    space = dict(SINGLES, x=FloatDistribution(0.0, 1.0))
    params = study.sampler.sample_relative(study, new_trial(study), space)
    assert {n: params[n] for n in SINGLES} == {n: 1 for n in SINGLES}
    check_value(params["x"], space["x"])


# ---------------------------------------------------------------- whole studies


@parametrize_sampler
@pytest.mark.parametrize("suggest", SUGGEST, ids=SUGGEST_IDS)
def test_single_parameter_objective(make, suggest):
    study = optuna.create_study(sampler=make())
    study.optimize(suggest("x"), n_trials=8)
    assert len(study.trials) == 8 and all(t.state == TrialState.COMPLETE for t in study.trials)


@pytest.mark.parametrize("sx", SUGGEST, ids=SUGGEST_IDS)
@pytest.mark.parametrize("sy", SUGGEST, ids=SUGGEST_IDS)
def test_combination_of_different_distributions_objective(sx, sy):
    make = SAMPLERS[0][1]
    fx, fy = sx("x"), sy("y")
    study = optuna.create_study(sampler=make())
    study.optimize(lambda t: fx(t) + fy(t), n_trials=8)
    assert len(study.trials) == 8 and all(t.state == TrialState.COMPLETE for t in study.trials)
    for t in study.trials:
        for n, d in t.distributions.items():
            check_value(t.params[n], d)


@parametrize_sampler
def test_conditional_parameter_objective(make):
    def objective(trial):
        if trial.suggest_categorical("x", [True, False]):
            return trial.suggest_float("y", 0, 1)
        return trial.suggest_float("z", 0, 1)

    study = optuna.create_study(sampler=make())
    study.optimize(objective, n_trials=10)
    assert len(study.trials) == 10 and all(t.state == TrialState.COMPLETE for t in study.trials)


@parametrize_sampler
@pytest.mark.parametrize("low,high", [(0, 5), (0, 20), (20, 30)])
def test_dynamic_range_objective(make, low, high):
    def objective(trial, lo, hi):
        return trial.suggest_float("x", lo, hi) + trial.suggest_int("y", lo, hi)

    study = optuna.create_study(sampler=make())
    study.optimize(lambda t: objective(t, 0, 10), n_trials=6)
    study.optimize(lambda t: objective(t, low, high), n_trials=6)
    assert len(study.trials) == 12 and all(t.state == TrialState.COMPLETE for t in study.trials)
    for t in study.trials:
        for n, d in t.distributions.items():
            check_value(t.params[n], d)


@parametrize_sampler
def test_nan_objective_value(make):
    study = optuna.create_study(sampler=make())

    def objective(trial, base):
        return trial.suggest_float("x", 0.1, 0.2) + base

    for i in range(10, 1, -1):
        study.optimize(lambda t: objective(t, i), n_trials=1, catch=())
    assert int(study.best_value) == 2
    study.optimize(lambda t: objective(t, float("nan")), n_trials=1, catch=())
    assert int(study.best_value) == 2
    study.optimize(lambda t: objective(t, 1), n_trials=1, catch=())
    assert int(study.best_value) == 1


@parametrize_sampler
def test_partial_fixed_sampling(make):
    def objective(trial):
        return trial.suggest_float("x", -1, 1) + trial.suggest_int("y", -1, 1) + trial.suggest_float("z", -1, 1)

    study = optuna.create_study(sampler=make())
    study.optimize(objective, n_trials=2)
    study.sampler = optuna.samplers.PartialFixedSampler({"y": 0}, study.sampler)
    study.optimize(objective, n_trials=2)
    assert all(t.params["y"] == 0 for t in study.trials[2:])


# ---------------------------------------------------------------- seeds


def seven(trial):
    a = trial.suggest_float("a", 1, 9)
    b = trial.suggest_float("b", 1, 9, log=True)
    c = trial.suggest_float("c", 1, 9, step=1)
    d = trial.suggest_int("d", 1, 9)
    e = trial.suggest_int("e", 1, 9, log=True)
    f = trial.suggest_int("f", 1, 9, step=2)
    g = trial.suggest_categorical("g", range(1, 10))
    return a + b + c + d + e + f + g


def params_of(sampler, n=10, objective=seven):
    study = optuna.create_study(sampler=sampler)
    study.optimize(objective, n_trials=n)
    return [t.params for t in study.trials]


@parametrize_sampler
def test_reproducible(make):
    assert params_of(make(1)) == params_of(make(1))
    assert params_of(make(1)) != params_of(make(2))


@parametrize_sampler
def test_reseed_rng_changes_sampling(make):
    """Optuna's check: a sampler built with a seed, then reseeded, samples
    differently (here through the fallback: the first trial, the
    categorical)."""
    sampler = make(1)
    sampler.reseed_rng()
    assert params_of(make(1)) != params_of(sampler)


def floats_only(trial):
    return sum(trial.suggest_float("x%d" % i, -2, 2) ** 2 for i in range(3))


def symbo_points(sampler):
    """The points symbo chooses: the first trial (the fallback's, before any
    has completed) is enqueued, so that only symbo samples."""
    study = optuna.create_study(sampler=sampler)
    study.enqueue_trial({"x0": 0.5, "x1": -1.0, "x2": 1.5})
    study.optimize(floats_only, n_trials=6)
    return [t.params for t in study.trials[1:]]


def test_reseed_rng_keeps_a_given_seed():
    """reseed_rng draws a new symbo seed only when none was given: a given
    seed is what the study's workers share."""
    sampler = SymboSampler(group="hyperoctahedral", seed=4, n_startup_trials=3)
    sampler.reseed_rng()
    assert symbo_points(sampler) == symbo_points(SymboSampler(group="hyperoctahedral", seed=4, n_startup_trials=3))
    unseeded = SymboSampler(group="hyperoctahedral", n_startup_trials=3)
    before = symbo_points(unseeded)
    assert symbo_points(unseeded) == before  # deterministic between reseeds
    unseeded.reseed_rng()
    assert symbo_points(unseeded) != before
    assert symbo_points(SymboSampler(group="hyperoctahedral", n_startup_trials=3)) != before


# ---------------------------------------------------------------- refusals, trial states, pickling, threads


@parametrize_sampler
def test_multi_objective_is_refused(make):
    study = optuna.create_study(directions=["minimize", "maximize"], sampler=make())
    match = "single objective.*2 .*minimize, maximize"
    with pytest.raises(ValueError, match=match):
        study.sampler.sample_independent(study, new_trial(study), "x", FloatDistribution(0, 1))
    # Not infer_relative_search_space, which Optuna calls from study.ask
    # (see test_refusals_fail_the_trial_where_optuna_can): it raised too.
    assert study.sampler.infer_relative_search_space(study, new_trial(study)) == {}
    with pytest.raises(ValueError, match=match):
        study.sampler.sample_relative(study, new_trial(study), {})
    with pytest.raises(ValueError, match=match):
        study.sampler.sample_relative(study, new_trial(study), {"x": FloatDistribution(0, 1)})
    with pytest.raises(ValueError, match=match):
        study.optimize(lambda t: (t.suggest_float("x", 0, 1), 0.0), n_trials=1)


# Optuna 3.2 and later call sample_relative at the trial's first
# suggest_*, inside the objective (Trial.relative_params, a property),
# where study.optimize fails the trial on an exception; before, from
# study.ask, where it stays RUNNING for any sampler.
LAZY_RELATIVE = isinstance(vars(optuna.trial.Trial).get("relative_params"), property)


def _two_floats(trial):
    return trial.suggest_float("a", -1, 1) ** 2 + trial.suggest_float("b", -1, 1) ** 2


@pytest.mark.parametrize("sampler, directions, match", [
    (lambda: SymboSampler(group="permutation", params=["a", "z"], seed=0), None, r"params names 'z'.*\(a, b\)"),
    (lambda: SymboSampler(group="cyclic", seed=0), None, r"'cyclic'.*consecutive.*params="),
    (lambda: SymboSampler(group="blockperm", block=3, params=["a", "b"], seed=0), None, r"blockperm needs d a multiple"),
    (lambda: SymboSampler(group="permutation", seed=0), ["minimize", "minimize"], r"single objective"),
], ids=["params-typo", "order", "late-setting", "multi-objective"])
def test_refusals_fail_the_trial_where_optuna_can(sampler, directions, match):
    """The sampler's refusals come from sample_relative (or
    sample_independent), never from infer_relative_search_space: Optuna
    up to 4.5 calls that from study.ask, before the objective, and an
    exception there left the new trial RUNNING for good — with Optuna
    3.2–4.5 a params typo, an ambiguous order or a multi-objective study
    did, where a refusal from sample_relative (Optuna's own CmaEsSampler
    refusing a multi-objective study) fails the trial — and later trials
    counted it as one of unknown point. Optuna 3.1 calls both from
    study.ask: the trial stays RUNNING whatever the sampler."""
    if directions is None:
        study = optuna.create_study(sampler=sampler())
        study.optimize(_two_floats, n_trials=1)  # the fallback's: nothing completed yet
        objective = _two_floats
    else:
        study = optuna.create_study(sampler=sampler(), directions=directions)
        objective = lambda t: (t.suggest_float("a", -1, 1), t.suggest_float("b", -1, 1))  # noqa: E731
    trial = new_trial(study)
    space = study.sampler.infer_relative_search_space(study, trial)  # raised, but for late-setting
    with pytest.raises(ValueError, match=match):
        study.sampler.sample_relative(study, trial, space)
    study._storage.set_trial_state_values(trial._trial_id, TrialState.FAIL)
    with pytest.raises(ValueError, match=match):
        study.optimize(objective, n_trials=1)
    assert study.trials[-1].state == (TrialState.FAIL if LAZY_RELATIVE else TrialState.RUNNING)


@parametrize_sampler
def test_every_trial_state(make):
    """COMPLETE, PRUNED, FAIL (raised, nan) and inf trials, through
    study.optimize and study.ask/tell: the study goes on, every trial gets
    valid parameters."""
    outcome = ["ok", "ok", "prune", "raise", "nan", "inf", "ok", "prune", "ok", "raise", "ok", "ok"]

    def objective(trial):
        x = trial.suggest_float("x", -2, 2)
        k = trial.suggest_int("k", 0, 4)
        what = outcome[trial.number % len(outcome)]
        if what == "prune":
            trial.report(x, 0)
            raise optuna.TrialPruned()
        if what == "raise":
            raise RuntimeError("failed evaluation")
        return {"nan": float("nan"), "inf": float("inf")}.get(what, x * x + k)

    study = optuna.create_study(sampler=make())
    study.optimize(objective, n_trials=len(outcome), catch=(RuntimeError,))
    for _ in range(3):
        t = study.ask()
        study.tell(t, state=TrialState.FAIL)
        study.tell(study.ask(), 1.0 + study.trials[-1].number)
    states = [t.state for t in study.trials]
    assert states.count(TrialState.PRUNED) == 2 and states.count(TrialState.FAIL) == 3 + 3
    for t in study.trials:
        for n, d in t.distributions.items():
            check_value(t.params[n], d)


def test_pickle():
    sampler = SymboSampler(group="hyperoctahedral", seed=3, n_startup_trials=3)
    again = pickle.loads(pickle.dumps(sampler))
    assert params_of(sampler, 6, floats_only) == params_of(again, 6, floats_only)


def test_threads():
    """One sampler, study.optimize(n_jobs=3) (Optuna calls reseed_rng from
    each thread): every trial completes, and no two share a point's orbit
    (signed permutations) unless one saw the other complete."""
    from symbo.optuna import seen_trials

    study = optuna.create_study(sampler=SymboSampler(group="hyperoctahedral", seed=2, n_startup_trials=3))
    study.optimize(floats_only, n_trials=12, n_jobs=3)
    trials = study.trials
    assert len(trials) == 12 and all(t.state == TrialState.COMPLETE for t in trials)
    orbit = {t.number: tuple(sorted(abs(t.params["x%d" % i]) for i in range(3))) for t in trials}
    for a in trials:
        for b in trials:
            if a.number < b.number and orbit[a.number] == orbit[b.number]:
                sa, sb = seen_trials(a), seen_trials(b)
                assert (sb and a.number in sb) or (sa and b.number in sa)
    assert math.isfinite(study.best_value)


def test_threads_grid_no_repeat():
    """n_jobs=2 on a 5×5 grid, 20 trials: no trial whose point symbo chose
    shares it with another trial (one once took the point of a trial that
    completed between its view and its check, with grid points left). The
    trials before the first COMPLETE one are the uniform fallback's, which
    the module documents as not avoiding each other: two of them may meet."""
    def grid(trial):
        return trial.suggest_float("a", 0, 1, step=0.25) + trial.suggest_float("b", 0, 1, step=0.25)

    for seed in range(3):
        study = optuna.create_study(sampler=SymboSampler(group="none", seed=seed))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FallbackWarning)
            study.optimize(grid, n_trials=20, n_jobs=2)
        point = {t.number: (t.params["a"], t.params["b"]) for t in study.trials}
        chosen = {t.number for t in study.trials if t.system_attrs.get("symbo:x") is not None}
        assert len(chosen) >= 15, (seed, sorted(chosen))
        for a in chosen:
            for b in point:
                assert b == a or point[b] != point[a], (seed, a, b, point)


def test_trial_without_parameters():
    """A COMPLETE trial that suggested nothing (a cached configuration)
    tells nothing about the search space: the trials after it are still
    symbo's (once such a trial made the intersection empty for good, and
    every later trial was uniform, without a warning)."""
    def objective(trial):
        if trial.number == 3:
            return 10.0
        x = trial.suggest_float("x", -2, 2)
        y = trial.suggest_float("y", -2, 2)
        return (x - 0.3) ** 2 + (y + 0.2) ** 2

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0, n_startup_trials=3))
    with warnings.catch_warnings():
        warnings.simplefilter("error", FallbackWarning)
        study.optimize(objective, n_trials=10)
    assert all(t.system_attrs.get("symbo:x") is not None for t in study.trials[4:])


def test_narrow_range_names_the_parameter():
    """A range symbo cannot search is an error naming the parameter, not
    a model coordinate the user never sees."""
    def objective(trial):
        lr = trial.suggest_float("lr", 0.0, 1.0)
        temp = trial.suggest_float("temp", 300.0, 300.0 + 1e-9)
        return lr + (temp - 300.0)

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0))
    with pytest.raises(symbo.InvalidInput, match=r"parameter 'temp' \(model coordinate 1\)"):
        study.optimize(objective, n_trials=5)

    # With log=True the model coordinate is the sampler's logarithm: the
    # range [1e9, 1e9 + 1] is accepted linearly and its logarithm is too
    # narrow. The message said to subtract 20.72 from a coordinate the
    # user never sees; it names log=True now.
    def log_objective(trial):
        return trial.suggest_float("x", 1e9, 1e9 + 1, log=True) + trial.suggest_float("y", 0.0, 1.0)

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0))
    with pytest.raises(symbo.InvalidInput, match=r"parameter 'x': log=True on \[1000000000.0, 1000000001.0\] .*"
                                                 r"drop log=True"):
        study.optimize(log_objective, n_trials=5)

    # Near 1 (|log x| < 1) the range is as narrow without log=True: the
    # message said only to drop log=True, which was refused in turn.
    def near_one(trial):
        return trial.suggest_float("x", 0.5, 0.5 + 1e-11, log=True) + trial.suggest_float("y", 0.0, 1.0)

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0))
    with pytest.raises(symbo.InvalidInput, match=r"parameter 'x': log=True .* drop log=True, and search the offset "
                                                 r"from 0.5"):
        study.optimize(near_one, n_trials=5)
    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0))
    study.optimize(lambda t: t.suggest_float("x", 1e9, 1e9 + 1) + t.suggest_float("y", 0.0, 1.0), n_trials=3)


def test_huge_integer_offset():
    """An integer parameter far from 0 for its range, IntDistribution(10**15,
    10**15 + 10), is searched when the group leaves it alone (its model
    coordinate is its offset from low: every value is a float, the
    relaxation [low - 1/2, high + 1/2] held too few others for symbo), and
    refused with an integer offset to search where the group acts on it.
    It was refused as too narrow, the advice being to subtract
    999999999999999.5 from the parameter."""
    low = 10**15

    def objective(trial):
        x = trial.suggest_int("x", low, low + 10)
        y = trial.suggest_float("y", -1.0, 1.0)
        assert isinstance(x, int) and low <= x <= low + 10
        return float((x - low - 3) ** 2) + y * y

    for group, params in (("none", None), ("signflip", ["y"])):
        study = optuna.create_study(sampler=SymboSampler(group=group, params=params, seed=0, n_startup_trials=3))
        study.optimize(objective, n_trials=6)
        assert all(t.system_attrs.get("symbo:x") is not None for t in study.trials[3:]), group

    # The model coordinate is the offset, exact for ints; a grid near 0
    # keeps its own value as coordinate (studies that ran before are
    # unchanged).
    from symbo.optuna import _Coord
    c = _Coord("x", IntDistribution(low, low + 20, step=2), free=True)
    assert (c.lo, c.hi, c.encode(low + 14)) == (-1.0, 21.0, 14.0)
    assert (c.decode(14.4), c.decode(c.encode(low + 20))) == (low + 14, low + 20)
    assert [c.decode(u) for u in c.grid()] == list(range(low, low + 21, 2))
    near = _Coord("x", IntDistribution(3, 9), free=True)
    assert (near.origin, near.lo, near.hi, near.encode(5)) == (0, 2.5, 9.5, 5.0)

    # With log=True its logarithm is too narrow: the advice is to drop
    # log=True, which suffices where the group leaves it alone (it said to
    # search the offset by hand too, "the range itself being narrower").
    def log_int(trial):
        return float(trial.suggest_int("x", low, low + 10, log=True)) + trial.suggest_float("y", -1.0, 1.0)

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0, n_startup_trials=3))
    with pytest.raises(symbo.InvalidInput, match=r"parameter 'x': log=True .* drop log=True") as e:
        study.optimize(log_int, n_trials=5)
    assert "offset" not in str(e.value), str(e.value)

    # The group acts on it: refused, with the offset to search instead.
    study = optuna.create_study(sampler=SymboSampler(group="signflip", seed=0, n_startup_trials=3))
    with pytest.raises(symbo.InvalidInput) as e:
        study.optimize(objective, n_trials=5)
    assert "trial.suggest_int('x', 0, 10) + 1000000000000000" in str(e.value), str(e.value)
    assert ".5" not in str(e.value) and "e+14" not in str(e.value), str(e.value)


def spy_told(monkeypatch):
    """The values symbo.Optimizer.tell receives from now on, in order."""
    told = []
    tell = symbo.Optimizer.tell

    def spy(self, x, y, *args, **kwargs):
        told.append(y)
        return tell(self, x, y, *args, **kwargs)

    monkeypatch.setattr(symbo.Optimizer, "tell", spy)
    return told


def test_a_trial_that_suggested_nothing_is_no_observation(monkeypatch):
    """A COMPLETE trial that returned without suggesting its parameters (a
    cached or skipped configuration) was evaluated nowhere: the GP is not
    told its value at the point its sampler had recorded for it (it was
    told 1000.0 there, a value no point of the space has), nor is that
    point taken."""
    told = spy_told(monkeypatch)

    def objective(trial):
        if trial.number in (3, 4):
            return 1000.0
        x = trial.suggest_float("x", 0.0, 1.0)
        y = trial.suggest_float("y", 0.0, 1.0)
        return x + y

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0, n_startup_trials=3))
    study.optimize(objective, n_trials=8)
    assert study.trials[3].system_attrs.get("symbo:x") is not None  # the sampler had chosen a point
    assert told and 1000.0 not in told


def test_the_independent_sampler_is_told_each_trials_outcome():
    """The fallback given as independent_sampler hears every trial's end
    (after_trial), as Optuna's own samplers pass it on: a TPESampler with a
    constraints_func records each trial's constraints there. They were never
    recorded, and TPE then ranked every trial as infeasible (violation
    inf), silently ignoring the constraint."""
    seen = []

    class Recording(optuna.samplers.RandomSampler):
        def after_trial(self, study, trial, state, values):
            seen.append((trial.number, state))
            super().after_trial(study, trial, state, values)

    def objective(trial):
        kind = trial.suggest_categorical("kind", ["a", "b"])
        x = trial.suggest_float("x", 0.0, 1.0)
        y = trial.suggest_float("y", 0.0, 1.0)
        trial.set_user_attr("c", x - 0.5)
        if trial.number == 2:
            raise optuna.TrialPruned()
        return x + y + (kind == "b")

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0, independent_sampler=Recording(seed=0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        study.optimize(objective, n_trials=4)
    assert seen == [(0, TrialState.COMPLETE), (1, TrialState.COMPLETE), (2, TrialState.PRUNED),
                    (3, TrialState.COMPLETE)]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tpe = optuna.samplers.TPESampler(seed=0, n_startup_trials=2, constraints_func=lambda t: (t.user_attrs["c"],))
        study = optuna.create_study(sampler=SymboSampler(group="none", seed=0, independent_sampler=tpe))
        study.optimize(objective, n_trials=3, catch=())
    assert all(t.system_attrs.get("constraints") == (t.user_attrs["c"],) or
               t.system_attrs.get("constraints") == [t.user_attrs["c"]]
               for t in study.trials if t.state == TrialState.COMPLETE)


def test_an_enqueued_value_outside_the_range_is_no_observation(monkeypatch):
    """Optuna runs an enqueued trial at a fixed value outside its
    parameter's range (with a warning). symbo's box is the range: the trial
    was evaluated outside it, and the GP is not told its value at the box's
    edge (it was, clipped: f(5) = 1000 told as f(2), a point where the
    objective is 1)."""
    told = spy_told(monkeypatch)

    def objective(trial):
        x = trial.suggest_float("x", -2.0, 2.0)
        n = trial.suggest_int("n", 0, 10)
        return 1000.0 if abs(x) > 2 or n > 10 else (x - 1) ** 2 + n

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=0, n_startup_trials=3))
    study.enqueue_trial({"x": 5.0})
    study.enqueue_trial({"x": 1.0, "n": 12})
    study.enqueue_trial({"x": 0.5, "n": 3})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        study.optimize(objective, n_trials=6)
    assert [t.value for t in study.trials[:2]] == [1000.0, 1000.0]
    assert told and 1000.0 not in told


def test_an_enqueued_value_outside_the_range_that_fails_is_no_failed_point(monkeypatch):
    """The failing counterpart of the test above: an enqueued trial at
    x = 5 on [-2, 2] fails (the objective refuses the value). It failed
    outside symbo's box; its point was clipped to (2, 0) and told as failed
    there, excluding the orbit (±2, 0) for good and lowering the
    acquisition beside the optimum (1.9, 0), where nothing had failed."""
    failed = []
    fail = symbo.Optimizer.fail

    def spy(self, x, *args, **kwargs):
        failed.append([float(v) for v in x])
        return fail(self, x, *args, **kwargs)

    monkeypatch.setattr(symbo.Optimizer, "fail", spy)

    def objective(trial):
        x = trial.suggest_float("x", -2.0, 2.0)
        y = trial.suggest_float("y", -2.0, 2.0)
        if abs(x) > 2:
            raise ValueError("x out of range")
        return (abs(x) - 1.9) ** 2 + y * y

    study = optuna.create_study(sampler=SymboSampler(group="signflip", seed=0, n_startup_trials=3))
    study.optimize(objective, n_trials=3)
    study.enqueue_trial({"x": 5.0, "y": 0.0})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        study.optimize(objective, n_trials=3, catch=(ValueError,))
    assert study.trials[3].state == TrialState.FAIL and study.trials[3].params["x"] == 5.0
    assert failed == []


def test_a_grouped_parameter_fixed_by_a_wrapping_sampler_is_named_so():
    """optuna.samplers.PartialFixedSampler hands its base sampler the
    search space without the parameters it fixes. When one of them is in
    params, the error says that (it said the name was a typo, or a
    parameter not every completed trial suggests, which every one did)."""
    def objective(trial):
        return sum(trial.suggest_float(f"w{i}", 0.0, 1.0) ** 2 for i in range(3))

    sampler = SymboSampler(group="permutation", params=["w0", "w1", "w2"], seed=0)
    study = optuna.create_study(sampler=sampler)
    study.optimize(objective, n_trials=2)
    study.sampler = optuna.samplers.PartialFixedSampler({"w0": 0.5}, sampler)
    with pytest.raises(ValueError, match=r"'w0'.*PartialFixedSampler.*enqueue_trial"):
        study.optimize(objective, n_trials=1)
