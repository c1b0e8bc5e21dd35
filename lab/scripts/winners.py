"""Which candidate's proposal a portfolio evaluates, and how far its
evidence trailed the referee's: the measurement behind "No candidate can
be left out of a step" in lab/results/soft/README.md, "Cost".

Reads perf table's results.json (the full traces, which --out writes and
the repository does not commit) of runs of a portfolio kernel and prints
Markdown, per problem and over all:

    /usr/bin/python3 lab/scripts/winners.py RESULTS.json [RESULTS.json ...]

Per BO step the trace has every candidate's log evidence, the kernel whose
proposal was evaluated (the winner) and whether it was the fixed-point
probe. A candidate's score is its evidence plus the odds ln 20 when the
kernel's spelling favours it (after the colon; without one, the last
candidate), and the referee is the best score (ties to the earlier
candidate), as bo.Optimizer decides. The winner's deficit is the
referee's score minus the winner's (0 when the referee's own proposal
won). A rule that skipped the acquisition of every candidate more than G
below the referee would save the "skipped" acquisitions per step and
change the "changed" steps (those whose winner was more than G below:
its proposal would not have been made); probe steps are left out of both.
--self-test checks the scoring on a made-up trace.
"""
import json
import math
import sys
from collections import Counter, defaultdict

ODDS = math.log(20)
GAPS = (5, 10, 20, 50)


def favoured(kernel, candidates):
    """The indices of the candidates the kernel's spelling favours: those
    after its second colon (portfolio:a+b:c+d), else the last."""
    parts = kernel.split(":")
    if len(parts) == 3:
        names = set(parts[2].split("+"))
        return {i for i, c in enumerate(candidates) if c in names}
    return {len(candidates) - 1}


def scores(evidence, fav):
    out = []
    for i, v in enumerate(evidence):
        if v is None or (isinstance(v, float) and math.isnan(v)):
            out.append(-math.inf)
        else:
            out.append(v + (ODDS if i in fav else 0.0))
    return out


def step_stats(ev, candidates, fav):
    """(winner, deficit, skipped per G) of one BO step, or None for a probe."""
    if ev.get("probe"):
        return None
    sc = scores(ev["evidence"], fav)
    ref = max(range(len(sc)), key=lambda i: (sc[i], -i))
    win = candidates.index(ev["kernel"])
    deficit = sc[ref] - sc[win]
    skipped = {G: sum(1 for i in range(len(sc)) if i != ref and sc[i] < sc[ref] - G) for G in GAPS}
    return ev["kernel"], deficit, skipped


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def collect(paths):
    per = defaultdict(lambda: {"wins": Counter(), "deficits": [], "skipped": Counter(), "probes": 0, "steps": 0})
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        for run in r["runs"]:
            cands = run.get("candidates") or []
            if len(cands) < 2:
                continue
            fav = favoured(run["kernel"], cands)
            for key in (run["problem"], "all"):
                d = per[key]
                for ev in run["evaluations"]:
                    if ev.get("phase") != "bo" or "evidence" not in ev:
                        continue
                    d["steps"] += 1
                    s = step_stats(ev, cands, fav)
                    if s is None:
                        d["probes"] += 1
                        d["wins"][ev["kernel"] + " (probe)"] += 1
                        continue
                    k, deficit, skipped = s
                    d["wins"][k] += 1
                    d["deficits"].append(deficit)
                    for G, v in skipped.items():
                        d["skipped"][G] += v
    return per


def table(per):
    head = "| problem | steps | wins (probe steps apart) | won below the referee | deficit: median / 90% / 99% / max |"
    head += "".join(f" G = {G}: changed / skipped per step |" for G in GAPS)
    print(head)
    print("|---" * (5 + len(GAPS)) + "|")
    keys = [k for k in per if k != "all"] + ["all"]
    for k in keys:
        d = per[k]
        ds = d["deficits"]
        n = len(ds)
        wins = ", ".join(f"{c} {v}" for c, v in sorted(d["wins"].items(), key=lambda t: -t[1]))
        below = sum(1 for x in ds if x > 0)
        qs = " / ".join(f"{quantile(ds, q):.1f}" for q in (0.5, 0.9, 0.99)) + f" / {max(ds):.1f}"
        row = f"| {k} | {d['steps']} | {wins} | {below} ({below / n:.0%}) | {qs} |"
        for G in GAPS:
            changed = sum(1 for x in ds if x > G)
            row += f" {changed} / {d['skipped'][G] / d['steps']:.2f} |"
        print(row)


def self_test():
    cands = ["nystrom", "avg", "soft", "plus"]
    fav = favoured("portfolio:nystrom+avg:soft+plus", cands)
    assert fav == {2, 3}, fav
    assert favoured("portfolio:nystrom+avg+soft+plus", cands) == {3}
    # soft + odds = 10 + ln 20 is the referee; avg (12) wins 10 + ln 20 − 12 below.
    ev = {"evidence": [1.0, 12.0, 10.0, 9.0], "kernel": "avg"}
    k, deficit, skipped = step_stats(ev, cands, fav)
    assert k == "avg" and abs(deficit - (10 + ODDS - 12)) < 1e-12, deficit
    # Below soft's 13.0 by more than 5: nystrom (1.0) only.
    assert skipped[5] == 1 and skipped[50] == 0, skipped
    # A failed fit (NaN) never referees; ties go to the earlier candidate.
    ev = {"evidence": [float("nan"), 2.0, 2.0 - ODDS, 2.0 - ODDS], "kernel": "avg"}
    assert step_stats(ev, cands, fav)[1] == 0
    assert step_stats({"probe": True, "evidence": [], "kernel": "avg"}, cands, fav) is None
    print("self-test: ok")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return
    paths = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not paths:
        sys.exit("usage: winners.py RESULTS.json [RESULTS.json ...] | --self-test")
    table(collect(paths))


if __name__ == "__main__":
    main()
