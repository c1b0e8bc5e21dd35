"""symbo.Optimizer as a thin wrapper over the library's optimizer handle:
thread safety (issue 15, defect 6), validation in Go (defect 7), failed
evaluations, strict settings and sizes (defect 3 and "Also"), lifetime."""

import ctypes
import ctypes.util
import gc
import json
import math
import os
import re
import threading

import numpy as np
import pytest

import symbo

LO, HI = [-2.0] * 3, [2.0] * 3
DIAG = math.sqrt(3) * 4


def f(x):
    return float(np.sum((np.sort(np.abs(x)) - np.array([0.5, 1.0, 1.5])) ** 2))


def canon(X):
    """Hyperoctahedral canonical forms: sorted |x| per row."""
    return np.sort(np.abs(np.atleast_2d(X)), axis=1)


def min_orbit_distance(X):
    c = canon(X)
    d = np.sqrt(((c[:, None, :] - c[None, :, :]) ** 2).sum(-1))
    d[np.diag_indices(len(c))] = np.inf
    return d.min()


def opt(**kw):
    kw = {"group": "hyperoctahedral", "kernel": "plus", "seed": 1, "minimize": True, "init": 4, **kw}
    return symbo.Optimizer(LO, HI, **kw)


def run_threads(n, target):
    start = threading.Barrier(n)
    errors = []

    def run(i):
        try:
            start.wait()
            target(i)
        except Exception as e:  # reported below, with its thread
            errors.append((i, e))

    ts = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors, errors


def test_threads_tell_lose_nothing():
    # The issue: 4 threads × 300 tell gave X 925 rows and y 801.
    o = opt()
    pts = np.random.default_rng(3).uniform(-2, 2, size=(4, 300, 3))

    def tell(i):
        for x in pts[i]:
            o.tell(x, f(x))

    run_threads(4, tell)
    X, y = o.history
    assert X.shape == (1200, 3) and y.shape == (1200,)
    told = {tuple(x) for x in pts.reshape(-1, 3)}
    assert {tuple(x) for x in X} == told
    for x, v in zip(X, y):
        assert v == f(x)
    assert o.suggest(2).shape == (2, 3)


@pytest.mark.parametrize("told", [0, 6])
def test_concurrent_asks_distinct_orbits(told):
    # The issue: 12 concurrent ask() returned 9 distinct points. Before any
    # observation (the initial design) and after some (the acquisition).
    o = opt()
    rng = np.random.default_rng(5)
    for x in rng.uniform(-2, 2, size=(told, 3)):
        o.tell(x, f(x))
    got = [None] * 12

    def ask(i):
        got[i] = o.ask()

    run_threads(12, ask)
    X = np.array(got)
    assert len(o.pending) == 12
    assert {tuple(x) for x in X} == {tuple(x) for x in o.pending}
    assert min_orbit_distance(X) > 0.999e-3 * DIAG


def test_mixed_threads():
    # ask, tell, fail, add_pending, suggest and the state getters at once:
    # the counts are exact afterwards.
    o = opt(init=3)
    counts = [[0, 0, 0] for _ in range(4)]

    def work(i):
        for r in range(5):
            x = o.ask()
            if (i + r) % 3 == 0:
                o.tell(x, f(x))
                counts[i][0] += 1
            elif (i + r) % 3 == 1:
                o.fail(x)
                counts[i][1] += 1
            else:
                counts[i][2] += 1
            o.add_pending([-1.9 + 0.1 * i, 0.013 * r, -0.5])
            counts[i][2] += 1
            o.history, o.pending, o.failed, o.best()
            if r == 2:
                o.suggest(1)

    run_threads(4, work)
    told, failed, pending = (sum(c[k] for c in counts) for k in range(3))
    assert len(o.history[1]) == told and len(o.failed) == failed and len(o.pending) == pending
    assert min_orbit_distance(o.pending) > 1e-9


def test_add_pending_outside_box_keeps_optimizer_usable():
    # The issue: add_pending accepted [5, 0, 0], and every ask failed after.
    o = opt()
    for x in np.random.default_rng(1).uniform(-2, 2, size=(5, 3)):
        o.tell(x, f(x))
    with pytest.raises(symbo.InvalidInput, match=r"outside \[-2, 2\]"):
        o.add_pending([5.0, 0.0, 0.0])
    with pytest.raises(symbo.InvalidInput, match="not finite"):
        o.add_pending([np.nan, 0.0, 0.0])
    with pytest.raises(symbo.InvalidInput, match="coordinates"):
        o.add_pending([0.0, 0.0])
    assert len(o.pending) == 0
    x = o.ask()
    assert np.all(np.abs(x) <= 2) and len(o.pending) == 1
    assert o.suggest(2).shape == (2, 3)


def test_tell_non_finite_names_fail():
    # libsymbo's message names Go's Fail and perf suggest --failed; Python
    # keeps it whole and adds its own call. Nothing is recorded.
    o = opt()
    for y in (float("nan"), float("inf"), -np.inf):
        with pytest.raises(symbo.InvalidInput) as e:
            o.tell([0, 0, 0], y)
        msg = str(e.value)
        assert msg.startswith("invalid observation: y = ") and "not finite" in msg, msg
        assert "with Fail (perf suggest: --failed)" in msg, msg
        assert msg.endswith(" (in Python: optimizer.fail(x))"), msg
    # Another refusal of tell gets no hint: a point outside the box (which
    # libsymbo reports before the value).
    with pytest.raises(symbo.InvalidInput) as e:
        o.tell([5, 0, 0], float("nan"))
    assert "outside" in str(e.value) and "optimizer.fail" not in str(e.value), str(e.value)
    assert len(o.history[1]) == 0


def test_tell_masked_y_is_refused():
    """tell(x, np.ma.masked) recorded y = 0.0 (the value under the mask),
    and a masked one-element array the value its mask hides, without a
    word. Both are InvalidInput now, and nothing is recorded; a masked
    array with nothing masked is its value."""
    o = opt()
    x = o.ask()
    for y in (np.ma.masked, np.ma.array([1.5], mask=[True]), np.ma.array(2.5, mask=True)):
        with pytest.raises(symbo.InvalidInput, match="masked"):
            o.tell(x, y)
    assert len(o.history[1]) == 0 and len(o.pending) == 1
    o.tell(x, np.ma.array([1.5], mask=[False]))
    assert o.history[1].tolist() == [1.5]


def test_fail_excludes_orbit_and_is_kept():
    o = opt(init=3)
    x0 = o.ask()
    o.fail(x0)
    assert len(o.pending) == 0 and np.array_equal(o.failed, x0[None, :])
    for _ in range(6):
        x = o.ask()
        assert np.linalg.norm(canon(x) - canon(x0)) > 1e-3 * DIAG
        o.tell(x, f(x))
    # The history JSON keeps the failed point; a restored optimizer
    # proposes the same points.
    h = json.loads(o.history_json())
    assert h["version"] == 2 and h["failed"] == [list(x0)] and len(h["observations"]) == 6
    o2 = opt(init=3)
    o2.restore(o.history_json())
    assert np.array_equal(o.suggest(2), o2.suggest(2))
    assert np.array_equal(o2.failed, o.failed)
    with pytest.raises(symbo.InvalidInput, match="already has"):
        o2.restore(h)
    with pytest.raises(symbo.InvalidInput, match="seed 1"):
        opt(seed=2).restore(h)


