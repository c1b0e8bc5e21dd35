"""An Optuna sampler driven by symbo.

:class:`SymboSampler` samples an Optuna study's numeric parameters jointly
(Optuna's relative sampling) with symbo's symmetry-aware Bayesian
optimizer. It implements Optuna's ``BaseSampler`` contract; this is what it
does with each part of a study.

Search space
    The relative search space is the intersection of the parameters of the
    COMPLETE trials that suggested any (Optuna's ``IntersectionSearchSpace``
    but for the trials that suggested none, which tell nothing about the
    space): until one such trial has completed it is empty, and every
    parameter is sampled by the fallback (below). Each numeric parameter is then one coordinate of
    symbo's box, its *model coordinate*:

    * a float: its value, on ``[low, high]``;
    * a log-scale float: its logarithm, on ``[log low, log high]``, mapped
      back by ``exp``;
    * an integer, or a float with a ``step``: a continuous relaxation on
      ``[low - step/2, high + step/2]`` (each grid point owns the interval
      of the values that round to it), mapped back to the nearest grid point
      (``numpy.rint``, ties to even, so the rounding commutes with sign
      flips of a grid symmetric about 0);
    * a log-scale integer: ``log`` of the relaxation ``[low - 1/2, high +
      1/2]``, mapped back by ``exp`` and rounding to the nearest integer.

    An integer or stepped parameter the group leaves alone (group
    ``"none"``, or one not in ``params``) whose relaxation is too narrow
    for its magnitude for symbo (``bo.MinRelativeWidth``, 1e-10:
    ``IntDistribution(10**15, 10**15 + 10)``, whose every value is a
    float but whose relaxation holds few others) is modelled by its offset
    from ``low``, on ``[-step/2, high - low + step/2]``: a translation,
    which changes nothing for the GP's stationary kernel. One the group
    acts on is refused (``symbo.InvalidInput``) with the call that
    suggests its offset instead: a translation need not commute with the
    group (a sign flip), so the origin is the user's to choose.

    The GP is told each trial at its parameters' model coordinates (for a
    grid parameter, the grid point the trial evaluated), and the group acts
    on model coordinates as on floats: a permutation of four integer layer
    widths permutes their relaxations, a sign flip of a grid symmetric about
    0 flips the grid. ``scaling`` and ``scalingdir`` refuse a log-scale
    parameter (``symbo.InvalidInput``): on its logarithm the factor c would
    act as ``x ↦ x**c``, no symmetry of the objective (and the box must lie
    in ``0 < lo``, which a log coordinate may not). A group that moves
    values between its parameters (every group but ``none`` and
    ``signflip``) should have them
    all log-scale or all linear: it exchanges the logarithm of one with the
    value of another, which one ``ScaleWarning`` per sampler and set of
    parameters says (through :mod:`warnings`; the study runs on, as
    Optuna's sampler contract asks). A group that exchanges its parameters
    (``permutation``, ``hyperoctahedral``, ``rotation2d``, ``cyclic``,
    ``blockperm``, ``pairedperm``) over ones whose ranges differ — a
    learning rate, a width and a dropout, all of them numeric parameters
    without ``params`` — gets one ``ScaleWarning`` too: a value of one lands
    outside another's range. So does a group that maps a model coordinate
    u to -u (about 0: ``signflip``, ``hyperoctahedral``, ``rotation2d``'s
    half turn) acting on a log-scale parameter, whose logarithm it maps
    as x ↦ 1/x, or on one whose range is not symmetric about 0
    (``[0, 0.5]``, or ``suggest_float(.., -1, 1, step=0.3)``, whose grid
    Optuna ends at 0.8), which it sends outside itself. Ints stay ints, floats floats; a distribution
    holding one value (``low == high``) takes that value.

    A categorical parameter is sampled by the fallback, with one
    ``FallbackWarning`` (through :mod:`warnings`, so it can be filtered or
    made an error) per parameter name and sampler. So is a numeric
    parameter missing from the relative search space once it is known — a
    conditional parameter, or one whose range changed between trials —
    also with one warning per name.

Fallback
    ``independent_sampler`` if given, else uniform sampling from a stream of
    ``(seed, trial number, parameter name)``, so that workers sharing a seed
    still sample distinct trials.

Parameter order and the group
    ``params`` names the parameters the group acts on, in the order of the
    group's coordinates (``x1..xm, y1..ym`` for ``pairedperm``, contiguous
    blocks for ``blockperm``). A name that is not a numeric parameter of
    the search space is an error (``ValueError`` naming it) at the first
    sample after a trial has completed — never a silent fallback; so is
    one that a sampler wrapping this one withholds (``PartialFixedSampler``
    fixing it: ``study.enqueue_trial`` fixes a grouped parameter). The other
    numeric parameters are modelled too, as extra coordinates the group
    leaves alone (settings key ``"coords"``: the group acts on the
    ``params`` coordinates only). Without ``params`` the group
    acts on every numeric parameter, in natural order (``x2`` before
    ``x10``: runs of digits compare as numbers). For a group whose meaning
    depends on that order (``cyclic``, ``blockperm``, ``pairedperm``,
    ``matrices``, and any group not known to ignore it) the natural order
    is used only when it is unambiguous — one stem with consecutive
    integer suffixes from 0 or 1 (``w1``, ``w2``, …), none missing — and
    ``params`` is required otherwise (``x0, y0, x1, y1`` could be two
    points in the plane or four coordinates of one; ``w1, w3, w4``, where
    ``w2`` is conditional and so not in every completed trial's search
    space, is not the whole family, nor is ``w1, w2, w3`` beside a ``w4``
    that holds one value or that not every completed trial suggests): a
    ``ValueError`` says so.

Choosing a point
    A trial takes a member of symbo's pending-aware batch (see Workers),
    and uses it only if its parameter values — rounded, for integer and
    stepped parameters — lie off the orbit of every other trial's point
    (farther than symbo's exclusion radius, 1e-3 of the box diagonal, as
    the library itself measures it: ``symbo.Optimizer.near``); with
    ``allow_repeats=True``, off every pending or failed trial's, as
    symbo.Optimizer then proposes observed points again.
    symbo never proposes a pending or failed orbit itself, but rounding can
    land on one; and symbo's acquisition can return to an observed point
    (in a study with failures it was seen proposing one observed point for
    every later trial), where a second evaluation tells a deterministic
    objective nothing. A skipped member is pending for the next one, so
    workers that share a view skip the same members. After 8 skipped
    members — or at once when symbo has no point to propose, failed and
    pending orbits covering the space — points are drawn from the seed's
    stream (on a space of at most 4096 points of integer and stepped
    parameters, every point, in a random order); when every one drawn is
    taken (a small grid, exhausted), a point not yet evaluated is used if
    one is left (it lies within the radius of an observed point's orbit,
    but no trial has its parameter values), else an observed point rather
    than a failed or pending one. An enqueued trial that fixes some parameters
    (``study.enqueue_trial``) is checked and recorded with their values,
    which Optuna uses whatever is sampled; so is a trial created with some
    parameters (``study.add_trial`` of a WAITING trial), and one given them
    all (an enqueued trial, or the retry of a failed trial that
    ``RetryFailedTrialCallback`` creates with its parameters) runs them
    without a choice of the sampler's. The sampler thus never evaluates one
    point twice while others are left (unless ``allow_repeats=True``); a
    noisy objective still gets nearby points.

Failures
    A FAIL trial (the objective raised, or returned nan) is a *failed
    point*: told to the optimizer as failed, so neither it nor its orbit is
    proposed again by symbo (symbo's constant liar also lowers the
    acquisition around it); the fallback, which samples the trials before
    the first COMPLETE one, looks at neither failed nor pending points. A COMPLETE trial whose value is not finite (``inf``, which
    Optuna records as a value) is a failed point too, not an observation.
    A PRUNED trial is a failed point as well: its last intermediate value
    is not the objective's value, and ignoring the trial would let the next
    one propose the same point again (its view of the study would be the
    one that proposed the pruned point). A trial that failed at an
    enqueued value outside its parameter's range (which Optuna runs, with
    a warning) failed outside symbo's box: it is no failed point (clipped
    to the box, it would exclude the edge's orbit, where nothing failed).
    A failed trial's point is its parameters, completed by the point its sampler recorded (below) when
    the objective failed after suggesting some of them. One that failed
    before suggesting any modelled parameter (an error while setting up,
    a worker killed or interrupted before its first ``suggest_*``, then
    failed by Optuna's heartbeat or by hand) failed at no point, as a
    COMPLETE trial that suggested none is no observation: the point its
    sampler chose is not a failed point, and a later trial may take it.
    (Optuna 3.1 samples in ``study.ask``, before the objective runs, so
    such a trial has a recorded point; from 3.2 on it has none.)
    A study stopped by Ctrl-C: ``study.optimize`` marks the trial whose
    objective the ``KeyboardInterrupt`` stopped FAIL, as one that raised,
    and nothing in the study tells the two apart, so its point is a failed
    point of the resumed study, its orbit never proposed again; the resumed
    study then proposes other points than an uninterrupted one would (in a
    hyperoctahedral study interrupted at a point beside the optimum's
    orbit, the next trials went to a corner). To resume as if uninterrupted,
    run the interrupted point again before the study goes on:
    ``study.enqueue_trial(study.trials[-1].params)`` (its observation
    supersedes the failure; measured, the resumed trials were then the
    uninterrupted study's, one number later).
    ``after_trial`` is not
    overridden but to pass the outcome on to ``independent_sampler`` (as
    ``before_trial``): every trial's outcome is read from the study at the
    next sample.

Workers and seeds
    The history is the study's COMPLETE trials, at their parameters (one
    that suggested none, a cached or skipped configuration, is not in it:
    it was evaluated at no point; nor is one enqueued with a value outside
    its parameter's range, evaluated outside symbo's box), the pending
    points the
    RUNNING and WAITING ones (an enqueued trial's given parameters count),
    the direction the study's — every trial of the study, also under a
    ``HyperbandPruner``, which shows a sampler one bracket's trials — so several processes sharing a study in an
    RDB storage (PostgreSQL, MySQL, SQLite) cooperate: each new point
    avoids the others' pending points and, with an invariant kernel, their
    whole orbits. Give every worker of a study the same ``seed``. Each
    trial's point is then a function of the seed, the study's trials and
    the number of earlier trials whose points are not yet known, and
    workers that see the same study at once take distinct members of one
    batch. (An earlier trial without a point counts until a trial numbered
    after it has finished: then it is taken for a dead worker's, or one
    waiting for a worker, and no longer counted.) A trial records its choice in a system attribute (``symbo:x``, a
    dict of parameter values, through the study's storage, as Optuna's own
    samplers record theirs) and reads the study again; if another running
    trial sits on the same orbit, one of them (the one that reads second,
    or both) moves, and so does a trial whose point lies on the orbit of a
    trial that failed (or was pruned) in the meantime. With storages that commit each write (RDB, in memory),
    no two trials running at once end on one orbit. ``symbo:seen`` records
    the COMPLETE trials of that last check (see :func:`seen_trials`).

    A worker that dies mid-trial (SIGKILL, a lost machine) leaves its
    trial RUNNING, and its point pending, until the trial is failed: by
    hand (``study.tell(number, state=TrialState.FAIL)``), or by Optuna's
    heartbeat (``RDBStorage(url, heartbeat_interval=…)``), which fails it
    when another worker starts a trial. The sampler cannot tell that FAIL
    from the objective's own: once failed, a trial that had suggested its
    parameters is a failed point, its orbit never proposed again (one
    killed before its first ``suggest_*`` is none, see Failures). So
    that the evaluation is not lost, run it again:
    ``failed_trial_callback=RetryFailedTrialCallback()`` on the storage
    retries a trial the heartbeat fails at its parameters, and
    ``study.enqueue_trial(trial.params)`` does it by hand; the retry's
    observation supersedes the failure (symbo records no failure at an
    observed point). Optuna 3.1 starts a trial's heartbeat only after
    ``study.ask``, where it samples: a worker killed while the sampler
    chooses leaves a trial the heartbeat never fails (the sampler stops
    waiting for it once a later trial has finished; fail it by hand). In
    Optuna 3.1, too, two workers that fail the same stale trial at once
    can crash one of them (``RuntimeError: Trial#N has already finished``,
    raised from ``study.optimize``), and with SQLite two workers can take
    the same enqueued trial (``study.enqueue_trial``; one of them then
    crashes the same way): these are Optuna's, whatever the sampler; use
    PostgreSQL or MySQL to share enqueued trials.

    ``seed=None`` (the default, as in Optuna's samplers) draws a seed at
    random: runs are then not reproducible, and workers do not share
    batches (they still avoid each other's pending orbits). symbo itself is
    deterministic; the randomness is in the seed and the fallback.
    ``reseed_rng`` — which Optuna calls as each trial of
    ``study.optimize(n_jobs > 1)`` starts — draws a new fallback stream,
    and a new symbo seed unless ``seed`` was given: a given seed is the
    study's workers' shared key, and is kept.

Threads
    One sampler may serve several threads (``n_jobs > 1``): its shared
    state (the seed, the fallback's stream, the warnings given) is behind
    a lock, and each sample builds its own optimizer from the study.

A multi-objective study is refused with a ``ValueError`` naming the
limitation, at the sampler's first use: symbo models one value per point.

Errors
    The sampler refuses (a multi-objective study, a ``params`` list or an
    order it cannot honour, a setting the search space's dimension rules
    out) in ``sample_relative`` and ``sample_independent``, never in
    ``infer_relative_search_space``. What becomes of the trial is
    Optuna's, as for any sampler: from Optuna 3.2 on, ``sample_relative``
    runs at the objective's first ``suggest_*``, and ``study.optimize``
    marks the trial FAIL and raises; Optuna 3.1 and earlier call it from
    ``study.ask``, before the objective, and the trial stays RUNNING (as
    with Optuna's own samplers: ``CmaEsSampler`` refusing a multi-objective
    study leaves one so). With the ask-and-tell interface the exception
    reaches the caller's ``suggest_*`` (or ``ask``), and the trial is the
    caller's to ``study.tell(trial, state=TrialState.FAIL)``. A RUNNING
    trial without a point counts, for the trials after it, as a trial of
    unknown point (see Workers) until a later trial has finished: fail it.
"""

