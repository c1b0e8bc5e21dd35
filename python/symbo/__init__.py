"""symbo: symmetry-aware Bayesian optimization (Python bindings).

A thin ctypes layer over symbo's C ABI (``libsymbo``, built into this
package by ``make python``): kernel matrices of the invariant kernels
(:func:`gram`) and an ask/tell optimizer (:class:`Optimizer`, a handle on
Go's ``bo.Optimizer``) whose next points are a function of its settings,
seed, history, pending and failed points. :mod:`symbo.optuna` adds an
Optuna sampler.

An ``auto`` or ``portfolio`` kernel leaves out a candidate too costly over
the group (``avg`` with a Matérn base over hyperoctahedral(3), say); the
:class:`Optimizer` warns of each (``UserWarning``) and
:meth:`Optimizer.info` lists them, with the reasons.

A process forked after ``import symbo`` (``os.fork``, multiprocessing's
``fork`` start method) cannot use it: Go's runtime, which runs the
library, does not survive fork, and every call there raises
:class:`InternalError`; use the ``spawn`` start method (``forkserver``
forks its children from a server that imports ``__main__``, so it is no
way out when the main module imports symbo), or import symbo in the
children only, never in the process that forks.

Errors raise :class:`SymboError` subclasses carrying the library's message:
:class:`InvalidInput` (a ``ValueError``) for bad settings or data,
:class:`SizeError` (a ``MemoryError``) for requests over the memory budget,
and :class:`InternalError` (a ``RuntimeError``) otherwise. The message is
the library's whole; where it names a Go or CLI call with a Python
counterpart (``tell`` of a non-finite value: Go's ``Fail``, ``perf suggest
--failed``), the Python call is added after it.
"""

from collections.abc import Iterable
import ctypes
import json
import math
import numbers
import operator
import os
import re
import struct
import threading
import warnings

import numpy as np

__all__ = ["gram", "Optimizer", "SymboError", "InvalidInput", "SizeError", "InternalError", "version", "ABI_VERSION"]

#: The C ABI version these bindings speak (SYMBO_ABI_VERSION of symbo.h).
ABI_VERSION = 7


class SymboError(Exception):
    """A failure reported by libsymbo, with its message."""


class InvalidInput(SymboError, ValueError):
    """Bad settings or data (SYMBO_EINVAL)."""


class SizeError(SymboError, MemoryError):
    """An output too small or a request over the memory budget (SYMBO_ESIZE)."""


class InternalError(SymboError, RuntimeError):
    """A failure that is not the input's (SYMBO_EINTERNAL)."""


def _load():
    # Absolute: ctypes looks a name without a slash up in the loader's
    # search path, not in the working directory where it was found.
    path = os.path.abspath(os.environ.get("SYMBO_LIB") or os.path.join(os.path.dirname(__file__), "libsymbo.so"))
    if not os.path.exists(path):
        raise ImportError(
            "symbo: %s not found; build it with 'make python' from the repository root "
            "(go build -buildmode=c-shared -o python/symbo/libsymbo.so ./capi), or set SYMBO_LIB" % path
        )
    # The ABI version first: a library of another version may lack a
    # function bound below (AttributeError "undefined symbol"), and a
    # file that is no libsymbo raised OSError or AttributeError.
    try:
        lib = ctypes.CDLL(path)
        lib.symbo_abi_version.restype = ctypes.c_int
    except (OSError, AttributeError) as e:
        raise ImportError("symbo: %s is not a libsymbo (%s); build it with 'make python' from the repository root, "
                          "or set SYMBO_LIB" % (path, e)) from None
    if lib.symbo_abi_version() != ABI_VERSION:
        raise ImportError("symbo: %s speaks ABI %d, these bindings %d" % (path, lib.symbo_abi_version(), ABI_VERSION))
    dp = ctypes.POINTER(ctypes.c_double)
    i64 = ctypes.c_int64
    lib.symbo_version.restype = ctypes.c_char_p
    lib.symbo_last_error.restype = ctypes.c_size_t
    lib.symbo_last_error.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.symbo_cross.restype = ctypes.c_int
    lib.symbo_cross.argtypes = [ctypes.c_char_p, dp, i64, dp, i64, i64, dp, i64, dp, i64]
    lib.symbo_suggest.restype = ctypes.c_int
    lib.symbo_suggest.argtypes = [ctypes.c_char_p, dp, dp, i64, dp, i64, i64, i64, dp, i64]
    ip, i64p, szp = ctypes.POINTER(ctypes.c_int), ctypes.POINTER(i64), ctypes.POINTER(ctypes.c_size_t)
    for name, args in (
            ("new", [ctypes.c_char_p, i64p]),
            ("free", [i64]),
            ("dim", [i64, i64p]),
            ("ask_batch", [i64, i64, dp, i64]),
            ("suggest", [i64, i64, dp, i64]),
            ("tell", [i64, dp, i64, ctypes.c_double]),
            ("fail", [i64, dp, i64]),
            ("add_pending", [i64, dp, i64]),
            ("cancel", [i64, dp, i64, ip]),
            ("near", [i64, dp, i64, dp, i64, ip]),
            ("counts", [i64, i64p, i64p, i64p]),
            ("pending", [i64, dp, i64, i64p]),
            ("failed", [i64, dp, i64, i64p]),
            ("best", [i64, dp, i64, dp, ip]),
            ("history", [i64, ctypes.c_char_p, ctypes.c_size_t, szp]),
            ("info", [i64, ctypes.c_char_p, ctypes.c_size_t, szp]),
            ("restore", [i64, ctypes.c_char_p])):
        f = getattr(lib, "symbo_optimizer_" + name)
        f.restype, f.argtypes = ctypes.c_int, args
    return lib


