#!/usr/bin/env python3
"""symbo's base kernel against BoTorch's SingleTaskGP, paired by seed, on
both seed sets (lab/results/baseline.md, "Paired against SingleTaskGP").

Reads the base kernel's committed records with the constant mean and
BoTorch's priors in the problem's own shape (constant-prior/ and
seeds30-59/constant-prior/, record.json), the same in Matérn-5/2
(matern52-main.json and matern52-replication.json, written by
shape.go -json), and SingleTaskGP's per-seed records of the peers study
(lab/results/peers/records and peers/replication/records). Every pair
shares its initial design and noise. Prints, per problem and seed set, the
means and the paired difference base − SingleTaskGP with its Student t
interval at the Bonferroni level over a seed set's five comparisons
(0.05 / 5 two-sided), with lab/scripts/fixedpoint.py's Student t quantile.

    /usr/bin/python3 lab/results/baseline/pairs.py
    /usr/bin/python3 lab/results/baseline/pairs.py --self-test
"""
import glob
import json
import math
import os
import statistics as st
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
R = os.path.join(HERE, "..")
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from fixedpoint import t_quantile  # noqa: E402
PROBLEMS = ["Ackley2d", "Griewank6d", "Rastrigin5d"]
SETS = [
    ("main (0–29)", "constant-prior", "matern52-main.json", os.path.join(R, "peers", "records")),
    ("replication (30–49)", os.path.join("seeds30-59", "constant-prior"), "matern52-replication.json",
     os.path.join(R, "peers", "replication", "records")),
]
OWN_SHAPE = {"Ackley2d": "Matérn-5/2", "Griewank6d": "RBF", "Rastrigin5d": "RBF"}
LEVEL = 1 - 0.05 / 5


def paired(a, b, level=LEVEL):
    """(mean a, mean b, mean of a − b, interval) over the seeds both hold."""
    seeds = sorted(set(a) & set(b))
    d = [a[s] - b[s] for s in seeds]
    m = st.mean(d)
    h = t_quantile(1 - (1 - level) / 2, len(d) - 1) * st.stdev(d) / math.sqrt(len(d))
    return st.mean(a[s] for s in seeds), st.mean(b[s] for s in seeds), m, (m - h, m + h), len(d)


def stgp(root, problem):
    out = {}
    for f in glob.glob(os.path.join(root, problem, "botorch", "*.json")):
        with open(f) as fh:
            r = json.load(fh)
        out[r["seed"]] = r["metric"]
    return out


def base_record(d, problem):
    with open(os.path.join(HERE, d, "record.json")) as fh:
        r = json.load(fh)
    return {x["seed"]: x["metric"] for x in r["runs"] if x["problem"] == problem and x["kernel"] == "base"}


def base_matern(name, problem):
    with open(os.path.join(HERE, name)) as fh:
        return {x["seed"]: x["metric"] for x in json.load(fh) if x["problem"] == problem}


def main():
    print("| seed set | problem | base's shape | base | SingleTaskGP | base − SingleTaskGP [interval at %.4f] |" % LEVEL)
    print("|---|---|---|---|---|---|")
    for name, rec, mat, peers in SETS:
        for p in PROBLEMS:
            ref = stgp(peers, p)
            rows = [(OWN_SHAPE[p] + " (the problem's)", base_record(rec, p))]
            if OWN_SHAPE[p] != "Matérn-5/2":
                rows.append(("Matérn-5/2 (SingleTaskGP's)", base_matern(mat, p)))
            for shape, runs in rows:
                ma, mb, m, (lo, hi), n = paired(runs, ref)
                bold = "**" if lo > 0 or hi < 0 else ""
                print("| %s | %s | %s | %.0f | %.0f | %s%+.0f [%.0f, %.0f]%s (n=%d) |" % (
                    name, p, shape, ma, mb, bold, m, lo, hi, bold, n))


def self_test():
    # Known quantiles of Student t.
    for p, df, want in [(0.975, 29, 2.045230), (0.975, 19, 2.093024), (0.99583, 29, 2.830)]:
        got = t_quantile(p, df)
        assert abs(got - want) < 2e-3, (p, df, got, want)
    # A constant shift of 1 with a little spread: the mean difference is 1
    # and its interval holds it but not 0.
    a = {s: 10.0 + s + 1 + 0.01 * (-1) ** s for s in range(20)}
    b = {s: 10.0 + s for s in range(20)}
    ma, mb, m, (lo, hi), n = paired(a, b)
    assert n == 20 and abs(m - 1) < 1e-12 and lo < 1 < hi and lo > 0, (m, lo, hi)
    # Only the seeds both hold are paired.
    _, _, m, _, n = paired({0: 1.0, 1: 2.0, 2: 5.0}, {1: 1.0, 2: 3.0, 3: 9.0})
    assert n == 2 and m == 1.5, (n, m)
    print("self-test: ok")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    else:
        main()
