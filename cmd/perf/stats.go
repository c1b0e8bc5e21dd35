package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/symbo/symbo/lab/experiments"
)

func init() {
	register(command{
		name:    "stats",
		summary: "replicate a table's claims on a disjoint seed set; coverage of its intervals",
		run:     runStats,
	})
}

const statsUsage = `
Usage: perf stats --main DIR --replication DIR [--ablation-only]
       perf stats --coverage DIR[,DIR…] [--n 10,20,30] [--reps 1000] [--resamples 999] [--level 0.95]

Reads the record.json of committed tables (perf table --out) — no run is
repeated — and prints Markdown on stdout.

With --main and --replication (the same table on two disjoint seed sets,
e.g. --seeds 0:30 and --seeds 30:50): every pair of kernels on every
benchmark, oriented so that A has the lower mean on the main set (over
the seeds both ran), with the mean paired (same-seed) difference A − B
on each set and its Student t interval at the level Holm's procedure over
every pair of its set tested it at (bold where it excludes 0: Holm's
decision, family-wise error 5%; the intervals are not simultaneous), and
a verdict — holds (significant on both, same direction),
main only, replication only, reversed, neither; then, where the tables
have base, nystrom and plus, the ablation's decomposition on both sets
side by side. A claim is a finding only where it holds.
--ablation-only prints the decomposition alone.

With --coverage: how often each interval rule (Student t, percentile
bootstrap, BCa bootstrap) covers the true mean of a paired difference at
each sample size --n, the population being the per-seed differences of
the ablation's comparisons (base − plus, base − nystrom, nystrom − plus)
pooled over the DIRs' seeds (they must not share seeds; a comparison
with fewer than 10 seeds is left out, and none left is bad input): --reps simulated
samples per (comparison, n), --resamples bootstrap resamples each, each
interval at --level (0.95, a table's uncorrected level; Holm's levels
reach 1 − 0.05/m for a family of m, where the bootstrap rules need
--resamples well above 2/(1 − level) and the rates need --reps well above
1/(1 − level)). Deterministic. It tells whether an interval is calibrated
at the sample size and level a table uses, for the distributions its
runs actually have.

The records read — by --main and --replication, or by --coverage's
DIRs — must be one table on different seeds: the same kind, protocol
(every setting of 'perf table' but --seeds, --skip and --workers; the
backend included), noise and regret rules as 'perf check --rotate'
groups, and each flag's records together the same cells (problem,
kernel); records that differ are refused, naming the first setting.

Exit status 0 on success, 2 on bad input (no record, shared seeds,
records of another table, a metric beyond ±1e100), 1 on any other
failure (output that cannot be written, say).

Example:
  perf stats --main lab/results/ablation-own --replication lab/results/replication/ablation-own
  perf stats --coverage lab/results/ablation-own,lab/results/replication/ablation-own
`

func runStats(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("stats", statsUsage, stdout)
	mainDir := fs.pathFlag("main", "the table on the main seed set (a `directory` with record.json)")
	repDir := fs.pathFlag("replication", "the same table on a disjoint seed set (a `directory` with record.json)")
	ablationOnly := fs.Bool("ablation-only", false, "print only the ablation's decomposition on both sets")
	covDirs := fs.pathFlag("coverage", "comma-separated table `directories` whose seeds are pooled for the coverage study")
	nList := fs.String("n", "10,20,30", "comma-separated sample sizes of the coverage study")
	reps := fs.Int("reps", 1000, "simulated samples per comparison and n")
	resamples := fs.Int("resamples", 999, "bootstrap resamples per simulated sample")
	level := fs.Float64("level", 0.95, "nominal level of the coverage study's intervals, in [0.5, 0.99999]")
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case *covDirs != "":
		if *mainDir != "" || *repDir != "" {
			return badInput("--coverage takes no --main or --replication")
		}
		ns, err := intList("n", *nList)
		if err != nil {
			return err
		}
		if *reps < 10 || *reps > 1_000_000 || *resamples < 99 || *resamples > 100_000 {
			return badInput("--reps must be in [10, 1e6] and --resamples in [99, 1e5]")
		}
		if !(*level >= 0.5 && *level <= 0.99999) {
			return badInput("--level must be in [0.5, 0.99999], got %g", *level)
		}
		for _, n := range ns {
			if n < 3 || n > 10_000 {
				return badInput("--n: each sample size must be in [3, 10000], got %d", n)
			}
		}
		problems, per, err := pooledRecords("coverage", *covDirs)
		if err != nil {
			return err
		}
		if experiments.CoverageComparisons(problems, per) == 0 {
			return badInput("--coverage: no comparison of base, nystrom and plus has %d seeds in common over %s (the study samples from them)", experiments.CoverageMinSeeds, *covDirs)
		}
		fmt.Fprintf(stderr, "perf stats: coverage over %d problems × 3 differences × %d sample sizes, %d samples each\n", len(problems), len(ns), *reps)
		rows := experiments.CoverageStudy(problems, per, ns, *reps, *resamples, *level)
		md := experiments.CoverageMarkdown(rows, ns)
		if *level != 0.95 {
			md = fmt.Sprintf("Intervals at the nominal level %g: each entry is the share of samples whose interval covers the mean (%g would be calibrated).\n\n", *level, *level) + md
		}
		return printResult(stdout, md)
	case *mainDir == "" || *repDir == "":
		return badInput("give --main and --replication, or --coverage (see perf stats -h)")
	}
	pm, km, main, mainRecs, err := pooledRecordsOrdered("main", *mainDir)
	if err != nil {
		return err
	}
	_, _, rep, repRecs, err := pooledRecordsOrdered("replication", *repDir)
	if err != nil {
		return err
	}
	if err := sameTable([]tableRecords{{"--main " + *mainDir, mainRecs}, {"--replication " + *repDir, repRecs}}); err != nil {
		return err
	}
	if shared := sharedSeeds(main, rep); len(shared) > 0 {
		return badInput("--main and --replication share %d seeds (%s): a replication needs disjoint seeds", len(shared), seedList(shared))
	}
	var b strings.Builder
	if !*ablationOnly {
		b.WriteString(experiments.ReplicationMarkdown(experiments.Replicate(pm, km, main, rep)))
		b.WriteString("\n")
	}
	if slices.Contains(km, "nystrom") && slices.Contains(km, "plus") && slices.Contains(km, "base") {
		b.WriteString(experiments.ReplicatedAblationMarkdown(experiments.ReplicateAblation(pm, main, rep)))
	}
	return printResult(stdout, b.String())
}

