"""SymboSampler on the studies of the field (issue 15, defect 10): log,
integer and stepped parameters modelled (not sent to random search),
categoricals with one warning each, params checked, natural ordering,
failed, inf and pruned evaluations never proposed again, a group on some of
the parameters."""

import math
import warnings

import numpy as np
import pytest

optuna = pytest.importorskip("optuna")
from optuna.trial import TrialState  # noqa: E402

import symbo  # noqa: E402
from symbo.optuna import FallbackWarning, SymboSampler  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.WARNING)


def run(sampler, objective, n, catch=()):
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.optimize(objective, n_trials=n, catch=catch)
    return study


# ---------------------------------------------------------------- what symbo models


def test_log_floats_are_modelled_in_log_space():
    """Every trial after the first (the fallback's: nothing has completed)
    is symbo's proposal in log coordinates: the box [log low, log high],
    the GP told log x, the proposal mapped back by exp (the first member of
    symbo's batch that is not an observed point again)."""
    lo, hi = np.array([1e-5, 1e-2]), np.array([1e-1, 10.0])

    def objective(trial):
        lr = trial.suggest_float("lr", 1e-5, 1e-1, log=True)
        c = trial.suggest_float("c", 1e-2, 10.0, log=True)
        return (math.log10(lr) + 3) ** 2 + (math.log10(c) - 0.5) ** 2

    study = run(SymboSampler(group="none", seed=2, n_startup_trials=3, params=["lr", "c"]), objective, 10)
    trials = study.trials
    for i in range(1, len(trials)):
        # The sampler's box, bit for bit (math.log, as it computes it: with
        # normalized inputs an ulp of the box moves every proposal).
        llo, lhi = np.array([math.log(v) for v in lo]), np.array([math.log(v) for v in hi])
        opt = symbo.Optimizer(llo, lhi, group="none", seed=2, minimize=True, init=3)
        told = np.array([[math.log(t.params["lr"]), math.log(t.params["c"])] for t in trials[:i]])
        for u, t in zip(told, trials[:i]):
            opt.tell(u, t.value)
        radius = 1e-3 * np.linalg.norm(lhi - llo)
        x = next(x for x in opt.suggest(9) if np.min(np.linalg.norm(told - x, axis=1)) > radius)
        want = np.clip(np.exp(x), lo, hi)
        got = np.array([trials[i].params["lr"], trials[i].params["c"]])
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert study.best_value < 0.5


def test_integers_and_steps_are_modelled_by_a_rounded_relaxation():
    """Integers, stepped floats and log integers are symbo's: each trial's
    parameters are its proposal in the relaxed box [low - step/2, high +
    step/2] (log of [low - 1/2, high + 1/2] for a log integer) rounded to the
    grid, unless that grid point was taken (then symbo was asked again)."""
    lo = np.array([-3.5, -1.25, np.log(0.5)])
    hi = np.array([3.5, 1.25, np.log(64.5)])

    def objective(trial):
        k = trial.suggest_int("k", -3, 3)
        s = trial.suggest_float("s", -1.0, 1.0, step=0.5)
        w = trial.suggest_int("w", 1, 64, log=True)
        return (abs(k) - 2) ** 2 + (abs(s) - 0.5) ** 2 + (math.log2(w) - 4) ** 2

    study = run(SymboSampler(group="none", seed=3, n_startup_trials=3), objective, 14)
    trials = study.trials
    first = 0
    for i in range(1, len(trials)):
        t = trials[i]
        assert isinstance(t.params["k"], int) and isinstance(t.params["w"], int) and isinstance(t.params["s"], float)
        assert t.params["s"] in (-1.0, -0.5, 0.0, 0.5, 1.0)
        assert t.system_attrs["symbo:x"] == t.params  # symbo's point, not the fallback's
        opt = symbo.Optimizer(lo, hi, group="none", seed=3, minimize=True, init=3)
        for p in trials[:i]:
            opt.tell([p.params["k"], p.params["s"], math.log(p.params["w"])], p.value)
        x = opt.suggest(1)[0]
        # Rounded to the grid, which holds the relaxed box's edges too
        # (x = -3.5 rounds half to even, to -4, and is k's lowest, -3).
        want = {"k": int(np.clip(np.rint(x[0]), -3, 3)), "s": float(np.clip(np.rint(x[1] / 0.5) * 0.5, -1, 1)),
                "w": int(np.clip(np.rint(np.exp(x[2])), 1, 64))}
        earlier = [p.params for p in trials[:i]]
        if want in earlier:
            assert t.params not in earlier  # taken: asked again, to a new grid point
        else:
            assert t.params == want
            first += 1
    assert first >= 8  # most trials are symbo's first proposal
    assert len({tuple(sorted(t.params.items())) for t in trials}) == len(trials)  # no grid point twice


def test_categoricals_fall_back_with_one_warning_each():
    def objective(trial):
        x = trial.suggest_float("x", -1, 1)
        opt = trial.suggest_categorical("opt", ["adam", "sgd"])
        act = trial.suggest_categorical("act", ["relu", "tanh", "gelu"])
        trial.suggest_categorical("fixed", ["only"])  # one choice: nothing to warn about
        return x * x + (opt == "sgd") + 0.5 * (act == "tanh")

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = run(SymboSampler(group="signflip", seed=1, n_startup_trials=2), objective, 8)
    fallback = [str(w.message) for w in caught if issubclass(w.category, FallbackWarning)]
    assert len(fallback) == 2
    assert any("'opt'" in m and "categorical" in m for m in fallback)
    assert any("'act'" in m and "categorical" in m for m in fallback)
    assert all("symbo:x" in t.system_attrs for t in study.trials[1:])  # x is still symbo's