import math
import os
import re
import threading
import warnings
import zlib

import numpy as np
import optuna
from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution
from optuna.samplers import BaseSampler
from optuna.study import StudyDirection
from optuna.trial import TrialState

import symbo

__all__ = ["SymboSampler", "FallbackWarning", "ScaleWarning", "seen_trials"]

# The largest batch a trial computes to step around other workers' trials
# whose parameters are not yet known (see _choose): with more than
# _MAX_RANK + 1 workers choosing at the same instant, two may share a
# member (the check that follows still moves one of them).
_MAX_RANK = 15

# The system attribute where a trial records the point its sampler chose
# (a dict {name: value}, before Optuna stores them as parameters), and the
# bound on the moves of the check that follows.
_ATTR = "symbo:x"
_MAX_MOVES = 8

# The system attribute where a trial records the numbers of the COMPLETE
# trials its sampler's last check saw, as ranges "0-37,39".
_SEEN = "symbo:seen"

# The system attribute where a trial records its sampler's last check: the
# numbers of the RUNNING and WAITING trials whose points it compared with
# (ranges, as _SEEN) and how many times the check moved the point,
# "moves=N;running=…". A diagnosis for two trials on one orbit.
_CHECKED = "symbo:checked"

# Optuna's system attribute holding an enqueued trial's parameters.
_FIXED = "fixed_params"

# Proposals on taken orbits: the batch is extended by this many members,
# then this many random points are drawn (see _settle).
_RESNAP = 8
_DRAWS = 64

# A search space of discrete parameters only with at most this many points
# is searched point by point instead of by random draws (see _settle), so
# that a free point is found whenever one is left.
_GRID_MAX = 4096

# The groups whose action does not depend on the order of the coordinates
# (a relabelling of the coordinates maps the group onto itself; rotation2d:
# swapping x and y conjugates a rotation into its inverse). Any other name
# — cyclic, blockperm, pairedperm, matrices, and groups added later — needs
# an order the user chose.
# Groups that act on each coordinate alone (never move a value to another
# coordinate): their parameters may mix linear and log scales.
_PER_COORDINATE = frozenset({"none", "signflip"})

# The groups that move values from one parameter to another, with the same
# range expected of each (not scaling and scalingdir, which multiply all by
# one factor, nor matrices, any linear maps a user gives).
_MOVES_VALUES = frozenset({"permutation", "hyperoctahedral", "rotation2d", "cyclic", "blockperm", "pairedperm"})

