"""An Optuna sampler driven by symbo.

:class:`SymboSampler` samples an Optuna study's float parameters jointly
(relative sampling) with symbo's symmetry-aware Bayesian optimizer. Its
history is the study's COMPLETE trials, its pending points the RUNNING
ones, its direction the study's, so several processes sharing a study in
an RDB storage (PostgreSQL, MySQL, SQLite) cooperate: each new point avoids
the others' pending points and, with an invariant kernel, their whole
orbits. Parameters of other types, and every parameter of the first
trials (before one completes, the search space is unknown), are sampled
independently by a fallback sampler: by default uniformly, from a stream of
the seed, the trial number and the parameter name.

Give every worker of a study the same seed. Each trial's point is then a
function of the seed, the study's trials and the number of earlier trials
whose points are not yet known, and workers that see the same study at
once take distinct members of one pending-aware batch.

The group acts on the float parameters in the order given by ``params``
(default: sorted by name), e.g. ``params=["x0", "x1", "x2"]`` for
``group="hyperoctahedral"``.
"""

import zlib

import numpy as np
import optuna
from optuna.distributions import FloatDistribution
from optuna.samplers import BaseSampler, IntersectionSearchSpace
from optuna.study import StudyDirection
from optuna.trial import TrialState

import symbo

__all__ = ["SymboSampler"]

# The largest batch a trial computes to step around other workers' trials
# whose parameters are not yet known (see sample_relative).
_MAX_RANK = 15


class SymboSampler(BaseSampler):
    """Optuna sampler over symbo (see the module documentation).

    Parameters
    ----------
    group : str
        The group the objective is invariant under (see :func:`symbo.gram`).
    kernel : str
        ``plus`` (default), ``max``, ``avg``, ``avgnorm``, ``nystrom`` or
        ``base``.
    base : str
        Base kernel shape (default ``rbf``).
    seed : int
        The optimizer's seed. A trial's point is a function of the seed,
        the history, the pending points and the number of earlier trials
        still choosing theirs: give every worker of a study the same seed,
        so that workers that see the same study never propose one point
        twice.
    init : int
        Trials sampled from symbo's initial design (default 5).
    params : sequence of str, optional
        Order of the float parameters (the coordinates the group acts on);
        default: sorted names.
    independent_sampler : optuna.samplers.BaseSampler, optional
        For parameters outside the relative search space: those of other
        types, and every parameter of the first trials, before one has
        completed. Default: uniform sampling from a stream of
        ``(seed, trial number, parameter name)``, so that workers with one
        seed still sample distinct trials.
    **options
        ``acq``, ``beta``, ``fit``, ``prior``, ``block``, ``matrices`` as in
        :class:`symbo.Optimizer`.
    """

    def __init__(self, *, group, kernel="plus", base="rbf", seed=0, init=5, params=None,
                 independent_sampler=None, **options):
        self._group, self._kernel, self._base = group, kernel, base
        self._seed, self._init, self._params, self._options = int(seed), int(init), params, options
        self._independent = independent_sampler
        self._space = IntersectionSearchSpace()

    def reseed_rng(self):
        if self._independent is not None:
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
        opt = symbo.Optimizer(lo, hi, group=self._group, kernel=self._kernel, base=self._base, seed=self._seed,
                              minimize=minimize, init=self._init, **self._options)

        def point(t):
            return [t.params[n] for n in names] if all(n in t.params for n in names) else None

        trials = study.get_trials(deepcopy=False)  # one read: one view of the study
        for t in trials:
            x = point(t)
            if t.state == TrialState.COMPLETE and x is not None and t.value is not None and np.isfinite(t.value):
                opt.tell(np.clip(x, lo, hi), t.value)
        # Trials are numbered 0, 1, … in the order they are created. An
        # earlier trial whose point this worker does not know — another
        # worker's trial still choosing its point (inside its own
        # sample_relative, or storing its parameters one by one), or one
        # not yet visible in the storage — is pending somewhere unknown.
        # Workers that see the same study then share a view, so each takes
        # its own member of one pending-aware batch: the k-th, k the number
        # of such unknown trials numbered below its own (bounded, so that
        # trials a dead worker left RUNNING cannot grow the batch without
        # end).
        known = 0
        for t in trials:
            if t.number == trial.number:
                continue
            x = point(t)
            if t.state in (TrialState.RUNNING, TrialState.WAITING):
                if x is None:
                    continue
                opt.add_pending(np.clip(x, lo, hi))
            if t.number < trial.number:
                known += 1
        rank = min(max(trial.number - known, 0), _MAX_RANK)
        x = opt.suggest(rank + 1)[rank]
        return {n: float(v) for n, v in zip(names, x)}

    def sample_independent(self, study, trial, param_name, param_distribution):
        sampler = self._independent
        if sampler is None:
            key = zlib.crc32(param_name.encode())
            seed = np.random.SeedSequence([self._seed % (1 << 64), trial.number, key]).generate_state(1)[0]
            sampler = optuna.samplers.RandomSampler(seed=int(seed))
        return sampler.sample_independent(study, trial, param_name, param_distribution)