def test_a_fallback_warning_made_an_error_is_one_every_time():
    """FallbackWarning can be made an error (warnings.simplefilter). The
    sampler marked the name warned before warning, so the error came once:
    the trial after it fell back in silence, which the filter forbids."""
    def objective(trial):
        return trial.suggest_float("x", -1, 1) ** 2 + (trial.suggest_categorical("c", ["a", "b"]) == "a")

    with warnings.catch_warnings():
        warnings.simplefilter("error", FallbackWarning)
        study = run(SymboSampler(group="signflip", seed=0), objective, 3, catch=(FallbackWarning,))
    assert [t.state for t in study.trials] == [TrialState.FAIL] * 3
    # Not an error: once per name, as before.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(SymboSampler(group="signflip", seed=0), objective, 3)
    assert sum(issubclass(w.category, FallbackWarning) for w in caught) == 1


def test_conditional_parameters_fall_back_with_one_warning_each():
    def objective(trial):
        if trial.suggest_categorical("branch", ["y", "z"]) == "y":
            return trial.suggest_float("y", -1, 1) ** 2
        return trial.suggest_float("z", -1, 1) ** 2 + 0.1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run(SymboSampler(group="none", seed=4, n_startup_trials=2), objective, 12)
    fallback = sorted(str(w.message) for w in caught if issubclass(w.category, FallbackWarning))
    names = [m.split("'")[1] for m in fallback]
    assert sorted(names) == sorted(set(names)) and "branch" in names
    assert any("conditional" in m for m in fallback)


def test_unknown_name_in_params_is_an_error():
    """A typo in params raises at the first sample that knows the search
    space, naming it (before: the whole study ran as random search)."""
    sampler = SymboSampler(group="hyperoctahedral", seed=0, params=["x0", "x1", "x3"])

    def objective(trial):
        return sum(trial.suggest_float("x%d" % i, -2, 2) ** 2 for i in range(3))

    study = optuna.create_study(sampler=sampler)
    study.optimize(objective, n_trials=1)  # the fallback: nothing completed, nothing known
    with pytest.raises(ValueError, match=r"params names 'x3'.*x0, x1, x2"):
        study.optimize(objective, n_trials=1)


