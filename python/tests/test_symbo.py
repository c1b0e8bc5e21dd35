"""Tests of the Python bindings over libsymbo (the C ABI)."""

import itertools

import json

import numpy as np
import pytest

import symbo


def points(n, d, seed):
    return np.random.default_rng(seed).uniform(-2, 2, size=(n, d))


@pytest.mark.parametrize("kernel", ["base", "avg", "avgnorm", "max", "plus"])
def test_gram_properties(kernel):
    X = points(12, 3, 1)
    K = symbo.gram(X, group="hyperoctahedral", base="matern52", lengthscale=1.3, variance=2.0, kernel=kernel)
    assert K.shape == (12, 12) and K.dtype == np.float64
    assert np.array_equal(K, K.T)
    Y = points(5, 3, 2)
    C = symbo.gram(X, Y, group="hyperoctahedral", base="matern52", lengthscale=1.3, variance=2.0, kernel=kernel)
    assert C.shape == (12, 5)
    if kernel != "base":
        # Invariance: a signed permutation of Y's coordinates changes nothing.
        gY = -Y[:, [2, 0, 1]]
        C2 = symbo.gram(X, gY, group="hyperoctahedral", base="matern52", lengthscale=1.3, variance=2.0, kernel=kernel)
        np.testing.assert_allclose(C, C2, rtol=1e-12, atol=1e-14)
    # The cross of X with itself is the Gram, to rounding.
    C3 = symbo.gram(X, X, group="hyperoctahedral", base="matern52", lengthscale=1.3, variance=2.0, kernel=kernel)
    np.testing.assert_allclose(C3, K, rtol=1e-12, atol=1e-14)


def test_gram_against_definition():
    # k_max over sign flips with the RBF kernel: exp(−‖|x| − |y|‖²/2ℓ²).
    X, Y = points(6, 2, 3), points(4, 2, 4)
    K = symbo.gram(X, Y, group="signflip", base="rbf", lengthscale=0.7, kernel="max")
    d2 = ((np.abs(X)[:, None, :] - np.abs(Y)[None, :, :]) ** 2).sum(-1)
    np.testing.assert_allclose(K, np.exp(-d2 / (2 * 0.7**2)), rtol=1e-13)
    # k_avg as the literal orbit average over the 4 sign flips of y.
    A = symbo.gram(X, Y, group="signflip", base="rbf", lengthscale=0.7, kernel="avg")
    want = np.zeros_like(A)
    for s in itertools.product([1, -1], repeat=2):
        want += np.exp(-((X[:, None, :] - (Y * s)[None, :, :]) ** 2).sum(-1) / (2 * 0.7**2)) / 4
    np.testing.assert_allclose(A, want, rtol=1e-12)


def test_scalingdir_through_the_c_abi():
    # scalingdir's k_max is the base kernel on the points' directions on the
    # sphere of radius ‖hi‖: exp(−(2R·sin(θ/2))²/2ℓ²), θ from polar angles.
    rng = np.random.default_rng(11)
    X, Y = 0.1 * 100 ** rng.uniform(size=(6, 2)), 0.1 * 100 ** rng.uniform(size=(4, 2))
    box = [[0.1, 0.1], [10, 10]]
    K = symbo.gram(X, Y, group="scalingdir", box=box, base="rbf", lengthscale=2.0, kernel="max")
    R = np.hypot(10, 10)
    theta = np.arctan2(X[:, 1], X[:, 0])[:, None] - np.arctan2(Y[:, 1], Y[:, 0])[None, :]
    np.testing.assert_allclose(K, np.exp(-((2 * R * np.sin(theta / 2)) ** 2) / (2 * 2.0**2)), rtol=1e-12)
    # Its k_avg is the paper's scaling group's.
    A1 = symbo.gram(X, Y, group="scalingdir", box=box, base="rbf", lengthscale=2.0, kernel="avg")
    A2 = symbo.gram(X, Y, group="scaling", box=box, base="rbf", lengthscale=2.0, kernel="avg")
    np.testing.assert_array_equal(A1, A2)
    # An optimizer over it proposes inside the box, deterministically.
    props = []
    for _ in range(2):
        opt = symbo.Optimizer([0.1, 0.1], [10, 10], group="scalingdir", kernel="max", seed=3, minimize=True)
        for x in 0.1 * 100 ** np.random.default_rng(2).uniform(size=(5, 2)):
            opt.tell(x, (x[0] / x[1] - 1) ** 2)
        props.append(np.asarray(opt.ask()))
    assert np.all(props[0] >= 0.1) and np.all(props[0] <= 10)
    np.testing.assert_array_equal(props[0], props[1])


