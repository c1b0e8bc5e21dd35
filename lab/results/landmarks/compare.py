"""Landmark k_plus against the full design: paired comparison of perf table results.

Reads the record.json of two perf table directories run with the same
problems, seeds and protocol (one with --landmarks, one without or with
--landmarks -1) and prints a Markdown table: per problem the mean ± standard
error over the seeds of each, and the paired difference (landmarks − full,
seed by seed) with its 95% t-interval. With --curves it also reads their
results.json (the full traces, written beside record.json) and draws the
mean cumulative regret against the evaluation, with standard-error bands,
into the given PNG/SVG base path.

Only the standard library is needed for the table up to 31 seeds (numpy
too with --family or more seeds, for the t quantile; matplotlib for
--curves). --self-test checks the intervals against scipy's quantiles.

    python3 lab/results/landmarks/compare.py FULL_DIR LANDMARK_DIR [--curves OUT_BASE] [--family K]

A directory argument may join several with "+" (the same protocol on
disjoint seeds, pooled). --family K widens the intervals to Bonferroni's
1 − 0.05/K (K comparisons drawn on).
"""

import argparse
import json
import math
import os
import sys

# Two-sided 95% quantiles of Student's t for 1…30 degrees of freedom.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def load(d):
    """The record of directory d, or of several joined by "+" (the same
    protocol on disjoint seeds, pooled: their commands joined by " ; ")."""
    recs, runs = [], {}
    for part in d.split("+"):
        with open(os.path.join(part, "record.json")) as f:
            rec = json.load(f)
        recs.append(rec)
        for r in rec["runs"]:
            key = (r["problem"], r["seed"])
            if key in runs:
                sys.exit(f"compare.py: {part}: {key} is in an earlier directory too")
            runs[key] = r
    rec = dict(recs[0])
    rec["command"] = " ; ".join(r["command"] for r in recs)
    rec["revision"] = ",".join(sorted({r["revision"][:12] for r in recs}))
    return rec, runs


def t_quantile(p, df):
    """The p-quantile of Student's t: lab/scripts/fixedpoint.py's (which needs
    numpy), imported only for --family > 1 or more than 31 seeds."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
    from fixedpoint import t_quantile as q
    return q(p, df)


def mean_se(v):
    n = len(v)
    m = sum(v) / n
    if n < 2:
        return m, float("nan")
    var = sum((x - m) ** 2 for x in v) / (n - 1)
    return m, math.sqrt(var / n)


def interval(md, sd, n, family=1):
    """The Student t interval of a mean md with standard error sd over n
    values, at 95% (family 1: T95 up to 30 degrees of freedom, the exact
    quantile beyond) or Bonferroni's 1 − 0.05/family; NaN below 2 values."""
    if n < 2:
        return float("nan"), float("nan")
    if family == 1 and n - 1 <= len(T95):
        t = T95[n - 2]
    else:
        t = t_quantile(1 - 0.025 / family, n - 1)
    return md - t * sd, md + t * sd


def self_test():
    # scipy.stats.t.ppf(0.975, 49) = 2.009575234489209: beyond the table
    # the interval is t's, not the normal 1.96 it was.
    lo, hi = interval(0.0, 1.0, 50)
    assert abs(hi - 2.009575234489209) < 1e-6 and abs(lo + hi) < 1e-12, (lo, hi)
    # Within the table: scipy.stats.t.ppf(0.975, 9) = 2.2621571627409915.
    lo, hi = interval(1.0, 0.5, 10)
    assert abs(hi - (1 + 0.5 * 2.2621571627409915)) < 1e-3, (lo, hi)
    # --family 2, 49 degrees of freedom: scipy.stats.t.ppf(0.9875, 49) = 2.312375166857136.
    lo, hi = interval(0.0, 1.0, 50, 2)
    assert abs(hi - 2.312375166857136) < 1e-6, (lo, hi)
    # One value: no interval.
    assert all(math.isnan(v) for v in interval(3.0, float("nan"), 1))
    print("self-test: ok")


def fmt(x):
    return f"{x:.1f}" if abs(x) < 1e5 else f"{x:.4g}"