def test_params_naming_a_categorical_is_an_error():
    def objective(trial):
        return trial.suggest_float("x", -1, 1) ** 2 + (trial.suggest_categorical("c", ["a", "b"]) == "a")

    study = optuna.create_study(sampler=SymboSampler(group="signflip", seed=0, params=["x", "c"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        study.optimize(objective, n_trials=1)
        with pytest.raises(ValueError, match=r"'c', which is categorical"):
            study.optimize(objective, n_trials=1)


def test_a_dimension_the_group_rules_out_names_the_parameters():
    """rotation2d over x and a categorical c: symbo's "rotation2d acts on
    d = 2, got 1" spoke of a d the user never counted (c is no coordinate).
    The refusal now names the parameters the group acts on and says which
    are not modelled."""
    def objective(trial):
        return trial.suggest_float("x", -1, 1) ** 2 + (trial.suggest_categorical("c", ["a", "b"]) == "a")

    study = optuna.create_study(sampler=SymboSampler(group="rotation2d", seed=0))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        study.optimize(objective, n_trials=1)
        with pytest.raises(symbo.InvalidInput,
                           match=r"rotation2d acts on d = 2, got 1: the group acts on 1 numeric parameter\(s\), x "
                                 r"\(categorical, .* not modelled\); .*params="):
            study.optimize(objective, n_trials=1)


def test_stepped_and_integer_params_are_modelled():
    """params naming a stepped float and integers: symbo samples them all
    (before: 0 of the trials used symbo)."""

    def objective(trial):
        a = trial.suggest_float("a", -2, 2, step=0.25)
        b = trial.suggest_int("b", -2, 2)
        c = trial.suggest_float("c", -2, 2)
        return (abs(a) - 1) ** 2 + (abs(b) - 1) ** 2 + (abs(c) - 1) ** 2

    study = run(SymboSampler(group="signflip", seed=5, n_startup_trials=3, params=["a", "b", "c"]), objective, 10)
    assert all(t.system_attrs.get("symbo:x") == t.params for t in study.trials[1:])


# ---------------------------------------------------------------- ordering


def test_natural_order():
    """Without params, names sort with their numbers as numbers: x2 before
    x10 (before: a string sort, x10 before x2), and a group that depends on
    the order (cyclic) takes the natural order of one indexed family."""
    names = ["x%d" % i for i in range(1, 12)]

    def objective(trial):
        return sum(trial.suggest_float(n, -1, 1) ** 2 for n in reversed(names))

    sampler = SymboSampler(group="cyclic", seed=0, n_startup_trials=2)
    study = run(sampler, objective, 3)
    trial = study.ask()
    assert list(sampler.infer_relative_search_space(study, trial)) == names


@pytest.mark.parametrize("present", [[1, 3, 4], [2, 3, 4]])
def test_order_dependent_group_refuses_a_family_with_a_member_missing(present):
    """cyclic over w1..w4 where a member is conditional: the completed
    trials' common search space lacks it, and the group acted on the others
    as if they were the whole family (w1, w3, w4 cycled: no symmetry of
    the objective) — silently. A gap, or a run not from 0 or 1, now needs
    params."""

    def objective(trial):
        return sum(trial.suggest_float("w%d" % i, -1, 1) ** 2 for i in present)

    study = optuna.create_study(sampler=SymboSampler(group="cyclic", seed=0, n_startup_trials=1))
    study.optimize(objective, n_trials=1)
    with pytest.raises(ValueError, match=r"'cyclic'.*consecutive.*params="):
        study.optimize(objective, n_trials=1)


@pytest.mark.parametrize("last", ["single", "conditional"])
def test_order_dependent_group_refuses_a_family_whose_last_member_is_left_out(last):
    """cyclic over w1..w4 where w4 holds one value, or is conditional on a
    categorical: the modelled parameters w1, w2, w3 are a consecutive family
    from 1, and the group cycled the three as if they were the whole family
    (no symmetry of an objective invariant under shifts of four) —
    silently. The member left out is named, and params asked for."""

    def objective(trial):
        w = [trial.suggest_float("w%d" % i, -1, 1) for i in (1, 2, 3)]
        if last == "single":
            w.append(trial.suggest_float("w4", 0.5, 0.5))
        elif trial.suggest_categorical("deep", [False, True]):
            w.append(trial.suggest_float("w4", -1, 1))
        else:
            w.append(0.0)
        return sum(w[i] * w[(i + 1) % 4] for i in range(4))

    study = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1))
    study.optimize(objective, n_trials=4)
    assert any("w4" in t.params for t in study.trials)
    study.sampler = SymboSampler(group="cyclic", seed=0, n_startup_trials=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        with pytest.raises(ValueError, match=r"'cyclic'.*w1, w2, w3 are not the whole family: w4 is left out.*params="):
            study.optimize(objective, n_trials=1)
        # Named, the three are the user's choice.
        study.sampler = SymboSampler(group="cyclic", params=["w1", "w2", "w3"], seed=0, n_startup_trials=1)
        study.optimize(objective, n_trials=1)


def test_a_moving_group_warns_of_log_and_linear_parameters_together():
    """permutation over a log=True and a linear parameter exchanges the
    logarithm of one with the value of the other in model coordinates — no
    symmetry of the objective — silently before. One ScaleWarning names
    both (the study runs on: Optuna's sampler contract); signflip acts on
    each coordinate alone and gives none."""
    from symbo.optuna import ScaleWarning

    def objective(trial):
        return trial.suggest_float("w1", 1e-3, 1, log=True) + trial.suggest_float("w2", 1e-3, 1)

    with pytest.warns(ScaleWarning, match=r"'permutation'.*w1 are log=True and w2 are not") as record:
        run(SymboSampler(group="permutation", seed=0, n_startup_trials=1), objective, 4)
    assert sum(issubclass(w.category, ScaleWarning) for w in record) == 1
    # signflip: no warning of log and linear parameters together (its
    # warning is of the flip on a logarithm, see
    # test_a_sign_flipping_group_warns_of_log_and_asymmetric_parameters).
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert len(run(SymboSampler(group="signflip", seed=0, n_startup_trials=1), objective, 3).trials) == 3
    assert not any("are log=True and" in str(w.message) for w in record)


def test_a_scale_warning_made_an_error_comes_from_sample_relative():
    """infer_relative_search_space refuses nothing: Optuna >= 3.2 calls it
    from study.ask, where an exception leaves the trial RUNNING for good
    (counted, by later trials, as one of unknown point). A ScaleWarning
    that a filter made an error was raised from it; sample_relative, whose
    exception fails the trial, raises it now."""
    from symbo.optuna import ScaleWarning

    def objective(trial):
        return trial.suggest_float("w1", 1e-3, 1, log=True) + trial.suggest_float("w2", 1e-3, 1)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScaleWarning)
        study = run(SymboSampler(group="permutation", seed=0, n_startup_trials=1), objective, 2)
        trial = study.ask()
    sampler = SymboSampler(group="permutation", seed=0, n_startup_trials=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScaleWarning)
        space = sampler.infer_relative_search_space(study, trial)
        assert list(space) == ["w1", "w2"]
        with pytest.raises(ScaleWarning, match=r"w1 are log=True and w2 are not"):
            sampler.sample_relative(study, trial, space)


@pytest.mark.parametrize("group", ["scaling", "scalingdir"])
@pytest.mark.parametrize("low", [2.0, 1e-3])
def test_a_scaling_group_refuses_log_parameters(group, low):
    """A scaling group acts on model coordinates, the logarithms of log=True
    parameters, as u -> c*u: x -> x**c, no symmetry of an objective
    invariant under x -> c*x. With every low > 1 the study ran on that
    symmetry without a word; with a low <= 1 symbo refused a box [log low,
    log high] the user never gave. Both are refused, naming the log
    parameters and the fix."""
    def objective(trial):
        a = trial.suggest_float("a", low, 200, log=True)
        b = trial.suggest_float("b", low, 200, log=True)
        c = trial.suggest_float("c", 0.5, 2)
        return (math.log(b / a) - 1) ** 2 + c

    study = optuna.create_study(sampler=SymboSampler(group=group, seed=0, n_startup_trials=1))
    with pytest.raises(symbo.InvalidInput, match=r"%r .*a, b are log=True.*x -> x\*\*c.*drop log=True" % group):
        study.optimize(objective, n_trials=3)
    # The group on the linear parameter alone is served.
    run(SymboSampler(group=group, params=["c"], seed=0, n_startup_trials=1), objective, 3)


def pairs(trial):
    # Two points in the plane, suggested point by point: (x0, y0), (x1, y1).
    p = [(trial.suggest_float("x%d" % i, 0, 1), trial.suggest_float("y%d" % i, 0, 1)) for i in range(2)]
    return float(np.hypot(p[0][0] - p[1][0], p[0][1] - p[1][1]))


def test_order_dependent_group_needs_params():
    """pairedperm pairs x_k with y_k by position: the names x0, y0, x1, y1
    do not fix that order (before: sorted into x0, x1, y0, y1 silently), so
    params is required; with it the study runs in the order given."""
    study = optuna.create_study(sampler=SymboSampler(group="pairedperm", seed=0))
    study.optimize(pairs, n_trials=1)
    with pytest.raises(ValueError, match=r"'pairedperm'.*order.*params="):
        study.optimize(pairs, n_trials=1)

    sampler = SymboSampler(group="pairedperm", seed=0, n_startup_trials=2, params=["x0", "x1", "y0", "y1"])
    study = run(sampler, pairs, 6)
    assert len(study.trials) == 6
    assert list(sampler.infer_relative_search_space(study, study.ask())) == ["x0", "x1", "y0", "y1"]


# ---------------------------------------------------------------- failures


def hyperoctahedral_orbit(t):
    return np.sort(np.abs([t.params["x%d" % i] for i in range(3)]))


@pytest.mark.parametrize("seed", [0, 2])
@pytest.mark.parametrize("how", ["raise", "inf", "prune"])
def test_failed_points_are_never_proposed_again(how, seed):
    """The livelock of issue 15: an objective that fails where max|x| > 1.8.
    Before, 29 of 30 trials were the same failed point. A FAIL trial (the
    objective raised), a COMPLETE one with value inf and a PRUNED one are
    failed points: no later trial lies on the orbit of one, and the trials
    spread over distinct orbits."""

    def objective(trial):
        x = np.array([trial.suggest_float("x%d" % i, -2, 2) for i in range(3)])
        if np.max(np.abs(x)) > 1.8:
            if how == "raise":
                raise RuntimeError("evaluation failed")
            if how == "prune":
                trial.report(1.0, 0)
                raise optuna.TrialPruned()
            return float("inf")
        return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))

    study = run(SymboSampler(group="hyperoctahedral", seed=seed), objective, 30, catch=(RuntimeError,))
    trials = study.trials
    assert len(trials) == 30
    orbits = [hyperoctahedral_orbit(t) for t in trials]
    assert len({tuple(o) for o in orbits}) >= 25
    failed = [t for t in trials if t.state in (TrialState.FAIL, TrialState.PRUNED)
              or (t.state == TrialState.COMPLETE and not math.isfinite(t.value))]
    assert failed, "the test needs failures"
    radius = 1e-3 * 4 * math.sqrt(3) * 0.999  # symbo's exclusion: 1e-3 of the box diagonal
    for f in failed:
        for t in trials[f.number + 1:]:
            assert np.linalg.norm(orbits[t.number] - orbits[f.number]) > radius, \
                "trial %d is on the orbit of failed trial %d" % (t.number, f.number)
    assert any(t.state == TrialState.COMPLETE and math.isfinite(t.value) for t in trials[10:])


