"""SymboSampler: an Optuna study sampled by symbo, in one process and in
four worker processes sharing an RDB storage (SQLite always; PostgreSQL
when SYMBO_TEST_POSTGRES holds a URL)."""

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

optuna = pytest.importorskip("optuna")
import symbo  # noqa: E402
from symbo.optuna import FallbackWarning, SymboSampler, seen_trials  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.WARNING)


def objective(trial):
    x = np.array([trial.suggest_float("x%d" % i, -2, 2) for i in range(3)])
    return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))


def test_single_process_study():
    study = optuna.create_study(direction="minimize", sampler=SymboSampler(group="hyperoctahedral", seed=3, n_startup_trials=4))
    study.optimize(objective, n_trials=14)
    trials = study.get_trials(states=(optuna.trial.TrialState.COMPLETE,))
    assert len(trials) == 14
    for t in trials:
        assert all(-2 <= t.params["x%d" % i] <= 2 for i in range(3))
    # symbo improves on its own initial design.
    init_best = min(t.value for t in trials[:4])
    assert study.best_value <= init_best
    # Reproducible: the same seed gives the same trials.
    again = optuna.create_study(direction="minimize", sampler=SymboSampler(group="hyperoctahedral", seed=3, n_startup_trials=4))
    again.optimize(objective, n_trials=14)
    assert [t.params for t in trials] == [t.params for t in again.get_trials()]


def test_mixed_parameters_and_maximize():
    def obj(trial):
        x = trial.suggest_float("x", -1, 1)
        y = trial.suggest_float("y", -1, 1)
        k = trial.suggest_int("k", 0, 3)
        return -(abs(x) - 0.5) ** 2 - (abs(y) - 0.5) ** 2 + 0.01 * k

    # The group acts on x and y; k is modelled beside them once libsymbo
    # takes a group on a subset of the coordinates, else by the fallback.
    sampler = SymboSampler(group="signflip", seed=1, n_startup_trials=3, params=["x", "y"])
    study = optuna.create_study(direction="maximize", sampler=sampler)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        study.optimize(obj, n_trials=10)
    assert len(study.trials) == 10 and study.best_value > -0.5


def test_concurrent_trials_take_distinct_members():
    """Trials asked while earlier ones are still choosing their points (the
    window a worker cannot see into) take the members of one pending-aware
    batch, so they never share an orbit, and trials of other workers that
    see one view of the study never duplicate a point."""
    sampler = SymboSampler(group="hyperoctahedral", seed=5, n_startup_trials=4)
    study = optuna.create_study(direction="minimize", sampler=sampler)
    study.optimize(objective, n_trials=6)
    # Four trials start before any has stored its parameters: each has
    # sampled its relative parameters in study.ask().
    asked = [study.ask() for _ in range(4)]
    points = np.array([[t.relative_params["x%d" % i] for i in range(3)] for t in asked])
    # They are the batch of 4 that symbo proposes from the six observations.
    done = study.get_trials(states=(optuna.trial.TrialState.COMPLETE,))
    opt = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", seed=5, minimize=True, init=4)
    for t in done:
        opt.tell([t.params["x%d" % i] for i in range(3)], t.value)
    batch = opt.suggest(4)
    assert np.array_equal(points, batch)
    orbits = {tuple(sorted(np.abs(p))) for p in points}
    assert len(orbits) == 4