def test_same_bits_as_stateless_suggest():
    # The handle proposes what symbo_suggest (perf suggest's function)
    # proposes for the same history and pending points.
    o = opt(seed=4)
    for _ in range(3):
        for x in o.ask_batch(2):
            o.tell(x, f(x))
    o.ask()
    X, y = o.history
    P = o.pending
    settings = {"group": "hyperoctahedral", "d": 3, "box": [LO, HI], "kernel": "plus", "base": "rbf", "seed": 4,
                "minimize": True, "init": 4}
    out = np.empty((2, 3))
    symbo._check(symbo._lib.symbo_suggest(json.dumps(settings).encode(), symbo._ptr(X), symbo._ptr(y), len(y),
                                          symbo._ptr(P), len(P), 3, 2, symbo._ptr(out), out.size))
    assert np.array_equal(out, o.suggest(2))
    assert np.array_equal(out, o.ask_batch(2))


def test_batch_and_settings_errors():
    o = opt()
    for q in (-1, 0, 2**40, 1025):
        with pytest.raises(symbo.InvalidInput, match=r"q = %d outside \[1, 1024\]" % q):
            o.ask_batch(q)
        with pytest.raises(symbo.InvalidInput, match="outside"):
            o.suggest(q)
    with pytest.raises(symbo.InvalidInput, match="out of range"):
        o.ask_batch(2**70)
    with pytest.raises(symbo.InvalidInput, match="integer"):
        o.ask_batch(1.5)
    assert len(o.pending) == 0
    with pytest.raises(symbo.InvalidInput, match="not finite"):
        o.tell([0, 0, 0], float("inf"))
    with pytest.raises(symbo.InvalidInput, match="number"):
        o.tell([0, 0, 0], "abc")
    X = np.random.default_rng(2).uniform(-1, 1, size=(4, 2))
    # lengthscale=nan: json.dumps wrote NaN and Go said "invalid character 'N'".
    with pytest.raises(symbo.InvalidInput, match="lengthscale = nan is not a finite number"):
        symbo.gram(X, group="signflip", base="rbf", lengthscale=float("nan"), kernel="max")
    with pytest.raises(symbo.InvalidInput, match="variance = inf is not a finite number"):
        symbo.gram(X, group="signflip", base="rbf", lengthscale=1, variance=float("inf"), kernel="max")
    with pytest.raises(symbo.InvalidInput, match="variance must be positive"):
        symbo.gram(X, group="signflip", base="rbf", lengthscale=1, variance=0, kernel="max")
    with pytest.raises(symbo.InvalidInput, match="box = nan is not a finite number"):
        symbo.Optimizer([0, np.nan], [1, 1], group="signflip")
    with pytest.raises(symbo.InvalidInput, match=r"coordinate 0's lower bound 1 is above its upper bound 0; swap them"):
        symbo.Optimizer([1, 0], [0, 1], group="signflip")
    with pytest.raises(symbo.InvalidInput, match="unknown group"):
        symbo.Optimizer([0, 0], [1, 1], group="dihedral")


PKG = re.compile(r"^(frontend|bo|orbit|kernel|gp|problem|linalg|symbo):")


def raw_cross(spec):
    x, out = np.ones(2), np.empty(16)
    symbo._check(symbo._lib.symbo_cross(spec.encode(), symbo._ptr(x), 1, None, 0, 1, None, 0, symbo._ptr(out), 16))


def raw_suggest(settings):
    out = np.empty(16)
    symbo._check(symbo._lib.symbo_suggest(settings.encode(), None, None, 0, None, 0, 2, 1, symbo._ptr(out), 16))


@pytest.mark.parametrize("call,json_text,match", [
    # Sizes: these aborted the Python process ("fatal error: out of memory")
    # or gave InternalError (d = -5).
    (raw_cross, '{"group":"scaling","d":2147483648,"box":[[0.1],[10]],"base":"rbf","lengthscale":1,"kernel":"max"}',
     "d = 2147483648"),
    (raw_suggest, '{"group":"permutation","d":1099511627776,"box":[[-2],[2]],"kernel":"plus"}', "d = 1099511627776"),
    (raw_suggest, '{"group":"permutation","d":-5,"box":[[-2],[2]],"kernel":"plus"}', "d = -5"),
    (raw_cross, '{"group":"scaling","d":-5,"base":"rbf","lengthscale":1,"kernel":"max"}', "d = -5"),
    (raw_suggest, '{"group":"permutation","d":2147483648,"box":[[-2],[2]],"kernel":"plus"}', "d = 2147483648"),
    # Strict settings: case-sensitive keys, no duplicates, no unknown keys.
    (raw_suggest, '{"GROUP":"permutation","d":2,"box":[[-2],[2]],"kernel":"plus"}', 'did you mean "group"'),
    (raw_suggest, '{"group":"permutation","group":"signflip","d":2,"box":[[-2],[2]],"kernel":"plus"}',
     'duplicate field "group"'),
    (raw_suggest, '{"group":"permutation","d":2,"box":[[-2],[2]],"kernel":"plus","kernal":"max"}',
     'unknown field "kernal"'),
    (raw_cross, '{"group":"signflip","d":1,"base":"rbf","lengthscale":1,"variance":0,"kernel":"max"}', "variance"),
])
def test_raw_settings_refused(call, json_text, match):
    with pytest.raises(symbo.InvalidInput, match=match) as e:
        call(json_text)
    assert not PKG.match(str(e.value)), str(e.value)


def test_lifetime():
    with opt() as o:
        o.ask()
        h = o._h
    with pytest.raises(symbo.InvalidInput, match="closed"):
        o.ask()
    o.close()  # harmless
    # The library refuses the freed id: a double free, or a stale id, is
    # EINVAL, never a crash.
    assert symbo._lib.symbo_optimizer_free(h) == -1
    x = ctypes.c_double()
    assert symbo._lib.symbo_optimizer_ask_batch(h, 1, ctypes.byref(x), 1) == -1
    for bad in (0, -1, 2**62):
        with pytest.raises(symbo.InvalidInput, match="not open"):
            symbo._check(symbo._lib.symbo_optimizer_free(bad))
    # Collected: freed.
    o = opt()
    h = o._h
    del o
    gc.collect()
    assert symbo._lib.symbo_optimizer_free(h) == -1
    # best: None before a tell, then the minimum.
    o = opt()
    assert o.best() is None
    o.tell([1, 1, 1], 3.0)
    o.tell([0.5, 1, 1.5], 0.0)
    x, y = o.best()
    assert y == 0.0 and np.array_equal(x, [0.5, 1, 1.5])
    o.close()