def test_failed_grid_points_are_never_proposed_again():
    """Integer parameters: a rounded proposal on the orbit of a failed (or
    already evaluated) grid point is replaced, so no grid orbit is tried
    twice while untried ones remain (10 orbits of {-3..3}² under signed
    permutations, 4 of them failing)."""

    def objective(trial):
        k = [trial.suggest_int("k%d" % i, -3, 3) for i in range(2)]
        if max(abs(v) for v in k) == 3:
            raise RuntimeError("evaluation failed")
        a, b = sorted(abs(v) for v in k)
        return float((a - 1) ** 2 + (b - 2) ** 2)

    study = run(SymboSampler(group="hyperoctahedral", seed=1, n_startup_trials=3), objective, 10, catch=(RuntimeError,))
    orbits = [tuple(sorted(abs(v) for v in t.params.values())) for t in study.trials]
    assert len(set(orbits)) == 10
    assert study.best_value == 0.0


def test_a_trial_that_fails_before_suggesting_failed_at_no_point(monkeypatch):
    """A trial whose objective raises before its first suggest (a worker
    that cannot set up: no GPU, a missing file; one killed there and failed
    by Optuna's heartbeat) evaluated no point. Optuna 3.1 samples in
    study.ask, so the sampler had recorded a point for it (symbo:x), and
    that point was taught to symbo as failed: its orbit excluded for good,
    and the acquisition lowered around it. One broken worker failing this
    way on two trials of three cost the study two to four orders of
    magnitude (best 0.025-0.28 in 20 observations against 2e-5-4e-4
    without it, 3 seeds), each of its trials taking and discarding the best
    candidate of the moment; now the same bests as without it. Now
    such a trial has no point: nothing is failed, and the next trial takes
    the point the failed one had been given."""
    failed = []
    fail = symbo.Optimizer.fail

    def spy(self, x, *args, **kwargs):
        failed.append(np.array(x, dtype=float))
        return fail(self, x, *args, **kwargs)

    monkeypatch.setattr(symbo.Optimizer, "fail", spy)

    def objective(trial):
        if trial.number in (5, 6):
            raise RuntimeError("cannot set up")  # before any suggest
        x = np.array([trial.suggest_float("x%d" % i, -2, 2) for i in range(3)])
        return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))

    study = run(SymboSampler(group="hyperoctahedral", seed=1, n_startup_trials=4), objective, 8,
                catch=(RuntimeError,))
    trials = study.trials
    assert [t.state for t in trials[5:7]] == [TrialState.FAIL] * 2
    chosen = trials[5].system_attrs.get("symbo:x")
    assert chosen is not None and not trials[5].params  # a point was chosen, none evaluated
    assert failed == []
    # The study is where it was before trial 5: trial 7 takes its point.
    assert trials[7].params == chosen