# The groups whose action negates a coordinate (u ↦ -u: a sign flip, or
# rotation2d's half turn), about 0: a range not symmetric about 0 is sent
# outside itself, and a log=True parameter's logarithm u ↦ -u is x ↦ 1/x.
_NEGATES = frozenset({"signflip", "hyperoctahedral", "rotation2d"})

_ORDER_FREE = frozenset({"none", "signflip", "permutation", "hyperoctahedral", "rotation2d", "scaling", "scalingdir"})

# symbo.Optimizer's options the sampler passes through.
_OPTIONS = frozenset({"acq", "beta", "fit", "prior", "mean", "liar", "block", "matrices", "landmarks", "landmark_fit",
                      "candidate_fit", "probe_window", "probe", "hedge", "allow_repeats", "normalize", "ard",
                      "beta_scale", "mem_budget"})


# What symbo says when the observed, pending and failed points' orbits
# leave it no point to propose (an exhausted space): libsymbo's
# ErrSpaceExhausted, an InvalidInput whose message starts with this (bo's
# documented prefix, once the front end trims "bo: ").
_EXHAUSTED = "search space exhausted"


def _exhausted(err):
    """Whether a symbo error says the space is exhausted (see _EXHAUSTED)."""
    return isinstance(err, symbo.InvalidInput) and str(err).startswith(_EXHAUSTED)


class FallbackWarning(UserWarning):
    """A parameter is sampled by the fallback, not by symbo (given once per
    parameter name and sampler)."""


class ScaleWarning(UserWarning):
    """A group that moves values between its parameters acts on log=True
    and linear ones together, or on ones whose ranges differ; or a group
    that maps a coordinate u to -u acts on a log=True parameter or on a
    range not symmetric about 0 (given once per sampler and set of
    parameters)."""


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


def _natural_key(name):
    """Sort key comparing runs of digits as numbers: x2 < x10."""
    parts = re.split(r"([0-9]+)", name)
    # Even positions hold text, odd ones digits: keys compare type by type.
    return tuple((int(p), p) if i % 2 else p for i, p in enumerate(parts))


def _one_family(names):
    """Whether the names are one stem with consecutive integer suffixes
    from 0 or 1 (w1, w2, …, w10), whose natural order is then the only
    reading; one name is one order. A gap (w1, w3, w4: w2 conditional, so
    not in every completed trial's search space) or a run from elsewhere
    (w2, w3, w4) means a member is missing, and the group would act on the
    others as if they were the whole family."""
    if len(names) <= 1:
        return True
    stems, suffixes = set(), set()
    for n in names:
        m = re.fullmatch(r"(.*?)([0-9]+)", n)
        if m is None:
            return False
        stems.add(m.group(1))
        suffixes.add(int(m.group(2)))
    return (len(stems) == 1 and len(suffixes) == len(names)
            and min(suffixes) in (0, 1) and max(suffixes) - min(suffixes) == len(names) - 1)


def _left_out(family, names):
    """The names among names, outside family, that share the stem of the
    one family family is (see _one_family): members left out of it (w4
    beside w1, w2, w3, holding one value or suggested by some trials
    only)."""
    stems = {m.group(1) for m in (re.fullmatch(r"(.*?)([0-9]+)", n) for n in family) if m}
    if len(stems) != 1:
        return []
    stem = stems.pop()
    return sorted((n for n in names if n not in family and re.fullmatch(re.escape(stem) + r"[0-9]+", n)),
                  key=_natural_key)


def _one_range(coords):
    """Whether the model coordinates of coords all lie in one interval
    (to a relative 1e-9 of its width)."""
    lo, hi = coords[0].lo, coords[0].hi
    tol = 1e-9 * max(hi - lo, abs(lo), abs(hi))
    return all(abs(c.lo - lo) <= tol and abs(c.hi - hi) <= tol for c in coords)


def _describe(c):
    """A parameter's range, and its model coordinate's when that is
    another interval (a grid's relaxation, a logarithm): "a [0, 10]
    (modelled on [-0.5, 10.5])"."""
    text = "%s [%s, %s]" % (c.name, c.dist.low, c.dist.high)
    if c.kind == "float":
        return text
    return text + " (modelled on %s[%.6g, %.6g])" % ("log " if c.kind in ("log", "loggrid") else "", c.lo, c.hi)


def _symmetric(c):
    """Whether the model coordinate of c lies in an interval symmetric
    about 0 (to a relative 1e-9 of its width)."""
    return abs(c.lo + c.hi) <= 1e-9 * max(c.hi - c.lo, abs(c.lo), abs(c.hi))


def _single_value(dist):
    return dist.choices[0] if isinstance(dist, CategoricalDistribution) else dist.low


def _fresh_seed():
    return int.from_bytes(os.urandom(8), "little") >> 1


def _numeric(dist):
    return isinstance(dist, (FloatDistribution, IntDistribution)) and not dist.single()


# bo.MinRelativeWidth: the narrowest box side symbo accepts, relative to
# the side's magnitude.
_MIN_RELATIVE_WIDTH = 1e-10


class _Coord:
    """One modelled parameter: the interval of its model coordinate in
    symbo's box, and the maps between the coordinate and its values (see
    the module documentation). free: the group leaves the parameter alone
    (the identity acts on it), so that its model coordinate may be
    translated."""

    def __init__(self, name, dist, free=False):
        self.name, self.dist, self.free = name, dist, free
        # The value at model coordinate 0 of a grid parameter (0 but for
        # a free one with a huge offset, below): u = value - origin.
        self.origin = 0
        self.integer = isinstance(dist, IntDistribution)
        low, high = dist.low, dist.high
        if not self.integer and dist.step is None:
            self.kind = "log" if dist.log else "float"
            self.lo, self.hi = (math.log(low), math.log(high)) if dist.log else (float(low), float(high))
        elif self.integer and dist.log:
            self.kind = "loggrid"
            self.lo, self.hi = math.log(low - 0.5), math.log(high + 0.5)
        else:
            self.kind = "grid"
            self.step = dist.step
            self.n = int(round((high - low) / dist.step))  # Optuna puts high on the grid
            lo, hi = low - dist.step / 2, high + dist.step / 2
            if free and hi - lo < _MIN_RELATIVE_WIDTH * max(abs(lo), abs(hi)):
                # A grid far from 0 for its width, IntDistribution(10**15,
                # 10**15 + 10) say: its relaxation holds too few floats for
                # symbo (bo.MinRelativeWidth), though every grid point is
                # one. The model coordinate is the offset from low instead
                # (exact for ints): a translation, which changes nothing for
                # a stationary kernel on a coordinate the group leaves alone.
                self.origin = low
            # The model coordinate of low: low itself, or 0.
            self.base = low - self.origin
            self.lo, self.hi = self.base - dist.step / 2, (high - self.origin) + dist.step / 2
        self.discrete = self.kind in ("grid", "loggrid")

    def count(self):
        """The number of values of a discrete parameter."""
        return self.dist.high - self.dist.low + 1 if self.kind == "loggrid" else self.n + 1

    def grid(self):
        """The model coordinates of every value of a discrete parameter
        (count() of them: check it first)."""
        d = self.dist
        if self.kind == "loggrid":
            return [math.log(v) for v in range(d.low, d.high + 1)]
        return [self.encode(self.decode(self.base + k * self.step)) for k in range(self.n + 1)]

    def encode(self, value):
        """The model coordinate of a value."""
        if self.origin:
            # In the value's own arithmetic first: exact for an int.
            return float(value - self.origin)
        v = float(value)
        return math.log(v) if self.kind in ("log", "loggrid") else v

    def decode(self, u):
        """The value of the distribution at model coordinate u: an int for
        an IntDistribution, a float otherwise (never a numpy scalar)."""
        d = self.dist
        u = float(u)
        if self.kind == "float":
            return float(min(max(u, d.low), d.high))
        if self.kind == "log":
            return float(min(max(math.exp(u), d.low), d.high))
        if self.kind == "loggrid":
            return int(min(max(int(np.rint(math.exp(u))), d.low), d.high))
        k = int(min(max(np.rint((u - self.base) / self.step), 0), self.n))
        if self.integer:
            return int(d.low + k * self.step)
        return float(min(max(d.low + k * self.step, d.low), d.high))


