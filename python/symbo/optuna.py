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
once take distinct members of one pending-aware batch. A trial records its
choice in a system attribute (``symbo:x``, through the study's storage, as
Optuna's own samplers record theirs) and reads the study again; if another
running trial sits on the same orbit, one of them (the one that reads
second, or both) moves. With storages that commit each write (RDB, in
memory), no two trials running at once end on one orbit.

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

__all__ = ["SymboSampler", "seen_trials"]

# The largest batch a trial computes to step around other workers' trials
# whose parameters are not yet known (see sample_relative): with more than
# _MAX_RANK + 1 workers choosing at the same instant, two may share a
# member (the check below still moves one of them).
_MAX_RANK = 15

# The system attribute where a trial records the point its sampler chose
# (before Optuna stores it as parameters), and the bound on the moves of
# the check that follows.
_ATTR = "symbo:x"
_MAX_MOVES = 8

# The system attribute where a trial records the numbers of the COMPLETE
# trials its sampler's last check saw, as ranges "0-37,39".
_SEEN = "symbo:seen"


def _ranges(numbers):
    """Sorted integers as "a-b,c,…" ranges."""
    out, numbers = [], sorted(numbers)
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        out.append(str(numbers[i]) if i == j else "%d-%d" % (numbers[i], numbers[j]))
        i = j + 1
    return ",".join(out)


def seen_trials(trial):
    """The numbers of the COMPLETE trials that SymboSampler saw when it
    last checked trial's point (a frozen trial it sampled), or None."""
    s = trial.system_attrs.get(_SEEN)
    if s is None:
        return None
    out = set()
    for part in filter(None, s.split(",")):
        a, _, b = part.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out

# symbo's pending exclusion radius, a fraction of the box diagonal
# (bo.PendingExclusion).
_EXCLUSION = 1e-3


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
        ``acq``, ``beta``, ``fit``, ``prior``, ``block``, ``matrices``,
        ``landmarks`` as in :class:`symbo.Optimizer`.
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

        def point(t):
            """The trial's point: its parameters, else the point its
            sampler chose and recorded (see below), else None."""
            if all(n in t.params for n in names):
                return [t.params[n] for n in names]
            x = t.system_attrs.get(_ATTR)
            if isinstance(x, list) and len(x) == len(names):
                return x
            return None

        def view(trials):
            """An optimizer told the COMPLETE trials, with the other
            RUNNING and WAITING trials' known points pending, and the
            number of earlier trials whose points are unknown."""
            opt = symbo.Optimizer(lo, hi, group=self._group, kernel=self._kernel, base=self._base, seed=self._seed,
                                  minimize=minimize, init=self._init, **self._options)
            known = 0
            for t in trials:
                if t.number == trial.number:
                    continue
                x = point(t)
                if t.state == TrialState.COMPLETE:
                    if x is not None and t.value is not None and np.isfinite(t.value):
                        opt.tell(np.clip(x, lo, hi), t.value)
                elif t.state in (TrialState.RUNNING, TrialState.WAITING):
                    if x is None:
                        continue
                    opt.add_pending(np.clip(x, lo, hi))
                if t.number < trial.number:
                    known += 1
            return opt, trial.number - known

        # Trials are numbered 0, 1, … in the order they are created. An
        # earlier trial whose point this worker does not know — another
        # worker's trial still choosing it, or one not yet visible in the
        # storage — is pending somewhere unknown. Workers that see the same
        # study then share a view, so each takes its own member of one
        # pending-aware batch: the k-th, k the number of such unknown
        # trials numbered below its own (bounded, so that trials a dead
        # worker left RUNNING cannot grow the batch without end).
        opt, rank = view(study.get_trials(deepcopy=False))  # one read: one view
        rank = min(max(rank, 0), _MAX_RANK)
        x = opt.suggest(rank + 1)[rank]
        # Views taken at different moments can still agree on a point (a
        # corner of the box, say). So each trial records its choice, then
        # reads the study again: of two trials on one orbit, the one that
        # reads second sees the other's choice and moves (both move if both
        # see it, to distinct members of a batch that holds the other's
        # point pending), and the check repeats.
        for _ in range(_MAX_MOVES):
            study._storage.set_trial_system_attr(trial._trial_id, _ATTR, [float(v) for v in x])
            trials = study.get_trials(deepcopy=False)
            clash = [t for t in trials if t.number != trial.number
                     and t.state in (TrialState.RUNNING, TrialState.WAITING)
                     and point(t) is not None and self._same_orbit(point(t), x, lo, hi)]
            if not clash:
                break
            opt, _ = view(trials)
            k = min(sum(1 for t in clash if t.number < trial.number), _MAX_RANK)
            x = opt.suggest(k + 1)[k]
        # The COMPLETE trials of the last check: a point of one of them may
        # be chosen again on purpose (BO re-evaluating where it believes the
        # optimum is); no other trial's can.
        seen = [t.number for t in trials if t.state == TrialState.COMPLETE]
        study._storage.set_trial_system_attr(trial._trial_id, _SEEN, _ranges(seen))
        return {n: float(v) for n, v in zip(names, x)}

    def _same_orbit(self, a, b, lo, hi):
        """Whether b lies within symbo's pending exclusion radius (1e-3 of
        the box diagonal) of the orbit of a: under the group for the
        invariant kernels, of a itself for base and nystrom."""
        a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        diag = float(np.sqrt(np.sum((hi - lo) ** 2)))
        if np.array_equal(a, b):
            return True
        if self._kernel in ("base", "nystrom"):
            return float(np.sqrt(np.sum((a - b) ** 2))) <= _EXCLUSION * diag
        extra = {k: v for k, v in self._options.items() if k in ("block", "matrices")}
        # k_max with an RBF of lengthscale diag: exp(−d_G²/(2·diag²)).
        k = symbo.gram(a[None, :], b[None, :], group=self._group, base="rbf", lengthscale=diag, kernel="max",
                       box=(lo, hi), **extra)[0, 0]
        return k >= np.exp(-0.5 * _EXCLUSION ** 2)

    def sample_independent(self, study, trial, param_name, param_distribution):
        sampler = self._independent
        if sampler is None:
            key = zlib.crc32(param_name.encode())
            seed = np.random.SeedSequence([self._seed % (1 << 64), trial.number, key]).generate_state(1)[0]
            sampler = optuna.samplers.RandomSampler(seed=int(seed))
        return sampler.sample_independent(study, trial, param_name, param_distribution)