def test_a_trial_that_fails_on_our_point_before_our_check_moves_us():
    """The race the field study found (two workers, the default kernel):
    trial A's point is unknown when B takes its view (A still choosing),
    B's view leads it to A's point, and A fails before B's check. The
    check compares B's point with the failed trials' too, so B moves off
    A's (failed) orbit; before, it compared with running trials only and B
    ran on a failed orbit."""

    def f(x):
        return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))

    sampler = SymboSampler(group="hyperoctahedral", seed=3, n_startup_trials=4)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.optimize(lambda t: f(np.array([t.suggest_float("x%d" % i, -2, 2) for i in range(3)])), n_trials=6)
    a = study.ask()
    xa = np.array([a.suggest_float("x%d" % i, -2, 2) for i in range(3)])
    settle = sampler._settle
    calls = []

    def racing_settle(layout, view, rank, trial, seed, salt):
        if not calls:
            # B's first view did not know A's point: it lands on it, and A
            # fails before B's check.
            calls.append("raced")
            study.tell(a, state=TrialState.FAIL)
            return layout.snap(xa)
        calls.append("moved")
        return settle(layout, view, rank, trial, seed, salt)

    sampler._settle = racing_settle
    b = study.ask()
    xb = np.array([b.suggest_float("x%d" % i, -2, 2) for i in range(3)])
    sampler._settle = settle
    assert calls == ["raced", "moved"]
    checked = study._storage.get_trial_system_attrs(b._trial_id)["symbo:checked"]
    assert checked.startswith("moves=1;"), checked  # the last check's clash is none
    assert np.linalg.norm(np.sort(np.abs(xb)) - np.sort(np.abs(xa))) > 1e-3 * 4 * math.sqrt(3)


# ---------------------------------------------------------------- a group on some of the parameters


def test_group_on_some_parameters():
    """params names the coordinates the group acts on; the others (a
    learning rate here) are modelled as extra coordinates the group leaves
    alone ("coords"), with no fallback and no warning."""

    def objective(trial):
        w = np.array([trial.suggest_float("w%d" % i, -2, 2) for i in range(3)])
        lr = trial.suggest_float("lr", 1e-4, 1e-1, log=True)
        return float(np.sum((np.sort(np.abs(w)) - [0.5, 1.0, 1.5]) ** 2) + (math.log10(lr) + 2) ** 2)

    sampler = SymboSampler(group="hyperoctahedral", seed=0, n_startup_trials=3, params=["w0", "w1", "w2"])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        study = run(sampler, objective, 8)
    fallback = [str(w.message) for w in caught if issubclass(w.category, FallbackWarning)]
    recorded = [set(t.system_attrs["symbo:x"]) for t in study.trials[1:]]
    assert fallback == [] and all(r == {"w0", "w1", "w2", "lr"} for r in recorded)


def test_n_startup_trials_and_the_init_alias():
    def objective(trial):
        return sum(trial.suggest_float("x%d" % i, -2, 2) ** 2 for i in range(2))

    new = run(SymboSampler(group="signflip", seed=1, n_startup_trials=4), objective, 7)
    with pytest.warns(FutureWarning, match="n_startup_trials"):
        old = SymboSampler(group="signflip", seed=1, init=4)
    assert [t.params for t in run(old, objective, 7).trials] == [t.params for t in new.trials]
    with pytest.raises(ValueError, match="disagree"), pytest.warns(FutureWarning):
        SymboSampler(group="signflip", init=4, n_startup_trials=5)
    with pytest.raises(TypeError, match="nonsense"):
        SymboSampler(group="signflip", nonsense=1)


def test_probe_window_passes_through():
    """probe_window is one of the options the sampler passes to
    symbo.Optimizer: 5, the library's default, samples what no option
    does."""
    def objective(trial):
        return sum(trial.suggest_float("x%d" % i, -2, 2) ** 2 for i in range(2))

    default = run(SymboSampler(group="signflip", seed=1, n_startup_trials=4), objective, 7)
    five = run(SymboSampler(group="signflip", seed=1, n_startup_trials=4, probe_window=5), objective, 7)
    assert [t.params for t in five.trials] == [t.params for t in default.trials]
    unlimited = run(SymboSampler(group="signflip", seed=1, n_startup_trials=4, probe_window=0), objective, 7)
    assert len(unlimited.trials) == 7


# ---------------------------------------------------------------- extreme ranges


@pytest.mark.parametrize("half", [1e200, 1e300, 1e-160])
def test_extreme_float_ranges(half):
    """the orbit check's lengthscale was the box
    diagonal sqrt(sum((hi - lo)**2)), inf for a range wider than about
    1e154 and below the kernel's limit for one narrower than about 1e-150:
    InvalidInput escaped study.optimize after two trials, even with
    kernel="plus". The check now runs in coordinates scaled by a power of
    two (the same bits on ordinary ranges). (The default kernel's own
    fixed-point probe had the same limits in the optimizer, item 4.)"""

    def objective(trial):
        x = np.array([trial.suggest_float("x%d" % i, -half, half) for i in range(2)]) / half
        return float(np.sum((np.abs(x) - 0.5) ** 2))

    study = run(SymboSampler(group="signflip", kernel="plus", seed=1, n_startup_trials=2), objective, 5)
    assert [t.state for t in study.trials] == [TrialState.COMPLETE] * 5
    points = {tuple(t.params.values()) for t in study.trials}
    assert len(points) == 5


