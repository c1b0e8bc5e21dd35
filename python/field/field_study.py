"""The field test: one Optuna study run the way production runs it.

PostgreSQL storage (URL in SYMBO_TEST_POSTGRES, or --url), eight worker
processes started at the same instant (so eight trials are asked before
any result), an objective over a log-scaled float, an integer and four
floats that a permutation group acts on (four identical layer widths),
failing (raising) on about 20% of the box, one worker killed with SIGKILL
in the middle of a trial (its trial then marked failed, as a scheduler
would), until
120 trials have finished. Then it checks, from the study alone:

  - the study completed (at least 120 finished trials) and no surviving
    worker crashed;
  - no trial was proposed on the orbit of a trial that had failed before
    it started (failed points are never proposed again);
  - no two trials that ran at the same time share an orbit (at the same
    time: neither was COMPLETE when the other's sampler last checked its
    point — symbo:seen; proposing next to an observed point is allowed);
  - the best value beats RandomSampler's on the same budget and objective
    (a statistical check: a study failing it alone is run once more).

It prints one JSON line of figures on stdout (progress on stderr) and exits
1 if a check fails. Run it with `make field` (scripts/with-postgres.sh
starts a throwaway cluster); CI runs it.

    python3 python/field/field_study.py [--url URL] [--trials 120] [--workers 8]
"""

import argparse
import json
import math
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import numpy as np  # noqa: E402
import optuna  # noqa: E402
from optuna.trial import TrialState  # noqa: E402
from symbo.optuna import seen_trials  # noqa: E402

# The search space: four widths w0..w3 in [0, 8] that a permutation acts
# on, a learning rate in [1e-5, 1e-1] (log scale) and an integer k in
# [1, 8]. The objective fails where max(w) > FAIL_ABOVE: 1 − (7.565/8)⁴ ≈
# 20% of the box.
WIDTHS = ["w0", "w1", "w2", "w3"]
TARGET = np.array([1.0, 3.0, 5.0, 7.0])
FAIL_ABOVE = 7.565

# Two points are on one orbit when their modelled coordinates (sorted
# widths, log10 lr, k) are within this fraction of the box diagonal: the
# sampler's exclusion radius.
EXCLUSION = 1e-3


def objective_value(w, lr, k):
    """The objective at a point, or None where it fails."""
    w = np.asarray(w, dtype=float)
    if w.max() > FAIL_ABOVE:
        return None
    return float(np.sum((np.sort(w) - TARGET) ** 2) / 4 + (math.log10(lr) + 3) ** 2 + 0.25 * (k - 5) ** 2)


def suggest(trial):
    w = [trial.suggest_float(n, 0.0, 8.0) for n in WIDTHS]
    lr = trial.suggest_float("lr", 1e-5, 1e-1, log=True)
    k = trial.suggest_int("k", 1, 8)
    return w, lr, k


def modelled(params):
    """The coordinates the sampler models a trial in, where its exclusion
    radius holds: sorted widths (the orbit of the permutation), the
    natural log of lr (a log-scaled float), and k (an integer, relaxed to
    [0.5, 8.5])."""
    w = sorted(params[n] for n in WIDTHS)
    return np.array(w + [math.log(params["lr"]), float(params["k"])])


# The sampler measures its exclusion radius as the library does
# (symbo.Optimizer.near), in the library's normalized coordinates: a class
# of coordinates the group mixes shares one map, the centre and half-width
# of the union of its sides — the four widths: 4 and 4 — and every other
# coordinate its own: ln lr half-side ln(1e4)/2, k half-side 4 on
# [0.5, 8.5]. Distances and the diagonal are taken after dividing by the
# half-widths (centres cancel). Written out here, independently of the
# library's code.
SCALE = np.array([4.0] * 4 + [math.log(1e4) / 2, 4.0])
SIDES = np.array([8.0] * 4 + [math.log(1e4), 8.0])
DIAG = float(np.linalg.norm(SIDES / SCALE))


def same_orbit(a, b):
    """Whether b lies within the sampler's exclusion radius (1e-3 of the
    normalized modelled box's diagonal) of a's orbit: what symbo
    guarantees for pending and failed points. (Measured in other
    coordinates — unscaled, or with the sampler's former powers of two —
    it flagged pairs symbo keeps apart, 1.007 and 1.24 of its radius
    away in its own.)"""
    return float(np.linalg.norm((modelled(a) - modelled(b)) / SCALE)) < EXCLUSION * DIAG