class _Layout:
    """The modelled coordinates: the k the group acts on first (in the
    group's order), then the others."""

    def __init__(self, grouped, rest):
        self.coords = grouped + rest
        self.k, self.d = len(grouped), len(self.coords)
        self.names = [c.name for c in self.coords]
        self.lo = np.array([c.lo for c in self.coords], dtype=np.float64)
        self.hi = np.array([c.hi for c in self.coords], dtype=np.float64)
        self.discrete = any(c.discrete for c in self.coords)

    def values(self, u):
        return {c.name: c.decode(v) for c, v in zip(self.coords, u)}

    def snap(self, x):
        """The model coordinates of the parameter values x maps to."""
        u = np.array([c.encode(c.decode(v)) for c, v in zip(self.coords, x)], dtype=np.float64)
        return np.clip(u, self.lo, self.hi)

    def grid(self):
        """Every point of a space of discrete parameters (an array, one
        point per row), or None when a parameter is continuous or there are
        more than _GRID_MAX points."""
        if not self.coords or not all(c.discrete for c in self.coords):
            return None
        # Counted before any axis is built: a parameter can have 2**60 values.
        if math.prod(c.count() for c in self.coords) > _GRID_MAX:
            return None
        axes = [c.grid() for c in self.coords]
        mesh = np.meshgrid(*axes, indexing="ij")
        return np.clip(np.stack([m.ravel() for m in mesh], axis=1), self.lo, self.hi)

    def pins(self, trial):
        """The coordinates a trial is given (_given: which override
        whatever is sampled) and their model values."""
        fixed = _given(trial)
        idx, val = [], []
        if isinstance(fixed, dict):
            for i, c in enumerate(self.coords):
                if c.name in fixed:
                    try:
                        v = c.encode(fixed[c.name])
                    except (TypeError, ValueError, OverflowError):
                        continue
                    if math.isfinite(v):
                        idx.append(i)
                        val.append(min(max(v, self.lo[i]), self.hi[i]))
        return idx, val


def _given(trial):
    """The parameter values Optuna will use whatever a sampler returns:
    those the trial already holds (a WAITING trial created with its
    parameters — RetryFailedTrialCallback's retry of a failed trial,
    study.add_trial — keeps them), then those it was enqueued with
    (fixed_params)."""
    fixed = trial.system_attrs.get(_FIXED)
    given = dict(fixed) if isinstance(fixed, dict) else {}
    given.update(trial.params)
    return given


class _View:
    """An optimizer told the study's trials, the number of earlier trials
    whose points are unknown, and the model coordinates of the observed
    (told), pending and failed points."""

    def __init__(self, opt, unknown, told, pending, failed, d):
        self.opt, self.unknown = opt, unknown
        self.told, self.pending, self.failed = (np.array(p, dtype=np.float64).reshape(-1, d)
                                                for p in (told, pending, failed))


def _study_trials(study, states=None):
    """Every trial of the study (not deep-copied). With a HyperbandPruner,
    Optuna hands the sampler a bracket's view of the study (its
    _BracketStudy, which keeps the study it filters as _study), whose
    get_trials holds only the trials of one bracket: the history, pending
    and failed points are the whole study's (see Workers), else a trial
    would repeat points that other brackets evaluated, and count their
    trials as earlier trials of unknown point."""
    inner = getattr(study, "_study", None)
    while isinstance(inner, optuna.study.Study):
        study, inner = inner, getattr(inner, "_study", None)
    return study.get_trials(deepcopy=False, states=states)


def _quiet_optimizer(lo, hi, **kw):
    """symbo.Optimizer(lo, hi, **kw) without its warnings of candidates
    left out (the sampler gives its own, once)."""
    was, symbo._quiet.on = getattr(symbo._quiet, "on", False), True
    try:
        return symbo.Optimizer(lo, hi, **kw)
    finally:
        symbo._quiet.on = was


def _close(opt):
    """Free opt's library handle now, where symbo.Optimizer has one (else
    the collector does)."""
    close = getattr(opt, "close", None)
    if close is not None:
        close()


def _report_failure(opt, u):
    """Tell opt that the evaluation at u failed: neither u nor its orbit is
    proposed again (symbo.Optimizer.fail)."""
    opt.fail(u)