@pytest.mark.long
def test_failures_covering_every_orbit_fall_back(monkeypatch):
    """in 1-d under sign flips, one success and then
    only failures: after about 370 failed points their orbits cover the
    space, symbo's ask raises (it has no point to propose), and the study
    aborted. The sampler now takes its documented fallback (draws from the
    seed's stream) and the study goes on."""
    import symbo.optuna as so

    exhausted = []
    orig = getattr(so, "_exhausted", None)
    if orig is not None:
        monkeypatch.setattr(so, "_exhausted", lambda e: exhausted.append(orig(e)) or exhausted[-1])

    def objective(trial):
        x = trial.suggest_float("x", -1, 1)
        if trial.number == 0:
            return x * x
        raise RuntimeError("evaluation failed")

    n = 380
    study = run(SymboSampler(group="signflip", kernel="plus", seed=1, n_startup_trials=1), objective, n,
                catch=(RuntimeError,))
    assert len(study.trials) == n
    assert all(-1 <= t.params["x"] <= 1 for t in study.trials)
    assert any(exhausted), "the study never exhausted the space: the test needs more trials"


# hyperoctahedral over [-3, 1]: the ScaleWarning of a range not symmetric
# about 0 is expected (the test compares the sampler with the library).
@pytest.mark.filterwarnings("ignore::symbo.optuna.ScaleWarning")
def test_sampler_proposes_what_the_optimizer_does_on_a_mixed_box():
    """On a box whose grouped and other parameters have other scales, the
    sampler takes symbo's point trial for trial, its step-aside points
    included (points just outside the exclusion radius of an observed
    orbit): its re-check uses the library's own test (Optimizer.near). A
    copy of the metric in the sampler, with scales rounded to powers of
    two, judged two of these 40 trials within the radius and replaced
    them."""
    ranges = [(-3.0, 1.0)] * 3 + [(100.0, 1e4), (0.0, 0.5), (-7.0, -1.0)]
    names = ["w0", "w1", "w2", "b", "dropout", "lr"]

    def objective(trial):
        x = [trial.suggest_float(n, lo, hi) for n, (lo, hi) in zip(names, ranges)]
        w = sorted(x[:3])
        return (sum((w[i] - t) ** 2 for i, t in enumerate([-1, 0, 0.5])) + ((x[3] - 3000) / 1e4) ** 2
                + (x[4] - 0.2) ** 2 + (x[5] + 2.5) ** 2)

    study = run(SymboSampler(group="hyperoctahedral", params=names[:3], seed=7), objective, 40)
    xs = [[t.params[n] for n in names] for t in study.trials]
    ys = [t.value for t in study.trials]
    opt = symbo.Optimizer([r[0] for r in ranges], [r[1] for r in ranges], group="hyperoctahedral",
                          coords=[0, 1, 2], minimize=True, seed=7)
    differ = []
    for k, (x, y) in enumerate(zip(xs, ys)):
        # Trial 0 precedes the first COMPLETE trial: Optuna's fallback.
        if k > 0 and [float(v) for v in opt.suggest(1)[0]] != x:
            differ.append(k)
        opt.tell(x, y)
    assert differ == []


def test_near_is_the_exclusion_radius_in_the_model():
    """Optimizer.near: within 1e-3 of the model box's diagonal of a
    point's orbit (sign flips and permutations of the grouped coordinates;
    the other coordinates in their own units), not beyond; the point itself
    only for base; shapes and non-finite values refused."""
    lo, hi = [-2.0, -2.0, 0.0], [2.0, 2.0, 1000.0]
    opt = symbo.Optimizer(lo, hi, group="hyperoctahedral", coords=[0, 1], seed=1)
    # The model box: the grouped class [-1, 1]² (scale 2 about 0), the
    # other [-1, 1] (centre 500, half-width 500): diagonal sqrt(12).
    r = 1e-3 * math.sqrt(12)
    p = np.array([0.5, -1.25, 300.0])
    mirrored = np.array([1.25, 0.5, 300.0])  # a signed permutation of p's grouped part
    inside = mirrored + [0.0, 2 * r * 0.999, 0.0]
    outside = mirrored + [0.0, 2 * r * 1.001, 0.0]
    beside = p + [0.0, 0.0, 500 * r * 0.999]
    assert list(opt.near(p, [mirrored, inside, outside, beside])) == [True, True, False, True]
    assert list(opt.near(p, np.empty((0, 3)))) == []
    base = symbo.Optimizer(lo, hi, group="hyperoctahedral", coords=[0, 1], kernel="base", seed=1)
    assert list(base.near(p, [p, mirrored])) == [True, False]
    with pytest.raises(symbo.InvalidInput):
        opt.near(p, [[0.0, 0.0]])
    with pytest.raises(symbo.InvalidInput, match="not finite"):
        opt.near(p, [[0.0, float("nan"), 1.0]])