def test_nystrom_is_base_on_its_design():
    # The base kernel Nyström-extended from D: on D it is the base kernel
    # (a PSD Gram), elsewhere k(x, D) K⁻¹ k(D, y), solved here with numpy.
    X, D, Q = points(7, 3, 7), points(9, 3, 8), points(4, 3, 9)
    base = lambda A, B: 1.5 * np.exp(-((A[:, None, :] - B[None, :, :]) ** 2).sum(-1) / (2 * 1.1**2))
    K = symbo.gram(X, group="hyperoctahedral", base="rbf", lengthscale=1.1, variance=1.5, kernel="nystrom")
    np.testing.assert_allclose(K, base(X, X), rtol=1e-9, atol=1e-12)
    C = symbo.gram(Q, X, group="none", base="rbf", lengthscale=1.1, variance=1.5, kernel="nystrom", design=D)
    np.testing.assert_allclose(C, base(Q, D) @ np.linalg.solve(base(D, D), base(D, X)), rtol=1e-7, atol=1e-10)


def test_non_contiguous_and_errors():
    X = np.asfortranarray(points(5, 3, 5))
    K1 = symbo.gram(X, group="permutation", base="rbf", lengthscale=1, kernel="max")
    K2 = symbo.gram(np.ascontiguousarray(X), group="permutation", base="rbf", lengthscale=1, kernel="max")
    assert np.array_equal(K1, K2)
    with pytest.raises(ValueError, match="lengthscale"):
        symbo.gram(X, group="signflip", base="rbf", lengthscale=-1, kernel="max")
    with pytest.raises(ValueError, match="unknown group"):
        symbo.gram(X, group="dihedral", base="rbf", lengthscale=1, kernel="max")
    with pytest.raises(ValueError, match="columns"):
        symbo.gram(X, points(2, 4, 6), group="signflip", base="rbf", lengthscale=1, kernel="max")
    with pytest.raises(ValueError, match="not provably PSD|canonical"):
        symbo.Optimizer([0] * 3, [1] * 3, group="cyclic", kernel="max")
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        symbo.gram(X, group="signflip", base="rbf", lengthscale=1, kernel="max")


def f(x):
    a = np.abs(x)
    return float(np.sum((np.sort(a) - np.array([0.5, 1.0, 1.5])) ** 2))


def test_optimizer_default_kernel_is_the_soft_portfolio_both_favoured():
    """An Optimizer that names no kernel proposes what
    kernel="portfolio:nystrom:soft+plus" proposes (and the default
    prior, mean and candidate fit are the library's)."""
    assert not hasattr(symbo, "DEFAULT_KERNEL")  # the library's default, not a copy
    outs = []
    for kw in ({}, {"kernel": "portfolio:nystrom:soft+plus", "prior": "botorch", "mean": "constant",
                    "candidate_fit": "anchored", "probe_window": 5, "probe": "earned", "hedge": 1, "beta_scale": 0.25}):
        o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", seed=4, minimize=True, init=3, **kw)
        xs = []
        for _ in range(5):
            x = o.ask()
            o.tell(x, f(x))
            xs.append(x)
        outs.append(np.array(xs))
    assert np.array_equal(outs[0], outs[1])
    o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", seed=4, minimize=True, init=3)
    assert json.loads(o.history_json())["kernel"] == "portfolio:nystrom:soft+plus"