WORKER = r"""
import os, sys, time
sys.path.insert(0, {pkg!r})
sys.path.insert(0, {here!r})
import optuna
from optuna.study import MaxTrialsCallback
from optuna.trial import TrialState
from symbo.optuna import SymboSampler
import field_study as F

optuna.logging.set_verbosity(optuna.logging.ERROR)
worker, start, marker, trials = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3], int(sys.argv[4])
storage = optuna.storages.RDBStorage({url!r})
sampler = SymboSampler(group="permutation", params=F.WIDTHS, seed=11, n_startup_trials=8)
study = optuna.load_study(study_name="field", storage=storage, sampler=sampler)
done = [0]

def objective(trial):
    w, lr, k = F.suggest(trial)
    if worker == 0 and done[0] == 3 and not os.path.exists(marker):
        open(marker, "w").write(str(trial.number))
        time.sleep(120)  # killed here, mid-trial
    done[0] += 1
    time.sleep(0.15)  # an expensive evaluation
    v = F.objective_value(w, lr, k)
    if v is None:
        raise RuntimeError("the evaluation failed")
    return v

time.sleep(max(0.0, start - time.time()))  # every worker starts at this instant
study.optimize(objective, n_trials=None, catch=(RuntimeError,),
               callbacks=[MaxTrialsCallback(trials, states=(TrialState.COMPLETE, TrialState.FAIL))])
"""


def random_best(trials, seed):
    """The best value RandomSampler finds on the same objective and budget."""
    study = optuna.create_study(direction="minimize", sampler=optuna.samplers.RandomSampler(seed=seed))

    def objective(trial):
        v = objective_value(*suggest(trial))
        if v is None:
            raise RuntimeError("the evaluation failed")
        return v

    study.optimize(objective, n_trials=trials, catch=(RuntimeError,))
    return study.best_value


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default=os.environ.get("SYMBO_TEST_POSTGRES"))
    ap.add_argument("--trials", type=int, default=120)
    ap.add_argument("--workers", type=int, default=8)
    args = ap.parse_args()
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    if not args.url:
        print("field_study: no storage URL (set SYMBO_TEST_POSTGRES, e.g. via scripts/with-postgres.sh, or --url)", file=sys.stderr)
        return 2
    # The last check (beating RandomSampler) is statistical: a study whose
    # workers interleave differently is another sample, and about one in
    # ten here falls short (best 0.86 against 0.73 in one of nine local
    # runs under load). A study failing that check alone is run once more;
    # a failed correctness check (a crash, a re-proposed failed orbit, two
    # concurrent trials on one orbit) never is.
    rc, only_quality = run(args)
    if rc != 0 and only_quality:
        print("field: the quality check alone failed; running the study once more", file=sys.stderr)
        rc, _ = run(args)
    return rc