def test_allow_repeats_is_honoured():
    """SymboSampler(allow_repeats=True) proposes what symbo.Optimizer with
    it does, trial for trial, observed points again included (on this
    objective plus returns to observed points); it used to drop every
    such proposal, so the option did nothing."""

    def f(x):
        return abs(abs(x[0]) - 0.3) + abs(abs(x[1]) - 30) / 100

    study = run(SymboSampler(group="signflip", kernel="plus", seed=10, params=["x", "y"], allow_repeats=True),
                lambda t: f([t.suggest_float("x", -1, 1), t.suggest_float("y", -100, 100)]), 25)
    xs = [[t.params["x"], t.params["y"]] for t in study.trials]
    opt = symbo.Optimizer([-1, -100], [1, 100], group="signflip", kernel="plus", seed=10, minimize=True,
                          allow_repeats=True)
    differ, repeats = [], 0
    for k, x in enumerate(xs):
        if k > 0 and [float(v) for v in opt.suggest(1)[0]] != x:
            differ.append(k)
        if k > 0 and opt.near(x, xs[:k]).any():
            repeats += 1
        opt.tell(x, f(x))
    assert differ == [] and repeats > 0


@pytest.mark.parametrize("seed", [0, 3])
def test_small_grid_never_repeats_while_points_are_left(seed):
    """On a grid of 40 integer points, 40 trials evaluate 40 points: the
    fallback searches a small grid point by point (64 random draws missed
    the last free points and repeated an observed one, seeds 0 and 3)."""
    study = run(SymboSampler(group="none", seed=seed),
                lambda t: (t.suggest_int("x", 0, 7) - 3) ** 2 + (t.suggest_int("y", 0, 4) - 2) ** 2, 40)
    assert len({(t.params["x"], t.params["y"]) for t in study.trials}) == 40


def test_exhausted_grid_prefers_an_observed_point_to_a_failed_one():
    """Every point but one fails: once the failed ones cover the rest of
    the grid, the sampler proposes the observed point, never a failed one
    again (the fallback returned its last draw, a failed point)."""

    class Boom(Exception):
        pass

    def objective(t):
        if (t.suggest_int("x", 0, 4), t.suggest_int("y", 0, 3)) != (2, 2):
            raise Boom()
        return 0.0

    study = optuna.create_study(sampler=SymboSampler(group="none", seed=1))
    study.enqueue_trial({"x": 2, "y": 2})
    study.optimize(objective, n_trials=40, catch=(Boom,))
    failed = set()
    for t in study.trials:
        p = (t.params["x"], t.params["y"])
        assert p not in failed, "trial %d re-proposes the failed point %s" % (t.number, p)
        if t.state == TrialState.FAIL:
            failed.add(p)
    assert len(failed) == 19


def test_exhausted_grid_prefers_a_point_not_yet_evaluated():
    """On a grid whose neighbours lie within the exclusion radius (the
    integers 0..1500: r = 1.5), every third integer evaluated covers the
    grid: no point is off the observed orbits, and 1000 integers were
    never evaluated. The next trial takes one of those, not an observed
    integer again (the fallback took the first point off the pending and
    failed orbits in its random order: an observed one for seeds 0 and 2)."""
    from optuna.trial import create_trial

    dist = optuna.distributions.IntDistribution(0, 1500)
    told = set(range(0, 1501, 3))
    for seed in range(4):
        study = optuna.create_study(sampler=SymboSampler(group="none", seed=seed))
        for v in sorted(told):
            study.add_trial(create_trial(params={"n": v}, distributions={"n": dist}, value=float((v - 700) ** 2)))
        n = study.ask({"n": dist}).params["n"]
        assert n not in told, "seed %d evaluates n = %d again, with 1000 integers never evaluated" % (seed, n)


def test_partly_enqueued_trials_are_checked_as_they_run():
    """An enqueued trial that fixes x runs with it whatever is sampled: the
    sampler checks and records its point with x fixed, so such trials take
    distinct points while free ones are left (it checked its own x, and
    four trials ran one point)."""

    def objective(t):
        return (t.suggest_int("x", 0, 4) - 1) ** 2 + (t.suggest_int("y", 0, 9) - 3) ** 2

    study = run(SymboSampler(group="none", seed=0), objective, 8)
    earlier = {(t.params["x"], t.params["y"]) for t in study.trials}
    for _ in range(4):
        study.enqueue_trial({"x": 1})
    study.optimize(objective, n_trials=4)
    late = [(t.params["x"], t.params["y"]) for t in study.trials[8:]]
    free = 10 - sum(1 for p in earlier if p[0] == 1)
    assert all(p[0] == 1 for p in late) and free >= 4
    assert len(set(late)) == 4 and not set(late) & earlier
    assert all(t.system_attrs["symbo:x"]["x"] == 1 for t in study.trials[8:])


def test_a_retried_trial_runs_its_parameters_without_a_choice():
    """RetryFailedTrialCallback (Optuna's retry of a trial failed by the
    heartbeat) creates a WAITING trial holding the failed trial's
    parameters, which Optuna uses whatever is sampled. The sampler still
    chose a point for it (a model fit, a record-and-recheck) and recorded
    that point as the trial's (symbo:x), another than the one it ran; a
    WAITING trial created with some parameters had its choice checked
    without them. Now a trial given every parameter gets no choice, and
    one given some is checked and recorded with them."""

    def objective(trial):
        x = np.array([trial.suggest_float("x%d" % i, -2, 2) for i in range(3)])
        return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))

    study = run(SymboSampler(group="hyperoctahedral", seed=2, n_startup_trials=3), objective, 5)
    dists = study.trials[0].distributions
    retry = {"x0": 1.25, "x1": -0.5, "x2": 0.75}
    study.add_trial(optuna.trial.create_trial(state=TrialState.WAITING, params=retry, distributions=dists,
                                              system_attrs={"failed_trial": 4}))
    study.add_trial(optuna.trial.create_trial(state=TrialState.WAITING, params={"x1": 1.5},
                                              distributions={"x1": dists["x1"]}))
    study.optimize(objective, n_trials=2)
    t5, t6 = study.trials[5:7]
    assert t5.params == retry and t5.system_attrs.get("symbo:x", retry) == retry
    assert t6.params["x1"] == 1.5 and t6.system_attrs["symbo:x"] == t6.params


