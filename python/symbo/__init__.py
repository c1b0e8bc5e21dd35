"""symbo: symmetry-aware Bayesian optimization (Python bindings).

A thin ctypes layer over symbo's C ABI (``libsymbo``, built into this
package by ``make python``): kernel matrices of the invariant kernels
(:func:`gram`) and an ask/tell optimizer (:class:`Optimizer`) whose next
points are a function of its settings, seed, history and pending points.
:mod:`symbo.optuna` adds an Optuna sampler.

Errors raise :class:`SymboError` subclasses carrying the Go message:
:class:`InvalidInput` (a ``ValueError``) for bad settings or data,
:class:`SizeError` (a ``MemoryError``) for requests over the memory budget,
and ``RuntimeError`` otherwise.
"""

import ctypes
import json
import os

import numpy as np

__all__ = ["gram", "Optimizer", "SymboError", "InvalidInput", "SizeError", "InternalError", "version", "ABI_VERSION"]

#: The C ABI version these bindings speak (SYMBO_ABI_VERSION of symbo.h).
ABI_VERSION = 1


class SymboError(Exception):
    """A failure reported by libsymbo, with its message."""


class InvalidInput(SymboError, ValueError):
    """Bad settings or data (SYMBO_EINVAL)."""


class SizeError(SymboError, MemoryError):
    """An output too small or a request over the memory budget (SYMBO_ESIZE)."""


class InternalError(SymboError, RuntimeError):
    """A failure that is not the input's (SYMBO_EINTERNAL)."""


def _load():
    path = os.environ.get("SYMBO_LIB") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "libsymbo.so")
    if not os.path.exists(path):
        raise ImportError(
            "symbo: %s not found; build it with 'make python' from the repository root "
            "(go build -buildmode=c-shared -o python/symbo/libsymbo.so ./capi), or set SYMBO_LIB" % path
        )
    lib = ctypes.CDLL(path)
    dp = ctypes.POINTER(ctypes.c_double)
    i64 = ctypes.c_int64
    lib.symbo_abi_version.restype = ctypes.c_int
    lib.symbo_version.restype = ctypes.c_char_p
    lib.symbo_last_error.restype = ctypes.c_size_t
    lib.symbo_last_error.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.symbo_cross.restype = ctypes.c_int
    lib.symbo_cross.argtypes = [ctypes.c_char_p, dp, i64, dp, i64, i64, dp, i64, dp, i64]
    lib.symbo_suggest.restype = ctypes.c_int
    lib.symbo_suggest.argtypes = [ctypes.c_char_p, dp, dp, i64, dp, i64, i64, i64, dp, i64]
    if lib.symbo_abi_version() != ABI_VERSION:
        raise ImportError("symbo: %s speaks ABI %d, these bindings %d" % (path, lib.symbo_abi_version(), ABI_VERSION))
    return lib


_lib = _load()


def version():
    """The library's version string."""
    return _lib.symbo_version().decode()


def _check(code):
    if code == 0:
        return
    n = _lib.symbo_last_error(None, 0)
    buf = ctypes.create_string_buffer(n + 1)
    _lib.symbo_last_error(buf, n + 1)
    msg = buf.value.decode("utf-8", "replace")
    raise {-1: InvalidInput, -2: SizeError}.get(code, InternalError)(msg)


def _matrix(a, name, cols=None):
    """A C-contiguous float64 2-d array (copied only when needed)."""
    a = np.ascontiguousarray(a, dtype=np.float64)
    if a.ndim == 1 and cols is not None:
        a = a.reshape(-1, cols) if a.size else a.reshape(0, cols)
    if a.ndim != 2:
        raise InvalidInput("%s must be a 2-d array (one point per row), got shape %s" % (name, a.shape))
    if cols is not None and a.shape[0] and a.shape[1] != cols:
        raise InvalidInput("%s has %d columns, want %d" % (name, a.shape[1], cols))
    return a


def _ptr(a):
    if a is None or a.size == 0:
        return None
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


def _group(group, d, block=None, matrices=None, box=None):
    g = {"group": group, "d": int(d)}
    if block is not None:
        g["block"] = int(block)
    if matrices is not None:
        g["matrices"] = os.fspath(matrices)
    if box is not None:
        lo, hi = box
        g["box"] = [np.atleast_1d(np.asarray(lo, dtype=float)).tolist(), np.atleast_1d(np.asarray(hi, dtype=float)).tolist()]
    return g