def test_optimizer_hedge_setting():
    """hedge=0 is the portfolio without hedging, which proposes other
    points than the default (hedged) one on this run; a bad value is
    InvalidInput."""
    hedged, plain = portfolio_points(8), portfolio_points(8, hedge=0)
    assert np.array_equal(hedged[:3], plain[:3])  # the initial design
    assert not np.array_equal(hedged, plain)
    with pytest.raises(symbo.InvalidInput, match="hedge"):
        symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", hedge=11)


@pytest.mark.parametrize("kernel, kw, match", [
    ("plus", {"hedge": 3}, 'hedge 3 acts only on a portfolio kernel; kernel "plus" has one candidate'),
    ("auto", {"hedge": 1}, 'hedge 1 acts only on a portfolio kernel; kernel "auto"'),
    ("soft", {"probe": "earned"}, 'probe earned acts only on a portfolio kernel'),
    ("max", {"probe_window": 5}, 'probe_window 5 acts only on a portfolio kernel'),
    ("nystrom", {"candidate_fit": "anchored"}, r'candidate_fit anchored acts only on a deciding kernel \(auto, portfolio\); kernel "nystrom"'),
])
def test_optimizer_refuses_a_deciding_setting_its_kernel_ignores(kernel, kw, match):
    """A portfolio's (or deciding kernel's) setting given with a kernel
    it cannot act on is InvalidInput naming the setting and the kernel;
    it was dropped without a word. hedge=0 and the other values that ask
    for nothing the kernel lacks are taken, and the default kernel takes
    every value."""
    with pytest.raises(symbo.InvalidInput, match=match):
        symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel=kernel, **kw)
    symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel=kernel, hedge=0, probe="always", probe_window=0,
                    candidate_fit="own").close()
    symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", **kw).close()


def test_optimizer_refuses_landmarks_with_soft():
    """soft has no landmark form (exact at any n): a landmark cap above 0
    given with kernel soft is InvalidInput naming the setting and the
    kernel; it was dropped without a word. -1 (never: exact, as soft is)
    is taken, and so is a cap with a kernel that has the form or a
    deciding kernel naming soft (the default: soft sits out above it)."""
    with pytest.raises(symbo.InvalidInput, match=r'landmarks 16 acts only on a kernel with a landmark form \(every kernel but soft\); kernel "soft"'):
        symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel="soft", landmarks=16)
    for kernel, m in (("soft", -1), ("plus", 16), (None, 16), ("auto:soft+plus", 16)):
        kw = {} if kernel is None else {"kernel": kernel}
        symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", landmarks=m, **kw).close()


def test_optimizer_beta_scale_setting():
    """beta_scale=1 is the paper's β, which proposes other points than the
    default (a quarter of it) on this run; a value that is not a finite
    number > 0 is InvalidInput before the library builds anything."""
    default, paper = portfolio_points(8), portfolio_points(8, beta_scale=1)
    assert np.array_equal(default[:3], paper[:3])  # the initial design
    assert not np.array_equal(default, paper)
    assert np.array_equal(default, portfolio_points(8, beta_scale=0.25))
    for bad in (0, -1.0, float("inf"), float("nan"), "1", True):
        with pytest.raises(symbo.InvalidInput, match="beta_scale"):
            symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", beta_scale=bad)


def portfolio_points(n, **kw):
    """The first n points of the default kernel (seed 4, f, init 3) under
    the settings kw."""
    o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", seed=4, minimize=True, init=3, **kw)
    xs = []
    for _ in range(n):
        x = o.ask()
        o.tell(x, f(x))
        xs.append(x)
    return np.array(xs)


def test_optimizer_candidate_fit():
    """candidate_fit reaches the library: "anchored" is the default, and
    "own" changes the portfolio's points (deterministically); a bad value
    is InvalidInput."""
    def points(**kw):
        return portfolio_points(6, **kw)

    own, default, anchored = points(candidate_fit="own"), points(), points(candidate_fit="anchored")
    assert np.array_equal(anchored, default)
    assert np.array_equal(own, points(candidate_fit="own"))
    assert not np.array_equal(anchored, own)
    with pytest.raises(symbo.InvalidInput, match="anchored"):
        symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", candidate_fit="shared")