def test_header_constants():
    h = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "capi", "symbo.h")
    if not os.path.exists(h):
        pytest.skip("capi/symbo.h not beside the package")
    text = open(h).read()
    assert int(re.search(r"#define SYMBO_ABI_VERSION (\d+)", text).group(1)) == symbo.ABI_VERSION
    assert int(re.search(r"#define SYMBO_MAX_BATCH (\d+)", text).group(1)) == symbo._MAX_BATCH
    assert int(re.search(r"#define SYMBO_MAX_DIM (\d+)", text).group(1)) == symbo._MAX_DIM


def test_box_past_max_dim_refused_before_settings():
    """A box of 10**7 coordinates was written out as lists and JSON (10 s
    and a GB) before the library refused its length. It is refused first
    now, naming the bound; the largest d the library takes still builds,
    and the library's message for one past it matches."""
    import tracemalloc
    n = 10**6
    lo, hi = np.zeros(n), np.ones(n)
    tracemalloc.start()
    try:
        with pytest.raises(symbo.InvalidInput, match=r"d = 1000000 \(the box's length\), want 1 ≤ d ≤ 1000"):
            symbo.Optimizer(lo, hi, group="signflip")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    symbo.Optimizer(np.zeros(1000), np.ones(1000), group="none", kernel="base").close()


def test_group_on_some_coordinates():
    """coords: a permutation of three of five coordinates — the next point
    stays on one orbit when the told points are permuted on those
    coordinates (the acquisition is invariant; rounding picks the member),
    and the kernel changes when a free coordinate is swapped in."""
    rng = np.random.default_rng(4)
    X = rng.uniform(-1, 1, size=(7, 5))
    y = -np.sum((np.sort(X[:, :3], axis=1) - [-0.5, 0.0, 0.5]) ** 2, axis=1) - (X[:, 3] - 0.2) ** 2 - X[:, 4] ** 2

    def next_point(X):
        opt = symbo.Optimizer([-1] * 5, [1] * 5, group="permutation", coords=[0, 1, 2], kernel="plus", seed=1, init=5)
        for x, v in zip(X, y):
            opt.tell(x, v)
        return opt.suggest(1)[0]

    a = next_point(X)
    b = next_point(X[:, [2, 0, 1, 3, 4]])
    np.testing.assert_allclose(np.sort(a[:3]), np.sort(b[:3]), atol=1e-6)
    np.testing.assert_allclose(a[3:], b[3:], atol=1e-6)
    K = symbo.gram(X, group="permutation", coords=[0, 1, 2], base="rbf", lengthscale=0.7, kernel="avg")
    K2 = symbo.gram(X[:, [1, 2, 0, 3, 4]], X, group="permutation", coords=[0, 1, 2], base="rbf", lengthscale=0.7, kernel="avg")
    np.testing.assert_allclose(K2, K, rtol=1e-12)
    K3 = symbo.gram(X[:, [0, 1, 3, 2, 4]], X, group="permutation", coords=[0, 1, 2], base="rbf", lengthscale=0.7, kernel="avg")
    assert not np.allclose(K3, K)
    with pytest.raises(symbo.InvalidInput):
        symbo.Optimizer([-1] * 5, [1] * 5, group="permutation", coords=[0, 1, 7], seed=1)
    with pytest.raises(symbo.InvalidInput):
        symbo.Optimizer([-1] * 5, [1] * 5, group="permutation", coords=[], seed=1)


def test_liar():
    # liar= reaches the library: with a pending point the worst value and
    # the mean give different proposals; an unknown liar is an error.
    props = {}
    for liar in ("mean", "worst", None):
        o = opt(seed=3, init=4, liar=liar)
        for _ in range(6):
            x = o.ask()
            o.tell(x, f(x))
        o.ask()  # pending: the liar tells it
        props[liar] = o.suggest(1)
    assert not np.array_equal(props["mean"], props["worst"])
    assert np.array_equal(props[None], props["mean"])  # the default
    with pytest.raises(symbo.InvalidInput, match="liar"):
        opt(liar="median")


def test_many_asks_before_any_result():
    # Issue 15, defect 1: eight workers asking before any result (init 5)
    # crashed the sixth ask; now the initial design continues, each point on
    # its own orbit, and a failed point counts as handed out too.
    o = opt(init=5)
    xs = [o.ask() for _ in range(12)]
    o.fail(xs[0])
    xs += list(o.ask_batch(4))
    assert min_orbit_distance(np.array(xs)) > 1e-3 * DIAG
    assert len(o.pending) == 15 and len(o.failed) == 1


def test_optuna_first_trial_inf_then_seven_workers():
    # Issue 15, defect 1 through Optuna: the first trial returns inf, then
    # seven trials are asked before any is told.
    optuna = pytest.importorskip("optuna")
    from symbo.optuna import SymboSampler

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="minimize",
                                sampler=SymboSampler(group="hyperoctahedral", seed=1, n_startup_trials=5))
    t0 = study.ask()
    [t0.suggest_float("x%d" % i, -2, 2) for i in range(3)]
    study.tell(t0, float("inf"))
    pts = []
    for _ in range(7):
        t = study.ask()
        pts.append([t.suggest_float("x%d" % i, -2, 2) for i in range(3)])
        assert "symbo:x" in study._storage.get_trial(t._trial_id).system_attrs  # symbo's, not the fallback's
    assert min_orbit_distance(np.array(pts)) > 1e-3 * DIAG


def test_mean():
    # mean= reaches the library: the constant mean changes the proposal;
    # an unknown value is an error; the default is the constant mean.
    props = {}
    for mean in ("sample", "constant", None):
        o = opt(seed=3, init=4, mean=mean)
        for _ in range(6):
            x = o.ask()
            o.tell(x, f(x))
        props[mean] = o.suggest(1)
    assert not np.array_equal(props["sample"], props["constant"])
    assert np.array_equal(props[None], props["constant"])
    with pytest.raises(symbo.InvalidInput, match="mean"):
        opt(mean="median")


def test_defaults_prior_and_mean():
    # Naming neither prior nor mean is BoTorch's priors and the constant
    # mean (lab/results/defaults.md), not the paper's protocol.
    def prop(**kw):
        o = opt(seed=4, init=4, **kw)
        for _ in range(6):
            x = o.ask()
            o.tell(x, f(x))
        return o.suggest(1)
    d = prop()
    assert np.array_equal(d, prop(prior="botorch", mean="constant"))
    assert not np.array_equal(d, prop(prior="none", mean="sample"))


@pytest.mark.parametrize("kernel", ["auto", "portfolio"])
def test_deciding_kernel(kernel):
    # kernel="auto" / "portfolio" reaches the library: its proposal is one
    # of its candidates' own (each candidate's optimizer, told the same
    # observations with the same seed, proposes the same point; auto's is
    # the one it chose, portfolio's the best by the means or its
    # fixed-point probe), and a resumed optimizer proposes the same point
    # as the uninterrupted one.
    # Each candidate its own fit (candidate_fit="own"), as a single kernel
    # fits: anchored, the others search around plus's lengthscale; and one
    # proposal per candidate (hedge=0): hedged, a portfolio may evaluate a
    # candidate's expected-improvement maximizer, which no single kernel
    # under UCB proposes.
    a = opt(seed=5, init=4, kernel=kernel, candidate_fit="own", hedge=0)
    for _ in range(8):
        x = a.ask()
        a.tell(x, f(x))
    nxt = a.suggest(1)
    obs = json.loads(a.history_json())["observations"]
    singles = {}
    for k in ("nystrom", "avg", "plus"):
        o = opt(seed=5, init=4, kernel=k)
        for ob in obs:
            o.tell(np.array(ob["x"]), ob["y"])
        singles[k] = o.suggest(1)
    assert any(np.array_equal(nxt, s) for s in singles.values()), (nxt, singles)
    b = opt(seed=5, init=4, kernel=kernel, candidate_fit="own", hedge=0)
    b.restore(a.history_json())
    assert np.array_equal(b.suggest(1), nxt)


