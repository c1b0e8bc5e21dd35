"""A deciding kernel's candidates left out as too costly over the group
are never silent: symbo.Optimizer warns of each (UserWarning) and
Optimizer.info() lists them (the C ABI's symbo_optimizer_info); the
Optuna sampler warns once."""

import copy
import pickle
import warnings

import numpy as np
import pytest

import symbo

LIST = "portfolio:nystrom+avg:soft+plus"


def make(**kw):
    kw = {"group": "hyperoctahedral", "base": "matern52", "seed": 1, **kw}
    return symbo.Optimizer([-1.0] * 3, [1.0] * 3, **kw)


def left_out_warnings(caught):
    return [str(w.message) for w in caught if issubclass(w.category, UserWarning) and "leaves out" in str(w.message)]


def test_list_with_avg_over_hyperoctahedral3_warns_and_tells():
    # avg over hyperoctahedral(3) with Matérn-5/2 is enumerated over 48
    # elements, over the front ends' limit of 16: left out.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        o = make(kernel=LIST)
    msgs = left_out_warnings(caught)
    assert len(msgs) == 1, msgs
    assert msgs[0].startswith("symbo: kernel %s leaves out avg: k_avg over hyperoctahedral(3) with matern52" % LIST)
    assert caught[0].filename == __file__  # stacklevel: the caller's line
    info = o.info()
    assert info["kernel"] == LIST and info["candidates"] == ["nystrom", "soft", "plus"]
    assert len(info["left_out"]) == 1 and info["left_out"][0].startswith("avg: ")
    assert "AffordEnumerateLimit" in info["left_out"][0]
    assert msgs[0] == "symbo: kernel %s leaves out %s" % (LIST, info["left_out"][0])
    # A copy or a pickle is the same optimizer: it does not warn again.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        c, p = copy.deepcopy(o), pickle.loads(pickle.dumps(o))
    assert left_out_warnings(caught) == []
    assert c.info() == info and p.info() == info
    for x in (o, c, p):
        x.close()
    with pytest.raises(symbo.InvalidInput, match="closed"):
        o.info()


def test_auto_warns_too():
    with pytest.warns(UserWarning, match=r"^symbo: kernel auto leaves out avg: "):
        o = make(kernel="auto")
    assert o.info()["candidates"] == ["nystrom", "plus"]
    o.close()


@pytest.mark.parametrize("kernel, candidates", [(None, None), ("plus", ["plus"]), ("soft", ["soft"]),
                                                ("portfolio:nystrom+avg:soft+plus", ["nystrom", "avg", "soft", "plus"])])
def test_nothing_left_out_no_warning(kernel, candidates):
    # The default kernel names no avg; a single kernel is its own one
    # candidate; over hyperoctahedral(2) (8 elements) avg is kept.
    d = 2 if kernel and "avg" in kernel else 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        o = symbo.Optimizer([-1.0] * d, [1.0] * d, group="hyperoctahedral", base="matern52", kernel=kernel)
    info = o.info()
    assert info["left_out"] == []
    if kernel is None:
        assert info["kernel"].startswith("portfolio:") and "avg" not in info["candidates"]
    else:
        assert info["kernel"] == kernel and info["candidates"] == candidates
    o.close()


def test_sampler_warns_once():
    optuna = pytest.importorskip("optuna")
    from symbo.optuna import SymboSampler

    optuna.logging.set_verbosity(optuna.logging.WARNING)

    def objective(trial):
        x = np.array([trial.suggest_float("x%d" % i, -1, 1) for i in range(3)])
        return float(np.sum((np.abs(x) - 0.5) ** 2))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sampler = SymboSampler(group="hyperoctahedral", base="matern52", kernel=LIST, seed=2, n_startup_trials=2)
        assert left_out_warnings(caught) == []  # the search space is not known yet
        study = optuna.create_study(direction="minimize", sampler=sampler)
        study.optimize(objective, n_trials=5)
    msgs = left_out_warnings(caught)
    assert len(msgs) == 1, msgs  # not one per trial
    assert msgs[0].startswith("SymboSampler: kernel %s leaves out avg: k_avg over hyperoctahedral(3)" % LIST)
    assert all(issubclass(w.category, UserWarning) for w in caught if "leaves out" in str(w.message))


def test_explicit_avg_over_the_enumeration_limit_is_refused():
    # avg named alone is never left out, but an enumerated k_avg over
    # more than bo.AvgEnumerateLimit = 8192 elements is refused when the
    # optimizer is built, before any evaluation: permutation(8) with
    # Matérn-5/2 has 40320; permutation(7), 5040, is accepted, and RBF's
    # permanent is a closed form whatever the order.
    with pytest.raises(symbo.InvalidInput, match=r"permutation\(8\).*AvgEnumerateLimit"):
        symbo.Optimizer([0.0] * 8, [1.0] * 8, group="permutation", kernel="avg", base="matern52")
    symbo.Optimizer([0.0] * 7, [1.0] * 7, group="permutation", kernel="avg", base="matern52")
    symbo.Optimizer([0.0] * 8, [1.0] * 8, group="permutation", kernel="avg", base="rbf")