_lib = _load()


class _ForkedLib:
    """libsymbo as a child forked after import sees it: Go's runtime does
    not survive fork (the child has none of its threads), and a call into
    it could hang for good, so every call raises InternalError instead."""

    def __getattr__(self, name):
        def refuse(*args):
            raise InternalError("symbo cannot be used in a process forked after it was imported: Go's runtime "
                                "does not survive fork (a call could hang). Start the child with multiprocessing's "
                                "'spawn' method, or import symbo in the children only")
        return refuse


def _after_fork_in_child():
    global _lib
    _lib = _ForkedLib()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)

# The largest batch the library asks at once (SYMBO_MAX_BATCH of symbo.h).
_MAX_BATCH = 1024

# The largest dimension of an optimizer (SYMBO_MAX_DIM of symbo.h): a box
# past it is refused before its settings are written (a box of 10**7
# coordinates took 10 s and a GB of lists and JSON to be refused).
_MAX_DIM = 1000


def version():
    """The library's version string."""
    return _lib.symbo_version().decode()


# Handles of Optimizers collected while their thread held an unread error
# message: Optimizer.__del__ leaves them here for the next _check to free.
# (The collector runs at any allocation, _check's own included, and a free
# that succeeds clears the thread's last error: freed at once, a collected
# handle erased the message of the failure being reported.)
_orphans = []


def _free_orphans():
    while _orphans:
        try:
            h = _orphans.pop()
        except IndexError:  # another thread took the last one
            return
        _lib.symbo_optimizer_free(h)