def test_restore_refuses_null_numbers():
    # A history's null or missing number was read as 0
    # ("y": None restored y = 0). It is InvalidInput naming the place.
    o = opt()
    o.tell([0.5, 1.0, 1.5], 1.0)
    h = json.loads(o.history_json())
    for mutate, where in [(lambda h: h["observations"][0].update(y=None), r"observations\[0\]\.y is null"),
                          (lambda h: h["observations"][0].pop("y"), r"observations\[0\]\.y is missing"),
                          (lambda h: h["observations"][0]["x"].__setitem__(0, None), r"observations\[0\]\.x\[0\] is null"),
                          (lambda h: h.update(failed=[[None, None, None]]), r"failed\[0\]\[0\] is null")]:
        bad = json.loads(json.dumps(h))
        mutate(bad)
        with pytest.raises(symbo.InvalidInput, match=where):
            opt().restore(bad)


def test_long_input_is_not_echoed_whole():
    # a 20 MB kernel name was echoed whole into the message. The
    # C ABI's messages (symbo_last_error) bound each quoted input; and
    # settings over 1 MiB are refused before they are read at all.
    name = "plus+" + "x" * (900 << 10)
    with pytest.raises(symbo.InvalidInput, match=r"unknown kernel .*\(%d bytes\)" % len(name)) as e:
        symbo.Optimizer([-1.0], [1.0], group="signflip", kernel=name)
    assert len(str(e.value)) < 400
    with pytest.raises(symbo.InvalidInput, match=r"settings is longer than 1048576 bytes") as e:
        symbo.Optimizer([-1.0], [1.0], group="signflip", kernel="plus+" + "x" * (20 << 20))
    assert len(str(e.value)) < 400


def test_copy_and_pickle_hold_their_own_handle():
    """A copy, deep copy or pickle is a second optimizer restored from the
    first's history: it proposes the same point, and closing or collecting
    one leaves the other working (they once shared one handle, so the
    copy's collection freed the original)."""
    import copy
    import pickle
    o = symbo.Optimizer([-1, -1], [1, 1], group="signflip", kernel="plus", seed=4, minimize=True)
    for _ in range(3):
        x = o.ask()
        o.tell(x, float(np.sum(x ** 2)))
    o.add_pending(o.ask())
    for c in (copy.copy(o), copy.deepcopy(o), pickle.loads(pickle.dumps(o))):
        assert c._h != o._h
        assert c.history_json() == o.history_json()
        np.testing.assert_array_equal(c.suggest(), o.suggest())
        c.close()
        del c
        gc.collect()
        o.suggest()  # still open
    o.close()
    with pytest.raises(symbo.InvalidInput, match="closed"):
        copy.copy(o)


def test_pickle_keeps_its_matrices_file(tmp_path, monkeypatch):
    """A relative matrices= path is the file it named when the optimizer
    was made: unpickled in another directory holding another g.json, the
    copy proposes what the original does (it read the other file, and
    proposed another point, with no error)."""
    import pickle
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "g.json").write_text(json.dumps({"generators": [[[-1, 0], [0, -1]]]}))  # x -> -x
    (b / "g.json").write_text(json.dumps({"generators": [[[0, 1], [1, 0]]]}))  # swap
    monkeypatch.chdir(a)
    o = symbo.Optimizer([-1, -1], [1, 1], group="matrices", matrices="g.json", kernel="plus", seed=2, minimize=True)
    for _ in range(6):
        x = o.ask()
        o.tell(x, float((x[0] - 0.3) ** 2 + (x[1] + 0.5) ** 2))
    data = pickle.dumps(o)
    monkeypatch.chdir(b)
    c = pickle.loads(data)
    np.testing.assert_array_equal(c.suggest(), o.suggest())
    c.close()
    o.close()


@pytest.mark.parametrize("kw, match", [
    ({"minimize": "false"}, "minimize must be True or False"),
    ({"normalize": "false"}, "normalize must be True or False"),
    ({"ard": 1}, "ard must be True or False"),
    ({"allow_repeats": "no"}, "allow_repeats must be True or False"),
    ({"block": 1.9, "group": "blockperm"}, "block must be an integer"),
    ({"seed": 1.5}, "seed must be an integer"),
    ({"init": 0}, "init = 0"),
])
def test_optimizer_arguments_of_the_wrong_kind(kw, match):
    """A keyword of the wrong kind is InvalidInput, never its truth value
    or its integer part: minimize="false" once minimized."""
    kw = {"group": "signflip", "kernel": "plus", **kw}
    with pytest.raises(symbo.InvalidInput, match=match):
        symbo.Optimizer([-1, -1, -1, -1], [1, 1, 1, 1], **kw)


def test_arrays_that_are_not_numbers():
    with pytest.raises(symbo.InvalidInput, match="lo must be an array of numbers"):
        symbo.Optimizer(["a"], [1], group="signflip")
    with symbo.Optimizer([-1], [1], group="signflip", kernel="plus") as o:
        with pytest.raises(symbo.InvalidInput, match="x must be an array of numbers"):
            o.tell("ab", 1)
    X = np.array([[0.1, 0.2], [0.3, -0.4]])
    spec = dict(group="signflip", base="rbf", kernel="plus")
    with pytest.raises(symbo.InvalidInput, match="lengthscale must be a number"):
        symbo.gram(X, lengthscale="x", **spec)
    with pytest.raises(symbo.InvalidInput, match="block must be an integer"):
        symbo.gram(X, lengthscale=1.0, group="blockperm", block="x", base="rbf", kernel="avg")


def test_gram_empty_y_or_design_is_refused():
    """An explicitly empty Y or design is refused by name; it once reached
    the library as NULL, that is "Y = X" ("out is NULL" for Y, and an empty
    design silently became X)."""
    X = np.array([[0.1, 0.2, 0.3], [0.3, -0.4, 0.5]])
    spec = dict(group="signflip", base="rbf", lengthscale=1.0)
    with pytest.raises(symbo.InvalidInput, match="Y has no rows"):
        symbo.gram(X, np.empty((0, 3)), kernel="avg", **spec)
    with pytest.raises(symbo.InvalidInput, match="Y has 7 columns"):
        symbo.gram(X, np.empty((0, 7)), kernel="avg", **spec)
    with pytest.raises(symbo.InvalidInput, match="design has no rows"):
        symbo.gram(X, kernel="plus", design=np.empty((0, 3)), **spec)


