"""Pilots of changes to the default on the users' suite's tuning half,
under today's protocol, after the fresh held-out set (lab/suite/fresh.md)
pointed at two gaps: avg the best single kernel by far on OffRosen5d
(the default, which has no avg candidate, 1.74× / 1.37× behind it), and
nystrom the best under a wrong or approximate group (1.15–1.26×), where
the default favours soft and plus only.

The default of its day (portfolio:nystrom:soft+plus, hedged, stepping
aside, three ascents for the other candidates: tuning{,2}-starts3-main)
against each pilot, seeds 0–19, paired by seed, and all as ratios to the
best single kernel (tuning{,2}-singles-main), as lab/scripts/suite.py
reads the tuning half:

  avg     portfolio:nystrom+avg:soft+plus --probe earned
          (tuning{,2}-avg3-main): avg a fourth candidate, its probe earned;
  nystrom portfolio:base:nystrom+soft+plus (tuning{,2}-favn-main):
          nystrom favoured beside soft and plus, base the one candidate
          that must beat them by the odds;
  base    portfolio:nystrom+base:soft+plus (tuning{,2}-base4-main): base a
          fourth candidate, unfavoured beside nystrom (the WLAN problems,
          where base is the best single kernel by 1.3×);
  residual today's kernel with --residual-variance (tuning{,2}-resid-main):
          the Nyström kernels' variance far from the data is the prior's,
          as the base GP's is (nystrom's is 0.2–7% of base's 0.9 per
          coordinate away in d = 5, 8: they hardly explore there);
  loo     today's kernel with --referee loo (tuning{,2}-loo-main): the
          referee, whose means pick the proposal, is the candidate of
          highest leave-one-out log predictive density (odds unchanged),
          a score less forgiving of a covariance the data contradict;
  odds    today's kernel with --odds ln 4 and ln 100 (tuning{,2}-odds4-main,
          tuning{,2}-odds100-main): soft and plus favoured less and more
          than the default's ln 20;
  beta    today's kernel with --beta-scale 0.25 and 4
          (tuning{,2}-beta025-main, tuning{,2}-beta4-main): UCB's weight
          on the standard deviation halved and doubled.

The tuning half is where a default is chosen; nothing here is held-out
evidence. Prints Markdown:

    /usr/bin/python3 lab/scripts/pilots.py > lab/results/suite/pilots.md
"""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import aside  # noqa: E402
import hedge  # noqa: E402
import portfolio  # noqa: E402
import suite  # noqa: E402  (the tuning half's problems, singles and reading)

TODAY = (["tuning-starts3-main", "tuning2-starts3-main"], hedge.KERNEL)
# label: (records, kernel, what it changes)
# The labels differ from the single kernels' names: the tables key rows
# by label and single kernel alike.
PILOTS = {
    "pilot avg": (["tuning-avg3-main", "tuning2-avg3-main"], "portfolio:nystrom+avg:soft+plus",
                  "avg a fourth candidate, its probe earned (`--probe earned`)"),
    "pilot nystrom": (["tuning-favn-main", "tuning2-favn-main"], "portfolio:base:nystrom+soft+plus",
                      "nystrom favoured beside soft and plus, base a fourth, unfavoured candidate"),
    "pilot base": (["tuning-base4-main", "tuning2-base4-main"], "portfolio:nystrom+base:soft+plus",
                   "base a fourth candidate beside nystrom, unfavoured like it: the evidence can pick the "
                   "kernel that ignores the group where the data say the group is wrong"),
    "pilot residual": (["tuning-resid-main", "tuning2-resid-main"], hedge.KERNEL,
                       "today's candidates with the Nyström kernels' residual prior variance "
                       "(`--residual-variance`, bo.Protocol.ResidualVariance): far from the data the "
                       "variance is the prior's, as the base GP's is, and nystrom is the base GP"),
    "pilot loo": (["tuning-loo-main", "tuning2-loo-main"], hedge.KERNEL,
                  "today's candidates and odds with the referee picked by the leave-one-out log predictive "
                  "density instead of the evidence (`--referee loo`, bo.DecideOptions.Referee)"),
    "pilot odds 4": (["tuning-odds4-main", "tuning2-odds4-main"], hedge.KERNEL,
                     "soft and plus favoured by the log prior odds ln 4 instead of ln 20 (`--odds`, "
                     "bo.DecideOptions.Odds): nystrom the referee more often"),
    "pilot odds 100": (["tuning-odds100-main", "tuning2-odds100-main"], hedge.KERNEL,
                       "soft and plus favoured by ln 100 instead of ln 20: nystrom the referee less often"),
    "pilot beta/4": (["tuning-beta025-main", "tuning2-beta025-main"], hedge.KERNEL,
                     "UCB's β scaled by 1/4 (`--beta-scale 0.25`, bo.Protocol.BetaScale): the weight on "
                     "the standard deviation halved"),
    "pilot beta×4": (["tuning-beta4-main", "tuning2-beta4-main"], hedge.KERNEL,
                     "UCB's β scaled by 4 (`--beta-scale 4`): the weight on the standard deviation doubled"),
}
assert not set(PILOTS) & set(suite.SINGLES) and "today" not in PILOTS