def _check(code):
    if code == 0:
        _free_orphans()
        return
    n = _lib.symbo_last_error(None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _lib.symbo_last_error(buf, n + 1)
    msg = buf.value.decode("utf-8", "replace")
    _free_orphans()
    raise {-1: InvalidInput, -2: SizeError}.get(code, InternalError)(msg)


def _floats(a, name):
    """a as a C-contiguous float64 array (copied only when needed); what
    NumPy cannot read as real numbers (ragged lists) or would read as
    something else is InvalidInput: strings and bytes (NumPy parses
    "0.5"), booleans (NumPy reads True as 1.0, and a list mixing them with
    numbers as numbers), dates and durations (NumPy counts days or
    seconds), complex values (NumPy drops the imaginary part), and a
    masked array with a masked entry (NumPy's asarray drops the mask and
    reads the value under it)."""
    if isinstance(a, np.ma.MaskedArray) and np.ma.is_masked(a):
        raise InvalidInput("%s must be an array of numbers: it is a masked array with %d masked entries, whose "
                           "values are not the data; fill them (a.filled(...)) or leave the point out"
                           % (name, int(np.ma.count_masked(a))))
    try:
        arr = np.asarray(a)
        kind = arr.dtype.kind
        if kind == "O" or (kind in "fiu" and not isinstance(a, np.ndarray)):
            # An object array, or a sequence NumPy read as numbers, may
            # hold a string or a bool among them: look at each element.
            for v in (arr if kind == "O" else np.asarray(a, dtype=object)).flat:
                if isinstance(v, (str, bytes)):
                    kind = "U"
                    break
                if isinstance(v, (bool, np.bool_)):
                    kind = "b"
                    break
        if kind not in "bcUSMm":
            arr = np.ascontiguousarray(arr, dtype=np.float64)
    except (TypeError, ValueError, OverflowError) as e:
        raise InvalidInput("%s must be an array of numbers: %s" % (name, e)) from None
    if kind in "bcUSMm":
        if kind == "c":
            raise InvalidInput("%s must be an array of real numbers, got complex values" % name)
        raise InvalidInput("%s must be an array of numbers, got %s"
                           % (name, {"M": "dates", "m": "durations", "b": "booleans"}.get(kind, "strings")))
    return arr


def _matrix(a, name, cols=None):
    """A C-contiguous float64 2-d array (copied only when needed)."""
    a = _floats(a, name)
    if a.ndim == 1 and cols is not None:
        if a.size % cols:
            raise InvalidInput("%s has %d values, not rows of %d" % (name, a.size, cols))
        a = a.reshape(-1, cols) if a.size else a.reshape(0, cols)
    if a.ndim != 2:
        raise InvalidInput("%s must be a 2-d array (one point per row), got shape %s" % (name, a.shape))
    if cols is not None and a.shape[1] != cols:
        raise InvalidInput("%s has %d columns, want %d" % (name, a.shape[1], cols))
    if a.shape[0] == 0:
        raise InvalidInput("%s has no rows" % name)
    return a


def _ptr(a):
    if a is None or a.size == 0:
        return None
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def _json(settings):
    """The settings as JSON; a float that JSON cannot carry (NaN, ±inf) is
    InvalidInput naming its field (json.dumps would write NaN, which no
    JSON parser reads), and so is a value json.dumps cannot write at all
    (bytes, a set, a NumPy integer: it raised TypeError)."""
    def check(v, name):
        if isinstance(v, float) and not math.isfinite(v):
            raise InvalidInput("%s = %r is not a finite number" % (name, v))
        if isinstance(v, dict):
            for k, w in v.items():
                check(w, k)
        elif isinstance(v, (list, tuple)):
            for w in v:
                check(w, name)
        elif not (v is None or isinstance(v, (str, int, float))):
            raise InvalidInput("%s must be a string or a number, got %r" % (name, v))
    check(settings, "settings")
    return json.dumps(settings, allow_nan=False).encode()


def _index(v, name):
    """v as a Python int: an int or a NumPy integer; a bool (True is not
    the count 1) or anything else is InvalidInput."""
    if isinstance(v, (bool, np.bool_)):
        raise InvalidInput("%s must be an integer, got %r" % (name, v))
    try:
        return operator.index(v)
    except TypeError:
        raise InvalidInput("%s must be an integer, got %r" % (name, v)) from None


def _int64(v, name):
    """v as a Python int within int64 (ctypes would wrap a larger one)."""
    v = _index(v, name)
    if not -2**63 <= v < 2**63:
        raise InvalidInput("%s = %d is out of range" % (name, v))
    return v


def _bool(v, name):
    """v as a bool: True, False or a NumPy bool; anything else ("false",
    1, None) is InvalidInput rather than Python's truth value."""
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    raise InvalidInput("%s must be True or False, got %r" % (name, v))


def _real(v, name):
    """v as a float (a bool or a non-number is InvalidInput; the library
    checks the range)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        raise InvalidInput("%s must be a number, got %r" % (name, v))
    return float(v)


def _group(group, d, block=None, matrices=None, box=None, coords=None):
    g = {"group": group, "d": _index(d, "d")}
    if coords is not None:
        if isinstance(coords, (str, bytes)) or not isinstance(coords, Iterable):
            raise InvalidInput("coords must be a sequence of integers, got %r" % (coords,))
        g["coords"] = [_index(c, "coords") for c in coords]
    if block is not None:
        g["block"] = _index(block, "block")
    if matrices is not None:
        # Absolute: a copy or an unpickled Optimizer reads the same file
        # whatever the working directory is then.
        try:
            g["matrices"] = os.fsdecode(os.path.abspath(os.fspath(matrices)))
        except TypeError:
            raise InvalidInput("matrices must be a path, got %r" % (matrices,)) from None
        try:
            g["matrices"].encode()
        except UnicodeEncodeError:
            # JSON carries text: the library would open another name
            # (U+FFFD for each undecodable byte) and find no such file.
            raise InvalidInput("matrices path %r is not UTF-8, which the library's settings need; rename the "
                               "file or link to it from a UTF-8 path" % (g["matrices"],)) from None
    if box is not None:
        # A pair (lo, hi): unpacked bare, a 5 or three rows raised
        # TypeError or ValueError ("too many values to unpack"), and a
        # string or a dict of two unpacked to its characters or keys.
        try:
            if isinstance(box, (str, bytes, dict)):
                raise TypeError
            lo, hi = box
        except (TypeError, ValueError):
            raise InvalidInput("box must be a pair (lo, hi) of arrays of numbers, got %r" % (box,)) from None
        g["box"] = [np.atleast_1d(_floats(lo, "lo")).tolist(), np.atleast_1d(_floats(hi, "hi")).tolist()]
    return g


def gram(X, Y=None, *, group, base, lengthscale, variance=1.0, kernel, design=None, method="auto",
         block=None, matrices=None, box=None, coords=None):
    """Kernel matrix K(X, Y) of an invariant kernel.

    Parameters
    ----------
    X : array_like, shape (n, d)
        Points, one per row.
    Y : array_like, shape (m, d), optional
        Points; ``None`` means ``X`` (the symmetric assembly: an exactly
        symmetric Gram matrix).
    group : str
        ``none``, ``signflip``, ``permutation``, ``hyperoctahedral``,
        ``blockperm`` (with ``block``), ``pairedperm``, ``cyclic``,
        ``rotation2d``, ``scaling`` or ``scalingdir`` (with ``box``) or
        ``matrices`` (with ``matrices``, a JSON file; a relative path is
        taken from the working directory of the call that names it).
    coords : sequence of int, optional
        Make the group act on these coordinates only (identity on the
        others): the group is built for dimension ``len(coords)``, its
        coordinate j being ``coords[j]`` of the d-dimensional points, e.g.
        ``group="permutation", coords=[0, 1, 2, 3]`` for four identical
        widths among six parameters.
    base : str
        ``rbf``, ``matern12``, ``matern32`` or ``matern52``.
    lengthscale, variance : float
        Base kernel hyperparameters.
    kernel : str
        ``base``, ``nystrom`` (the base kernel Nyström-extended from
        ``design``), ``avg``, ``avgnorm``, ``max`` or ``plus``.
    design : array_like, shape (nd, d), optional
        Design set of ``plus`` and ``nystrom`` (default: ``X``); a design
        for another kernel is InvalidInput.
    method : str
        ``auto``, ``enumerate`` or ``closed``.

    Returns
    -------
    numpy.ndarray, shape (n, m)
        The same bits as the Go API.
    """
    X = _matrix(X, "X")
    n, d = X.shape
    Yc = None if Y is None else _matrix(Y, "Y", d)
    m = n if Yc is None else Yc.shape[0]
    D = None if design is None else _matrix(design, "design", d)
    spec = _group(group, d, block, matrices, box, coords)
    spec.update(base=base, lengthscale=_real(lengthscale, "lengthscale"), variance=_real(variance, "variance"),
                kernel=kernel, method=method)
    try:
        out = np.empty((n, m), dtype=np.float64)
    except MemoryError:  # NumPy's own, naming no budget: a SymboError
        raise SizeError("gram: a %d×%d kernel matrix needs %.3g GiB, which could not be allocated; the library's "
                        "memory budget (mem_budget, SYMBO_MEMORY_BUDGET) bounds it too" % (n, m, 8 * n * m / 2**30)) from None
    _check(_lib.symbo_cross(_json(spec), _ptr(X), n, _ptr(Yc), m, d,
                            _ptr(D), 0 if D is None else D.shape[0], _ptr(out), out.size))
    return out


class Optimizer:
    """Ask/tell Bayesian optimizer over the box ``[lo, hi]``.

    A handle on Go's ``bo.Optimizer`` kept by libsymbo: the history (told
    points, in order), the pending points (asked, not yet told) and the
    failed points live there, and every method is one library call. The
    next points are a function of the settings, the seed, the history, the
    pending and the failed points: the same bits as ``perf suggest`` and
    the Go ``bo.Optimizer`` given the same study.

    Thread safety: an Optimizer may be shared between threads. The library
    runs the calls on one optimizer one at a time (a lock per handle, held
    for the whole call, with the GIL released), so nothing told is lost and
    points asked concurrently are all pending, on distinct orbits; a slow
    ``ask`` makes the others wait. Use :meth:`close` (or ``with``) to free
    the handle; it is also freed when the object is collected (by the
    module's next library call, if the collecting thread holds an error
    message not yet read: a free would erase it). A closed
    optimizer raises :class:`InvalidInput`. A copy (``copy.copy``,
    ``copy.deepcopy``) or a pickle holds a handle of its own, restored from
    :meth:`history_json` with the same settings: it proposes what the
    original would, and closing one leaves the other open; it is of the
    original's class (a subclass's), with the attributes set on it.

    Parameters
    ----------
    lo, hi : array_like, shape (d,)
        The box.
    group : str
        The group the objective is invariant under (see :func:`gram`);
        ``block``/``matrices``/``coords`` as there (``coords``: the group
        acts on those coordinates only).
    kernel : str, optional
        None (the default): the library's recommended configuration
        (Go's ``bo.Recommended``, whatever the library's version makes
        it; today ``portfolio:nystrom:soft+plus``: each of ``nystrom``, ``soft`` and
        ``plus`` proposes its own acquisition maximizer; the proposal
        with the highest posterior mean under the candidate the evidence
        picks, soft and plus favoured, is returned: the lowest
        geometric-mean regret ratio on the users' suite's tuning half,
        lab/results/suite/), ``portfolio`` (nystrom, avg and plus),
        ``base``, ``nystrom``, ``avg``,
        ``avgnorm``, ``max``, ``plus``, ``soft`` (0.8·``plus`` +
        0.2·``nystrom``: the group as a soft constraint the data can
        overrule) or ``auto`` (at every fit, the one
        of ``nystrom``, ``avg`` and ``plus`` whose fitted log marginal
        likelihood is highest: it decides how to use the group and drops
        it when the data contradict it). ``auto:a+b+…`` and
        ``portfolio:a+b+…`` name other candidates (the last favoured
        by the prior odds; ``portfolio:a+b:c+d`` favours c and d), e.g.
        ``portfolio:nystrom+avg:soft+plus`` (with avg and its fixed-point
        probe) when the optimum is known to lie on the group's fixed
        points. Both deciding
        kernels leave ``avg`` out where it would cost a step too much:
        where its average is enumerated over more than 16 group elements
        (a Matérn base over permutation(4) or a larger group), is a
        permanent of order 7 or more, or takes a quadrature (the scaling
        groups); a ``portfolio`` step costs a few ``plus`` steps (the
        measured ratios are in docs/performance.md). A candidate left out
        is never silent: the constructor warns (``UserWarning``, one per
        candidate, with the reason) and :meth:`info` lists it. Named
        alone, ``avg`` and ``avgnorm`` raise :class:`InvalidInput` where
        their average would be enumerated over more than 8192 group
        elements (Go's ``bo.AvgEnumerateLimit``: a Matérn base over
        permutation(8), hyperoctahedral(6) or a larger group; |G|
        base-kernel evaluations per pair of points).
    base : str
        Base kernel shape (default ``rbf``).
    seed : int
    minimize : bool
        Minimize the told values (default: maximize).
    init : int
        Initial design size (default 5).
    acq, beta, fit, prior : str, optional
        As in ``perf suggest``; ``prior`` defaults to ``botorch``
        (BoTorch's classic priors; ``none`` is the paper's protocol).
    beta_scale : float, optional
        Multiplies UCB's β (``perf suggest --beta-scale``): None (default)
        means the library's recommended, 0.25 — each step explores less
        than the paper's β_t = 0.5·d·log t (lab/results/suite/pilots.md);
        1 is the paper's β; anything outside (0, 1e6] is InvalidInput.
    mem_budget : int or str, optional
        The largest memory one request may allocate: a number of bytes,
        or a size such as ``"64GiB"`` (B, KiB, MiB, GiB or TiB). None
        (default) means ``$SYMBO_MEMORY_BUDGET``, else 8 GiB. A request
        over it raises :class:`SizeError` before allocating.
    liar : str, optional
        What the constant liar tells for pending and failed points:
        ``mean`` of the observed values (default) or ``worst``.
    mean : str, optional
        The GP's prior mean: ``constant`` (default: a constant fitted by
        maximum likelihood; with ``prior="botorch"`` the base kernel
        matches BoTorch's SingleTaskGP, lab/results/baseline.md) or
        ``sample`` (the sample mean, the paper's protocol). The defaults
        of ``prior`` and ``mean`` were chosen by measurement
        (lab/results/defaults.md).
    landmarks : int, optional
        Landmark cap of every kernel but ``soft``, which is exact at any n
        (``perf suggest --landmarks``): the
        GP is exact up to this many observations (for ``plus`` and
        ``nystrom`` every observation is in the design), a GP on that many
        landmarks above; None (default) or 0 means 256, a negative value
        never. A cap above 0 with ``kernel="soft"``, which has no landmark
        form, raises InvalidInput rather than being ignored (a deciding
        kernel naming soft takes it: soft sits out above the cap).
    landmark_fit : str, optional
        How a GP with landmarks is fitted (``perf suggest
        --landmark-fit``): ``default``, ``subset``, ``likelihood`` or
        ``full`` (see ``perf bo -h``).
    candidate_fit : str, optional
        How an ``auto`` or ``portfolio`` kernel's candidates fit their
        hyperparameters (``perf suggest --candidate-fit``): ``anchored``
        (default: the last candidate, plus, first; the others search only
        around its lengthscale, about half their likelihood evaluations,
        measured level with ``own`` in lab/results/soft) or ``own`` (each
        its own full search). With a single kernel (one candidate)
        ``anchored`` is InvalidInput, not ignored; ``own`` is taken.
    probe_window : int, optional
        The BO steps in which a ``portfolio`` kernel's fixed-point probe
        may fire (one naming ``avg``: the default kernel names none, so has
        no probe) (``perf suggest --probe-window``): None (default) means
        the library's recommended window, 5 (lab/results/soft, "The
        probe window"); 0 means no limit, as in Go and perf; a negative
        value is InvalidInput, and so is a window above 0 with ``auto``
        or a single kernel (0 is taken).
    hedge : int, optional
        A ``portfolio`` kernel's hedging (``perf suggest --hedge``): each
        candidate also proposes the maximizer of expected improvement
        beside UCB's, from ``hedge`` ascents, and the referee's posterior
        mean picks among every proposal. None (default) means the
        library's recommended, 1 (lab/results/suite); 0 turns hedging
        off (the portfolio before it); at most 10. Above 0 with ``auto``
        or a single kernel it is InvalidInput, not ignored (0 is taken).
    probe : str, optional
        When a ``portfolio`` kernel's fixed-point probe fires (one naming
        ``avg``; ``perf suggest --probe``): ``always``, ``earned`` (only where the
        referee's own acquisition rates the probe's point as high as the
        proposal its means picked) or ``off``; None (default) the
        library's recommended. ``earned`` with ``auto`` or a single
        kernel is InvalidInput, not ignored (``always`` and ``off`` are
        taken).
    normalize : bool, optional
        None (default): the library's recommended, true — the model fits
        and searches in coordinates normalized by maps the group commutes
        with, so that the parameters' units do not matter; False: the
        box's raw coordinates (``perf bo``'s default).
    ard : bool, optional
        None (default): the library's recommended, true — a lengthscale
        per class of coordinates the group allows (coordinates it mixes
        share one; each other coordinate has its own); False: one
        lengthscale (``perf bo``'s default).
    allow_repeats : bool, optional
        ``False`` (default): no BO step proposes a point within the
        exclusion radius — 1e-3 of the box diagonal — of an observed
        point's orbit (nor of a pending or failed one's, always); the next
        best point is taken. ``True`` lets a step return to an observed
        point, as ``perf bo`` does (``perf suggest --allow-repeats``), for
        a noisy objective that wants repeats.

    Raises
    ------
    InvalidInput
        Bad settings (checked by the library when the handle is created).

    Warns
    -----
    UserWarning
        ``"symbo: kernel K leaves out C: <reason>"``, once per candidate
        an ``auto`` or ``portfolio`` kernel left out as too costly over
        the group (see ``kernel``; :meth:`info`'s ``left_out``). A copy or
        a pickle does not warn again.
    """

    def __init__(self, lo, hi, *, group, kernel=None, base="rbf", seed=0, minimize=False, init=5,
                 acq=None, beta=None, fit=None, prior=None, block=None, matrices=None, landmarks=None, coords=None,
                 liar=None, mean=None, landmark_fit=None, candidate_fit=None, probe_window=None, allow_repeats=False, probe=None, hedge=None,
                 normalize=None, ard=None, beta_scale=None, mem_budget=None):
        self._h = None
        self._close_lock = threading.Lock()
        lo = np.atleast_1d(_floats(lo, "lo"))
        hi = np.atleast_1d(_floats(hi, "hi"))
        if lo.ndim != 1 or lo.shape != hi.shape or lo.size == 0:
            raise InvalidInput("lo and hi must be 1-d arrays of one length")
        if lo.size > _MAX_DIM:
            raise InvalidInput("d = %d (the box's length), want 1 ≤ d ≤ %d for an optimizer" % (lo.size, _MAX_DIM))
        s = _group(group, lo.size, block, matrices, (lo, hi), coords)
        s.update(base=base, seed=_index(seed, "seed"), minimize=_bool(minimize, "minimize"), init=_int64(init, "init"))
        for k, v in (("kernel", kernel), ("acq", acq), ("beta", beta), ("fit", fit), ("prior", prior), ("liar", liar), ("mean", mean),
                     ("landmark_fit", landmark_fit), ("candidate_fit", candidate_fit), ("probe", probe)):
            if v is not None:
                s[k] = v
        if landmarks is not None:
            s["landmarks"] = _int64(landmarks, "landmarks")
        if probe_window is not None:
            s["probe_window"] = _int64(probe_window, "probe_window")
        if hedge is not None:
            s["hedge"] = _int64(hedge, "hedge")
        if beta_scale is not None:
            s["beta_scale"] = _real(beta_scale, "beta_scale")
        if _bool(allow_repeats, "allow_repeats"):
            s["allow_repeats"] = True
        if normalize is not None:
            s["normalize"] = _bool(normalize, "normalize")
        if ard is not None:
            s["ard"] = _bool(ard, "ard")
        if mem_budget is not None:
            s["mem_budget"] = _mem_budget(mem_budget)
        self._open(_json(s), lo.size)
        if not getattr(_quiet, "on", False):
            for w in _left_out_warnings(self.info()):
                warnings.warn(w, UserWarning, stacklevel=2)

    def _open(self, settings, d):
        # tell's record of a tell interrupted after the library recorded
        # it (see tell), and the lock that keeps other threads' tells out
        # of its count.
        self._tell_lock = threading.Lock()
        self._told = None
        h = ctypes.c_int64()  # 0 is never an optimizer
        try:
            _check(_lib.symbo_optimizer_new(settings, ctypes.byref(h)))
            self._h = h.value
        except BaseException:
            # A KeyboardInterrupt raised as the library call returns (or
            # before the id is kept): the handle it made is freed, not
            # leaked for the life of the process.
            if h.value and self._h != h.value:
                _lib.symbo_optimizer_free(h.value)
            raise
        self._settings = settings
        #: The dimension d.
        self.d = d

    # -- copies -----------------------------------------------------------

    def __reduce__(self):
        # A copy (copy.copy, copy.deepcopy) or a pickle holds a handle of
        # its own: the same settings, restored from history_json(); of
        # the same class (a subclass's), with the attributes set on it.
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("_h", "_close_lock", "_tell_lock", "_told", "_settings", "d")}
        return (_restored, (self._settings, self.d, self.history_json(), type(self)), state or None)

    # -- lifetime ---------------------------------------------------------

    def close(self):
        """Free the library's optimizer; later calls raise InvalidInput.
        Closing twice is harmless."""
        with self._close_lock:
            h, self._h = self._h, None
        if h is not None:
            _check(_lib.symbo_optimizer_free(h))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            h = self.__dict__.get("_h")
            if h is not None and _lib is not None:
                if _lib.symbo_last_error(None, 0):
                    # This thread may be between a failing call and
                    # reading its message, which a free would erase: the
                    # next _check frees the handle.
                    _orphans.append(h)
                else:
                    _lib.symbo_optimizer_free(h)
        except Exception:  # interpreter shutdown: nothing left to free
            pass

    def _handle(self):
        h = self._h
        if h is None:
            raise InvalidInput("the optimizer is closed")
        return h

    def _x(self, x):
        """x as one point: a 1-d array, or one row (1 × d) such as a
        slice of :meth:`ask_batch`'s result (a number when d = 1). Any
        other shape is InvalidInput: a 2 × 2 array is not a point of
        four coordinates, nor a column of d a row."""
        x = _floats(x, "x")
        if x.ndim == 2 and x.shape[0] == 1:
            x = x[0]
        elif x.ndim > 1:
            raise InvalidInput("x must be one point of d = %d coordinates (shape (d,) or (1, d)), got shape %s"
                               % (self.d, x.shape))
        x = x.ravel()
        return x, _ptr(x), x.size

    def _points(self, q, fn, asked=False):
        q = _int64(q, "q")
        # No buffer for a q the library refuses (it says why): 2**40 rows
        # are not allocated first.
        ok = 1 <= q <= _MAX_BATCH
        # NaN until the library writes the points, which it does only
        # when the call succeeds.
        out = np.full((q if ok else 0, self.d), np.nan)
        h = self._handle()
        try:
            _check(fn(h, q, _ptr(out) if ok else None, out.size))
        except BaseException:
            # A KeyboardInterrupt that arrives during a long ask is raised
            # as the call returns: the points it recorded as pending reach
            # no caller. They are cancelled, so that the ask records
            # nothing (a phantom pending point was never told, and its
            # orbit never proposed again).
            if asked and out.size and not np.isnan(out).any():
                for row in out:
                    _lib.symbo_optimizer_cancel(h, _ptr(row), self.d, None)
            raise
        return out

    def _matrix_of(self, fn):
        while True:
            rows = ctypes.c_int64()
            _check(fn(self._handle(), None, 0, ctypes.byref(rows)))
            out = np.empty((rows.value, self.d), dtype=np.float64)
            if rows.value == 0:
                return out
            code = fn(self._handle(), _ptr(out), out.size, ctypes.byref(rows))
            if code == -2:  # grew meanwhile (another thread): again
                continue
            _check(code)
            return out[:rows.value]

    # -- ask / tell -------------------------------------------------------

    def ask(self):
        """The next point (d,), recorded as pending."""
        return self.ask_batch(1)[0]

    def ask_batch(self, q):
        """``q`` points (q × d, 1 ≤ q ≤ 1024) to evaluate in parallel,
        recorded as pending; with an invariant kernel no two share an
        orbit. All or nothing: on an error none is recorded, nor on a
        ``KeyboardInterrupt`` raised as the call returns. Where the search
        space runs out after k of the q points, InvalidInput says so
        ("search space exhausted: …; only k of the q = Q points could be
        proposed (…): q = k returns those")."""
        return self._points(q, _lib.symbo_optimizer_ask_batch, asked=True)

    def suggest(self, q=1):
        """The next ``q`` points (q × d) — what :meth:`ask_batch` would
        return now — without recording them."""
        return self._points(q, _lib.symbo_optimizer_suggest)

    def tell(self, x, y):
        """Record the value ``y`` (finite) at ``x`` (a point of the box),
        which stops being pending or failed — bit for bit: a rounded or
        float32 copy of an asked point is another point, and the asked
        one stays pending (see :attr:`pending`). A ``nan`` or infinite ``y`` is
        InvalidInput: report an evaluation that gave no usable value with
        :meth:`fail`.

        A ``KeyboardInterrupt`` (Ctrl-C) that arrives as the library
        returns, after it recorded the value, is raised with a note saying
        so; the next ``tell`` of the same ``x`` and ``y`` (bit for bit) on
        this optimizer, the retry of the interrupted one, records nothing
        (the value is not told twice). Any other ``tell`` forgets it."""
        if isinstance(y, np.ma.MaskedArray) and np.ma.is_masked(y):
            # np.ma.masked, or a masked one-element array: its item() is
            # the value under the mask (0.0 for np.ma.masked), not data.
            raise InvalidInput("y must be a real number, got a masked value (np.ma.masked), whose value is not the "
                               "data; report an evaluation that gave no usable value with fail(x)")
        if isinstance(y, np.ndarray):
            # NumPy's float() reads a one-element array, of booleans and
            # strings too: one of numbers is its element, checked below.
            if y.size != 1 or y.dtype.kind not in "fiuO":
                raise InvalidInput("y must be a real number, got %.200r" % (y,))
            y = y.item()
        if isinstance(y, (bool, np.bool_, complex, np.complexfloating, str, bytes)):
            raise InvalidInput("y must be a real number, got %.200r" % (y,))
        try:
            y = float(y)
        except OverflowError:
            # An int past float64's range: its 400 digits say less than this.
            raise InvalidInput("y must be a real number within float64's range (|y| < 1.8e308), got an int of "
                               "%d digits" % len(str(abs(int(y))))) from None
        except (TypeError, ValueError):
            raise InvalidInput("y must be a real number, got %.200r" % (y,)) from None
        x, p, n = self._x(x)
        with self._tell_lock:
            told, self._told = self._told, None
            if told is not None and told == (x.tobytes(), struct.pack("<d", y)):
                return  # recorded by the interrupted call
            h = self._handle()
            count = ctypes.c_int64()
            _check(_lib.symbo_optimizer_counts(h, ctypes.byref(count), None, None))
            try:
                self._tell(h, x, p, n, y)
            except BaseException as e:
                if not isinstance(e, SymboError):
                    # Interrupted: the library may have recorded the
                    # value (the observations count says, this lock
                    # keeping this object's other tells out).
                    after = ctypes.c_int64(-1)
                    _lib.symbo_optimizer_counts(h, ctypes.byref(after), None, None)
                    if after.value == count.value + 1:
                        self._told = (x.tobytes(), struct.pack("<d", y))
                        if hasattr(e, "add_note"):
                            e.add_note("symbo: tell(x, %r) was recorded before the interrupt; telling it again "
                                       "records nothing" % y)
                raise

    def _tell(self, h, x, p, n, y):
        try:
            _check(_lib.symbo_optimizer_tell(h, p, n, y))
        except InvalidInput as e:
            # libsymbo's message names its own ways to report a failed
            # evaluation (Go's Fail, perf suggest --failed): kept whole,
            # with Python's added.
            if math.isfinite(y) or not str(e).startswith("invalid observation"):
                raise
            raise InvalidInput("%s (in Python: optimizer.fail(x))" % e) from None

    def fail(self, x):
        """Record that the evaluation of ``x`` failed (it raised, timed out
        or gave no usable value): ``x`` stops being pending (bit for bit,
        as in :meth:`tell`), and neither it nor its orbit is proposed
        again."""
        x, p, n = self._x(x)
        _check(_lib.symbo_optimizer_fail(self._handle(), p, n))

    def add_pending(self, x):
        """Record ``x`` (a point of the box, or a k × d array of them, one
        per row) as pending: asked elsewhere, not yet told. A point outside
        the box raises InvalidInput and is not recorded (rows before it
        are)."""
        x = _floats(x, "x")
        if x.ndim == 2 and x.shape[1] != self.d:
            raise InvalidInput("x has %d columns, want d = %d" % (x.shape[1], self.d))
        for row in (x if x.ndim == 2 else [x]):
            r, p, n = self._x(row)
            _check(_lib.symbo_optimizer_add_pending(self._handle(), p, n))

    def cancel(self, x):
        """Forget the pending point ``x`` (bit for bit); True if it was
        pending. Prefer :meth:`fail` when its evaluation failed: a
        cancelled point may be proposed again."""
        x, p, n = self._x(x)
        was = ctypes.c_int()
        _check(_lib.symbo_optimizer_cancel(self._handle(), p, n, ctypes.byref(was)))
        return bool(was.value)

    def near(self, x, points):
        """For each row of ``points`` (k × d, or one point of d), whether
        ``x`` lies within the exclusion radius of its orbit: the test by
        which :meth:`ask` passes over pending and failed points (and
        observed ones unless ``allow_repeats``) — 1e-3 of the box's
        diagonal in the model's coordinates, under the kernel's group. A
        boolean array (k,). For a caller that keeps points of its own; it
        does not depend on the optimizer's history."""
        x, p, n = self._x(x)
        P = _floats(points, "points")
        if P.ndim == 1:
            P = P.reshape(1, -1) if P.size else P.reshape(0, self.d)
        if P.ndim != 2 or P.shape[1] != self.d:
            raise InvalidInput("points has shape %s, want k × d = %d" % (P.shape, self.d))
        out = np.zeros(P.shape[0], dtype=np.intc)
        rows = P.shape[0]
        _check(_lib.symbo_optimizer_near(self._handle(), p, n, _ptr(P) if rows else None, rows,
                                         out.ctypes.data_as(ctypes.POINTER(ctypes.c_int)) if rows else None))
        return out.astype(bool)

    # -- state (from the library) -----------------------------------------

    @property
    def history(self):
        """(X, y): copies of the told points (n × d) and values (n,), in
        the order told."""
        # "-0" is a float's -0.0 here (json reads it as the int 0, whose
        # sign the points would lose: tell and cancel match them bit for bit).
        h = json.loads(self.history_json(), parse_int=lambda t: -0.0 if t == "-0" else int(t))
        obs = h["observations"]
        X = np.array([o["x"] for o in obs], dtype=np.float64).reshape(len(obs), self.d)
        return X, np.array([o["y"] for o in obs], dtype=np.float64)

    @property
    def pending(self):
        """The pending points (k × d), in asking order."""
        return self._matrix_of(_lib.symbo_optimizer_pending)

    @property
    def failed(self):
        """The failed points (k × d), in reporting order."""
        return self._matrix_of(_lib.symbo_optimizer_failed)

    def best(self):
        """(x, y) of the best told value (the largest, or the smallest with
        ``minimize``; the earliest on ties), or None before the first tell."""
        x = np.empty(self.d, dtype=np.float64)
        y, found = ctypes.c_double(), ctypes.c_int()
        _check(_lib.symbo_optimizer_best(self._handle(), _ptr(x), self.d, ctypes.byref(y), ctypes.byref(found)))
        return (x, y.value) if found.value else None

    def info(self):
        """What the kernel models with, as a dict (the library's
        ``symbo_optimizer_info``): ``kernel``, its name (the library's
        default when ``kernel`` was None); ``candidates``, the kernels
        that model the objective — an ``auto`` or ``portfolio`` kernel's
        candidates as kept, in its order, or ``[kernel]`` for a single
        kernel; ``left_out``, one reason per candidate ``auto`` or
        ``portfolio`` left out as too costly over the group, each
        starting with the candidate's name (``"avg: k_avg over
        hyperoctahedral(3) with matern52 would be enumerated: …"``), []
        when none was. Fixed when the optimizer is made."""
        need = ctypes.c_size_t()
        _check(_lib.symbo_optimizer_info(self._handle(), None, 0, ctypes.byref(need)))
        buf = ctypes.create_string_buffer(need.value + 1)
        _check(_lib.symbo_optimizer_info(self._handle(), buf, len(buf), ctypes.byref(need)))
        return json.loads(buf.value.decode())

    def history_json(self):
        """The whole study as JSON (Go's ``bo.History``, version 2):
        observations, pending and failed points, seed, kernel, dimension
        and direction. :meth:`restore` reads it back. A coordinate or
        value -0.0 is written ``-0.0`` (the library writes ``-0``, which
        :func:`json.loads` reads as the int 0, dropping the sign), so
        that the dict the text decodes to restores the same bits."""
        while True:
            need = ctypes.c_size_t()
            _check(_lib.symbo_optimizer_history(self._handle(), None, 0, ctypes.byref(need)))
            buf = ctypes.create_string_buffer(need.value + 1)
            code = _lib.symbo_optimizer_history(self._handle(), buf, len(buf), ctypes.byref(need))
            if code == -2:  # grew meanwhile (another thread): again
                continue
            _check(code)
            return _NEG_ZERO.sub("-0.0", buf.value.decode())

    def restore(self, history):
        """Restore a study written by :meth:`history_json` (a str or the
        dict it decodes to) into this optimizer, which must have no
        observations, pending or failed points; the seed, kernel, dimension
        and direction must match (the history records them, and a mismatch
        raises InvalidInput). The rest of the configuration — the group
        (the kernel's name does not hold it), box, ``init``, acquisition
        and other settings — is not recorded, and is the caller's to keep:
        restored into an optimizer built with the writer's arguments, it
        proposes what the optimizer that wrote the history would; under
        another group or box it restores without a word and proposes
        other points."""
        if isinstance(history, (bytearray, memoryview)):
            history = bytes(history)
        if not isinstance(history, (str, bytes)):
            try:
                history = json.dumps(history, allow_nan=False)
            except (TypeError, ValueError) as e:
                raise InvalidInput("history must be history_json()'s text or the dict it decodes to: %s" % e) from None
        if isinstance(history, str):
            try:
                history = history.encode()
            except UnicodeEncodeError as e:  # a lone surrogate
                raise InvalidInput("history is not text JSON can hold: %s" % e) from None
        if b"\0" in history:
            raise InvalidInput("history holds a NUL byte (C would read it only up to there)")
        _check(_lib.symbo_optimizer_restore(self._handle(), history))


# _quiet.on (per thread) makes Optimizer() skip its left-out warnings:
# symbo.optuna builds optimizers at every trial and warns once per sampler
# itself.
_quiet = threading.local()


def _left_out_warnings(info):
    """The warnings' texts for info's left-out candidates (one each)."""
    return ["symbo: kernel %s leaves out %s" % (info["kernel"], r) for r in info["left_out"]]


# A number -0 in the library's compact JSON (an element of an array or an
# object's value; no string of a history holds one).
_NEG_ZERO = re.compile(r"(?<=[\[,:])-0(?=[,\]}])")


def _mem_budget(v):
    """The settings' mem_budget for a number of bytes or a size string."""
    if isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise InvalidInput("mem_budget must be a number of bytes or a size such as '64GiB', got %r" % (v,))
    return str(int(v))


def _restored(settings, d, history, cls=None):
    """An Optimizer (of class cls, a subclass) with the settings (JSON
    bytes) and dimension d of one that wrote history (its
    history_json()), restored from it: what Optimizer.__reduce__ rebuilds
    a copy or a pickle with."""
    cls = cls or Optimizer
    o = cls.__new__(cls)
    o._h = None
    o._close_lock = threading.Lock()
    o._open(settings, d)
    try:
        o.restore(history)
    except BaseException:
        o.close()
        raise
    return o