// pooledRecords reads every record of the comma-separated dirs (each a
// directory with record.json or above some) into one per-seed map; two
// records with a run of the same (problem, kernel, seed) are bad input.
func pooledRecords(flag, list string) ([]string, experiments.PerSeed, error) {
	var problems []string
	per := experiments.PerSeed{}
	var tables []tableRecords
	for _, d := range strings.Split(list, ",") {
		p, _, one, recs, err := pooledRecordsOrdered(flag, d)
		if err != nil {
			return nil, nil, err
		}
		tables = append(tables, tableRecords{"--" + flag + " " + d, recs})
		if err := sameTable(tables); err != nil {
			return nil, nil, err
		}
		if shared := sharedSeeds(per, one); len(shared) > 0 {
			return nil, nil, badInput("--coverage: %s repeats seeds of another directory (%s)", d, seedList(shared))
		}
		for _, x := range p {
			if !slices.Contains(problems, x) {
				problems = append(problems, x)
			}
		}
		for prob, ks := range one {
			if per[prob] == nil {
				per[prob] = map[string]map[uint64]float64{}
			}
			for k, seeds := range ks {
				if per[prob][k] == nil {
					per[prob][k] = map[uint64]float64{}
				}
				for s, v := range seeds {
					per[prob][k][s] = v
				}
			}
		}
	}
	return problems, per, nil
}

// maxStatsMetric bounds the magnitude of a run's metric perf stats reads:
// the skewness and the BCa acceleration sum cubed differences of two
// metrics, finite up to about 1e102 over millions of seeds; no
// benchmark's regret or reward comes near it. A record with a larger
// metric (a hand-edited one) is bad input: it printed −Inf means and NaN
// intervals, exit 0.
const maxStatsMetric = 1e100

// pooledRecordsOrdered reads the records of one --dir entry: the problems
// and kernels in the order of their first runs, and every run's metric.
// Only table records are read (batch and robustness records have other
// cells).
func pooledRecordsOrdered(flag, dir string) (problems, kernels []string, per experiments.PerSeed, recs []namedRecord, err error) {
	dirs, all, err := readRecords(flag, dir)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	per = experiments.PerSeed{}
	for i, rec := range all {
		recs = append(recs, namedRecord{dirs[i], rec})
		if rec.Kind != "table" {
			return nil, nil, nil, nil, badInput("%s: a %s record; perf stats reads tables", dirs[i], rec.Kind)
		}
		for _, r := range rec.Runs {
			if !slices.Contains(problems, r.Problem) {
				problems = append(problems, r.Problem)
			}
			if !slices.Contains(kernels, r.Kernel) {
				kernels = append(kernels, r.Kernel)
			}
			if per[r.Problem] == nil {
				per[r.Problem] = map[string]map[uint64]float64{}
			}
			if per[r.Problem][r.Kernel] == nil {
				per[r.Problem][r.Kernel] = map[uint64]float64{}
			}
			if _, dup := per[r.Problem][r.Kernel][r.Seed]; dup {
				return nil, nil, nil, nil, badInput("%s: two runs of %s/%s seed %d", dirs[i], r.Problem, r.Kernel, r.Seed)
			}
			if !(math.Abs(r.Metric) <= maxStatsMetric) {
				return nil, nil, nil, nil, badInput("%s: run %s/%s seed %d has metric %g, beyond the ±%g perf stats takes (its sums of cubed differences would overflow)", dirs[i], r.Problem, r.Kernel, r.Seed, r.Metric, maxStatsMetric)
			}
			per[r.Problem][r.Kernel][r.Seed] = r.Metric
		}
	}
	return problems, kernels, per, recs, nil
}

// namedRecord is a record and its directory.
type namedRecord struct {
	dir string
	rec resultsRecord
}

