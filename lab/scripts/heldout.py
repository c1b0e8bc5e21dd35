"""The users' suite's held-out half (lab/suite/README.md, issue 43): the
default chosen on the tuning half (lab/results/suite/tuning.md), run once
on the twelve held-out problems at seeds 0–29 (main) and 30–49
(replication), against every single symbo kernel and against the peers.

Reads:
  lab/results/suite/heldout-main/record.json,
  lab/results/suite/heldout-replication/record.json
      perf table under the front ends' protocol: the default
      (portfolio:nystrom:soft+plus) and base, nystrom, avg, plus, soft;
  lab/results/suite/peers/records/PROBLEM/SYSTEM/SEED.json
      lab/peers/suite.py's runs of BoTorch's SingleTaskGP, Optuna's
      GPSampler and TPE, random search, and symbo through its Optuna
      sampler (symbo-optuna) on the problems with log or integer
      parameters.

and prints Markdown:
  1. each kernel's mean per problem with its ratio to the best single
     kernel's, and the geometric mean of the ratios, per seed set;
  2. the per-problem target: ratio ≤ 1.25, or the paired t interval of
     default − 1.25·best (Bonferroni over the twelve problems) reaching 0
     (the issue's "its corrected interval reaching 1.25×"); met only where
     both seed sets meet it;
  3. the default − each peer, paired by seed, Bonferroni over the twelve
     problems per seed set, with the verdict of the two sets (a claim
     holds only where both agree). On the problems with log or integer
     parameters symbo's entry is symbo-optuna (the suite's protocol: those
     run through the Optuna sampler for every Optuna peer and for symbo,
     and see the same rounded initial points).

    /usr/bin/python3 lab/scripts/heldout.py > lab/results/suite/heldout.md

With --hedged it reports the second default instead, the hedged
portfolio chosen afterwards on the tuning half alone (tuning.md, "A
second default"): its runs are heldout-hedged-main and
heldout-hedged-replication (the same problems, seeds and protocol with
--hedge 1), paired with the single kernels' runs above, and its
sampler's runs on the problems with log or integer parameters are under
lab/results/suite/peers-hedged/records:

    /usr/bin/python3 lab/scripts/heldout.py --hedged > lab/results/suite/heldout-hedged.md

With --aside it reports the third default, the hedged portfolio that
steps aside (bo.Protocol.StepAside, chosen on the tuning half alone:
lab/results/hedge/aside.md) — the held-out half's third look, not
held-out evidence any more: its runs are heldout-aside-main and
heldout-aside-replication (--hedge 1 --step-aside), its sampler's runs
under lab/results/suite/peers-aside/records, and it is paired with the
hedged default's runs instead of the first's:

    /usr/bin/python3 lab/scripts/heldout.py --aside > lab/results/suite/heldout-aside.md

With --starts, the default now (the stepping-aside default with three UCB
ascents for the candidates other than the referee,
bo.DecideOptions.CandidateStarts): its records heldout-starts3-*, its
sampler runs under peers-starts3, paired with the stepping-aside
default's runs — the half's fourth look:

    /usr/bin/python3 lab/scripts/heldout.py --starts > lab/results/suite/heldout-starts.md

With --beta, that default with UCB's β scaled by 1/4
(bo.Protocol.BetaScale, chosen on the tuning half alone; the default
since): its records heldout-beta025-*, its sampler's runs under
peers-beta025 (run once the sampler had the setting, as its default),
paired with the three-ascent default's runs — the half's fifth look:

    /usr/bin/python3 lab/scripts/heldout.py --beta > lab/results/suite/heldout-beta.md
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import portfolio  # noqa: E402
from defaults import g, interval, verdict  # noqa: E402

R = os.path.join(HERE, "..", "results", "suite")
HELDOUT = ["Griewank6d", "Ackley2d", "BumpsPerm4dHeavy", "OffGriewank8d", "ShiftedRastrigin3dHeavy", "Ring2d",
           "Sphere6dCentred", "Anisotropic2d:rotation2d", "Mixed7d", "Net6d", "OffGriewank12d",
           "ShiftedAckley12dPerm"]
SPACES = {"Mixed7d", "Net6d", "Reactor5d"}  # log or integer parameters: symbo runs through its sampler
SINGLES = ["base", "nystrom", "avg", "plus", "soft"]
DEFAULT = "portfolio:nystrom:soft+plus"
SETS = [("main", "heldout-main", range(0, 30)), ("replication", "heldout-replication", range(30, 50))]
PEERS = [("botorch", "BoTorch SingleTaskGP"), ("optuna-gp", "Optuna GPSampler"),
         ("optuna-tpe", "Optuna TPE"), ("random", "random search")]
TARGET = 1.25


def load_table(d):
    """{kernel: {(problem, seed): metric}} of one perf table record."""
    path = os.path.join(R, d, "record.json")
    out = {}
    if not os.path.exists(path):
        return out
    for x in json.load(open(path))["runs"]:
        out.setdefault(x["kernel"], {})[(x["problem"], x["seed"])] = x["metric"]
    return out


def load_peers(seeds, symbo_dir=None):
    """{system: {(problem, seed): metric}} of the peers' records at seeds;
    BoTorch under a cut ("botorch[r4,s128]") is filed under "botorch",
    and the directory names it ran under are returned beside. With
    symbo_dir, symbo-optuna's records are read from there instead."""
    out, botorch = load_records(os.path.join(R, "peers", "records"), seeds)
    if symbo_dir:
        out.pop("symbo-optuna", None)
        mine, _ = load_records(os.path.join(R, symbo_dir, "records"), seeds)
        if "symbo-optuna" in mine:
            out["symbo-optuna"] = mine["symbo-optuna"]
    return out, botorch


