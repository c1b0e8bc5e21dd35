"""An Optuna sampler driven by symbo.

:class:`SymboSampler` samples an Optuna study's float parameters jointly
(relative sampling) with symbo's symmetry-aware Bayesian optimizer. Its
history is the study's COMPLETE trials, its pending points the RUNNING
ones, its direction the study's, so several processes sharing a study in
an RDB storage (PostgreSQL, MySQL, SQLite) cooperate: each new point avoids
the others' pending points and, with an invariant kernel, their whole
orbits. Parameters of other types are sampled independently by a
fallback sampler (Optuna's TPESampler by default).

The group acts on the float parameters in the order given by ``params``
(default: sorted by name), e.g. ``params=["x0", "x1", "x2"]`` for
``group="hyperoctahedral"``.
"""

import numpy as np
import optuna
from optuna.distributions import FloatDistribution
from optuna.samplers import BaseSampler, IntersectionSearchSpace
from optuna.study import StudyDirection
from optuna.trial import TrialState

import symbo

__all__ = ["SymboSampler"]

# A large odd multiplier: trial t samples with seed + t·_STRIDE (mod 2^64),
# so that workers with the same history and pending points still diverge.
_STRIDE = 0x9E3779B97F4A7C15


class SymboSampler(BaseSampler):
    """Optuna sampler over symbo (see the module documentation).

    Parameters
    ----------
    group : str
        The group the objective is invariant under (see :func:`symbo.gram`).
    kernel : str
        ``plus`` (default), ``max``, ``avg``, ``avgnorm`` or ``base``.
    base : str
        Base kernel shape (default ``rbf``).
    seed : int
        Trial ``t`` samples with seed ``seed + t·K`` (K a fixed odd
        constant): a function of the seed, the trial number, the history
        and the pending points.
    init : int
        Trials sampled from symbo's initial design (default 5).
    params : sequence of str, optional
        Order of the float parameters (the coordinates the group acts on);
        default: sorted names.
    independent_sampler : optuna.samplers.BaseSampler, optional
        For parameters outside the relative search space (default
        ``TPESampler(seed=seed)``).
    **options
        ``acq``, ``beta``, ``fit``, ``prior``, ``block``, ``matrices`` as in
        :class:`symbo.Optimizer`.
    """

    def __init__(self, *, group, kernel="plus", base="rbf", seed=0, init=5, params=None,
                 independent_sampler=None, **options):
        self._group, self._kernel, self._base = group, kernel, base
        self._seed, self._init, self._params, self._options = int(seed), int(init), params, options
        self._independent = independent_sampler or optuna.samplers.TPESampler(seed=seed)
        self._space = IntersectionSearchSpace()

    def reseed_rng(self):
        self._independent.reseed_rng()

    def infer_relative_search_space(self, study, trial):
        space = {}
        for name, dist in self._space.calculate(study).items():
            if isinstance(dist, FloatDistribution) and not dist.log and dist.step is None:
                space[name] = dist
        if self._params is not None:
            if not set(self._params) <= set(space):
                return {}  # not every declared parameter is known yet
            return {name: space[name] for name in self._params}
        return dict(sorted(space.items()))

    def sample_relative(self, study, trial, search_space):
        if not search_space:
            return {}
        names = list(search_space)
        lo = np.array([search_space[n].low for n in names])
        hi = np.array([search_space[n].high for n in names])
        minimize = study.direction == StudyDirection.MINIMIZE
        seed = (self._seed + trial.number * _STRIDE) % (1 << 64)
        opt = symbo.Optimizer(lo, hi, group=self._group, kernel=self._kernel, base=self._base, seed=seed,
                              minimize=minimize, init=self._init, **self._options)

        def point(t):
            return [t.params[n] for n in names] if all(n in t.params for n in names) else None

        for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            x = point(t)
            if x is not None and t.value is not None and np.isfinite(t.value):
                opt.tell(np.clip(x, lo, hi), t.value)
        for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            x = point(t)
            if t.number != trial.number and x is not None:
                opt.add_pending(np.clip(x, lo, hi))
        x = opt.ask()
        return {n: float(v) for n, v in zip(names, x)}

    def sample_independent(self, study, trial, param_name, param_distribution):
        return self._independent.sample_independent(study, trial, param_name, param_distribution)