def test_odd_inputs_are_refused_or_kept_exactly():
    """Inputs NumPy or ctypes would take in silently are InvalidInput:
    complex values (NumPy drops the imaginary part), a bool where a count
    or a value goes, y = 10**400, a 1-d matrix that is not whole rows, a
    history with a NUL byte, a point whose normalized coordinate overflows
    in near, near's x with no points, a string where y goes and a
    non-sequence for coords; history keeps -0.0's sign (tell
    and cancel match points bit for bit) and restore reads bytes-like
    text."""
    o = symbo.Optimizer([-1, -1], [1, 1], group="permutation", seed=1)
    for call in (lambda: o.add_pending(np.array([0.2 + 5j, 0.3])), lambda: o.tell([0.5, 0.5], np.complex128(2 + 3j)),
                 lambda: o.near([0.1, 0.2], np.array([[0.1, 0.2]]) + 1j),
                 lambda: symbo.Optimizer(np.array([1j, 0]), [1, 1], group="none"),
                 lambda: symbo.gram(np.array([[0.1, 0.2]]) + 0j, group="signflip", base="rbf", lengthscale=1.0,
                                    kernel="avg")):
        with pytest.raises(symbo.InvalidInput, match="real"):
            call()
    for call in (lambda: o.tell([0.5, 0.5], True), lambda: o.suggest(True),
                 lambda: symbo.Optimizer([0, 0], [1, 1], group="none", seed=True),
                 lambda: symbo.Optimizer([0, 0], [1, 1], group="none", init=True)):
        with pytest.raises(symbo.InvalidInput):
            call()
    with pytest.raises(symbo.InvalidInput, match="real number"):
        o.tell([0.5, 0.5], 10 ** 400)
    # A string was parsed as a number, and coords=5 raised TypeError.
    for y in ("1.0", b"1.0"):
        with pytest.raises(symbo.InvalidInput, match="real number"):
            o.tell([0.5, 0.5], y)
    for coords in (5, "01", 1.5):
        with pytest.raises(symbo.InvalidInput, match="coords"):
            symbo.Optimizer([0, 0, 0], [1, 1, 1], group="permutation", coords=coords)
    for call in (lambda: o.tell([[0.1], [0.2, 0.3]], 1.0), lambda: o.tell([0.5, 0.5], [[1], [1, 2]]),
                 lambda: symbo.Optimizer([[1], [1, 2]], [1, 1], group="none")):
        with pytest.raises(symbo.InvalidInput):  # ragged
            call()
    with pytest.raises(symbo.InvalidInput, match="not rows of 2"):
        symbo.gram([[0.1, 0.2]], [0.1, 0.2, 0.3], group="signflip", base="rbf", lengthscale=1.0, kernel="avg")
    with pytest.raises(symbo.InvalidInput, match="too far outside the box"):
        symbo.Optimizer([0, 0, 0], [1, 1, 1], group="none").near([9e307, 0, 0], [[9e307, 0, 0]])
    with pytest.raises(symbo.InvalidInput, match="not finite"):
        o.near([math.nan, 0.0], [])
    # A point of another shape was flattened: a 2 × 2 array told as one
    # point of four coordinates, a column of d as a row.
    o4 = symbo.Optimizer([0] * 4, [1] * 4, group="permutation", seed=1)
    for call in (lambda: o4.tell(np.full((2, 2), 0.5), 1.0), lambda: o.tell(np.full((2, 1), 0.5), 1.0),
                 lambda: o.fail(np.full((2, 1), 0.5)), lambda: o.cancel(np.full((1, 1, 2), 0.5)),
                 lambda: o.add_pending(np.full((1, 1, 2), 0.5)), lambda: o.near(np.full((2, 1), 0.5), [[0.5, 0.5]])):
        with pytest.raises(symbo.InvalidInput, match="one point"):
            call()
    assert len(o4.history[1]) == 0 and len(o.history[1]) == 0 and len(o.pending) == 0
    o4.tell(np.full((1, 4), 0.5), 1.0)  # one row of ask_batch's result is a point
    assert o4.history[0].tolist() == [[0.5] * 4]
    o.tell([-0.0, 0.25], 1.0)
    X, _ = o.history
    assert np.signbit(X[0, 0]) and X[0, 0] == 0
    saved = o.history_json()
    with pytest.raises(symbo.InvalidInput, match="NUL"):
        symbo.Optimizer([-1, -1], [1, 1], group="permutation", seed=1).restore(saved.encode() + b"\0junk")
    for form in (bytearray(saved.encode()), memoryview(saved.encode())):
        r = symbo.Optimizer([-1, -1], [1, 1], group="permutation", seed=1)
        r.restore(form)
        assert r.history_json() == saved


def test_restore_from_decoded_dict_keeps_negative_zero():
    """restore takes history_json()'s text or "the dict it decodes to":
    json.loads read the text's -0 as the int 0, so a restored optimizer
    held 0.0 where the original held -0.0 — a later tell of the -0.0
    point (matched bit for bit) left it pending there, and the two
    optimizers proposed different points."""
    kw = dict(group="signflip", kernel="plus", seed=3, init=2, minimize=True)
    o = symbo.Optimizer([-1, -1], [1, 1], **kw)
    o.tell([-0.0, 0.5], 1.0)
    o.tell([0.7, -0.3], 2.0)
    o.tell([0.2, -0.9], 0.5)
    o.add_pending([-0.0, -0.6])
    r = symbo.Optimizer([-1, -1], [1, 1], **kw)
    r.restore(json.loads(o.history_json()))
    assert r.history_json() == o.history_json()
    for a in (o, r):
        a.tell([-0.0, -0.6], 3.0)
    assert len(r.pending) == 0
    assert o.suggest(2).tobytes() == r.suggest(2).tobytes()


def test_gram_too_large_is_a_size_error():
    """A kernel matrix too large to hold is symbo's SizeError, naming the
    budget, whether NumPy cannot allocate it (it raised its own
    MemoryError, naming no budget) or the library's budget refuses it."""
    with pytest.raises(symbo.SizeError, match="budget"):
        symbo.gram(np.zeros((200000, 1)), group="none", base="rbf", lengthscale=1.0, kernel="base")


@pytest.mark.long
def test_collected_optimizer_keeps_the_error_message():
    """An Optimizer freed by the cyclic collector while the same thread was
    between a failing call and reading its message (gc runs at any
    allocation, _check's buffer included) erased the message: its free
    succeeded and cleared the thread's last error, and the SymboError
    raised had an empty message. Scanning the collection threshold puts
    the collection at every allocation of that window in turn."""
    def garbage():
        g = symbo.Optimizer([0], [1], group="none")
        g.me = g  # a cycle: only the cyclic collector frees it
    o = symbo.Optimizer([0, 0], [1, 1], group="none")
    old = gc.get_threshold()
    lost = []
    try:
        for n in range(1, 200):
            gc.collect()
            garbage()
            gc.set_threshold(n)
            try:
                o.tell([5.0, 5.0], 1.0)
            except symbo.InvalidInput as e:
                if "outside" not in str(e):
                    lost.append((n, str(e)))
            finally:
                gc.set_threshold(*old)
    finally:
        gc.set_threshold(*old)
    gc.collect()
    o.close()
    assert not lost, lost
    # The deferred handles are freed by the next call.
    h = symbo.Optimizer([0], [1], group="none")
    h.close()
    assert not symbo._orphans