def load_records(root, seeds, problems=None):
    """load_peers' reading of one records directory (the problems: the
    held-out half's by default)."""
    out, botorch = {}, set()
    for p in problems or HELDOUT:
        pd = os.path.join(root, p.replace(":", "_"))  # lab/peers/suite.py's directory name
        if not os.path.isdir(pd):
            continue
        for system in os.listdir(pd):
            name = "botorch" if system.startswith("botorch") else system
            if name == "botorch":
                botorch.add(system)
            for f in os.listdir(os.path.join(pd, system)):
                if f.endswith(".json"):
                    r = json.load(open(os.path.join(pd, system, f)))
                    if r["seed"] in seeds:
                        out.setdefault(name, {})[(p, r["seed"])] = r["metric"]
    return out, botorch


def symbo_entry(table, peer):
    """symbo's entry against the peers: perf table's default, or
    symbo-optuna on the problems with log or integer parameters."""
    out = {k: v for k, v in table.get(DEFAULT, {}).items() if k[0] not in SPACES}
    out.update({k: v for k, v in peer.get("symbo-optuna", {}).items() if k[0] in SPACES})
    return out


def target(d, b, level):
    """The issue's per-problem target for the default's metrics d against
    the best single kernel's b, paired by seed (regret: lower is better):
    (ratio of the means, met, the interval of d − b, the interval of
    d − TARGET·b). Met: the ratio is at most TARGET, or the interval of
    d − TARGET·b at level reaches 0 (the data cannot exclude a ratio of
    TARGET)."""
    r = sum(d) / sum(b)
    diff = interval([x - y for x, y in zip(d, b)], level)
    scaled = interval([x - TARGET * y for x, y in zip(d, b)], level)
    return r, r <= TARGET or scaled[1] <= 0, diff, scaled


def report_targets(sets, tables, problems, level):
    """Prints, per seed set, each kernel's mean per problem with its ratio
    to the best single kernel's and the per-problem target (target()),
    then the targets over both sets. sets: (name, directory, seeds);
    tables: load_table's per set, the default's runs under DEFAULT."""
    met_both, geos = {}, []
    for (name, _, _), data in zip(sets, tables):
        print("## Against the best single kernel, %s seeds\n" % name)
        print("Cells: mean (ratio to the best single kernel's).\n")
        best, geo = portfolio.ratio_table(data, problems, SINGLES, [DEFAULT] + SINGLES)
        geos.append(geo)
        print("Target per problem: ratio ≤ %.2f, or the paired interval of default − %.2f·best at %.4f "
              "(Bonferroni over %d problems) reaching 0.\n" % (TARGET, TARGET, level, len(problems)))
        print("| problem | best single | ratio | default − best [interval] | default − %.2f·best [interval] | met |"
              % TARGET)
        print("|---|---|---|---|---|---|")
        for p in problems:
            b = best[p]
            seeds = sorted(s for (pp, s) in data[DEFAULT] if pp == p and (pp, s) in data[b])
            r, ok, (m, lo, hi, n), (m2, lo2, hi2, _) = target(
                [data[DEFAULT][(p, s)] for s in seeds], [data[b][(p, s)] for s in seeds], level)
            met_both.setdefault(p, []).append(ok)
            print("| %s | %s | %.2f | %s [%s, %s] (n=%d) | %s [%s, %s] | %s |" % (
                p, b, r, g(m), g(lo), g(hi), n, g(m2), g(lo2), g(hi2), "yes" if ok else "**no**"))
        print("\nMet on %d of %d; geometric mean %.2f (target ≤ 0.9); the single kernels': %s.\n" % (
            sum(met_both[p][-1] for p in problems), len(problems), geo[DEFAULT],
            ", ".join("%s %.2f" % (k, geo[k]) for k in SINGLES)))
    print("## The targets, both seed sets\n")
    both = [p for p in problems if all(met_both[p])]
    print("- Within %.2f× of the best single kernel (or the interval reaching it) on both sets: %d of %d%s." % (
        TARGET, len(both), len(problems),
        "" if len(both) == len(problems) else "; missed on " + ", ".join(p for p in problems if p not in both)))
    print("- Geometric mean: %s (target ≤ 0.9).\n" % " / ".join("%.2f" % gm[DEFAULT] for gm in geos))