def test_a_trial_left_running_without_a_point_is_not_waited_for_once_overtaken():
    """A worker killed while its sampler chooses (Optuna 3.1 samples in
    study.ask, before the heartbeat starts: Optuna never fails that trial)
    leaves a RUNNING trial without a point. Counted as an earlier trial
    still choosing, it made every later trial take the second member of
    its batch (the first left for a trial that never takes it), for good:
    best values 0.03-0.06 in 20 trials against 2e-5-5e-5 without it
    (hyperoctahedral, d = 3, 4 seeds). Once a trial numbered after it has
    finished, it is no longer counted: the next trial takes the point it
    would take without it. Before that, it still counts (its worker may be
    choosing from the same view)."""

    def make():
        return optuna.create_study(direction="minimize", sampler=SymboSampler(group="hyperoctahedral", seed=5,
                                                                              n_startup_trials=4))

    clean = make()
    clean.optimize(objective, n_trials=6)
    done = clean.get_trials()
    want = clean.ask().relative_params

    overtaken = make()
    overtaken.add_trials(done[:5])
    overtaken._storage.create_new_trial(overtaken._study_id)  # trial 5: RUNNING, no point, for good
    overtaken.add_trial(done[5])  # trial 6, finished after it
    assert overtaken.ask().relative_params == want

    choosing = make()
    choosing.add_trials(done)
    choosing._storage.create_new_trial(choosing._study_id)  # trial 6, no later trial finished: still choosing
    got = choosing.ask().relative_params
    assert got != want
    orbit = lambda p: np.sort(np.abs([p["x%d" % i] for i in range(3)]))  # noqa: E731
    assert np.linalg.norm(orbit(got) - orbit(want)) > 1e-3 * 4 * np.sqrt(3)


WORKER = textwrap.dedent(
    """
    import sys, numpy as np, optuna
    sys.path.insert(0, {pkg!r})
    from symbo.optuna import SymboSampler
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage({url!r}, engine_kwargs={engine!r})
    study = optuna.load_study(study_name="scaleout", storage=storage,
                              sampler=SymboSampler(group="hyperoctahedral", seed=7, n_startup_trials=6))
    def objective(trial):
        x = np.array([trial.suggest_float("x%d" % i, -2, 2) for i in range(4)])
        return float(np.sum((np.sort(np.abs(x)) - np.array([0.25, 0.5, 1.0, 1.5])) ** 2))
    study.optimize(objective, n_trials=10)
    """
)