def test_huge_integer_ranges_are_not_enumerated():
    """A space of integer parameters too large for the point-by-point
    fallback (here 2**61 values) falls back to random draws at once,
    without building its axes; a small one is enumerated."""
    from symbo.optuna import _Coord, _Layout
    huge = _Layout([_Coord("a", optuna.distributions.IntDistribution(-2 ** 60, 2 ** 60))], [])
    assert huge.grid() is None
    small = _Layout([_Coord("a", optuna.distributions.IntDistribution(0, 3)),
                     _Coord("b", optuna.distributions.IntDistribution(1, 8, log=True))], [])
    g = small.grid()
    assert g.shape == (32, 2) and set(np.round(np.exp(g[:, 1])).astype(int)) == set(range(1, 9))


def test_a_moving_group_warns_of_parameters_of_different_ranges():
    """permutation over a dropout in [0, 0.5] and a width in [16, 1024]
    (both numeric, no params: the group takes every numeric parameter)
    moves a width into the dropout's place, far outside its range — no
    symmetry of the objective — silently before. One ScaleWarning names
    both ranges; equal ranges, and signflip, which moves no value between
    parameters, give none."""
    from symbo.optuna import ScaleWarning

    def objective(trial):
        return trial.suggest_float("dropout", 0, 0.5) + trial.suggest_int("width", 16, 1024) / 1024

    with pytest.warns(ScaleWarning, match=r"'permutation'.*ranges differ.*dropout \[0(\.0)?, 0\.5\].*width \[16, 1024\]") as record:
        run(SymboSampler(group="permutation", seed=0, n_startup_trials=1), objective, 4)
    assert sum(issubclass(w.category, ScaleWarning) for w in record) == 1

    def same(trial):
        return trial.suggest_float("w1", -1, 1) * trial.suggest_float("w2", -1, 1)

    with warnings.catch_warnings():
        warnings.simplefilter("error", ScaleWarning)
        assert len(run(SymboSampler(group="permutation", seed=0, n_startup_trials=1), same, 3).trials) == 3
    # signflip over the two ranges: no warning of ranges that differ (its
    # warning is of ranges not symmetric about 0, see the test below).
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        assert len(run(SymboSampler(group="signflip", seed=0, n_startup_trials=1), objective, 3).trials) == 3
    assert not any("ranges differ" in str(w.message) for w in record)


def test_the_range_warning_names_the_ranges_that_differ():
    """permutation over suggest_int("a", 0, 10) and suggest_float("b", 0,
    10): the grid's relaxation [-0.5, 10.5] is not the float's [0, 10], and
    the warning said "their ranges differ (a [0, 10], b [0.0, 10.0])" —
    two equal ranges, nothing the user could act on. It names the modelled
    range now, and what to change."""
    from symbo.optuna import ScaleWarning

    def objective(trial):
        return trial.suggest_int("a", 0, 10) + trial.suggest_float("b", 0, 10)

    with pytest.warns(ScaleWarning, match=r"ranges differ \(a \[0, 10\] \(modelled on \[-0\.5, 10\.5\]\), "
                      r"b \[0\.0, 10\.0\]\).*an integer or stepped parameter is modelled on its range widened "
                      r"by half a step"):
        run(SymboSampler(group="permutation", seed=0, n_startup_trials=1), objective, 2)


@pytest.mark.parametrize("group", ["signflip", "hyperoctahedral"])
def test_a_sign_flipping_group_warns_of_log_and_asymmetric_parameters(group):
    """A group that maps a model coordinate u to -u acted silently on a
    log=True parameter — on its logarithm, lr -> 1/lr: over x, y in
    [-1, 1] and lr in [1e-3, 1e3] (log), no params, signflip modelled
    f(lr) = f(1/lr) — and on a range not symmetric about 0 (a dropout in
    [0, 0.5]), which the flip sends outside itself. One ScaleWarning names
    each such parameter; ranges symmetric about 0 give none."""
    from symbo.optuna import ScaleWarning

    def objective(trial):
        x, y = trial.suggest_float("x", -1, 1), trial.suggest_float("y", -1, 1)
        lr = trial.suggest_float("lr", 1e-3, 1e3, log=True)
        return x * x + y * y + (math.log10(lr) - 2) ** 2 + trial.suggest_float("dropout", 0, 0.5)

    with pytest.warns(ScaleWarning, match=r"'%s' maps .* u to -u.*dropout \[0(\.0)?, 0\.5\] is not symmetric "
                      r"about 0.*; lr is log=True \(on its logarithm -u is lr -> 1/lr\)" % group) as record:
        run(SymboSampler(group=group, seed=0, n_startup_trials=1), objective, 4)
    assert sum("u to -u" in str(w.message) for w in record) == 1

    def symmetric(trial):
        return trial.suggest_float("x", -1, 1) ** 2 + trial.suggest_float("y", -1, 1) ** 2

    with warnings.catch_warnings():
        warnings.simplefilter("error", ScaleWarning)
        assert len(run(SymboSampler(group=group, seed=0, n_startup_trials=1), symmetric, 3).trials) == 3
        # params leaving lr and dropout out: the group does not act on them.
        assert len(run(SymboSampler(group=group, params=["x", "y"], seed=0, n_startup_trials=1),
                       objective, 3).trials) == 3