@pytest.mark.parametrize("call", [
    lambda: symbo.gram([[0.1, 0.2]], group="none", base=b"rbf", lengthscale=1.0, kernel="base"),
    lambda: symbo.gram([[0.1, 0.2]], group="none", base="rbf", lengthscale=1.0, kernel="base", method={"auto"}),
    lambda: symbo.Optimizer([0], [1], group="none", kernel=np.int64(3)),
    lambda: symbo.Optimizer([0], [1], group="none", acq=b"ei"),
    lambda: symbo.Optimizer([0, 0], [1, 1], group="matrices", matrices=5),
    lambda: symbo.Optimizer([0], [1], group="none").restore("\ud800"),
], ids=["base-bytes", "method-set", "kernel-int64", "acq-bytes", "matrices-int", "restore-surrogate"])
def test_settings_python_cannot_encode_are_invalid_input(call):
    """A setting json.dumps cannot write (bytes, a set, a NumPy integer), a
    matrices= that is not a path, and a history str that is not encodable
    text raised TypeError or UnicodeEncodeError, not the documented
    InvalidInput."""
    with pytest.raises(symbo.InvalidInput):
        call()


def test_matrices_path_may_be_bytes(tmp_path):
    """matrices= takes a path as os.fspath does, bytes included (json.dumps
    raised TypeError on the bytes)."""
    f = tmp_path / "g.json"
    f.write_text(json.dumps({"generators": [[[-1, 0], [0, -1]]]}))
    a = symbo.Optimizer([-1, -1], [1, 1], group="matrices", matrices=os.fsencode(f), kernel="plus", seed=2)
    b = symbo.Optimizer([-1, -1], [1, 1], group="matrices", matrices=str(f), kernel="plus", seed=2)
    assert a.suggest().tobytes() == b.suggest().tobytes()


def test_matrices_path_not_utf8_says_so(tmp_path):
    """A matrices file whose name is not UTF-8 (bytes a POSIX name may
    hold) reached the library as another name, the JSON settings' text:
    InvalidInput "open …/g\ufffd.json: no such file or directory" for a
    file that exists. It says the name is not UTF-8 now."""
    f = os.path.join(os.fsencode(tmp_path), b"g\xff.json")
    try:
        with open(f, "w") as w:
            w.write(json.dumps({"generators": [[[-1, 0], [0, -1]]]}))
    except (OSError, UnicodeError):
        pytest.skip("the file system refuses a name that is not UTF-8")
    for path in (f, os.fsdecode(f)):
        with pytest.raises(symbo.InvalidInput, match="is not UTF-8"):
            symbo.Optimizer([-1, -1], [1, 1], group="matrices", matrices=path, kernel="plus")
        with pytest.raises(symbo.InvalidInput, match="is not UTF-8"):
            symbo.gram([[0.0, 0.0]], group="matrices", matrices=path, base="rbf", lengthscale=1.0, kernel="avg")


def test_strings_and_dates_are_not_numbers():
    """_floats documents strings as what NumPy cannot read as real numbers
    (InvalidInput), as y's strings are: NumPy parsed an array of numeric
    strings ("0.5"), bytes or an object array holding one, and turned
    dates and durations into counts of days or seconds, so a point of
    strings was told, a box of strings made."""
    o = symbo.Optimizer([0, 0], [1, 1], group="none")
    for x in (["0.5", "0.25"], np.array([b"0.5", b"0.25"]), np.array(["0.5", 0.25], dtype=object),
              np.array(["1970-01-01", "1970-01-01"], dtype="datetime64[D]"), np.array([0, 1], dtype="timedelta64[s]")):
        with pytest.raises(symbo.InvalidInput, match="x must be an array of numbers, got (strings|dates|durations)"):
            o.tell(x, 1.0)
    with pytest.raises(symbo.InvalidInput, match="lo must be an array of numbers, got (strings|dates|durations)"):
        symbo.Optimizer(["0"], ["1"], group="none")
    with pytest.raises(symbo.InvalidInput, match="X must be an array of numbers, got (strings|dates|durations)"):
        symbo.gram([["1", "0"]], group="none", base="rbf", lengthscale=1.0, kernel="base")
    assert len(o.history[1]) == 0
    # Numbers of every kind are still numbers.
    from fractions import Fraction
    o.tell(np.array([Fraction(1, 2), 0.25], dtype=object), 1.0)
    o.tell(np.array([1, 0], dtype=np.int8), 2.0)
    o.tell(np.array([0.5, 0.75], dtype=np.float32), 3.0)
    assert len(o.history[1]) == 3