def run_workers(url, engine, tmp_path):
    storage = optuna.storages.RDBStorage(url, engine_kwargs=engine)
    optuna.create_study(study_name="scaleout", storage=storage, direction="minimize")
    script = tmp_path / "worker.py"
    script.write_text(WORKER.format(pkg=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."), url=url, engine=engine))
    procs = [subprocess.Popen([sys.executable, str(script), str(w)], stderr=subprocess.PIPE) for w in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=600)
        assert p.returncode == 0, err.decode()
    study = optuna.load_study(study_name="scaleout", storage=storage)
    trials = study.get_trials()
    complete = [t for t in trials if t.state == optuna.trial.TrialState.COMPLETE]
    assert len(trials) == 40 and len(complete) == 40
    assert sorted(t.number for t in trials) == list(range(40))
    for t in complete:
        assert all(-2 <= t.params["x%d" % i] <= 2 for i in range(4))
    # No two trials share a point's orbit (under signed permutations: its
    # sorted absolute values) unless the later one chose it knowing the
    # earlier one's value (BO may evaluate a point again on purpose).
    orbit = {t.number: tuple(sorted(abs(t.params["x%d" % i]) for i in range(4))) for t in complete}
    for a in complete:
        for b in complete:
            if a.number < b.number and orbit[a.number] == orbit[b.number]:
                sa, sb = seen_trials(a), seen_trials(b)
                assert (sb is not None and a.number in sb) or (sa is not None and b.number in sa), \
                    "trials %d and %d share an orbit without one having seen the other complete" % (a.number, b.number)


@pytest.mark.long
def test_scaleout_sqlite(tmp_path):
    url = "sqlite:///" + str(tmp_path / "study.db")
    run_workers(url, {"connect_args": {"timeout": 120}}, tmp_path)


@pytest.mark.skipif(not os.environ.get("SYMBO_TEST_POSTGRES"), reason="SYMBO_TEST_POSTGRES (a PostgreSQL URL) not set")
def test_scaleout_postgres(tmp_path):
    url = os.environ["SYMBO_TEST_POSTGRES"]
    storage = optuna.storages.RDBStorage(url)
    try:
        optuna.delete_study(study_name="scaleout", storage=storage)
    except KeyError:
        pass
    run_workers(url, {}, tmp_path)


def test_readme_example():
    """The README's Python block (≤ 10 lines) runs as printed."""
    readme = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")).read()
    section = readme[readme.index("## From Python and Optuna"):]
    block = section[section.index("```python\n") + len("```python\n"):]
    block = block[: block.index("```")]
    assert len(block.strip().splitlines()) <= 10
    env = {}
    exec(compile(block, "README.md", "exec"), env)
    assert len(env["study"].trials) == 30 and env["study"].best_value < 0.1


@pytest.mark.parametrize("kw, word", [({"group": "hyperoctahedal"}, "unknown group"),
                                      ({"group": "hyperoctahedral", "kernel": "plsu"}, "unknown kernel"),
                                      ({"group": "signflip", "base": "rbff"}, "unknown base kernel"),
                                      ({"group": "signflip", "prior": "botorhc"}, "unknown prior")])
def test_sampler_refuses_unknown_names_at_construction(kw, word):
    """A misspelt group, kernel, base or option fails when the sampler is
    built, before any objective evaluation (it used to fail after the
    first, which an expensive study pays for)."""
    with pytest.raises(symbo.InvalidInput, match=word):
        SymboSampler(**kw)


def test_sampler_refuses_constraints_func_with_what_to_do():
    """Optuna's TPE, NSGA-II and GP samplers take constraints_func; here it
    was one unexpected keyword among the option list, with no word of what
    does the job: a failed trial, whose orbit is never proposed again."""
    with pytest.raises(TypeError, match=r"no constraints_func.*fail an infeasible trial.*\(raise, or return nan\)"):
        SymboSampler(group="permutation", constraints_func=lambda t: [0.0])


@pytest.mark.parametrize("kw, match", [
    ({"n_startup_trials": 0}, "n_startup_trials = 0"),
    ({"n_startup_trials": 2.7}, "n_startup_trials must be an integer"),
    ({"seed": 1.5}, "seed must be an integer"),
])
def test_sampler_refuses_counts_of_the_wrong_kind(kw, match):
    """n_startup_trials=0 once meant 5 random trials and 2.7 meant 2; a
    seed of 1.5 meant 1: each is refused at construction now."""
    with pytest.raises(symbo.InvalidInput, match=match):
        SymboSampler(group="signflip", **kw)


@pytest.mark.parametrize("kw, match", [
    ({"seed": -1}, "seed"),
    ({"seed": 2 ** 64}, "seed"),
    ({"hedge": 11}, "hedge"),
    ({"beta_scale": 0}, "beta_scale"),
    ({"probe_window": -1}, "probe_window"),
])
def test_sampler_refuses_bad_values_at_construction(kw, match):
    """A value symbo refuses whatever the search space is refused when the
    sampler is built; it used to be found at the first trial symbo chose,
    after an objective evaluation. Values that depend on the space (a
    block size, say) still wait for it."""
    with pytest.raises(symbo.InvalidInput, match=match):
        SymboSampler(group="signflip", **kw)
    SymboSampler(group="blockperm", block=3)
    with pytest.raises(symbo.InvalidInput, match="used only by blockperm"):
        SymboSampler(group="signflip", block=2)
    for kw in ({"group": "blockperm"}, {"group": "blockperm", "block": 0}, {"group": "blockperm", "block": 1.5},
               {"group": "matrices"}, {"group": "matrices", "matrices": "/nonexistent.json"}):
        with pytest.raises(symbo.InvalidInput, match="needs"):
            SymboSampler(**kw)


@pytest.mark.parametrize("kernel, kw, match", [
    ("plus", {"hedge": 3}, 'SymboSampler: .*hedge 3 acts only on a portfolio kernel; kernel "plus" has one candidate'),
    ("soft", {"landmarks": 16}, 'SymboSampler: .*landmarks 16 acts only on a kernel with a landmark form'),
    ("auto", {"probe_window": 2}, 'SymboSampler: .*probe_window 2 acts only on a portfolio kernel'),
    ("base", {"candidate_fit": "anchored"}, 'SymboSampler: .*candidate_fit anchored acts only on a deciding kernel'),
])
def test_sampler_refuses_a_deciding_setting_its_kernel_ignores(kernel, kw, match):
    """A deciding kernel's option (or landmarks with soft, which has no
    landmark form) given with a kernel it cannot act on is
    refused when the sampler is built, naming the option and the kernel:
    it was passed to every optimizer and dropped there without a word.
    hedge=0 (no hedging) is taken with any kernel, and the default kernel
    takes every option."""
    with pytest.raises(symbo.InvalidInput, match=match):
        SymboSampler(group="signflip", kernel=kernel, **kw)
    SymboSampler(group="signflip", kernel=kernel, hedge=0)
    SymboSampler(group="signflip", **kw)


@pytest.mark.parametrize("group", ["Permutation", " permutation ", "SIGNFLIP"])
def test_sampler_reads_group_names_as_symbo_does(group):
    """symbo reads a group's name case-insensitively, spaces around it
    ignored; the sampler's own tables compared the raw name, so
    "Permutation" over parameters a, b was refused at the first trial symbo
    chose (ValueError: acts on its coordinates in an order, pass params),
    and "SIGNFLIP" over a linear and a log parameter gave a ScaleWarning
    that "signflip" does not: each runs as its lower-case name now."""
    def objective(t):
        return t.suggest_float("a", 0.1, 1.0) + t.suggest_float("b", 0.1, 1.0, log=group == "SIGNFLIP")

    def run(name):
        study = optuna.create_study(sampler=SymboSampler(group=name, seed=3, n_startup_trials=1))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            study.optimize(objective, n_trials=3)
        assert all(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials)
        return [t.params for t in study.trials], [type(w.message) for w in caught]

    assert run(group) == run(group.strip().lower())


@pytest.mark.parametrize("group", [None, "", 3, ["none"]])
def test_sampler_refuses_a_group_that_is_no_name_at_construction(group):
    """A group that is not a name is refused when the sampler is built;
    it passed the construction check (which raises only refusals that
    hold whatever the space) and failed at the first trial symbo chose,
    after an objective evaluation: InvalidInput "need problem or group"
    for None and "", and TypeError (unhashable type: 'list') for ["none"]."""
    with pytest.raises(symbo.InvalidInput, match="group must name the group"):
        SymboSampler(group=group)


@pytest.mark.parametrize("kw, match", [
    ({"group": "permutation", "block": "2"}, "block must be an integer"),
    ({"group": "permutation", "block": 2.0}, "block must be an integer"),
    ({"group": "signflip", "block": True}, "block must be an integer"),
    ({"group": "blockperm", "block": 2 ** 70}, "block = 1180591620717411303424 is out of range"),
    ({"group": "none", "matrices": 5}, "matrices must be a path"),
    ({"group": "blockperm", "block": 1, "matrices": 5}, "matrices must be a path"),
    ({"group": "matrices", "matrices": 5}, "matrices must be a path"),
])
def test_sampler_refuses_a_block_or_matrices_of_the_wrong_kind_at_construction(kw, match):
    """A block that is no integer, or matrices that is no path, is refused
    when the sampler is built, whatever the group: it passed the
    construction check (symbo.Optimizer's refusal of it is no "unknown …"
    one) and failed at the first trial symbo chose, after an objective
    evaluation; with group matrices, matrices=5 raised os.fspath's
    TypeError."""
    with pytest.raises(symbo.InvalidInput, match=match):
        SymboSampler(**kw)


@pytest.mark.parametrize("independent", [optuna.samplers.TPESampler, 5, "random"])
def test_sampler_refuses_an_independent_sampler_that_is_no_sampler_at_construction(independent):
    """independent_sampler=TPESampler (the class, not an instance) or 5
    was accepted, and the first trial failed after its objective had run:
    TypeError "TPESampler.after_trial() missing 1 required positional
    argument: 'values'", AttributeError "'int' object has no attribute
    'after_trial'". It is refused when the sampler is built, naming the
    argument; an instance is accepted."""
    with pytest.raises(TypeError, match="independent_sampler must be a sampler instance"):
        SymboSampler(group="signflip", independent_sampler=independent)
    SymboSampler(group="signflip", independent_sampler=optuna.samplers.RandomSampler(seed=0))
