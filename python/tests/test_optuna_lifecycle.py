"""SymboSampler through a study's lifecycle: pruners that hand the sampler
a filtered view of the study."""

import collections
import warnings

import pytest

optuna = pytest.importorskip("optuna")

import symbo.optuna as so  # noqa: E402
from symbo.optuna import SymboSampler  # noqa: E402

optuna.logging.set_verbosity(optuna.logging.WARNING)


def _pruned_objective(trial):
    a = trial.suggest_int("x1", 0, 3)
    b = trial.suggest_int("x2", 0, 3)
    v = (a * a - 1) ** 2 + (b * b - 1) ** 2 + 0.1 * a
    for step in range(3):
        trial.report(v + 1.0 / (step + 1), step)
        if trial.should_prune():
            raise optuna.TrialPruned()
    return v


def test_hyperband_brackets_share_the_history():
    # HyperbandPruner hands the sampler one bracket's trials: the other
    # brackets' points were proposed again while points were left, and
    # counted as earlier trials of unknown point (the batch rank grew to
    # its bound with one worker).
    ranks = []
    settle = SymboSampler._settle

    def spy(self, layout, view, rank, *args):
        ranks.append(rank)
        return settle(self, layout, view, rank, *args)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        study = optuna.create_study(sampler=SymboSampler(group="none", params=["x1", "x2"], seed=4),
                                    pruner=optuna.pruners.HyperbandPruner(min_resource=1, max_resource=9,
                                                                          reduction_factor=3),
                                    study_name="hb")
        try:
            SymboSampler._settle = spy
            study.optimize(_pruned_objective, n_trials=16)
        finally:
            SymboSampler._settle = settle
    brackets = {study.pruner._get_bracket_id(study, t) for t in study.trials}
    assert len(brackets) > 1
    points = collections.Counter((t.params["x1"], t.params["x2"]) for t in study.trials)
    assert len(points) == 16, {p: n for p, n in points.items() if n > 1}
    assert set(ranks) == {0}, ranks
    assert so._study_trials(study) == study.get_trials(deepcopy=False)