def test_optimizer_probe_window():
    """probe_window reaches the library with Go's meaning: None (absent)
    is the recommended 5, 0 no limit; at seed 4 the portfolio's
    fixed-point probe (the origin) comes at the ninth BO step without a
    limit, so the default window leaves it out; a negative window or one
    above the library's cap is InvalidInput."""
    def points(**kw):
        # On the raw coordinates with the paper's β, where seed 4's probe
        # comes late (the scenario; normalize and beta_scale are their own
        # settings), with avg and its probe at every chance (the default
        # has no avg).
        return portfolio_points(12, normalize=False, beta_scale=1, kernel="portfolio:nystrom+avg:soft+plus", probe="always", **kw)

    default, free = points(), points(probe_window=0)
    assert np.array_equal(default, points(probe_window=5))
    assert np.abs(free[11]).max() < 1e-9 and np.abs(default[11]).max() > 1e-3
    assert np.array_equal(free[:11], default[:11])
    for w in (-1, 1 << 40):
        with pytest.raises(symbo.InvalidInput, match="probe_window"):
            symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", probe_window=w)


def test_optimizer_no_repeats():
    """No ask lands within the exclusion radius (1e-3 of the box diagonal)
    of an observed point's orbit: on [-1, 1] x [-100, 100] with sign flips
    plus returned to observed points on 7 of 25 asks at seed 10 before;
    allow_repeats=True lets it, as perf bo does. The radius is measured
    where the model works: in normalized coordinates, each sign-flipped
    coordinate divided by its largest |bound| (1 and 100)."""
    scale = np.array([1.0, 100.0])
    r2 = 1e-6 * (2 ** 2 + 2 ** 2)

    def near(**kw):
        o = symbo.Optimizer([-1, -100], [1, 100], group="signflip", kernel="plus", seed=10, minimize=True, **kw)
        xs, count = [], 0
        for _ in range(25):
            x = o.ask()
            count += any(np.sum(((np.abs(x) - np.abs(p)) / scale) ** 2) <= r2 for p in xs)
            xs.append(x)
            o.tell(x, abs(abs(x[0]) - 0.3) + abs(abs(x[1]) - 30) / 100)
        return count

    assert near() == 0
    assert near(allow_repeats=True) > 0


def test_optimizer_deterministic_and_pending():
    runs = []
    for _ in range(2):
        o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel="plus", seed=7, minimize=True, init=4)
        xs = []
        for _ in range(3):
            batch = o.ask_batch(3)
            assert len(o.pending) == 3
            for x in batch:
                o.tell(x, f(x))
            xs.append(batch)
        assert len(o.pending) == 0
        runs.append(np.concatenate(xs))
    assert np.array_equal(runs[0], runs[1])
    # No two points of a batch share an orbit (sorted |x| differ).
    o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel="plus", seed=1, minimize=True, init=3)
    for x in o.ask_batch(3):
        o.tell(x, f(x))
    batch = o.ask_batch(5)
    canon = np.sort(np.abs(batch), axis=1)
    for i in range(5):
        for j in range(i):
            assert np.linalg.norm(canon[i] - canon[j]) > 1e-3
    # Cancel forgets a pending point; tell of a point outside the box fails.
    assert o.cancel(batch[0]) and len(o.pending) == 4
    with pytest.raises(ValueError):
        o.tell([3, 0, 0], 1.0)
    x, y = o.best()
    assert y == min(o.history[1])


def test_pip_install_offline(tmp_path):
    """pip installs the package (with the library) without network."""
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip not available")
    import shutil

    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    src = tmp_path / "src"  # build outside the source tree (setuptools writes build/ there)
    shutil.copytree(root, src, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__"))
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-build-isolation", "--no-deps",
                        "--target", str(target), str(src)], capture_output=True, text=True)
    if r.returncode != 0 and "setuptools" in r.stderr and "No module" in r.stderr:
        pytest.skip("setuptools not available")
    assert r.returncode == 0, r.stderr
    out = subprocess.run([sys.executable, "-c", "import symbo; print(symbo.__file__, symbo.version())"],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(target)}, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert str(target) in out.stdout and "abi %d" % symbo.ABI_VERSION in out.stdout


