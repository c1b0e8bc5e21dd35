"""Paired differences between symbo's configurations and each peer
(BoTorch's SingleTaskGP, Optuna's GPSampler and TPE, random search) on the
peers' two seed sets (lab/results/peers/README.md, "Replication"): reads
the peers' per-seed records (peers.py --out DIR) and symbo's committed
records of the same seeds, pairs by seed, and prints one Markdown table
per peer and problem set with records there (the three problems BoTorch
ran; the seven more the Optuna samplers ran), with Student t intervals at
the Bonferroni level over that table's problems (each table its own
family; --family K widens every table to 1 − 0.05/K instead, and
--family all to the number of a row's comparisons in the directory: every
peer × the problems it ran, 3 + 3·10 = 33 in lab/results/peers and its
replication).

    /usr/bin/python3 lab/scripts/peers_replication.py lab/results/peers main               # seeds 0-29
    /usr/bin/python3 lab/scripts/peers_replication.py lab/results/peers/replication        # seeds 30-49
    /usr/bin/python3 lab/scripts/peers_replication.py lab/results/peers main --family all  # every peer × problem
    /usr/bin/python3 lab/scripts/peers_replication.py --self-test
"""
import glob
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults import interval, g  # noqa: E402

R = os.path.join(HERE, "..", "results")
PROBLEMS = ["Ackley2d", "Griewank6d", "Rastrigin5d"]
# The problems of the defaults suite beyond the first three, run with the
# Optuna samplers only (see lab/results/peers/README.md).
MORE = ["Radial2d", "Scaling2d", "WLAN8d", "ShiftedAckley2d", "ShiftedRastrigin4d", "ShiftedGriewank6d",
        "CentredRastrigin4d"]
SYMBO = {
    "symbo plus, BoTorch priors + constant mean (the front ends' default until portfolio)": ("plus", "defaults/replication/record.json"),
    "symbo auto, BoTorch priors + constant mean": ("auto", "defaults/replication/record.json"),
    "symbo plus, the paper's protocol": ("plus", "replication/ablation-own/record.json"),
    "symbo base, the paper's protocol": ("base", "replication/ablation-own/record.json"),
}


MAIN = {
    "symbo plus, BoTorch priors + constant mean (the front ends' default until portfolio)": ("plus", "defaults/main/record.json"),
    "symbo auto, BoTorch priors + constant mean": ("auto", "defaults/main/record.json"),
    "symbo plus, the paper's protocol": ("plus", "ablation-own/record.json"),
    "symbo base, the paper's protocol": ("base", "ablation-own/record.json"),
}


PEERS = {
    "botorch": "BoTorch SingleTaskGP",
    "optuna-gp": "Optuna GPSampler",
    "optuna-tpe": "Optuna TPE",
    "random": "random search",
}


def main(peers_dir, rows=SYMBO, family=0):
    first = True
    for system, name in PEERS.items():
        files = glob.glob(os.path.join(peers_dir, "records", "*", system, "*.json"))
        if not files:
            continue
        present = {os.path.basename(os.path.dirname(os.path.dirname(f))) for f in files}
        for probs in (PROBLEMS, MORE):
            if not present.intersection(probs):
                continue
            if not first:
                print()
            first = False
            table(files, name, rows, [p for p in probs if p in present], family)


def comparisons(peers_dir):
    """How many comparisons a row makes in peers_dir: one per peer and
    problem with records (the cells of main's tables)."""
    k = 0
    for system in PEERS:
        files = glob.glob(os.path.join(peers_dir, "records", "*", system, "*.json"))
        present = {os.path.basename(os.path.dirname(os.path.dirname(f))) for f in files}
        k += sum(len(present.intersection(probs)) for probs in (PROBLEMS, MORE))
    return k


def self_test():
    # BoTorch ran the three problems, each Optuna sampler and random
    # search those and the seven more: 3 + 3·10 comparisons per row.
    for d in ("peers", os.path.join("peers", "replication")):
        assert comparisons(os.path.join(R, d)) == 33, (d, comparisons(os.path.join(R, d)))
    print("self-test: ok")


def table(files, name, rows, problems, family=0):
    bt = {}
    for f in files:
        r = json.load(open(f))
        bt[(r["problem"], r["seed"])] = r["metric"]
    k = family or len(problems)
    level = 1 - 0.05 / k
    print("| row − %s | " % name + " | ".join(problems) + " |")
    print("|---|" + "---|" * len(problems))
    means = {p: [v for (pp, _), v in bt.items() if pp == p] for p in problems}
    print("| %s (mean, n) | " % name + " | ".join(
        "%s (n=%d)" % (g(float(np.mean(means[p]))), len(means[p])) if means[p] else "—" for p in problems) + " |")
    for label, (kernel, path) in rows.items():
        rec = json.load(open(os.path.join(R, path)))
        sv = {(x["problem"], x["seed"]): x["metric"] for x in rec["runs"] if x["kernel"] == kernel}
        cells = []
        for p in problems:
            seeds = sorted(s for (pp, s) in bt if pp == p and (p, s) in sv)
            if len(seeds) < 3:
                cells.append("—")
                continue
            m, lo, hi, n = interval([sv[(p, s)] - bt[(p, s)] for s in seeds], level)
            mark = "**" if hi < 0 or lo > 0 else ""
            cells.append("%s%s [%s, %s]%s (n=%d)" % (mark, g(m), g(lo), g(hi), mark, n))
        print("| %s | %s |" % (label, " | ".join(cells)))
    over = "%d comparisons" % k if family else "the %d problems" % k
    print("\nIntervals: paired Student t at %.4f (Bonferroni over %s); bold: excludes 0." % (level, over))


if __name__ == "__main__":
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
        sys.exit(0)
    fam = 0
    if "--family" in args:
        i = args.index("--family")
        fam = args[i + 1]
        del args[i:i + 2]
        fam = comparisons(args[0] if args else os.path.join(R, "peers", "replication")) if fam == "all" else int(fam)
    main(args[0] if args else os.path.join(R, "peers", "replication"),
         MAIN if args[1:] == ["main"] else SYMBO, fam)
