"""The users' suite's split into a tuning half and a held-out half
(lab/suite/README.md), fixed by SEED before any run.

    /usr/bin/python3 lab/suite/split.py            # prints the two halves
    /usr/bin/python3 lab/suite/split.py --self-test

Within each regime the problems are shuffled by a Fisher–Yates pass driven
by Python's random.Random(SEED).random() (the one stream Python promises
to reproduce across versions) and dealt to the halves in turn, the first
to the half that has fewer so far (ties: tuning); the paper's problems are
dealt the same way among themselves first, so each half holds at most a
quarter of them. Nothing else reads the seed: changing the suite or the
seed after a run voids the held-out half.
"""
import random
import sys

SEED = 4343

# (name, regime, from the paper): the suite of README.md, in its order.
SUITE = [
    ("OffAckley4d", "off", False),
    ("BumpsPerm6d", "off", False),
    ("OffGriewank8d", "off", False),
    ("Ring2d", "off", False),
    ("Cluster3x2d", "off", False),
    ("WLANOther8d", "off", False),
    ("PhaseRing6d", "off", False),
    ("ShiftedRastrigin3dHeavy", "off", False),
    ("BumpsPerm4dHeavy", "off", False),
    ("WLAN8d", "off", True),
    ("Ackley2d", "on", True),
    ("Rastrigin5d", "on", True),
    ("Griewank6d", "on", True),
    ("Sphere6dCentred", "on", False),
    ("ApproxPerm5d", "wrong", False),
    ("WrongSign4d", "wrong", False),
    ("Anisotropic2d:rotation2d", "wrong", False),
    ("Net6d", "partial", False),
    ("Reactor5d", "partial", False),
    ("Fleet8d", "partial", False),
    ("Mixed7d", "partial", False),
    ("BumpsPerm10d", "large", False),
    ("OffGriewank12d", "large", False),
    ("ShiftedAckley12dPerm", "large", False),
]


def shuffled(items, rng):
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def split(suite, seed):
    rng = random.Random(seed)
    halves = {"tuning": [], "held-out": []}

    def deal(names):
        for n in shuffled(names, rng):
            t, h = len(halves["tuning"]), len(halves["held-out"])
            halves["tuning" if t <= h else "held-out"].append(n)

    deal([n for n, _, paper in suite if paper])
    regimes = []
    for _, r, _ in suite:
        if r not in regimes:
            regimes.append(r)
    for r in regimes:
        deal([n for n, rr, paper in suite if rr == r and not paper])
    return halves


def self_test():
    h = split(SUITE, SEED)
    names = [n for n, _, _ in SUITE]
    assert sorted(h["tuning"] + h["held-out"]) == sorted(names), "every problem in one half"
    assert len(h["tuning"]) == len(h["held-out"]) == len(names) // 2
    paper = {n for n, _, p in SUITE if p}
    for half in h.values():
        assert sum(n in paper for n in half) * 4 <= len(half), "at most a quarter of a half from the paper"
    for r in {r for _, r, _ in SUITE}:
        ns = [n for n, rr, _ in SUITE if rr == r]
        t = sum(n in h["tuning"] for n in ns)
        assert abs(2 * t - len(ns)) <= 2, "each regime in both halves"
    assert split(SUITE, SEED) == h, "a function of the seed"
    assert split(SUITE, SEED + 1) != h, "the seed matters"
    print("self-test: ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    else:
        for half, names in split(SUITE, SEED).items():
            print("%s (%d): %s" % (half, len(names), ", ".join(names)))