def test_booleans_are_not_numbers():
    """Points and values are real numbers, and a boolean is none
    (InvalidInput, as strings are): NumPy read a bool array, a list of
    bools or one mixing them with numbers ([True, 0.5] is a float64 array)
    and a one-element bool array y as 1.0 and 0.0, so every entry point
    that takes points or values took them — a point told, failed, made
    pending, a box, a Gram matrix — and so did y = np.array("1.5")."""
    o = symbo.Optimizer([0, 0], [1, 1], group="none")
    bools = (np.array([True, False]), [True, False], [True, 0.5], (np.True_, 0.5),
             np.array([True, 0.5], dtype=object), [np.array([True]), np.array([0.5])])
    for x in bools:
        for call in (lambda: o.tell(x, 1.0), lambda: o.fail(x), lambda: o.add_pending(x), lambda: o.cancel(x),
                     lambda: o.near(x, [[0.5, 0.5]]), lambda: o.near([0.5, 0.5], x)):
            with pytest.raises(symbo.InvalidInput, match="(x|points) must be an array of numbers, got booleans"):
                call()
    with pytest.raises(symbo.InvalidInput, match="x must be an array of numbers, got booleans"):
        o.add_pending([[0.5, 0.5], [True, False]])
    with pytest.raises(symbo.InvalidInput, match="x must be an array of numbers, got booleans"):
        symbo.Optimizer([0], [1], group="none").tell(True, 1.0)
    for y in (np.array(True), np.array([False]), np.array(True, dtype=object), np.array("1.5"), np.array([b"1.5"])):
        with pytest.raises(symbo.InvalidInput, match="y must be a real number"):
            o.tell([0.5, 0.5], y)
    for lo, hi in (([False, False], [True, True]), (np.zeros(2, dtype=bool), [1, 1]), ([0, 0], [True, 1.0])):
        with pytest.raises(symbo.InvalidInput, match="(lo|hi) must be an array of numbers, got booleans"):
            symbo.Optimizer(lo, hi, group="none")
    spec = dict(group="signflip", base="rbf", lengthscale=1.0)
    X = np.array([[0.1, 0.2], [0.3, -0.4]])
    for call, name in ((lambda: symbo.gram(X.astype(bool), kernel="avg", **spec), "X"),
                       (lambda: symbo.gram(X, [[True, 0.5]], kernel="avg", **spec), "Y"),
                       (lambda: symbo.gram(X, kernel="plus", design=[[1, 0], [True, 0]], **spec), "design"),
                       (lambda: symbo.gram(X, group="scaling", base="rbf", lengthscale=1.0, kernel="avg",
                                           box=([0.1, True], [2, 2])), "hi|lo")):
        with pytest.raises(symbo.InvalidInput, match="(%s) must be an array of numbers, got booleans" % name):
            call()
    # restore refused them already (the library reads a JSON bool as no number).
    for obs in ({"x": [True, False], "y": 1.0}, {"x": [1, 0], "y": True}):
        h = dict(json.loads(o.history_json()), observations=[obs])
        with pytest.raises(symbo.InvalidInput, match="JSON bool"):
            symbo.Optimizer([0, 0], [1, 1], group="none").restore(h)
    assert len(o.history[1]) == 0 and len(o.pending) == 0 and len(o.failed) == 0
    # The numbers 1 and 0, and a one-element array of a number, are still numbers.
    o.tell([1, 0], 1.0)
    o.tell(np.array([1, 0], dtype=np.uint8), np.array(2.0))
    o.tell(np.array([0.5, 0.5], dtype=object), np.array([3]))
    assert o.history[1].tolist() == [1.0, 2.0, 3.0]
    assert o.near([1, 0], [[1.0, 0.0], [0.0, 1.0]]).tolist() == [True, False]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_forked_child_raises_instead_of_hanging():
    """Go's runtime does not survive fork: a child forked after import
    (os.fork, multiprocessing's default start method on Linux) that called
    the library hung for good. It raises InternalError now, naming the
    fork, and the parent is unaffected."""
    import time
    def study(o):
        for _ in range(6):  # past the initial design: GP fits
            x = o.ask()
            o.tell(x, float(x.sum()))
    o = symbo.Optimizer([0, 0], [1, 1], group="permutation", seed=1)
    study(o)
    pid = os.fork()
    if pid == 0:  # the child: report through the exit status only
        code = 1
        try:
            study(symbo.Optimizer([0, 0], [1, 1], group="permutation", seed=1))
            code = 2
        except symbo.InternalError as e:
            code = 3 if "fork" in str(e) else 4
        except BaseException:
            code = 5
        os._exit(code)
    deadline = time.monotonic() + 20
    status = None
    while time.monotonic() < deadline:
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
            break
        time.sleep(0.05)
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the forked child hung in the library")
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3, status
    o.ask()  # the parent's library works on
    o.close()


def test_float_environment_of_the_calling_thread():
    """A thread running in another floating-point rounding mode (here
    FE_UPWARD, set through libm's fesetround) gets the same bits as a
    thread in the default one, and keeps its mode: the library computed in
    the calling thread's environment, so gram and the optimizer's points
    were other bits there."""
    libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    FE_UPWARD = 0x800  # x86's <fenv.h>
    if not (os.uname().machine in ("x86_64", "i686", "i386") and libm.fegetround() == 0):
        pytest.skip("FE_UPWARD's value is x86's")
    X = np.array([[((i * 3 + k) * 37 % 23 - 11) / 8.0 for k in range(3)] for i in range(10)])

    def compute():
        g = symbo.gram(X, group="hyperoctahedral", base="matern52", lengthscale=1.3, kernel="avg")
        o = symbo.Optimizer(LO, HI, group="hyperoctahedral", kernel="plus", seed=7, init=3)
        pts = []
        for i in range(6):
            x = o.ask()
            pts.append(x)
            o.tell(x, float(i * 7 % 5))  # exact in any rounding mode
        o.close()
        return g.tobytes(), np.array(pts).tobytes()

    want = compute()
    got, modes = [], []

    def upward():
        libm.fesetround(FE_UPWARD)
        try:
            got.append(compute())
            modes.append(libm.fegetround())
        finally:
            libm.fesetround(0)

    t = threading.Thread(target=upward)
    t.start()
    t.join()
    assert modes == [FE_UPWARD]
    assert got[0][0] == want[0], "gram: other bits under FE_UPWARD"
    assert got[0][1] == want[1], "Optimizer: other points under FE_UPWARD"
    assert compute() == want


def _interrupted(real, name, seen=None):
    """A stand-in for the library real whose function name runs, then
    raises KeyboardInterrupt, as a Ctrl-C arriving as the call returns
    would; seen, when given, is called with the call's arguments first."""
    class Interrupted:
        def __getattr__(self, attr):
            f = getattr(real, attr)
            if attr != name:
                return f

            def call(*args):
                f(*args)
                if seen is not None:
                    seen(*args)
                raise KeyboardInterrupt
            return call
    return Interrupted()


def test_interrupted_ask_records_nothing(monkeypatch):
    """A KeyboardInterrupt (Ctrl-C) that arrives during a long ask is
    raised as the library call returns, after the library recorded the
    points as pending: they reached no caller, stayed pending for good (a
    liar's value, their orbits never proposed) and the next ask proposed
    another point. Those points are cancelled now: the ask records nothing
    and the next one proposes them again."""
    def study():
        o = symbo.Optimizer([0, 0], [1, 1], group="permutation", seed=1, init=2)
        for _ in range(3):
            x = o.ask()
            o.tell(x, float(x.sum()))
        return o
    real = symbo._lib

    want = study().ask_batch(2)
    o = study()
    monkeypatch.setattr(symbo, "_lib", _interrupted(real, "symbo_optimizer_ask_batch"))
    for ask in (o.ask, lambda: o.ask_batch(2)):
        with pytest.raises(KeyboardInterrupt):
            ask()
        assert o.pending.shape == (0, 2)
    monkeypatch.setattr(symbo, "_lib", real)
    assert np.array_equal(o.ask_batch(2), want)
    o.close()


class _Tagged(symbo.Optimizer):
    def tagged(self):
        return self.tag


def test_copy_and_pickle_keep_subclass_and_attributes():
    """A copy or a pickle of a subclass's optimizer was a bare Optimizer,
    without the attributes set on the original (its class's methods and
    its state gone without a word). Both are kept now."""
    import copy
    import pickle
    o = _Tagged([0, 0], [1, 1], group="permutation", seed=3, init=2)
    o.tag = ["run", 7]
    x = o.ask()
    o.tell(x, 1.0)
    for c in (copy.copy(o), copy.deepcopy(o), pickle.loads(pickle.dumps(o))):
        assert type(c) is _Tagged and c.tagged() == ["run", 7]
        assert c.suggest().tobytes() == o.suggest().tobytes()
        c.close()
    assert copy.deepcopy(o).tag is not o.tag
    o.close()


def test_tell_of_a_rounded_point_leaves_the_asked_one_pending():
    """tell and fail match a pending point bit for bit (the docstrings say
    so): a float32 or rounded copy is another point."""
    o = symbo.Optimizer([0, 0], [1, 1], group="permutation", seed=1, init=3)
    x = o.ask()
    o.tell(x.astype(np.float32), 1.0)
    assert o.pending.tobytes() == x.tobytes()
    o.fail(np.round(x, 3))
    assert o.pending.tobytes() == x.tobytes()
    o.tell(x, 1.0)
    assert o.pending.shape == (0, 2)
    o.close()


