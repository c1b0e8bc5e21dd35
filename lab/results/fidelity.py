"""How close a Table 1 run is to the paper's Table 1.

For each results.json (written by `perf table --out DIR`), prints the mean
over the paper's 15 cells with a known optimum (Ackley2d, Griewank6d,
Rastrigin5d, Radial2d, Scaling2d × base, avg, plus) of |log(ours/paper)|,
with the regret counted over the BO iterations only ("acq") and with the
initial design included ("all"), and each cell's ratio. RadialScaled2d is
compared with the paper's Radial2d. 0 would be the paper's numbers exactly;
0.69 is a factor 2 on average.

    python3 lab/results/fidelity.py lab/results/table-own/results.json \
        lab/results/table-paper/results.json
"""
import json
import math
import statistics as st
import sys

# The paper's Table 1 (mean cumulative regret over 10 seeds).
PAPER = {
    "Ackley2d": {"base": 382.7, "avg": 128.2, "plus": 126.4},
    "Griewank6d": {"base": 3840.3, "avg": 3067.4, "plus": 1832.6},
    "Rastrigin5d": {"base": 3568.5, "avg": 1583.5, "plus": 813.4},
    "Radial2d": {"base": 388.6, "avg": 480.9, "plus": 199.7},
    "Scaling2d": {"base": 1820.6, "avg": 3361.8, "plus": 25.4},
}


def load(path):
    cells = {}
    for r in json.load(open(path))["runs"]:
        if r.get("optimum") is None:
            continue
        p = r["problem"].replace("RadialScaled2d", "Radial2d")
        acq = r["cumulative_regret"][-1]
        init = sum(e["regret"] for e in r["evaluations"] if e["phase"] == "init")
        cells.setdefault((p, r["kernel"]), []).append((acq, acq + init))
    return cells


def main(paths):
    for path in paths:
        cells = load(path)
        for which, name in ((0, "acq"), (1, "all")):
            rows = []
            for p, ks in PAPER.items():
                for k, v in ks.items():
                    if (p, k) in cells:
                        rows.append((p, k, st.mean(x[which] for x in cells[(p, k)]), v))
            if not rows:
                print(f"{path}: no cell of the paper's Table 1")
                break
            d = st.mean(abs(math.log(m / v)) for _, _, m, v in rows)
            print(f"{path} {name}: mean |log(ours/paper)| = {d:.3f} over {len(rows)} cells")
            for p, k, m, v in rows:
                print(f"   {p:<12} {k:<5} ours {m:8.1f} paper {v:8.1f}  ratio {m / v:.2f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