class SymboSampler(BaseSampler):
    """Optuna sampler over symbo (see the module documentation).

    Parameters
    ----------
    group : str
        The group the objective is invariant under (see :func:`symbo.gram`),
        acting on the parameters ``params`` names. For x ↦ c·x prefer
        ``scalingdir`` to ``scaling`` (the paper's orbit geometry): on
        the paper's scaling benchmark, with ``prior="none", mean="sample"``,
        it beat random search and TPE, which ``scaling`` did not
        (lab/results/scalingdir/README.md); with the recommended
        configuration (``kernel=None``) its regret there was 0.08 / 0.14
        of random search's and 0.10 / 0.13 of TPE's on two seed sets
        (lab/results/defaults/current.md).
    kernel : str, optional
        None (the default): the library's recommended configuration, as
        :class:`symbo.Optimizer`; or ``portfolio``, ``plus``, ``soft``,
        ``max``, ``avg``, ``avgnorm``, ``nystrom``, ``base`` or ``auto``
        (see :class:`symbo.Optimizer`). A candidate an ``auto`` or
        ``portfolio`` kernel leaves out as too costly over the group
        (known once the search space is) is said by one ``UserWarning``
        per sampler and reason, at the first trial symbo chooses:
        ``"SymboSampler: kernel K leaves out C: <reason>"``.
    base : str
        Base kernel shape (default ``rbf``).
    seed : int, optional
        The optimizer's seed and the fallback's. A trial's point is a
        function of the seed, the history, the pending points and the number
        of earlier trials still choosing theirs: give every worker of a
        study the same seed, so that workers that see the same study never
        propose one point twice. ``None`` (default): drawn at random, and
        redrawn by :meth:`reseed_rng`.
    n_startup_trials : int
        Size of symbo's initial design (default 5): trials before the model
        is fitted, spread over distinct orbits. (Trials before the first
        COMPLETE one are the fallback's: the search space is unknown.)
    params : sequence of str, optional
        The parameters the group acts on, in the order of its coordinates;
        default: every numeric parameter in natural order (see the module
        documentation for when this is required).
    independent_sampler : optuna.samplers.BaseSampler, optional
        The fallback, for the parameters symbo does not model: categorical
        ones, conditional ones, and every parameter of the trials before
        one has completed. Default: uniform sampling from a stream of
        ``(seed, trial number, parameter name)``. It is told each trial's
        start and end (``before_trial``, ``after_trial``), as a sampler
        Optuna drives itself is. A class (``TPESampler`` for
        ``TPESampler()``) or an object without ``sample_independent`` is
        a ``TypeError`` at construction.
    init : int, optional
        Deprecated alias of ``n_startup_trials``.
    **options
        ``acq``, ``beta``, ``fit``, ``prior``, ``mean``, ``liar``, ``block``, ``matrices``,
        ``landmarks``, ``landmark_fit``, ``candidate_fit``, ``probe_window``, ``probe``, ``hedge``, ``allow_repeats``, ``normalize``, ``ard``, ``beta_scale``, ``mem_budget`` as in
        :class:`symbo.Optimizer`.
    """

    def __init__(self, *, group, kernel=None, base="rbf", seed=None, n_startup_trials=None, params=None,
                 independent_sampler=None, init=None, **options):
        if "constraints_func" in options:
            # Optuna's TPE, NSGA-II and GP samplers take it: said so, with
            # what does the job here, not as a bare unknown keyword.
            raise TypeError("SymboSampler takes no constraints_func: symbo models no constraints; fail an "
                            "infeasible trial instead (raise, or return nan), and neither its point nor its orbit "
                            "is proposed again")
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise TypeError("SymboSampler got unexpected keyword argument(s) %s (options: %s)"
                            % (", ".join(unknown), ", ".join(sorted(_OPTIONS))))
        if init is not None:
            warnings.warn("SymboSampler(init=...) is deprecated; use n_startup_trials=...", FutureWarning, stacklevel=2)
            if n_startup_trials is not None and symbo._index(n_startup_trials, "n_startup_trials") != symbo._index(init, "init"):
                raise ValueError("SymboSampler: init=%r and n_startup_trials=%r disagree (init is its old name)"
                                 % (init, n_startup_trials))
            n_startup_trials = init
        if params is not None:
            if isinstance(params, str):
                raise TypeError("SymboSampler: params must be a sequence of parameter names, not the string %r"
                                % params)
            params = list(params)
            if not params or not all(isinstance(n, str) for n in params):
                raise ValueError("SymboSampler: params must name at least one parameter, as strings; got %r"
                                 % (params,))
            dup = sorted({n for n in params if params.count(n) > 1})
            if dup:
                raise ValueError("SymboSampler: params names %s twice" % ", ".join(map(repr, dup)))
        if not isinstance(group, str) or not group.strip():
            # symbo.Optimizer refuses it too, but the construction check
            # below raises only what holds whatever the space: None, "",
            # 3 or ["none"] passed, and failed at the first trial symbo
            # chose, after an objective evaluation (["none"] with
            # TypeError: unhashable type).
            raise symbo.InvalidInput('SymboSampler: group must name the group the objective is invariant under, as a '
                                     'string ("permutation", say; "none" for no group), got %r' % (group,))
        self._group, self._kernel, self._base = group, kernel, base
        # The group's name as symbo reads it (case-insensitive, spaces
        # around it ignored), for the sampler's own tables: the raw name
        # made "Permutation" an order-dependent group (a ValueError asking
        # for params) and "SIGNFLIP" one that moves values (a ScaleWarning).
        self._group_name = str(group).strip().lower()
        self._n_startup = 5 if n_startup_trials is None else symbo._int64(n_startup_trials, "n_startup_trials")
        if self._n_startup < 1:
            raise symbo.InvalidInput("SymboSampler: n_startup_trials = %d; want at least 1 (symbo's model needs "
                                     "an initial design)" % self._n_startup)
        self._params, self._options = params, options
        self._fixed_seed = seed is not None
        self._seed = symbo._index(seed, "seed") if seed is not None else _fresh_seed()
        self._check_names()
        if independent_sampler is not None and (isinstance(independent_sampler, type) or not callable(
                getattr(independent_sampler, "sample_independent", None))):
            # The class itself (TPESampler for TPESampler()), or no sampler:
            # it failed at the first trial, after its objective had run, with
            # "after_trial() missing 1 required positional argument" or
            # "'int' object has no attribute 'after_trial'".
            raise TypeError("SymboSampler: independent_sampler must be a sampler instance (e.g. "
                            "optuna.samplers.TPESampler()), got %r%s" % (
                                independent_sampler,
                                " (a class: call it)" if isinstance(independent_sampler, type) else ""))
        self._independent = independent_sampler
        self._salt = None  # the fallback stream's extra entropy, set by reseed_rng
        self._warned = set()
        self._lock = threading.Lock()

    def _check_names(self):
        """Refuses, at construction, a group, kernel, base or option value
        the library does not know (a misspelt "hyperoctahedal" or "plsu"),
        or a value it refuses whatever the space (a negative seed, hedge =
        11, beta_scale = 0), so that no objective evaluation is spent
        before the error: the settings are tried on a small box (2
        coordinates, or two blocks), where only an "unknown …" refusal is
        raised — whatever depends on the search space's dimension is
        checked when it is known — and without the group."""
        block = self._options.get("block")
        matrices = self._options.get("matrices")
        group = self._group_name
        if group == "blockperm" and not (isinstance(block, (int, np.integer)) and not isinstance(block, bool)
                                         and block >= 1):
            raise symbo.InvalidInput("SymboSampler: group blockperm needs block, an integer ≥ 1 (the block size), "
                                     "got %r" % (block,))
        # Their kinds hold whatever the group and the space: symbo.Optimizer's
        # refusal of a block "2", 2.0 or 2**70, or of matrices=5, is not an
        # "unknown …" one, and came at the first trial symbo chose (group
        # matrices with matrices=5 raised os.fspath's TypeError below).
        if block is not None:
            try:
                symbo._int64(block, "block")
            except symbo.InvalidInput as e:
                raise symbo.InvalidInput("SymboSampler: %s" % e) from None
        if matrices is not None:
            try:
                os.fspath(matrices)
            except TypeError:
                raise symbo.InvalidInput("SymboSampler: matrices must be a path, got %r" % (matrices,)) from None
        if group == "matrices" and (matrices is None or not os.path.isfile(os.fspath(matrices))):
            raise symbo.InvalidInput("SymboSampler: group matrices needs matrices, the path of a JSON file of "
                                     "orthogonal matrices, got %r" % (matrices,))
        d = 2 * int(block) if isinstance(block, int) and 0 < block <= 64 else 2
        # Candidates left out on these small boxes are not the study's:
        # the sampler warns of those at its first optimizer (_optimizer).
        try:
            _quiet_optimizer([-1.0] * d, [1.0] * d, group=self._group, kernel=self._kernel, base=self._base,
                             init=self._n_startup, **self._options).close()
        except symbo.InvalidInput as e:
            # Unknown names, and a block or matrices file the group does
            # not use, whatever the space.
            if "unknown" in str(e) or "used only by" in str(e):
                raise symbo.InvalidInput("SymboSampler: %s" % e) from None
        # The values that do not depend on the group or the space (seed,
        # hedge, beta_scale, probe_window, …), on the trivial group: any
        # refusal here would come at the first trial symbo chooses.
        rest = {k: v for k, v in self._options.items() if k not in ("block", "matrices")}
        try:
            _quiet_optimizer([-1.0, -1.0], [1.0, 1.0], group="none", kernel=self._kernel, base=self._base,
                             seed=self._seed, init=self._n_startup, **rest).close()
        except symbo.InvalidInput as e:
            raise symbo.InvalidInput("SymboSampler: %s" % e) from None

    def __getstate__(self):
        state = self.__dict__.copy()
        del state["_lock"]
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        # A sampler pickled before _group_name existed.
        self.__dict__.setdefault("_group_name", str(self._group).strip().lower())
        self._lock = threading.Lock()

    # ------------------------------------------------------------ the contract

    def reseed_rng(self):
        """Draw a new fallback stream, and a new symbo seed unless ``seed``
        was given (a given seed is the workers' shared key and is kept)."""
        with self._lock:
            if not self._fixed_seed:
                self._seed = _fresh_seed()
            self._salt = _fresh_seed()
        if self._independent is not None:
            self._independent.reseed_rng()

    def before_trial(self, study, trial):
        """Passes the call on to ``independent_sampler`` (Optuna ≥ 3.3
        calls it)."""
        before = getattr(self._independent, "before_trial", None)
        if before is not None:
            before(study, trial)

    def after_trial(self, study, trial, state, values):
        """Passes the trial's outcome on to ``independent_sampler`` (a
        ``TPESampler`` with a ``constraints_func`` records the trial's
        constraints here). SymboSampler itself reads every outcome from the
        study at the next sample."""
        if self._independent is not None:
            self._independent.after_trial(study, trial, state, values)

    def infer_relative_search_space(self, study, trial):
        """The numeric parameters of the study's search space, in the
        layout's order. Refuses nothing: a study or a params list the
        sampler cannot serve yields a space for sample_relative to refuse.
        Optuna up to 4.5 calls this from study.ask, where an exception
        leaves the new trial RUNNING for good (study.optimize never reaches
        its objective, which would have failed the trial), and SymboSampler
        counts every such trial as one of unknown point; sample_relative,
        from Optuna 3.2 on, runs at the objective's first suggest, whose
        exception fails the trial."""
        if len(study.directions) > 1:
            return {}  # sample_relative and sample_independent refuse it
        space = self._intersection(study)
        if not space:
            return {}
        try:
            # Quiet: a ScaleWarning that a filter makes an error would be
            # raised here, where it leaves the trial RUNNING; sample_relative
            # gives it.
            layout = self._layout(space, self._suggested(study), quiet=True)
        except ValueError:
            return space  # sample_relative's _layout raises the same error
        return {n: space[n] for n in layout.names}

    def sample_relative(self, study, trial, search_space):
        self._check_single_objective(study)
        if not search_space:
            return {}
        # The refusals first (infer_relative_search_space defers its own
        # here): before any fallback draw or warning.
        if self._params is not None:
            self._check_withheld(study, search_space)
        layout = self._layout(search_space, self._suggested(study))
        out = {}
        for n, dist in search_space.items():
            if dist.single():
                out[n] = _single_value(dist)
            elif isinstance(dist, CategoricalDistribution):
                self._warn_categorical(n)
                out[n] = self._fallback(study, trial, n, dist)
        given = _given(trial)
        if layout.d == 0 or all(n in given for n in layout.names):
            # Nothing to model, or a trial whose parameters are given
            # (enqueued, or a retry created with them): nothing to choose,
            # and no point to record but its own.
            return out
        with self._lock:
            seed, salt = self._seed, self._salt
        out.update(layout.values(self._choose(study, trial, layout, seed, salt)))
        return out

    def _check_withheld(self, study, search_space):
        """Refuses a search space from which a sampler wrapping this one
        (optuna.samplers.PartialFixedSampler) removed a parameter of
        params that the study's search space holds: the group cannot act
        on a coordinate it does not sample."""
        space = self._intersection(study)
        gone = [n for n in self._params if n not in search_space and n in space and _numeric(space[n])]
        if gone:
            raise ValueError(
                "SymboSampler: params names %s, which the study's trials suggest but the search space this "
                "sampler was given lacks: a sampler wrapping it fixed them (optuna.samplers.PartialFixedSampler "
                "does so), and the group cannot act on parameters it does not sample. Fix them per trial with "
                "study.enqueue_trial (the group's other parameters are then sampled around them), or leave them "
                "out of params" % ", ".join(map(repr, gone)))

    def sample_independent(self, study, trial, param_name, param_distribution):
        self._check_single_objective(study)
        if isinstance(param_distribution, CategoricalDistribution):
            self._warn_categorical(param_name)
        elif param_name not in self._warned:
            space = self._intersection(study)
            if space and space.get(param_name) != param_distribution:
                self._warn_once(param_name, "parameter %r is sampled by the fallback, not by symbo: it is not "
                                "suggested with this distribution by every completed trial (a conditional "
                                "parameter, or one whose range changed)" % param_name)
        return self._fallback(study, trial, param_name, param_distribution)

    # ------------------------------------------------------------ choosing a point

    def _choose(self, study, trial, layout, seed, salt):
        """The model coordinates of trial's point."""
        minimize = study.direction == StudyDirection.MINIMIZE
        # Trials are numbered 0, 1, … in the order they are created. An
        # earlier trial whose point this worker does not know — another
        # worker's trial still choosing it, or one not yet visible in the
        # storage — is pending somewhere unknown. Workers that see the same
        # study then share a view, so each takes its own member of one
        # pending-aware batch: the k-th, k the number of such unknown
        # trials numbered below its own (bounded, so that trials a dead
        # worker left RUNNING cannot grow the batch without end; and one
        # that a later trial has overtaken, finishing first, is not
        # counted: see _view).
        trials = _study_trials(study)
        view = self._view(layout, trials, trial, minimize, seed)  # one read: one view
        told = {t.number for t in trials if t.state == TrialState.COMPLETE}
        rank = min(max(view.unknown, 0), _MAX_RANK)
        # The first view's optimizer also serves as the library's exclusion
        # test for the points it was not told (the test does not depend on
        # what an optimizer was told).
        metric = view.opt
        try:
            u = self._settle(layout, view, rank, trial, seed, salt)
            # Views taken at different moments can still agree on a point (a
            # corner of the box, say). So each trial records its choice, then
            # reads the study again: of two trials on one orbit, the one that
            # reads second sees the other's choice and moves (both move if both
            # see it, to distinct members of a batch that holds the other's
            # point pending), and the check repeats.
            # A trial that failed (or was pruned) since the view counts too: its
            # orbit is never proposed again, and a trial whose point was not
            # known at the view can have failed on ours before this check; so
            # does one that completed since the view (not told to it), which
            # can have completed on ours (two workers, n_jobs > 1).
            moves = 0
            while True:
                study._storage.set_trial_system_attr(trial._trial_id, _ATTR, layout.values(u))
                trials = _study_trials(study)
                others = [(t, self._point(layout, t)) for t in trials
                          if t.number != trial.number and t.state in (TrialState.RUNNING, TrialState.WAITING)]
                others = [(t, p) for t, p in others if p is not None]
                dead = [(t, self._point(layout, t)) for t in trials
                        if t.number != trial.number and t.state in (TrialState.FAIL, TrialState.PRUNED)]
                dead = [(t, p) for t, p in dead if p is not None]
                done = [(t, self._point(layout, t)) for t in trials
                        if t.number != trial.number and t.state == TrialState.COMPLETE and t.number not in told]
                done = [(t, p) for t, p in done if p is not None]
                if self._options.get("allow_repeats"):
                    # Observed points may come again; a trial that completed
                    # without a finite value is failed, and may not.
                    done = [(t, p) for t, p in done if t.value is None or not math.isfinite(t.value)]
                near = others + dead + done
                clash = [t for (t, _), c in zip(near, self._near(metric, u, [p for _, p in near])) if c]
                if not clash or moves == _MAX_MOVES:
                    break
                moves += 1
                view = self._view(layout, trials, trial, minimize, seed)
                told = {t.number for t in trials if t.state == TrialState.COMPLETE}
                k = min(sum(1 for t in clash if t.number < trial.number and
                            t.state in (TrialState.RUNNING, TrialState.WAITING)), _MAX_RANK)
                try:
                    u = self._settle(layout, view, k, trial, seed, salt)
                finally:
                    _close(view.opt)
        finally:
            _close(metric)
        # The COMPLETE trials of the last check: a point of one of them can
        # be chosen again only when no other is left (see _settle); no other
        # trial's can.
        seen = [t.number for t in trials if t.state == TrialState.COMPLETE]
        study._storage.set_trial_system_attr(trial._trial_id, _SEEN, _ranges(seen))
        study._storage.set_trial_system_attr(trial._trial_id, _CHECKED, "moves=%d;running=%s;clash=%s" % (
            moves, _ranges(t.number for t, _ in others), _ranges(t.number for t in clash)))
        return u

    def _view(self, layout, trials, trial, minimize, seed):
        """The optimizer told the study's trials (see the module
        documentation for failures) with the other RUNNING and WAITING
        trials' known points pending."""
        opt = self._optimizer(layout, minimize, seed)
        told, pending, failed = [], [], []
        known = 0
        # An earlier RUNNING or WAITING trial without a point is still
        # choosing it only until a trial numbered after it has finished
        # (a later trial chose its point and was evaluated meanwhile):
        # then it is taken for dead — a worker killed while choosing, whose
        # trial Optuna 3.1's heartbeat never fails (the heartbeat starts
        # after study.ask, where it samples), or a trial waiting for a
        # worker. Counted as still choosing, one such trial made every
        # later trial skip the best member of its batch for good.
        last_finished = max((t.number for t in trials if t.number != trial.number and t.state.is_finished()),
                            default=-1)
        for t in trials:
            if t.number == trial.number:
                continue
            u = self._point(layout, t)
            if t.state == TrialState.COMPLETE:
                if u is not None:
                    if t.value is not None and math.isfinite(t.value):
                        opt.tell(u, t.value)
                        told.append(u)
                    else:
                        failed.append(u)
            elif t.state in (TrialState.FAIL, TrialState.PRUNED):
                if u is not None:
                    failed.append(u)
            elif t.state in (TrialState.RUNNING, TrialState.WAITING):
                if u is None:
                    if t.number < last_finished:
                        known += 1  # not choosing (see above)
                    continue
                pending.append(u)
            if t.number < trial.number:
                known += 1
        for u in failed:
            _report_failure(opt, u)
        for u in pending:
            opt.add_pending(u)
        return _View(opt, trial.number - known, told, pending, failed, layout.d)

    def _point(self, layout, t):
        """The model coordinates of trial t's point — its parameters, else
        those it was enqueued with, else the point its sampler recorded —
        or None. A FAIL or PRUNED trial that suggested none of the modelled
        parameters has none: it failed before evaluating any point. A
        COMPLETE trial's point is its parameters only: one that
        returned without suggesting them (a cached or skipped
        configuration) was evaluated nowhere, and its value is no
        observation at the point it was given; nor is one evaluated
        outside the box (an enqueued value out of its range, which Optuna
        runs with a warning), where the GP would be told it at the box's
        edge; a FAIL or PRUNED trial evaluated outside the box has no
        point either (it failed there, not at the edge). A RUNNING or
        WAITING trial's point is clipped to the box (pending there while
        it runs)."""
        if t.state in (TrialState.FAIL, TrialState.PRUNED) and not any(c.name in t.params for c in layout.coords):
            # It failed before suggesting any modelled parameter: whatever
            # went wrong did not depend on the point its sampler (or an
            # enqueue) had chosen, which was never evaluated.
            return None
        sources = [t.params]
        if t.state != TrialState.COMPLETE:
            for key in (_FIXED, _ATTR):
                s = t.system_attrs.get(key)
                if isinstance(s, dict):
                    sources.append(s)
        u = np.empty(layout.d)
        for i, c in enumerate(layout.coords):
            src = next((s for s in sources if c.name in s), None)
            if src is None:
                return None
            try:
                u[i] = c.encode(src[c.name])
            except (TypeError, ValueError, OverflowError):
                return None
        if not np.all(np.isfinite(u)):
            return None
        if t.state not in (TrialState.RUNNING, TrialState.WAITING) and (np.any(u < layout.lo) or np.any(u > layout.hi)):
            # Evaluated outside the box: neither its value nor its failure
            # was observed at the box's edge.
            return None
        return np.clip(u, layout.lo, layout.hi)

    def _settle(self, layout, view, rank, trial, seed, salt):
        """The model coordinates of the rank-th usable member of symbo's
        pending-aware batch from view. A member is usable unless its
        parameter values (rounded, for integer and stepped parameters) lie
        on the orbit of an observed, pending or failed point, or of an
        earlier usable member: symbo never proposes a pending or failed
        orbit itself, but rounding can land on one, and symbo's
        acquisition may return to an observed point (re-evaluating it adds
        nothing to a deterministic objective, and a study can otherwise
        spend every later trial there). Each member is computed with the
        earlier ones pending, so a skipped member pushes the next away from
        it, and workers that share a view skip the same members. With
        fewer than rank + 1 usable members among rank + 1 + _RESNAP, points
        are drawn at random; when every one of those is taken (a small
        grid), a point off the pending and failed orbits that no trial has
        evaluated (within the radius of an observed orbit only) is
        preferred to an observed point, and an observed point to a failed
        or pending one."""
        blocked = np.vstack([view.pending, view.failed])
        # With allow_repeats an observed point may be proposed again, as
        # symbo.Optimizer's may; a pending or failed one never.
        taken = blocked if self._options.get("allow_repeats") else np.vstack([view.told, blocked])
        # An enqueued trial's fixed parameters override what is sampled:
        # every candidate is checked (and recorded) as it will run.
        idx, val = layout.pins(trial)

        def pin(u):
            u[idx] = val
            return u

        usable = []
        try:
            batch = view.opt.suggest(rank + 1)
            for extra in range(_RESNAP + 1):
                for x in batch:
                    u = pin(layout.snap(x))
                    if not (self._near(view.opt, u, taken).any() or self._near(view.opt, u, usable).any()):
                        usable.append(u)
                        if len(usable) == rank + 1:
                            return u
                if extra == _RESNAP:
                    break
                # The next member: suggest(q)[j] is suggest(1) with members
                # 0..j-1 pending (one fit for the first rank + 1, then one each).
                for x in batch:
                    view.opt.add_pending(x)
                batch = view.opt.suggest(1)
        except symbo.SymboError as e:
            if not _exhausted(e):
                raise
            # Failed and pending orbits cover the space: symbo has no
            # member to propose, and the draws below are the fallback.
        fallback = None
        rng = np.random.default_rng(self._entropy(seed, salt, trial.number, "settle"))
        grid = layout.grid()
        if grid is not None:
            # A small grid: every point in a random order, so that a free
            # one is found whenever one is left.
            draws = (grid[i].copy() for i in rng.permutation(len(grid)))
        else:
            draws = (layout.snap(rng.uniform(layout.lo, layout.hi)) for _ in range(_DRAWS))
        # fresh: the first draw off the pending and failed orbits that is
        # not an observed point (it lies within the radius of an observed
        # orbit); fallback: the first off those orbits at all. A second
        # evaluation of an observed point tells a deterministic objective
        # nothing while points beside it are left.
        fresh = None
        u = None
        for u in draws:
            u = pin(u)
            if not self._near(view.opt, u, taken).any():
                return u
            if fresh is None and not self._near(view.opt, u, blocked).any():
                if not np.all(view.told == u, axis=1).any():
                    fresh = u
                elif fallback is None:
                    fallback = u
        if fresh is not None:
            return fresh
        if fallback is None and len(view.told):
            # Every point found is failed or pending: an observed one.
            fallback = pin(np.array(view.told[int(rng.integers(len(view.told)))], dtype=np.float64))
        return fallback if fallback is not None else u

    @staticmethod
    def _near(opt, u, points):
        """For each row of points, whether u lies within symbo's exclusion
        radius of its orbit, as the library measures it (opt.near: the
        model's coordinates, the kernel's group; the point itself for base
        and nystrom), or equals it."""
        P = np.asarray(points, dtype=np.float64).reshape(-1, len(u))
        if not len(P):
            return np.zeros(0, dtype=bool)
        return opt.near(u, P) | np.all(P == u, axis=1)

    # ------------------------------------------------------------ the layout

    def _layout(self, space, suggested=(), quiet=False):
        """The modelled coordinates of a search space: the params first (the
        group's coordinates), then the other numeric parameters. suggested:
        the names the study's completed trials suggest (see _suggested).
        quiet: no ScaleWarning. Raises ValueError for a params list or an
        order the sampler cannot honour."""
        numeric = {n: d for n, d in space.items() if _numeric(d)}
        if self._params is None:
            grouped = sorted(numeric, key=_natural_key)
            if self._group_name not in _ORDER_FREE and not _one_family(grouped):
                raise ValueError(
                    "SymboSampler: group %r acts on its coordinates in an order, and the parameter names %s do "
                    "not fix one (they are not one stem with consecutive integer suffixes from 0 or 1; a member "
                    "that not every completed trial suggests is left out of the search space): pass params=[...] "
                    "naming the parameters in the group's order" % (self._group, ", ".join(grouped)))
            left = _left_out(grouped, suggested) if self._group_name not in _ORDER_FREE else []
            if left:
                # w1, w2, w3 beside a w4 that holds one value, or that not
                # every completed trial suggests: a consecutive family, but
                # the group would act on three of the four as if they
                # were all (a cyclic shift of three is no symmetry of
                # an objective invariant under shifts of four).
                raise ValueError(
                    "SymboSampler: group %r acts on its coordinates in an order, and the parameter names %s are "
                    "not the whole family: %s %s left out of the search space (holding one value, or not "
                    "suggested with one distribution by every completed trial): pass params=[...] naming the "
                    "parameters the group acts on, in its order" % (
                        self._group, ", ".join(grouped), ", ".join(left), "is" if len(left) == 1 else "are"))
            rest = []
        else:
            for n in self._params:
                if n not in space:
                    raise ValueError(
                        "SymboSampler: params names %r, which is not a parameter of the study's search space "
                        "(%s): a typo, or a parameter that not every completed trial suggests with one "
                        "distribution" % (n, ", ".join(sorted(space, key=_natural_key)) or "empty"))
                if n not in numeric:
                    what = "holds one value" if space[n].single() else "is categorical"
                    raise ValueError("SymboSampler: params names %r, which %s; the group acts on numeric "
                                     "parameters with a range" % (n, what))
            grouped = list(self._params)
            rest = sorted((n for n in numeric if n not in grouped), key=_natural_key)
        # The group "none" leaves every parameter alone; any other acts on
        # the grouped ones (params, or all of them) and leaves the rest.
        coords = [_Coord(n, numeric[n], free=self._group_name == "none") for n in grouped]
        logs = [c.kind in ("log", "loggrid") for c in coords]
        if self._group_name in ("scaling", "scalingdir") and any(logs):
            # On a logarithm, u ↦ c·u is x ↦ x**c: with every low > 1 symbo
            # accepted the box and modelled that as the symmetry; with one
            # low ≤ 1 it refused a box [log low, log high] the user never gave.
            raise symbo.InvalidInput(
                "SymboSampler: group %r multiplies its parameters by one factor, but %s are log=True: the sampler "
                "models their logarithms, on which the factor c acts as x -> x**c, no symmetry of the objective; "
                "drop log=True on the group's parameters, or leave them out of params=[...]"
                % (self._group, ", ".join(c.name for c, l in zip(coords, logs) if l)))
        if not quiet and self._group_name not in _PER_COORDINATE and any(logs) and not all(logs):
            self._warn_once(
                ("scale",) + tuple(zip(grouped, logs)),
                "group %r moves values between its parameters, but %s are log=True and %s are not: the group "
                "acts on model coordinates, the logarithm of the ones and the value of the others, which is no "
                "symmetry of the objective; give the group's parameters one scale, or name the ones it acts on "
                "with params=[...]" % (
                    self._group, ", ".join(c.name for c, l in zip(coords, logs) if l),
                    ", ".join(c.name for c, l in zip(coords, logs) if not l)),
                ScaleWarning)
        elif not quiet and self._group_name in _MOVES_VALUES and len(coords) > 1 and not _one_range(coords):
            self._warn_once(
                ("range",) + tuple((c.name, c.lo, c.hi) for c in coords),
                "group %r moves values between its parameters, but their ranges differ (%s): a value of one "
                "lands outside another's range, which is no symmetry of an objective defined on those ranges "
                "(without params=[...] the group acts on every numeric parameter); name the ones it acts on "
                "with params=[...]%s" % (
                    self._group, ", ".join(_describe(c) for c in coords),
                    "" if all(c.kind == coords[0].kind for c in coords) else
                    "; an integer or stepped parameter is modelled on its range widened by half a step each "
                    "side, a continuous one on its range: give them one kind (and step)"),
                ScaleWarning)
        if not quiet and self._group_name in _NEGATES:
            # Checked apart from the warnings above: a sign flip moves no
            # value between parameters, but sends each to minus itself.
            odd = [c for c in coords if c.kind in ("log", "loggrid") or not _symmetric(c)]
            if odd:
                self._warn_once(
                    ("negate",) + tuple((c.name, c.kind, c.lo, c.hi) for c in odd),
                    "group %r maps a parameter's model coordinate u to -u (about 0), but %s: that is no symmetry "
                    "of an objective defined on those ranges; give the group's parameters linear ranges "
                    "symmetric about 0 (suggest the offset from the centre, and add it back in the objective), "
                    "or name the ones it acts on with params=[...]" % (
                        self._group, "; ".join(
                            "%s is log=True (on its logarithm -u is %s -> 1/%s)" % (c.name, c.name, c.name)
                            if c.kind in ("log", "loggrid") else
                            "%s [%s, %s] is not symmetric about 0 (minus a value can lie outside it)" % (
                                c.name, c.dist.low, c.dist.high)
                            for c in odd)),
                    ScaleWarning)
        return _Layout(coords, [_Coord(n, numeric[n], free=True) for n in rest])

    # The group on a subset of the coordinates: the one place where it
    # reaches symbo. The layout puts the grouped coordinates first; the
    # optimizer is told which they are (settings key "coords", indices
    # into the box): identity on the others.

    def _optimizer(self, layout, minimize, seed):
        kw = dict(group=self._group, kernel=self._kernel, base=self._base, seed=seed, minimize=minimize,
                  init=self._n_startup, **self._options)
        if layout.k < layout.d:
            kw["coords"] = list(range(layout.k))
        try:
            opt = _quiet_optimizer(layout.lo, layout.hi, **kw)
            # The candidates the kernel left out over the study's space:
            # one UserWarning per reason and sampler (symbo.Optimizer's
            # own, quieted here, would come at every trial).
            info = opt.info()
            for r in info["left_out"]:
                self._warn_once(("left_out", r), "kernel %s leaves out %s" % (info["kernel"], r), UserWarning)
            return opt
        except symbo.InvalidInput as e:
            # symbo speaks of coordinates; a study's user knows parameters.
            def name(m):
                i = int(m.group(1))
                return "parameter %r (model coordinate %d)" % (layout.names[i], i) if i < len(layout.names) else m.group(0)
            narrow = re.search(r"coordinate (\d+)'s range .* is narrower than", str(e))
            c = layout.coords[int(narrow.group(1))] if narrow and int(narrow.group(1)) < layout.d else None
            if c is not None and c.dist.log:
                # The model coordinate is the logarithm the sampler took:
                # advice about it would not be the user's to follow.
                low, high = c.dist.low, c.dist.high
                msg = ("parameter %r: log=True on [%r, %r] leaves its logarithm a range narrower than %g of its "
                       "magnitude, too few floating-point numbers to search; over so narrow a range a log scale is "
                       "the linear one: drop log=True" % (c.name, low, high, _MIN_RELATIVE_WIDTH))
                if high - low < _MIN_RELATIVE_WIDTH * max(abs(low), abs(high)) and not (c.free and c.integer):
                    # Near 1 (|log x| ≲ 1) the range itself is as narrow:
                    # without log=True it is refused too — unless it is an
                    # integer the group leaves alone, which is then
                    # searched as its offset from low (see _Coord).
                    msg += (", and search the offset from %r (on [0, %r]), the range itself being narrower than %g "
                            "of its magnitude too" % (low, high - low, _MIN_RELATIVE_WIDTH))
                raise symbo.InvalidInput(msg) from e
            if c is not None and c.kind == "grid":
                # A grid far from 0 for its width that the group acts on
                # (a free one is searched as its offset, see _Coord): the
                # library's advice, to subtract its relaxation's lower
                # end (low - step/2), is no integer; the origin to
                # subtract is the user's choice, as the group must stay a
                # symmetry of the offsets.
                low, high, step = c.dist.low, c.dist.high, c.dist.step
                if c.integer:
                    steps = ", step=%d" % step if step != 1 else ""
                    call = "trial.suggest_int(%r, 0, %d%s)" % (c.name, high - low, steps)
                else:
                    call = "trial.suggest_float(%r, 0.0, %r, step=%r)" % (c.name, high - low, step)
                msg = ("parameter %r: its values [%r, %r] (step %r) lie too far from 0 for their range (narrower "
                       "than %g of its magnitude), too few floating-point numbers for symbo to search, and group %r "
                       "acts on it: suggest its offset from an origin instead and add the origin back in the "
                       "objective — e.g. %s + %r — choosing an origin about which the group is a symmetry of the "
                       "offsets (for a sign flip, the centre of the range)"
                       % (c.name, low, high, step, _MIN_RELATIVE_WIDTH, self._group, call, low))
                raise symbo.InvalidInput(msg) from e
            if str(e).startswith("invalid group") and re.search(r"\bd = \d", str(e)):
                # A dimension the group rules out: d is the number of
                # parameters the group acts on, which the user did not
                # count (a categorical among them, say).
                raise symbo.InvalidInput(
                    "SymboSampler: %s: the group acts on %d numeric parameter(s), %s (categorical, conditional and "
                    "one-valued parameters are not modelled); name the ones it acts on, in its order, with "
                    "params=[...]" % (e, layout.k, ", ".join(layout.names[:layout.k]))) from e
            msg = re.sub(r"coordinate (\d+)", name, str(e))
            if msg == str(e):
                raise
            raise symbo.InvalidInput(msg) from e

    # ------------------------------------------------------------ helpers

    def _check_single_objective(self, study):
        if len(study.directions) > 1:
            raise ValueError(
                "SymboSampler optimizes a single objective, and this study has %d (directions %s): symbo models "
                "one value per point. Use a multi-objective sampler (e.g. optuna.samplers.NSGAIISampler) for it."
                % (len(study.directions), ", ".join(d.name.lower() for d in study.directions)))

    @staticmethod
    def _suggested(study):
        """The names of the parameters the study's COMPLETE trials suggest."""
        names = set()
        for t in _study_trials(study, states=(TrialState.COMPLETE,)):
            names.update(t.distributions)
        return names

    def _intersection(self, study):
        """The intersection of the distributions of the COMPLETE trials
        that suggested any parameter (Optuna's IntersectionSearchSpace
        but for those: a trial that suggested none, a cached or skipped
        configuration, tells nothing about the space, and once made it
        empty for good, every later trial the fallback's)."""
        space = None
        for t in _study_trials(study, states=(TrialState.COMPLETE,)):
            if not t.distributions:
                continue
            if space is None:
                space = dict(t.distributions)
            else:
                space = {n: d for n, d in space.items() if t.distributions.get(n) == d}
        return space or {}

    @staticmethod
    def _entropy(seed, salt, number, name):
        e = [seed % (1 << 64), number, zlib.crc32(name.encode())]
        return np.random.SeedSequence(e if salt is None else e + [salt])

    def _fallback(self, study, trial, name, dist):
        sampler = self._independent
        if sampler is None:
            with self._lock:
                seed, salt = self._seed, self._salt
            state = self._entropy(seed, salt, trial.number, name).generate_state(1)[0]
            sampler = optuna.samplers.RandomSampler(seed=int(state))
        return sampler.sample_independent(study, trial, name, dist)

    def _warn_once(self, name, message, category=None):
        with self._lock:
            if name in self._warned:
                return
            self._warned.add(name)
        try:
            warnings.warn("SymboSampler: " + message, category or FallbackWarning, stacklevel=3)
        except BaseException:
            # A filter made it an error: an error every time, as the
            # filter asks, not once and then silence.
            with self._lock:
                self._warned.discard(name)
            raise

    def _warn_categorical(self, name):
        self._warn_once(name, "categorical parameter %r is sampled by the fallback (%s), not by symbo, which models "
                        "numeric parameters" % (name, self._fallback_name()))

    def _fallback_name(self):
        return "uniform" if self._independent is None else type(self._independent).__name__