def test_mem_budget_is_a_setting():
    """mem_budget sets the library's budget, as the settings key does in C
    and the SizeError message says: under 1 KiB the optimizer's raw
    samples are refused at construction; a number of bytes and a size
    string are read; anything else is InvalidInput. It was no parameter:
    only $SYMBO_MEMORY_BUDGET could set it from Python."""
    with pytest.raises(symbo.SizeError, match="budget"):
        symbo.Optimizer(LO, HI, group="none", mem_budget="1KiB")
    with pytest.raises(symbo.SizeError, match="budget"):
        symbo.Optimizer(LO, HI, group="none", mem_budget=1024)
    for ok in (1 << 30, np.int64(1 << 30), "1GiB"):
        o = symbo.Optimizer(LO, HI, group="none", mem_budget=ok)
        assert o.ask().shape == (3,)
        o.close()
    for bad in (True, 1.5, "abc", "-1"):
        with pytest.raises(symbo.InvalidInput):
            symbo.Optimizer(LO, HI, group="none", mem_budget=bad)


def test_bad_y_message_is_short():
    """A y that is no float64 is refused in a line of bounded length: an int
    past float64's range said all its digits (401 for 10**400), a long
    string all its characters."""
    o = symbo.Optimizer(LO, HI, group="none")
    x = o.ask()
    for y, want in ((10**400, "401 digits"), ("a" * 10000, "real number")):
        with pytest.raises(symbo.InvalidInput, match=want) as e:
            o.tell(x, y)
        assert len(str(e.value)) < 300, len(str(e.value))
    o.close()


def test_masked_entries_are_refused():
    """A masked array with a masked entry is InvalidInput naming the mask:
    np.asarray dropped the mask and told the value under it. One with no
    masked entry is its data."""
    o = symbo.Optimizer(LO, HI, group="none")
    x = o.ask()
    with pytest.raises(symbo.InvalidInput, match="masked"):
        o.tell(np.ma.masked_array(x, mask=[False, True, False]), 1.0)
    o.tell(np.ma.masked_array(x, mask=[False] * 3), 1.0)
    assert len(o.pending) == 0
    o.close()


def test_interrupted_construction_frees_its_handle(monkeypatch):
    """A KeyboardInterrupt (Ctrl-C) raised as symbo_optimizer_new returns,
    before the Optimizer kept the id, leaked the library's optimizer for
    the life of the process: nothing held its id to free it. The handle is
    freed now."""
    real = symbo._lib
    made = []

    monkeypatch.setattr(symbo, "_lib", _interrupted(real, "symbo_optimizer_new", lambda settings, out: made.append(out._obj.value)))
    with pytest.raises(KeyboardInterrupt):
        symbo.Optimizer([0, 0], [1, 1], group="permutation", seed=1)
    monkeypatch.setattr(symbo, "_lib", real)
    assert len(made) == 1 and made[0] > 0
    d = ctypes.c_int64()
    with pytest.raises(symbo.InvalidInput, match="not open"):
        symbo._check(real.symbo_optimizer_dim(made[0], ctypes.byref(d)))


def test_interrupted_tell_retried_is_recorded_once(monkeypatch):
    """A KeyboardInterrupt (Ctrl-C) raised as symbo_optimizer_tell
    returns, after the library recorded the value, left the caller no way
    to know it was: the natural retry recorded the observation twice. The
    interrupt now says so (a note), and the retry of the same x and y
    records nothing; a tell told twice without an interrupt is still two
    observations."""
    real = symbo._lib

    o = symbo.Optimizer([0, 0], [1, 1], group="permutation", seed=1, init=2)
    x = o.ask()
    monkeypatch.setattr(symbo, "_lib", _interrupted(real, "symbo_optimizer_tell"))
    with pytest.raises(KeyboardInterrupt) as e:
        o.tell(x, 0.5)
    monkeypatch.setattr(symbo, "_lib", real)
    if hasattr(e.value, "__notes__"):
        assert "was recorded" in e.value.__notes__[0]
    o.tell(x, 0.5)  # the retry
    X, y = o.history
    assert X.shape == (1, 2) and np.array_equal(X[0], x) and list(y) == [0.5]
    assert o.pending.shape == (0, 2)
    # Only the next tell is a retry: told again, it is a second observation.
    o.tell(x, 0.5)
    assert o.history[1].tolist() == [0.5, 0.5]
    # An interrupt before the library records nothing is not remembered.
    z = o.ask()

    class Before:
        def __getattr__(self, name):
            if name == "symbo_optimizer_tell":
                def call(*args):
                    raise KeyboardInterrupt
                return call
            return getattr(real, name)
    monkeypatch.setattr(symbo, "_lib", Before())
    with pytest.raises(KeyboardInterrupt):
        o.tell(z, 1.0)
    monkeypatch.setattr(symbo, "_lib", real)
    o.tell(z, 1.0)
    assert o.history[1].tolist() == [0.5, 0.5, 1.0]
    o.close()


def test_a_batch_the_space_runs_out_of_says_how_many():
    # A batch the search space runs out of midway — a 1-d box under sign
    # flips whose history covers [0, 1] at spacing 0.002 (the exclusion
    # radius) but for a gap around 0.51 — raises InvalidInput saying how
    # many of the q points could be proposed and that q = that many
    # returns them, from ask_batch and suggest alike (as perf suggest
    # says it); nothing is recorded, and q = k does return k points. The
    # message was the library's bare "search space exhausted: …", whose
    # pending count included the batch's own first points. It still
    # starts so: the sampler's _exhausted recognizes it.
    o = symbo.Optimizer([-1.0], [1.0], group="hyperoctahedral")
    for i in range(0, 1001, 2):
        x = i / 1000
        if x <= 0.5 or x >= 0.52:
            o.tell([x], math.sin(7 * x))
    ks = []
    for call in (o.ask_batch, o.suggest):
        with pytest.raises(symbo.InvalidInput) as e:
            call(20)
        msg = str(e.value)
        assert msg.startswith("search space exhausted"), msg
        m = re.search(r"; only (\d+) of the q = 20 points could be proposed \(the points counted above include them\): "
                       r"q = (\d+) returns those$", msg)
        assert m and m.group(1) == m.group(2), msg
        ks.append(int(m.group(1)))
    k = ks[0]
    assert ks == [k, k] and 1 <= k < 20, ks
    assert len(o.pending) == 0
    assert o.suggest(k).shape == (k, 1)
    with pytest.raises(symbo.InvalidInput, match=r"only %d of the q = %d points" % (k, k + 1)):
        o.ask_batch(k + 1)
    assert len(o.pending) == 0
    assert o.ask_batch(k).shape == (k, 1) and len(o.pending) == k
    try:
        from symbo.optuna import _exhausted
    except ImportError:  # optuna missing: the sampler's check is not run
        return
    assert _exhausted(e.value)