// tableRecords are the records one flag of perf stats names ("--main
// DIR"): one table, possibly split over several records below DIR.
type tableRecords struct {
	flag string
	recs []namedRecord
}

// sameTable refuses (bad input) tables that are not one table on
// different seeds: every record must have the settings of familyKey —
// the kind, the protocol (backend included), the noise and regret rules,
// OpenBLAS's threads — and each flag's records together the same cells
// (problem, kernel, batch). The error names the first setting that
// differs, as the flag that sets it, with both values. Before, perf stats
// compared or pooled tables of another --noise, --prior, --regret,
// --iters, … and reported verdicts, exit 0.
// The GOAMD64 level of the builds that made the records is not compared
// (see familyKey): it moves last bits, not the distribution of a metric.
func sameTable(tables []tableRecords) error {
	if len(tables) == 0 || len(tables[0].recs) == 0 {
		return nil
	}
	ref := tables[0].recs[0]
	refSettings, _ := familyParts(ref.rec)
	refSettings += familyTail(ref.rec)
	var refCells []string
	for ti, t := range tables {
		cells := map[string]bool{}
		for _, r := range t.recs {
			settings, c := familyParts(r.rec)
			if settings+familyTail(r.rec) != refSettings {
				return badInput("%s and %s are not the same table: %s", ref.dir, r.dir, settingDiff(ref, r))
			}
			for _, k := range c {
				cells[k] = true
			}
		}
		names := slices.Sorted(maps.Keys(cells))
		if ti == 0 {
			refCells = names
			continue
		}
		if !slices.Equal(names, refCells) {
			return badInput("%s and %s are not the same table: %s", tables[0].flag, t.flag, cellDiff(tables[0].flag, refCells, t.flag, names))
		}
	}
	return nil
}

// settingDiff names the first setting of familyKey in which a's record
// and b's differ, and the values of both.
func settingDiff(a, b namedRecord) string {
	sa, sb := recordSettings(a.rec), recordSettings(b.rec)
	for i := range sa {
		if sa[i][1] != sb[i][1] {
			return fmt.Sprintf("%s is %s in %s, %s in %s", sa[i][0], sa[i][1], a.dir, sb[i][1], b.dir)
		}
	}
	return "their settings differ"
}

// recordSettings lists the settings of familyKey a record holds, each as
// the flag that sets it (the protocol's fields by their JSON names) and
// its value ("default" for a default the record leaves out).
func recordSettings(rec resultsRecord) [][2]string {
	show := func(v any) string {
		if s, ok := v.(string); ok {
			if s == "" {
				return "default"
			}
			return strconv.Quote(s)
		}
		return fmt.Sprint(v)
	}
	out := [][2]string{{"the kind", show(rec.Kind)}}
	p := rec.Protocol
	p.Backend = rec.backend()
	v := reflect.ValueOf(p)
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		out = append(out, [2]string{"--" + strings.ReplaceAll(name, "_", "-"), show(v.Field(i).Interface())})
	}
	return append(out, [2]string{"--noise", show(cmp.Or(rec.Noise, "box"))}, [2]string{"--regret", show(cmp.Or(rec.Regret, "acq"))},
		[2]string{"OpenBLAS's threads", show(rec.OpenBLASThreads)})
}

// cellDiff names the first cell that one of two tables has and the other
// lacks.
func cellDiff(fa string, a []string, fb string, b []string) string {
	for _, c := range a {
		if !slices.Contains(b, c) {
			return fmt.Sprintf("cell %s is only in %s", cellName(c), fa)
		}
	}
	for _, c := range b {
		if !slices.Contains(a, c) {
			return fmt.Sprintf("cell %s is only in %s", cellName(c), fb)
		}
	}
	return "their cells differ"
}

// cellName spells a cell of familyParts, "problem"/"kernel"/batch, as
// problem/kernel (and /q=batch for a batch above 1).
func cellName(c string) string {
	var p, k string
	var q int
	if _, err := fmt.Sscanf(strings.ReplaceAll(c, "/", " "), "%q %q %d", &p, &k, &q); err != nil {
		return c
	}
	if q > 1 {
		return fmt.Sprintf("%s/%s/q=%d", p, k, q)
	}
	return p + "/" + k
}

// sharedSeeds returns the seeds of the (problem, kernel, seed) runs present
// in both, sorted.
func sharedSeeds(a, b experiments.PerSeed) []uint64 {
	set := map[uint64]bool{}
	for p, ks := range a {
		for k, seeds := range ks {
			for s := range seeds {
				if _, ok := b[p][k][s]; ok {
					set[s] = true
				}
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// seedList spells seeds as "0, 1, 2", or the first five and a count.
func seedList(seeds []uint64) string {
	var parts []string
	for i, s := range seeds {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(seeds)-5))
			break
		}
		parts = append(parts, strconv.FormatUint(s, 10))
	}
	return strings.Join(parts, ", ")
}

// intList parses a comma-separated list of integers for flag name.
func intList(name, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, badInput("--%s: %q is not an integer", name, f)
		}
		out = append(out, v)
	}
	return out, nil
}