def gram(X, Y=None, *, group, base, lengthscale, variance=1.0, kernel, design=None, method="auto",
         block=None, matrices=None, box=None):
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
        ``rotation2d``, ``scaling`` (with ``box``) or ``matrices`` (with
        ``matrices``, a JSON file).
    base : str
        ``rbf``, ``matern12``, ``matern32`` or ``matern52``.
    lengthscale, variance : float
        Base kernel hyperparameters.
    kernel : str
        ``base``, ``nystrom`` (the base kernel Nyström-extended from
        ``design``), ``avg``, ``avgnorm``, ``max`` or ``plus``.
    design : array_like, shape (nd, d), optional
        Design set of ``plus`` (default: ``X``).
    method : str
        ``auto``, ``enumerate`` or ``closed``.

    Returns
    -------
    numpy.ndarray, shape (n, m)
        The same bits as the Go API.
    """
    X = _matrix(X, "X")
    n, d = X.shape
    if n == 0:
        raise InvalidInput("X has no rows")
    Yc = None if Y is None else _matrix(Y, "Y", d)
    m = n if Yc is None else Yc.shape[0]
    D = None if design is None else _matrix(design, "design", d)
    spec = _group(group, d, block, matrices, box)
    spec.update(base=base, lengthscale=float(lengthscale), variance=float(variance), kernel=kernel, method=method)
    out = np.empty((n, m), dtype=np.float64)
    _check(_lib.symbo_cross(json.dumps(spec).encode(), _ptr(X), n, _ptr(Yc), m, d,
                            _ptr(D), 0 if D is None else D.shape[0], _ptr(out), out.size))
    return out


def _same(a, b):
    return a.shape == b.shape and bool(np.all(a.view(np.uint64) == b.view(np.uint64)))


class Optimizer:
    """Ask/tell Bayesian optimizer over the box ``[lo, hi]``.

    The next points are a function of the settings, the seed, the history
    (told points, in order) and the pending points (asked, not yet told),
    computed by libsymbo at every ``ask``: the same inputs give the same
    bits as ``perf suggest`` and the Go ``bo.Optimizer``.

    Parameters
    ----------
    lo, hi : array_like, shape (d,)
        The box.
    group : str
        The group the objective is invariant under (see :func:`gram`);
        ``block``/``matrices`` as there.
    kernel : str
        ``base``, ``nystrom``, ``avg``, ``avgnorm``, ``max`` or ``plus``
        (default).
    base : str
        Base kernel shape (default ``rbf``).
    seed : int
    minimize : bool
        Minimize the told values (default: maximize).
    init : int
        Initial design size (default 5).
    acq, beta, fit, prior : str, optional
        As in ``perf suggest``.
    landmarks : int, optional
        Design cap of ``plus`` and ``nystrom`` (``perf suggest
        --landmarks``): every observation is in the design up to this many
        of them, that many landmarks above; 0 (default) means 256, -1
        never.
    """

    def __init__(self, lo, hi, *, group, kernel="plus", base="rbf", seed=0, minimize=False, init=5,
                 acq=None, beta=None, fit=None, prior=None, block=None, matrices=None, landmarks=None):
        lo = np.atleast_1d(np.asarray(lo, dtype=np.float64))
        hi = np.atleast_1d(np.asarray(hi, dtype=np.float64))
        if lo.ndim != 1 or lo.shape != hi.shape or lo.size == 0:
            raise InvalidInput("lo and hi must be 1-d arrays of one length")
        if not (np.all(np.isfinite(lo)) and np.all(np.isfinite(hi)) and np.all(lo < hi)):
            raise InvalidInput("the box needs finite lo < hi in every coordinate")
        self.d, self._lo, self._hi = lo.size, lo, hi
        s = _group(group, self.d, block, matrices, (lo, hi))
        s.update(kernel=kernel, base=base, seed=int(seed), minimize=bool(minimize), init=int(init))
        for k, v in (("acq", acq), ("beta", beta), ("fit", fit), ("prior", prior)):
            if v is not None:
                s[k] = v
        if landmarks is not None:
            s["landmarks"] = int(landmarks)
        self._settings = json.dumps(s).encode()
        self._x = np.empty((0, self.d))
        self._y = np.empty(0)
        self._pending = np.empty((0, self.d))
        self.suggest(1)  # validate the settings now

    @property
    def history(self):
        """(X, y): copies of the told points and values."""
        return self._x.copy(), self._y.copy()

    @property
    def pending(self):
        """Copy of the pending points (asked, not yet told)."""
        return self._pending.copy()

    def suggest(self, q=1):
        """The next ``q`` points (q × d) given the history and pending points, without recording them."""
        q = int(q)
        out = np.empty((q, self.d), dtype=np.float64)
        _check(_lib.symbo_suggest(self._settings, _ptr(self._x), _ptr(self._y), len(self._y),
                                  _ptr(self._pending), len(self._pending), self.d, q, _ptr(out), out.size))
        return out

    def ask(self):
        """The next point (d,), recorded as pending."""
        return self.ask_batch(1)[0]

    def ask_batch(self, q):
        """``q`` points (q × d) to evaluate in parallel, recorded as pending;
        with an invariant kernel no two share an orbit."""
        pts = self.suggest(q)
        self._pending = np.vstack([self._pending, pts])
        return pts.copy()

    def add_pending(self, x):
        """Record ``x`` as pending (asked elsewhere, not yet told)."""
        x = _matrix(x, "x", self.d)
        self._pending = np.vstack([self._pending, x])

    def cancel(self, x):
        """Forget the pending point ``x`` (its evaluation failed); True if it was pending."""
        x = np.ascontiguousarray(x, dtype=np.float64).reshape(self.d)
        for i, p in enumerate(self._pending):
            if _same(p, x):
                self._pending = np.delete(self._pending, i, axis=0)
                return True
        return False

    def tell(self, x, y):
        """Record the value ``y`` at ``x`` (which stops being pending)."""
        x = np.ascontiguousarray(x, dtype=np.float64).reshape(self.d)
        y = float(y)
        if not np.isfinite(y):
            raise InvalidInput("y = %r is not finite" % y)
        if not np.all(np.isfinite(x)) or np.any(x < self._lo) or np.any(x > self._hi):
            raise InvalidInput("x = %s is not a finite point of the box" % (x,))
        self._x = np.vstack([self._x, x])
        self._y = np.append(self._y, y)
        self.cancel(x)

    def best(self):
        """(x, y) of the best told value, or None before the first tell."""
        if not len(self._y):
            return None
        minimize = json.loads(self._settings).get("minimize", False)
        i = int(np.argmin(self._y) if minimize else np.argmax(self._y))
        return self._x[i].copy(), float(self._y[i])