def table(full_dir, lm_dir, family=1):
    rf, full = load(full_dir)
    rl, lm = load(lm_dir)
    problems = []
    for (p, _s) in full:
        if p not in problems:
            problems.append(p)
    out = ["| Benchmark | full design | landmarks | landmarks − full (paired) | %s interval of the difference | seconds per run (full / landmarks) |" % ("95%" if family == 1 else "Bonferroni (%d) 95%%" % family),
           "|---|---|---|---|---|---|"]
    for p in problems:
        seeds = sorted(s for (q, s) in full if q == p and (q, s) in lm)
        a = [full[(p, s)]["metric"] for s in seeds]
        b = [lm[(p, s)]["metric"] for s in seeds]
        d = [y - x for x, y in zip(a, b)]
        ma, sa = mean_se(a)
        mb, sb = mean_se(b)
        md, sd = mean_se(d)
        lo, hi = interval(md, sd, len(d), family)
        flag = "n/a: fewer than 2 seeds" if len(d) < 2 else "contains 0" if lo <= 0 <= hi else "excludes 0"
        ta, _ = mean_se([full[(p, s)]["seconds"] for s in seeds])
        tb, _ = mean_se([lm[(p, s)]["seconds"] for s in seeds])
        out.append(f"| {p} | {fmt(ma)} ± {fmt(sa)} | {fmt(mb)} ± {fmt(sb)} | {fmt(md)} ± {fmt(sd)} | "
                   f"[{fmt(lo)}, {fmt(hi)}] ({flag}) | {ta:.1f} / {tb:.1f} |")
    return rf, rl, "\n".join(out)


def curves(dirs, labels, out_base):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = []
    for d in dirs:
        with open(os.path.join(d, "results.json")) as f:
            data.append(json.load(f)["runs"])
    problems = []
    for tr in data[0]:
        if tr["problem"] not in problems:
            problems.append(tr["problem"])
    fig, axes = plt.subplots(1, len(problems), figsize=(5.5 * len(problems), 4.2))
    if len(problems) == 1:
        axes = [axes]
    for ax, p in zip(axes, problems):
        for runs, label in zip(data, labels):
            cum = [tr["cumulative_regret"] for tr in runs if tr["problem"] == p]
            n = len(cum)
            length = min(len(c) for c in cum)
            init = next(tr["init"] for tr in runs if tr["problem"] == p)
            xs = [init + i + 1 for i in range(length)]
            m = [sum(c[i] for c in cum) / n for i in range(length)]
            se = [math.sqrt(sum((c[i] - m[i]) ** 2 for c in cum) / (n - 1) / n) for i in range(length)]
            line, = ax.plot(xs, m, label=label, lw=1.4)
            ax.fill_between(xs, [a - b for a, b in zip(m, se)], [a + b for a, b in zip(m, se)],
                            color=line.get_color(), alpha=0.2, lw=0)
        ax.set_title(p)
        ax.set_xlabel("evaluations")
        ax.set_ylabel("cumulative regret (mean ± s.e.)")
        ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    paths = []
    for ext in ("png", "svg"):
        path = f"{out_base}.{ext}"
        fig.savefig(path, dpi=110)
        paths.append(path)
    return paths


def main():
    if "--self-test" in sys.argv[1:]:
        self_test()
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("full")
    ap.add_argument("landmarks", nargs="+")
    ap.add_argument("--curves", metavar="OUT_BASE")
    ap.add_argument("--labels", help="comma-separated curve labels (full first)")
    ap.add_argument("--family", type=int, default=1,
                    help="Bonferroni: intervals at 1 − 0.05/FAMILY (the number of comparisons drawn on)")
    args = ap.parse_args()
    for lm in args.landmarks:
        rf, rl, t = table(args.full, lm, args.family)
        print(f"`{rf['command']}` against `{rl['command']}` (commits {rf['revision'][:40]}, {rl['revision'][:40]}):\n")
        print(t)
        print()
    if args.curves:
        dirs = [args.full] + args.landmarks
        labels = args.labels.split(",") if args.labels else [os.path.basename(d.rstrip("/")) for d in dirs]
        for p in curves(dirs, labels, args.curves):
            print(f"wrote {p}", file=sys.stderr)


if __name__ == "__main__":
    main()