def self_test():
    aside.self_test()
    # suite.runs reads one kernel's runs from several records.
    k = PILOTS["pilot avg"][1]
    with tempfile.TemporaryDirectory() as d:
        for name, seed in (("a", 0), ("b", 1)):
            os.makedirs(os.path.join(d, name))
            runs = [dict(problem="Reactor5d", kernel=kk, seed=seed, metric=m) for kk, m in ((k, 1.0), ("plus", 2.0))]
            json.dump(dict(runs=runs), open(os.path.join(d, name, "record.json"), "w"))
        old, suite.R = suite.R, d
        try:
            got = suite.runs(["a", "b", "missing"], k)
        finally:
            suite.R = old
        assert got == {("Reactor5d", 0): 1.0, ("Reactor5d", 1): 1.0}, got
    print("pilots self-test: ok")


def main():
    data = {"today": suite.runs(*TODAY)}
    for label, (dirs, k, _) in PILOTS.items():
        data[label] = suite.runs(dirs, k)
    for k in suite.SINGLES:
        data[k] = suite.runs(suite.SINGLE_DIRS, k)
    problems = [p for p in suite.TUNING if all(any(pp == p for pp, _ in v) for v in data.values())]
    if not problems:
        sys.exit("pilots.py: no problem has every record yet")
    print("# Pilots on the tuning half: changes to the default\n")
    print("Generated by `lab/scripts/pilots.py` from lab/results/suite/tuning{,2}-*-main, seeds 0–19. "
          "today: the default, `%s` (`--hedge 1 --step-aside --candidate-starts 3`, the front ends' "
          "protocol), tuning{,2}-starts3-main. Each pilot changes one thing, under the same protocol. "
          "Tuning-half figures: a lead for a choice, not held-out evidence.\n" % hedge.KERNEL)
    for label, (dirs, k, what) in PILOTS.items():
        print("- **%s**: `%s` — %s; records %s." % (label, k, what, ", ".join(dirs)))
    print("\n## Against the best single kernel\n")
    print("Cells: mean (ratio to the best single kernel's); WLAN: −max f.\n")
    portfolio.ratio_table(data, problems, suite.SINGLES, ["today"] + list(PILOTS) + suite.SINGLES)
    print()
    for label, (dirs, k, _) in PILOTS.items():
        aside.section("%s against today, paired by seed" % label,
                      "Seeds 0–19; ratio: %s over today (below 1: the pilot is better)." % label,
                      [(dirs, aside.SUITE, k, TODAY[0], aside.SUITE, TODAY[1])],
                      ["tuning (0–19)"], "today", label)


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    else:
        main()