def self_test():
    # Ratio 1.2: met by the ratio alone.
    r, ok, _, _ = target([12.0, 12.5, 11.5], [10.0, 10.5, 9.5], 0.95)
    assert abs(r - 1.2) < 1e-12 and ok
    # Ratio 2 with little spread: the interval of d − 1.25·b excludes 0.
    r, ok, _, sc = target([20.0, 20.1, 19.9, 20.0], [10.0, 10.0, 10.0, 10.0], 0.95)
    assert abs(r - 2) < 1e-12 and not ok and sc[1] > 0
    # Ratio 1.5 with a wide spread: the interval reaches 0, so met.
    r, ok, _, sc = target([1.0, 30.0, 2.0, 27.0], [10.0, 10.0, 10.0, 10.0], 0.95)
    assert r > 1.25 and ok and sc[1] <= 0
    # symbo's entry against the peers: the sampler's runs on the problems
    # with log or integer parameters, perf table's elsewhere.
    table = {DEFAULT: {("Net6d", 0): 1.0, ("Ring2d", 0): 2.0}}
    peer = {"symbo-optuna": {("Net6d", 0): 3.0, ("Ring2d", 0): 4.0}}
    assert symbo_entry(table, peer) == {("Net6d", 0): 3.0, ("Ring2d", 0): 2.0}
    print("self-test: ok")


# The later defaults: the prefix of their records, their sampler runs'
# directory, and the default each is paired with (None: the first's
# records, "heldout-").
VARIANTS = {"hedged": ("heldout-hedged-", "peers-hedged", "heldout-"),
            "aside": ("heldout-aside-", "peers-aside", "heldout-hedged-"),
            "starts": ("heldout-starts3-", "peers-starts3", "heldout-aside-"),
            "beta": ("heldout-beta025-", "peers-beta025", "heldout-starts3-")}


def paired_table(tables, first, problems, level):
    """Prints the default of tables against the runs first (one dict per
    seed set), paired by seed: the ratio of the means, the t intervals of
    the differences at level, the verdict of the two sets, and the
    geometric mean of the ratios per set."""
    print("| problem | ratio | main | replication | verdict |")
    print("|---|---|---|---|---|")
    logs, tally = [[] for _ in tables], {}
    for p in problems:
        res, rs = [], []
        for i, (t, f) in enumerate(zip(tables, first)):
            seeds = sorted(s for (pp, s) in t[DEFAULT] if pp == p and (pp, s) in f)
            res.append(interval([t[DEFAULT][(p, s)] - f[(p, s)] for s in seeds], level))
            r = portfolio.means(t, DEFAULT, p) / portfolio.means({"f": f}, "f", p)
            rs.append(r)
            logs[i].append(math.log(r))
        v = verdict(res) if len(res) == 2 else "one set"
        tally[v] = tally.get(v, 0) + 1
        print("| %s | %s | %s | %s |" % (p, " / ".join("%.2f" % r for r in rs), " | ".join(
            "%s [%s, %s] (n=%d)" % (g(m), g(lo), g(hi), n) for m, lo, hi, n in res), v))
    print("\nGeometric mean of the ratios: %s. Verdicts: %s.\n" % (
        " / ".join("%.3f" % math.exp(sum(lg) / len(lg)) for lg in logs),
        ", ".join("%s %d" % kv for kv in sorted(tally.items()))))


