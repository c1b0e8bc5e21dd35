"""The best value a run found, beside its cumulative regret: per problem,
over the runs of one kernel in each perf table results.json given (the
full traces, not committed: rerun the record's command with --out), the
median of the run's best regret (min over its evaluations of f − f*),
how many runs evaluated f* exactly, the mean number of such evaluations
per run, and the mean cumulative regret over the BO steps. Used by
lab/results/hedge/README.md ("What it is made of"):

    perf table --problems Ackley2d,Ackley3d,Griewank6d:hyperoctahedral,Rastrigin5d,Rastrigin3d,Griewank6d,ShiftedAckley2d:rotation2d,Radial2d,ShiftedAckley2d \\
        --prior botorch --mean constant --kernels portfolio:nystrom+avg:soft+plus \\
        --candidate-fit anchored --probe-window 5 --seeds 0:30 --out /tmp/then9
    (and lab/results/hedge/soft-hedge1-main's command with --out /tmp/now)
    /usr/bin/python3 lab/scripts/bestfound.py then /tmp/then9/results.json now /tmp/now/results.json
"""
import json
import statistics
import sys


def summary(runs, problem):
    """(median best regret, runs at f*, mean evaluations at f*, mean
    cumulative BO regret, runs) of one problem's runs."""
    rows = []
    for run in runs:
        if run["problem"] != problem:
            continue
        ev = run["evaluations"]
        if any("regret" not in e for e in ev):
            return None  # f* unknown (WLAN8d): no regret
        rows.append((min(e["regret"] for e in ev), sum(1 for e in ev if e.get("at_optimum")),
                     sum(e["regret"] for e in ev if e["phase"] == "bo")))
    if not rows:
        return None
    return (statistics.median(b for b, _, _ in rows), sum(1 for _, a, _ in rows if a > 0),
            statistics.mean(a for _, a, _ in rows), statistics.mean(c for _, _, c in rows), len(rows))


def self_test():
    runs = [{"problem": "P", "evaluations": [{"regret": 2.0, "phase": "init"}, {"regret": 0.0, "phase": "bo", "at_optimum": True},
                                            {"regret": 1.0, "phase": "bo"}]},
            {"problem": "P", "evaluations": [{"regret": 3.0, "phase": "init"}, {"regret": 0.5, "phase": "bo"}]}]
    med, hit, mean_hits, cum, n = summary(runs, "P")
    assert (med, hit, mean_hits, cum, n) == (0.25, 1, 0.5, 0.75, 2)
    assert summary(runs, "Q") is None
    print("self-test: ok")


def main(args):
    names, paths = args[0::2], args[1::2]
    data = [json.load(open(p))["runs"] for p in paths]
    problems = []  # the first file's, in its order
    for r in data[0]:
        if r["problem"] not in problems:
            problems.append(r["problem"])
    print("| problem | " + " | ".join("%s: median best regret; runs at f*; evaluations at f* per run; "
                                      "mean cumulative regret" % n for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for p in problems:
        cells = []
        for runs in data:
            s = summary(runs, p)
            cells.append("—" if s is None else "%.3g; %d/%d; %.1f; %.3g" % (s[0], s[1], s[4], s[2], s[3]))
        print("| %s | %s |" % (p, " | ".join(cells)))


if __name__ == "__main__":
    if "--self-test" in sys.argv:
        self_test()
    else:
        main(sys.argv[1:])