def run(args):
    """One field study: (exit status, whether the quality check was the only
    failure)."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = optuna.storages.RDBStorage(args.url)
    try:
        optuna.delete_study(study_name="field", storage=storage)
    except KeyError:
        pass
    optuna.create_study(study_name="field", storage=storage, direction="minimize")

    tmp = tempfile.mkdtemp(prefix="symbo-field-")
    script = os.path.join(tmp, "worker.py")
    with open(script, "w") as f:
        f.write(WORKER.format(pkg=os.path.join(HERE, ".."), here=HERE, url=args.url))
    marker = os.path.join(tmp, "killme")
    start = time.time() + 3.0
    t0 = time.time()
    procs = [subprocess.Popen([sys.executable, script, str(w), repr(start), marker, str(args.trials)],
                              stderr=subprocess.PIPE) for w in range(args.workers)]
    # Kill worker 0 with SIGKILL once it is in the middle of a trial.
    killed_trial = None
    deadline = time.time() + 600
    while time.time() < deadline and not os.path.exists(marker):
        if procs[0].poll() is not None:
            break
        time.sleep(0.05)
    if os.path.exists(marker):
        time.sleep(0.2)
        killed_trial = int(open(marker).read() or -1)
        os.kill(procs[0].pid, signal.SIGKILL)
        procs[0].wait()
        # The scheduler's part: the dead worker's trial is marked failed.
        # (Optuna's own heartbeat is not used: in Optuna 3.x it can fail
        # live trials whose heartbeat it reads as old, optuna/optuna#4234,
        # and then the live worker crashes on its tell.)
        optuna.load_study(study_name="field", storage=storage).tell(killed_trial, state=TrialState.FAIL)
        print("field: worker 0 killed with SIGKILL in trial %d, marked failed" % killed_trial, file=sys.stderr)
    failures = []
    for w, p in enumerate(procs):
        try:
            _, err = p.communicate(timeout=max(1, deadline - time.time()))
        except subprocess.TimeoutExpired:
            p.kill()
            failures.append("worker %d did not finish in time" % w)
            continue
        if w == 0 and killed_trial is not None:
            if p.returncode != -signal.SIGKILL:
                failures.append("worker 0 was not killed (exit %d)" % p.returncode)
            continue
        if p.returncode != 0:
            failures.append("worker %d exited %d: %s" % (w, p.returncode, err.decode()[-2000:]))
    wall = time.time() - t0
    if killed_trial is None:
        failures.append("worker 0 never reached the trial it is killed in")

    study = optuna.load_study(study_name="field", storage=storage)
    trials = study.get_trials(deepcopy=False)
    finished = [t for t in trials if t.state in (TrialState.COMPLETE, TrialState.FAIL)]
    complete = [t for t in trials if t.state == TrialState.COMPLETE]
    failed = [t for t in trials if t.state == TrialState.FAIL and set(t.params) >= set(WIDTHS + ["lr", "k"])]
    if len(finished) < args.trials:
        failures.append("%d finished trials, want %d" % (len(finished), args.trials))
    if killed_trial is not None:
        kt = [t for t in trials if t.number == killed_trial]
        if not kt or kt[0].state != TrialState.FAIL:
            failures.append("the killed trial %d is %s, want FAIL" % (killed_trial, kt[0].state if kt else "missing"))
    # No trial proposed on the orbit of a trial that had failed before it
    # started.
    reproposed = 0
    for f in failed:
        for t in trials:
            if t.number == f.number or t.datetime_start is None or f.datetime_complete is None:
                continue
            if t.datetime_start > f.datetime_complete and set(t.params) >= set(f.params) and same_orbit(f.params, t.params):
                reproposed += 1
                failures.append("trial %d was proposed on the orbit of trial %d, which failed before it started" % (t.number, f.number))
    # No two trials that ran at the same time share an orbit. Running at
    # the same time means the wall-clock spans overlap and neither was
    # already COMPLETE when the other's sampler last checked its point
    # (symbo:seen): a point proposed next to an observed one is the
    # acquisition's choice (UCB may sample near its incumbent again), not
    # two workers colliding.
    shared = 0
    ran = [t for t in trials if t.datetime_start is not None and set(t.params) >= set(WIDTHS + ["lr", "k"])]
    seen = {t.number: (seen_trials(t) or set()) for t in ran}
    for i, a in enumerate(ran):
        for b in ran[:i]:
            a_end = a.datetime_complete or a.datetime_start
            b_end = b.datetime_complete or b.datetime_start
            overlap = a.datetime_start < b_end and b.datetime_start < a_end
            observed = b.number in seen[a.number] or a.number in seen[b.number]
            if overlap and not observed and same_orbit(a.params, b.params):
                shared += 1
                failures.append("trials %d and %d ran at the same time on one orbit (distance %.3g of the "
                                "diagonal; %s; %s; started %s and %s; sampler's last checks: %s; %s)" % (
                                    b.number, a.number,
                                    float(np.linalg.norm((modelled(a.params) - modelled(b.params)) / SCALE)) / DIAG,
                                    b.params, a.params, b.datetime_start, a.datetime_start,
                                    b.system_attrs.get("symbo:checked"), a.system_attrs.get("symbo:checked")))
    best = min((t.value for t in complete), default=float("inf"))
    rand = random_best(len(finished), seed=0)
    if not best < rand:
        failures.append("best value %.4g does not beat RandomSampler's %.4g on %d trials" % (best, rand, len(finished)))
    figures = {
        "trials": len(trials), "finished": len(finished), "complete": len(complete), "failed": len(failed),
        "killed_trial": killed_trial, "reproposed_failed_orbits": reproposed, "concurrent_shared_orbits": shared,
        "best": best, "random_best": rand, "wall_seconds": round(wall, 1), "workers": args.workers,
        "ok": not failures,
    }
    print(json.dumps(figures))
    for f in failures[:20]:
        print("field: FAIL: " + f, file=sys.stderr)
    if failures:
        # The study as the checks saw it, for the diagnosis.
        dump = os.path.join(tmp, "trials.json")
        with open(dump, "w") as f:
            json.dump([{"number": t.number, "state": t.state.name, "value": t.value, "params": t.params,
                        "start": str(t.datetime_start), "complete": str(t.datetime_complete),
                        "system_attrs": {k: v for k, v in t.system_attrs.items() if k.startswith("symbo:")}}
                       for t in trials], f, indent=1)
        print("field: the study's trials are in " + dump, file=sys.stderr)
    else:
        # Kept only for a diagnosis: a passing study leaves nothing behind.
        shutil.rmtree(tmp, ignore_errors=True)
    return (0 if not failures else 1), len(failures) == 1 and not (best < rand)


if __name__ == "__main__":
    sys.exit(main())