def main(variant=None):
    hedged = variant is not None
    level = 1 - 0.05 / len(HELDOUT)
    sets = [st for st in SETS if os.path.exists(os.path.join(R, st[1], "record.json"))]
    tables = [load_table(d) for _, d, _ in sets]
    symbo_dir = None
    if hedged:
        # The default's runs from the variant's records, the single
        # kernels' from the first run's (the same protocol: hedging
        # changes only a portfolio; stepping aside only a step whose best
        # ascent end is on an observed orbit, and the single kernels were
        # not rerun with it).
        prefix, symbo_dir, _ = VARIANTS[variant]
        for t, (_, d, _) in zip(tables, sets):
            t[DEFAULT] = load_table(d.replace("heldout-", prefix)).get(DEFAULT, {})
    problems = [p for p in HELDOUT if all(all(any(pp == p for pp, _ in t.get(k, {})) for k in SINGLES + [DEFAULT])
                                          for t in tables)]
    if not problems:
        sys.exit("heldout.py: no problem has every record yet")
    if variant == "beta":
        print("# The users' suite, held-out half, fifth look: the default with β/4\n")
        print("Generated by `lab/scripts/heldout.py --beta` from lab/results/suite/heldout-beta025-main "
              "(seeds 0–29) and heldout-beta025-replication (seeds 30–49) for the default with UCB's β "
              "scaled by 1/4 (`--beta-scale 0.25`, bo.Protocol.BetaScale), heldout-main and "
              "heldout-replication for the single kernels (the paper's β), the peers' records under "
              "lab/results/suite/peers and symbo's sampler runs under lab/results/suite/peers-beta025 (run "
              "after β/4 became the sampler's default). β/4 was chosen on the tuning half alone; this half "
              "has informed earlier defaults, so these are descriptions, not held-out evidence. Problems "
              "with every record: %d of %d. The default: `%s`. Lower is better (cumulative regret over the "
              "50 BO steps on the noiseless f).\n" % (len(problems), len(HELDOUT), DEFAULT))
    elif variant == "starts":
        print("# The users' suite, held-out half, fourth look: the default now\n")
        print("Generated by `lab/scripts/heldout.py --starts` from lab/results/suite/heldout-starts3-main "
              "(seeds 0–29) and heldout-starts3-replication (seeds 30–49) for the default (`--hedge 1 "
              "--step-aside --candidate-starts 3`), heldout-main and heldout-replication for the single "
              "kernels, the peers' records under lab/results/suite/peers and symbo's sampler runs under "
              "lab/results/suite/peers-starts3. The held-out half's fourth run: the change was chosen on the "
              "tuning half alone, but this half has informed three earlier defaults, so these are "
              "descriptions, not held-out evidence. Problems with every record: %d of %d. The default: `%s`. "
              "Lower is better (cumulative regret over the 50 BO steps on the noiseless f).\n"
              % (len(problems), len(HELDOUT), DEFAULT))
    elif variant == "aside":
        print("# The users' suite, held-out half, third look: the hedged default stepping aside\n")
        print("Generated by `lab/scripts/heldout.py --aside` from lab/results/suite/heldout-aside-main "
              "(seeds 0–29) and heldout-aside-replication (seeds 30–49) for the default (`--hedge 1 "
              "--step-aside`), heldout-main and heldout-replication for the single kernels (without stepping "
              "aside), the peers' records under lab/results/suite/peers and symbo's sampler runs under "
              "lab/results/suite/peers-aside. The held-out half's third run: stepping aside was chosen on "
              "the tuning half alone, but this half has informed two earlier defaults, so these are "
              "descriptions, not held-out evidence. Problems with every record: %d of %d. The default: `%s`. "
              "Lower is better (cumulative regret over the 50 BO steps on the noiseless f).\n"
              % (len(problems), len(HELDOUT), DEFAULT))
    elif hedged:
        print("# The users' suite, held-out half: the hedged default as it came out of its one run\n")
        print("Generated by `lab/scripts/heldout.py --hedged` from lab/results/suite/heldout-hedged-main "
              "(seeds 0–29) and heldout-hedged-replication (seeds 30–49) for the default, hedged (`--hedge 1`), "
              "heldout-main and heldout-replication for the single kernels, the peers' records under "
              "lab/results/suite/peers and symbo's sampler runs under lab/results/suite/peers-hedged. "
              "Problems with every record: %d of %d. The default: `%s`, hedged. Lower is better (cumulative "
              "regret over the 50 BO steps on the noiseless f).\n" % (len(problems), len(HELDOUT), DEFAULT))
    else:
        print("# The users' suite, held-out half: the default as it came out of its one run\n")
        print("Generated by `lab/scripts/heldout.py` from lab/results/suite/heldout-main (seeds 0–29), "
              "heldout-replication (seeds 30–49) and the peers' records under lab/results/suite/peers. "
              "Problems with every record: %d of %d. The default: `%s`. Lower is better (cumulative regret "
              "over the 50 BO steps on the noiseless f).\n" % (len(problems), len(HELDOUT), DEFAULT))
    report_targets(sets, tables, problems, level)
    if hedged:
        before = VARIANTS[variant][2]
        first = [load_table(d.replace("heldout-", before)).get(DEFAULT, {}) for _, d, _ in sets]
        name, prev, what = {"hedged": ("hedged", "first", "hedging"),
                            "aside": ("stepping-aside", "hedged", "stepping aside"),
                            "starts": ("three-ascent", "stepping-aside", "three ascents"),
                            "beta": ("β/4", "three-ascent", "β/4")}[variant]
        print("## The %s default against the %s default, paired by seed\n" % (name, prev))
        print("%s − %s (%smain, %sreplication: the same seeds, initial designs and noise), "
              "t intervals at %.4f (Bonferroni over the problems); negative: %s is better. "
              "Ratio: the %s default's mean over the %s's.\n" % (
                  name[:1].upper() + name[1:] if name[:1].isascii() else name, prev, before, before, level, what, name, prev))
        paired_table(tables, first, problems, level)
    peer_sets = [load_peers(set(seeds), symbo_dir) for _, _, seeds in sets]
    cuts = sorted(set().union(*(c for _, c in peer_sets)))
    print("## The default against the peers, paired by seed\n")
    print("symbo's entry: perf table's default, and on %s (log or integer parameters) symbo through its "
          "Optuna sampler (symbo-optuna), as the suite's protocol says. BoTorch ran as %s. Intervals at "
          "%.4f (Bonferroni over the problems), per seed set; negative: symbo is lower (better). A verdict "
          "holds only where both sets agree.\n" % (", ".join(sorted(SPACES & set(problems))),
                                                   ", ".join(cuts) or "—", level))
    entries = [symbo_entry(t, ps) for t, (ps, _) in zip(tables, peer_sets)]
    print("| problem | symbo | " + " | ".join(label for _, label in PEERS) + " |")
    print("|---|---|" + "---|" * len(PEERS))
    for p in problems:
        cells = []
        for system, _ in PEERS:
            ms = [portfolio.means({system: ps.get(system, {})}, system, p) for ps, _ in peer_sets]
            cells.append(" / ".join(g(m) for m in ms))
        ms = [portfolio.means({"s": e}, "s", p) for e in entries]
        print("| %s | %s | %s |" % (p, " / ".join(g(m) for m in ms), " | ".join(cells)))
    print("\nMeans: main / replication.\n")
    tally = {}
    for system, label in PEERS:
        print("### symbo − %s\n" % label)
        print("| problem | main | replication | verdict |")
        print("|---|---|---|---|")
        below, lower = 0, 0
        for p in problems:
            res = []
            for e, (ps, _) in zip(entries, peer_sets):
                peer = ps.get(system, {})
                seeds = sorted(s for (pp, s) in e if pp == p and (pp, s) in peer)
                res.append(interval([e[(p, s)] - peer[(p, s)] for s in seeds], level) if len(seeds) > 1
                           else (math.nan, math.nan, math.nan, len(seeds)))
            v = (verdict(res) if len(res) == 2 else "one set") if all(r[3] > 1 for r in res) else "missing"
            below += v == "holds: lower" or (len(res) == 1 and res[0][2] < 0)
            lower += all(m < 0 for m, _, _, _ in res)
            cells = ["%s [%s, %s] (n=%d)" % (g(m), g(lo), g(hi), n) for m, lo, hi, n in res]
            print("| %s | %s | %s | %s |" % (p, *(cells + ["—"] * (2 - len(cells))), v))
        tally[label] = (lower, below)
        print("\nMean lower than %s's on every seed set: %d of %d problems; the interval below 0 on every "
              "set: %d of %d.\n" % (label, lower, len(problems), below, len(problems)))
    print("## Summary\n")
    print("The issue's target: below SingleTaskGP, GPSampler and TPE on at least 90% of the problems.\n")
    print("| peer | mean lower, every set | resolvably lower (Bonferroni), every set |")
    print("|---|---|---|")
    for label, (lower, below) in tally.items():
        print("| %s | %d of %d (%.0f%%) | %d of %d (%.0f%%) |" % (
            label, lower, len(problems), 100.0 * lower / len(problems), below, len(problems),
            100.0 * below / len(problems)))


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    else:
        main(next((v for v in VARIANTS if "--" + v in sys.argv), None))