def test_optimizer_landmarks():
    # Up to the cap the design is every observation: the default's points.
    def run(**kw):
        o = symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel="plus", seed=3, minimize=True,
                            init=4, **kw)
        for _ in range(4):
            x = o.ask()
            o.tell(x, f(x))
        return o
    a, b = run(), run(landmarks=-1)
    assert np.array_equal(a.history[0], b.history[0])
    # Beyond the cap: landmarks, deterministic, in the box.
    c, d = run(landmarks=3), run(landmarks=3)
    assert np.array_equal(c.history[0], d.history[0])
    assert np.all(np.abs(c.history[0]) <= 2)
    with pytest.raises(ValueError):
        symbo.Optimizer([-2] * 3, [2] * 3, group="hyperoctahedral", kernel="plus", landmarks=2_000_000)


@pytest.mark.parametrize("box", [5, [[0.1, 0.1], [10, 10], [20, 20]], [0.1], "ab", {"lo": [0.1] * 2, "hi": [10] * 2}])
def test_gram_box_not_a_pair(box):
    """A box that is not a pair (lo, hi) is InvalidInput naming box: it was
    unpacked bare, and raised TypeError ("cannot unpack non-iterable int")
    or a plain ValueError ("too many values to unpack"), and a string or a
    dict of two was read as its characters or keys ("lo must be an array of
    numbers, got strings")."""
    X = 0.1 * 100 ** np.random.default_rng(3).uniform(size=(3, 2))
    with pytest.raises(symbo.InvalidInput, match="box must be a pair"):
        symbo.gram(X, group="scaling", box=box, base="rbf", lengthscale=1.0, kernel="avg")


def test_symbo_lib_relative_to_working_directory():
    """SYMBO_LIB=libsymbo.so, the file in the working directory, passed
    the existence check and then failed to load (ctypes searched the
    loader's path): OSError "cannot open shared object file: No such file
    or directory". It loads now."""
    import os
    import subprocess
    import sys

    pkg = os.path.dirname(os.path.abspath(symbo.__file__))
    out = subprocess.run([sys.executable, "-c", "import symbo; print(symbo.version())"], capture_output=True, text=True,
                         cwd=pkg, env={**os.environ, "SYMBO_LIB": "libsymbo.so",
                                       "PYTHONPATH": os.path.dirname(pkg)})
    assert out.returncode == 0, out.stderr
    assert "abi %d" % symbo.ABI_VERSION in out.stdout


def test_library_of_another_abi_or_none_is_an_import_error(tmp_path):
    """A libsymbo of another ABI version lacking a function these bindings
    bind raised AttributeError "undefined symbol: …", before the version
    was read; a file that is no shared library raised OSError. Each is an
    ImportError naming the file now, the first naming both versions."""
    import os
    import shutil
    import subprocess
    import sys

    def load(lib):
        return subprocess.run([sys.executable, "-c", "import symbo"], capture_output=True, text=True,
                              env={**os.environ, "SYMBO_LIB": str(lib),
                                   "PYTHONPATH": os.path.dirname(os.path.dirname(os.path.abspath(symbo.__file__)))})
    text = tmp_path / "text.so"
    text.write_text("not a library\n")
    out = load(text)
    assert "ImportError: symbo: %s is not a libsymbo" % text in out.stderr, out.stderr
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("needs a C compiler")
    src = tmp_path / "old.c"
    src.write_text("int symbo_abi_version(void) { return %d; }\n" % (symbo.ABI_VERSION - 1))
    old = tmp_path / "libold.so"
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(old), str(src)], check=True)
    out = load(old)
    assert "ImportError: symbo: %s speaks ABI %d, these bindings %d" % (old, symbo.ABI_VERSION - 1,
                                                                      symbo.ABI_VERSION) in out.stderr, out.stderr
