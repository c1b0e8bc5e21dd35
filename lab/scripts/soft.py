"""The soft study of lab/results/soft/README.md: the soft kernel
(0.8·k_plus + 0.2·k_nystrom, bo.Soft) alone and as a fourth candidate of
the portfolio (portfolio:nystrom+avg+soft+plus), against every single
symbo kernel and the portfolio, on the ten problems of the defaults suite
and the four wrong-group problems, under the front ends' default protocol
(BoTorch's priors, learned constant mean), main seeds 0–29 and a disjoint
replication 30–49.

Reads perf table's record.json files (per-run metric: cumulative regret,
or −max f on WLAN8d; lower is better) and prints Markdown:

    /usr/bin/python3 lab/scripts/soft.py > lab/results/soft/analysis.md

The single kernels are base, nystrom, avg, plus and soft: soft is a
single kernel too, so it can be the best one a deciding kernel is held
to. Per seed set and problem: each kernel's mean, its ratio to the best
single kernel's (lab/scripts/portfolio.py's ratio rule) and the geometric
means over the ten problems and over the four wrong-group problems. The
issue's targets for a deciding kernel K, as in lab/scripts/portfolio.py and
lab/scripts/wronggroup.py: per problem, ratio ≤ 1.25 or the paired t interval
of K − best (Bonferroni over the ten, or over the four) reaching 0, and
the looser reading (each kernel's own interval overlapping the best's);
K's geometric mean below every single kernel's. Then the new portfolio −
the portfolio, − soft and − plus paired by seed, and − each peer (BoTorch's
SingleTaskGP, Optuna's GPSampler, TPE, random search) where it ran, with verdicts as in lab/scripts/defaults.py.

The same for the portfolio favouring soft as well as plus
(portfolio:nystrom+avg:soft+plus, "both favoured"): its targets, both
favoured − portfolio+soft and − plus paired by seed, − each peer; and the
ten fresh problems (five with a wrong group declared, five with their
own; records soft/fresh-main and soft/fresh-replication) with every
single kernel and both rules; and the same for the default with its
candidates' fits anchored on plus's lengthscale (--candidate-fit anchored,
"anchored"; records soft/anchored-*): its targets, anchored − both
favoured paired by seed, − each peer; and the same for the default with
its fixed-point probe limited to the first five BO steps (--probe-window
5, "window"; records soft/window-*): its targets, window − anchored
paired by seed, − each peer, and window − anchored on the held-out seeds
50–69 of the fourteen problems (records soft/anchored-heldout and
soft/window-heldout: the window was chosen on seeds 0–49's traces).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from defaults import g, interval  # noqa: E402
from portfolio import geo_ratio, paired_table, peers, ratio_table, targets  # noqa: E402

R = os.path.join(HERE, "..", "results")

TEN = ["Ackley2d", "Griewank6d", "Rastrigin5d", "Radial2d", "Scaling2d", "WLAN8d",
       "ShiftedAckley2d", "ShiftedRastrigin4d", "ShiftedGriewank6d", "CentredRastrigin4d"]
FOUR = ["Griewank6d:hyperoctahedral", "ShiftedRastrigin4d:hyperoctahedral",
        "ShiftedGriewank6d:hyperoctahedral", "ShiftedAckley2d:rotation2d"]
SINGLES = ["base", "nystrom", "avg", "plus", "soft"]
NEW = "portfolio:nystrom+avg+soft+plus"
FAV = "portfolio:nystrom+avg:soft+plus"
# The same kernel with --candidate-fit anchored: its runs are told apart by
# their record's protocol (load).
ANCH = FAV + " (anchored)"
# The anchored default with --probe-window 5: told apart by the protocol's
# probe_window (load).
WIN = FAV + " (window)"
DECIDERS = ["auto", "portfolio", NEW, FAV, ANCH, WIN]
SHORT = {NEW: "portfolio+soft", FAV: "both favoured", ANCH: "anchored", WIN: "window"}
RULES = ["portfolio", NEW, FAV, ANCH, WIN]

SETS = [
    ["portfolio/singles-main", "defaults/main", "portfolio/main", "wronggroup/main", "soft/main",
     "soft/favoured-main", "soft/anchored-main", "soft/window-main"],
    ["portfolio/singles-replication", "defaults/replication", "portfolio/replication",
     "wronggroup/replication", "soft/replication", "soft/favoured-replication", "soft/anchored-replication",
     "soft/window-replication"],
]
SET_NAMES = ["main (0–29)", "replication (30–49)"]

# Ten fresh problems none of the rules was chosen on: five with a wrong
# group declared, five with their own.
FRESH_WRONG = ["ShiftedRastrigin3d:hyperoctahedral", "ShiftedGriewank4d:hyperoctahedral",
               "ShiftedGriewank6d:permutation", "ShiftedRastrigin4d:signflip", "Griewank4d:permutation"]
FRESH_RIGHT = ["ShiftedAckley3d", "ShiftedGriewank4d", "CentredRastrigin3d", "Ackley3d", "Rastrigin3d"]
FRESH_SETS = [["soft/fresh-main", "soft/anchored-fresh-main", "soft/window-fresh-main"],
              ["soft/fresh-replication", "soft/anchored-fresh-replication", "soft/window-fresh-replication"]]
# Both anchored rules at the held-out seeds 50–69 (the fourteen problems).
HELDOUT = ["soft/anchored-heldout", "soft/window-heldout"]


def load(dirs, problems=TEN + FOUR):
    """{kernel: {(problem, seed): metric}} of the records in dirs (the first
    record to hold a (kernel, problem, seed) wins); the runs of a record made
    with --candidate-fit anchored count as kernel + " (anchored)", and
    with --probe-window as well as kernel + " (window)"."""
    out = {}
    for d in dirs:
        r = json.load(open(os.path.join(R, d, "record.json")))
        tag = " (anchored)" if r["protocol"].get("candidate_fit") == "anchored" else ""
        if r["protocol"].get("probe_window"):
            assert tag, "%s: a probe window without anchored fits" % d
            tag = " (window)"
        for run in r["runs"]:
            if run["problem"] in problems:
                out.setdefault(run["kernel"] + tag, {}).setdefault((run["problem"], run["seed"]), run["metric"])
    return out


def study(name, data, problems, label):
    level = 1 - 0.05 / len(problems)
    print("## %s, %s: mean metric, and ratio to the best single kernel\n" % (label, name))
    best, geo = ratio_table(data, problems, SINGLES, SINGLES + DECIDERS, SHORT)
    summary = {}
    for k in RULES:
        rows, met, overlap = targets(data, k, best, problems, level)
        below = all(geo[k] < geo[s] for s in SINGLES)
        summary[k] = (met, overlap, geo[k], below)
        target_section(k, "%s, %s" % (label, name), level, rows, met, len(problems), overlap,
                       "; geometric mean %.2f, %s every single kernel's (%s)" % (
                           geo[k], "below" if below else "not below",
                           ", ".join("%s %.2f" % (s, geo[s]) for s in SINGLES)))
    return summary


def target_section(k, where, level, rows, met, n, overlap, extra=""):
    """Prints deciding kernel k's per-problem target table (rows from
    portfolio.targets) and its tally."""
    kk = SHORT.get(k, k)
    print("### %s against the best single kernel (%s)\n" % (kk, where))
    print("| problem | best single | ratio | %s − best, paired [interval at %.4f] | target met | "
          "the two intervals: ratio ≤ 1.25 or overlapping |" % (kk, level))
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print("\n%s: per-problem target met on %d of %d (overlap reading: %d)%s.\n" % (kk, met, n, overlap, extra))


def main():
    print("Generated by `/usr/bin/python3 lab/scripts/soft.py` (its docstring tells the method).\n")
    sets = [load(ds) for ds in SETS]
    summary = {}
    for name, data in zip(SET_NAMES, sets):
        summary[(name, "ten")] = study(name, data, TEN, "the ten problems")
        summary[(name, "four")] = study(name, data, FOUR, "the four wrong-group problems")
    print("## Summary\n")
    print("| deciding kernel | ten: target met, main / replication (overlap reading) | ten: geo. mean | "
          "four: target met (overlap reading) | four: geo. mean |")
    print("|---|---|---|---|---|")
    for k in RULES:
        cells = []
        for part in ("ten", "four"):
            s = [summary[(n, part)][k] for n in SET_NAMES]
            cells.append("%d / %d (%d / %d)" % (s[0][0], s[1][0], s[0][1], s[1][1]))
            cells.append("%.2f / %.2f" % (s[0][2], s[1][2]))
        print("| %s | %s |" % (SHORT.get(k, k), " | ".join(cells)))
    print()
    for a, bs in [(NEW, ["portfolio", "soft", "plus"]), (FAV, [NEW, "plus"]), (ANCH, [FAV]), (WIN, [ANCH])]:
        for b in bs:
            for label, problems in [("the ten problems", TEN), ("the four wrong-group problems", FOUR)]:
                print("## %s − %s, %s, paired by seed\n" % (SHORT[a], SHORT.get(b, b), label))
                print("Intervals at the Bonferroni level over the problems, per seed set; negative: %s is lower "
                      "(better).\n" % SHORT[a])
                paired_table(sets, a, b, 1 - 0.05 / len(problems), problems, SET_NAMES, show_level=True)
        peers(sets, a, TEN, SHORT[a], tally=True)
    fresh()
    heldout()


def fresh():
    """The ten fresh problems: each kernel's mean and ratio to the best
    single kernel, the targets of the rules, their geometric means over
    the wrong and the right groups, and each rule against the one before
    (both favoured − portfolio+soft, anchored − both favoured, window −
    anchored) paired by seed (Bonferroni over the ten)."""
    problems = FRESH_WRONG + FRESH_RIGHT
    level = 1 - 0.05 / len(problems)
    sets = [load(ds, problems) for ds in FRESH_SETS]
    print("# The ten fresh problems\n")
    print("Five with a wrong group declared (%s) and five with their own (%s); none of the rules was chosen "
          "on them.\n" % (", ".join(FRESH_WRONG), ", ".join(FRESH_RIGHT)))
    geos = {}
    for name, data in zip(SET_NAMES, sets):
        print("## The fresh problems, %s: mean metric, and ratio to the best single kernel\n" % name)
        best, geo = ratio_table(data, problems, SINGLES, SINGLES + [NEW, FAV, ANCH, WIN], SHORT)
        for k in [NEW, FAV, ANCH, WIN]:
            rows, met, overlap = targets(data, k, best, problems, level)
            geos[(name, k)] = (met, overlap, geo_ratio(data, k, best, FRESH_WRONG),
                               geo_ratio(data, k, best, FRESH_RIGHT), geo[k])
            target_section(k, "the fresh problems, %s" % name, level, rows, met, len(problems), overlap)
    print("## The fresh problems: summary\n")
    print("| deciding kernel | target met, main / replication (overlap reading) | geo. mean, wrong groups | "
          "geo. mean, right groups | geo. mean, all ten |")
    print("|---|---|---|---|---|")
    for k in [NEW, FAV, ANCH, WIN]:
        s = [geos[(n, k)] for n in SET_NAMES]
        print("| %s | %d / %d (%d / %d) | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f |" % (
            SHORT[k], s[0][0], s[1][0], s[0][1], s[1][1], s[0][2], s[1][2], s[0][3], s[1][3], s[0][4], s[1][4]))
    print()
    for a, b in [(FAV, NEW), (ANCH, FAV), (WIN, ANCH)]:
        print("## %s − %s, the fresh problems, paired by seed\n" % (SHORT[a], SHORT[b]))
        print("Intervals at the Bonferroni level over the ten, per seed set; negative: %s is lower (better).\n"
              % SHORT[a])
        paired_table(sets, a, b, level, problems, SET_NAMES, show_level=True)


def heldout():
    """window − anchored paired by seed on the held-out seeds 50–69 of the
    fourteen problems (Bonferroni over the fourteen)."""
    problems = TEN + FOUR
    level = 1 - 0.05 / len(problems)
    data = load(HELDOUT, problems)
    print("# The held-out seeds 50–69\n")
    print("The probe window was chosen on where the probe fired in seeds 0–49's traces, so the records "
          "above are not a disjoint test of it; these are. Mean metric per problem, and %s − %s paired by "
          "seed, intervals at the Bonferroni level over the fourteen (%.4f); negative: %s is lower "
          "(better).\n" % (SHORT[WIN], SHORT[ANCH], level, SHORT[WIN]))
    print("| problem | %s | %s | %s − %s | resolved |" % (SHORT[ANCH], SHORT[WIN], SHORT[WIN], SHORT[ANCH]))
    print("|---|---|---|---|---|")
    tally = {}
    for p in problems:
        seeds = sorted(s for (pp, s) in data[WIN] if pp == p and (pp, s) in data[ANCH])
        a = [data[ANCH][(p, s)] for s in seeds]
        w = [data[WIN][(p, s)] for s in seeds]
        m, lo, hi, n = interval([x - y for x, y in zip(w, a)], level)
        v = "lower" if hi < 0 else "higher" if lo > 0 else "neither"
        tally[v] = tally.get(v, 0) + 1
        print("| %s | %s | %s | %s [%s, %s] (n=%d) | %s |" % (
            p, g(sum(a) / len(a)), g(sum(w) / len(w)), g(m), g(lo), g(hi), n, v))
    print("\nResolved: " + ", ".join("%s %d" % kv for kv in sorted(tally.items())) + ".\n")

if __name__ == "__main__":
    main()
