package experiments

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/linalg"
)

// tableProblems are the paper's Table 1 benchmarks, in its order.
var tableProblems = []string{"Ackley2d", "Griewank6d", "Rastrigin5d", "Radial2d", "Scaling2d", "WLAN8d"}

// TableKernels are the kernels of Table 1 (max only where it is PSD),
// perf table's and perf robustness's default.
var TableKernels = []string{bo.NameBase, bo.NameAvg, bo.NamePlus, bo.NameMax}

// PaperCell is one entry of the paper's Table 1: mean ± standard error
// over 10 seeds.
type PaperCell struct{ Mean, SE float64 }

// paperTable1 is the paper's Table 1 (cumulative regret on the synthetic
// benchmarks, negated best reward on WLAN; lower is better). The paper has
// no k_max column.
var paperTable1 = map[string]map[string]PaperCell{
	"Ackley2d":    {bo.NameBase: {382.7, 5.7}, bo.NameAvg: {128.2, 10.4}, bo.NamePlus: {126.4, 3.6}},
	"Griewank6d":  {bo.NameBase: {3840.3, 177.7}, bo.NameAvg: {3067.4, 841.9}, bo.NamePlus: {1832.6, 146.3}},
	"Rastrigin5d": {bo.NameBase: {3568.5, 91.3}, bo.NameAvg: {1583.5, 341.9}, bo.NamePlus: {813.4, 70.6}},
	"Radial2d":    {bo.NameBase: {388.6, 20.3}, bo.NameAvg: {480.9, 76.4}, bo.NamePlus: {199.7, 11.6}},
	"Scaling2d":   {bo.NameBase: {1820.6, 1135.4}, bo.NameAvg: {3361.8, 742.9}, bo.NamePlus: {25.4, 6.4}},
	"WLAN8d":      {bo.NameBase: {-65.0, 3.2}, bo.NameAvg: {-51.8, 1.7}, bo.NamePlus: {-74.4, 0.7}},
}

// The paper's Table 1 budget: 5 initial points and 50 sequential
// acquisition steps per run.
const paperInit, paperIters = 5, 50

// PaperComparable reports whether the table's runs have the paper's Table
// 1 budget (5 + 50 evaluations, one at a time), so that the paper's
// entries can stand beside ours: cumulative regret grows with the number
// of evaluations, so beside a longer or batched run they would mislead.
// Markdown leaves the paper's columns out otherwise.
func (r *TableResult) PaperComparable() bool {
	s := r.Settings
	return s.Init == paperInit && s.Iters == paperIters && s.Batch <= 1
}

// paperRow is the paper's Table 1 row for a problem: its own, or for
// RadialScaled2d, the paper-fidelity variant of Radial2d, Radial2d's;
// for ScalingDir2d (Scaling2d under another orbit geometry), Scaling2d's.
func paperRow(name string) map[string]PaperCell {
	switch name {
	case "RadialScaled2d":
		name = "Radial2d"
	case "ScalingDir2d":
		name = "Scaling2d"
	}
	return paperTable1[name]
}

// TableOptions configure Table. The zero value is the paper's experiment
// with our protocol defaults.
type TableOptions struct {
	// Problems (names problem.New accepts; nil means tableProblems) and
	// Kernels (nil means TableKernels; max is skipped where not PSD).
	Problems []string
	Kernels  []string
	// Seeds FirstSeed…FirstSeed+Seeds−1 (Seeds 0 means 10): a
	// replication takes a disjoint range, e.g. FirstSeed 100.
	FirstSeed int
	Seeds     int
	// Config is the protocol of every run (Init 0 means 5); its Kernel,
	// Minimize and Workers are set per run.
	Config bo.Config
	// Iters is the number of acquisition steps per run (0 means 50);
	// Batch the points asked per round (0 means 1, sequential).
	Iters, Batch int
	// Workers is recorded in the settings: the number of runs in
	// parallel that the plan is executed with (0 means GOMAXPROCS).
	Workers int
	// Skip leaves these cells out (shown as "not run"): a way to keep a
	// cell too expensive for the time at hand out of a table, explicitly,
	// or one bo refuses (avg enumerated over more than
	// bo.AvgEnumerateLimit elements), which otherwise fails the table.
	// A cell the table does not have (k_max where it is not PSD among
	// them) is refused.
	Skip []CellKey
	// Noise is the observation noise rule (bo.RunOptions.Noise; the zero
	// value: 2% of the variance of f over the box).
	Noise bo.NoiseRule
	// CountInit adds the initial design's regret to each run's cumulative
	// regret (MetricOf); the paper's R_T counts the acquisition steps only.
	CountInit bool
}

// CellKey names a cell of a table: a problem (any name problem.New
// accepts) and a kernel.
type CellKey struct {
	Problem string
	Kernel  string
}

// Cell summarizes the runs of one (problem, kernel).
type Cell struct {
	Problem string `json:"problem"`
	Kernel  string `json:"kernel"`
	Summary
	// ExactOptimumHits sums the runs' evaluations at exactly f* (the
	// box-centre diagnostic); RunsWithHits counts the runs with any.
	ExactOptimumHits int `json:"exact_optimum_hits"`
	RunsWithHits     int `json:"runs_with_hits"`
	// Seconds is the mean wall time of a run.
	Seconds float64 `json:"seconds"`
	// Median is the median of the runs' metric.
	Median float64 `json:"median"`
}

// medianNote is " (median m)" where the mean misrepresents the cell: its
// median lies outside mean ± 1.96·s.e. (a skewed or bimodal cell), else "".
func (c *Cell) medianNote() string {
	if c.N < 2 || math.IsNaN(c.Median) || math.Abs(c.Median-c.Mean) <= z95*c.SE {
		return ""
	}
	return strings.ReplaceAll(fmt.Sprintf(" (median %.1f)", c.Median), "-", "−")
}

// Row is one benchmark of a table: its group order and a cell per kernel
// run (nil where the kernel was not run).
type Row struct {
	Problem string               `json:"problem"`
	Group   string               `json:"group"`
	Order   string               `json:"order"` // |G|: an integer or ∞
	Cells   map[string]*Cell     `json:"-"`
	Paper   map[string]PaperCell `json:"-"`
	// Skipped lists the kernels left out by TableOptions.Skip.
	Skipped []string `json:"skipped,omitempty"`
	known   bool     // f* is known
}

// Settings record the protocol of an experiment.
type Settings struct {
	Seeds int `json:"seeds"`
	// FirstSeed is the first seed (the runs' seeds are FirstSeed…
	// FirstSeed+Seeds−1); omitted when 0.
	FirstSeed   int    `json:"first_seed,omitempty"`
	Iters       int    `json:"iters"`
	Batch       int    `json:"batch,omitempty"`
	Init        int    `json:"init"`
	Acquisition string `json:"acquisition"`
	Beta        string `json:"beta"`
	FitMode     string `json:"fit_mode"`
	// Prior is the GP hyperparameter prior ("botorch"); empty for none.
	Prior   string `json:"prior,omitempty"`
	Backend string `json:"backend"`
	Workers int    `json:"workers"`
	// Noise is the noise rule ("observed" or a fixed variance); empty
	// for the default, 2% of the variance of f over the box.
	Noise string `json:"noise,omitempty"`
	// Regret is "all" when the metric counts the initial design too;
	// empty for the paper's R_T over the acquisition steps.
	Regret string `json:"regret,omitempty"`
	// Landmarks is bo.Config.Landmarks as given (0, the default rule,
	// omitted; negative: never).
	Landmarks int `json:"landmarks,omitempty"`
	// Liar is the constant liar's value ("worst"); empty for the default
	// ("mean").
	Liar string `json:"liar,omitempty"`
	// Mean is the GP's prior mean ("constant"); empty for the default
	// ("sample").
	Mean string `json:"mean,omitempty"`
	// LandmarkFit is bo.Config.LandmarkFit ("subset", "likelihood");
	// empty for the default rule.
	LandmarkFit string `json:"landmark_fit,omitempty"`
	// CandidateFit is bo.Config.CandidateFit ("anchored"); empty for the
	// default ("own").
	CandidateFit string `json:"candidate_fit,omitempty"`
	// ProbeWindow is bo.Config.ProbeWindow; 0 (omitted) for no limit.
	ProbeWindow int `json:"probe_window,omitempty"`
}

// TableResult is a finished Table: every trace in plan order, the cells,
// and what reproduces them.
type TableResult struct {
	Environment Environment `json:"environment"`
	Settings    Settings    `json:"settings"`
	WallSeconds float64     `json:"wall_seconds"`
	Kernels     []string    `json:"kernels"`
	Rows        []Row       `json:"rows"`
	CellList    []*Cell     `json:"cells"`
	Specs       []RunSpec   `json:"-"`
	Runs        []*bo.Trace `json:"runs"`
	// Decompositions is the invariance × Nyström ablation of the table
	// (Ablation), when it was asked for.
	Decompositions []Decomposition `json:"ablation,omitempty"`
	countInit      bool
}

func settingsOf(cfg bo.Config, iters, first, seeds, workers int) (Settings, error) {
	b := cfg.Backend
	if b == nil {
		var err error
		if b, err = linalg.Default(); err != nil {
			return Settings{}, fmt.Errorf("experiments: %w", err)
		}
	}
	prior := ""
	if cfg.Prior != gp.PriorNone {
		prior = cfg.Prior.String()
	}
	acq := bo.Acquisition(bo.UCB{}) // the zero Config's
	if cfg.Acquisition != nil {
		acq = cfg.Acquisition
	}
	liar := ""
	if cfg.Liar != bo.LiarMean {
		liar = cfg.Liar.String()
	}
	mean := ""
	if cfg.Mean != gp.MeanSample {
		mean = cfg.Mean.String()
	}
	lf := ""
	if cfg.LandmarkFit != gp.LandmarkFitDefault {
		lf = cfg.LandmarkFit.String()
	}
	cf := ""
	dec := cfg.Kernel.Options()
	if dec.CandidateFit != bo.CandidateFitOwn {
		cf = dec.CandidateFit.String()
	}
	return Settings{
		Prior: prior, Liar: liar, Mean: mean, LandmarkFit: lf, CandidateFit: cf, ProbeWindow: dec.ProbeWindow,
		Seeds: seeds, FirstSeed: first, Iters: iters, Init: cfg.Init,
		Acquisition: acq.Name(), Beta: cfg.Beta.String(), FitMode: cfg.FitMode.String(),
		Backend: b.Name(), Workers: workers, Landmarks: cfg.Landmarks,
	}, nil
}

// runSetup is what setup makes of the options the BO experiments share.
type runSetup struct {
	cfg   bo.Config // the protocol with its defaults
	iters int       // acquisition steps per run
	first int       // seeds first…first+seeds−1
	seeds int
	set   Settings // recorded with the results
	// skip holds the cells to leave out, problems as problem.New
	// canonicalizes them.
	skip map[CellKey]bool
}

// setup validates the options Table, Robustness and Batch share (seeds 0
// means 10, iters 0 means bo.DefaultIters, cfg.Init 0 bo.DefaultInit;
// batch > 1 is recorded) and returns what they make.
func setup(cfg bo.Config, iters, first, seeds, batch, workers int, skipList []CellKey) (runSetup, error) {
	c := runSetup{cfg: cfg, iters: cmp.Or(iters, bo.DefaultIters), first: first, seeds: cmp.Or(seeds, 10), skip: map[CellKey]bool{}}
	c.cfg.Init = cmp.Or(c.cfg.Init, bo.DefaultInit)
	if c.iters < 1 || c.cfg.Init < 1 || c.iters > bo.MaxEvaluations-c.cfg.Init {
		return c, fmt.Errorf("%w: iters and init must be ≥ 1 and sum to at most %d", ErrBadOptions, bo.MaxEvaluations)
	}
	if c.seeds < 1 || c.seeds > MaxSeeds {
		return c, fmt.Errorf("%w: seeds %d outside [1, %d]", ErrBadOptions, c.seeds, MaxSeeds)
	}
	if c.first < 0 || c.first > MaxFirstSeed {
		return c, fmt.Errorf("%w: first seed %d outside [0, %d]", ErrBadOptions, c.first, MaxFirstSeed)
	}
	var err error
	if c.set, err = settingsOf(c.cfg, c.iters, c.first, c.seeds, workers); err != nil {
		return c, err
	}
	if batch > 1 {
		c.set.Batch = batch
	}
	for _, k := range skipList {
		p, err := problem.New(k.Problem, 0)
		if err != nil {
			return c, fmt.Errorf("experiments: skip: %w", err)
		}
		c.skip[CellKey{p.Name(), k.Kernel}] = true
	}
	return c, nil
}

// checkKernelList refuses (ErrBadOptions) a kernel listed twice, which
// would make two cells of one name: every run of both, then a study
// whose cell is neither (a NaN summary).
func checkKernelList(kernels []string) error {
	for i, k := range kernels {
		if slices.Contains(kernels[:i], k) {
			return fmt.Errorf("%w: kernel %s listed twice", ErrBadOptions, k)
		}
	}
	return nil
}

// SeedsPhrase says which seeds the settings ran: "10 seeds", or "30 seeds
// (100–129)" for a range that does not start at 0.
func (s Settings) SeedsPhrase() string {
	if s.FirstSeed == 0 {
		return fmt.Sprintf("%d seeds", s.Seeds)
	}
	return fmt.Sprintf("%d seeds (%d–%d)", s.Seeds, s.FirstSeed, s.FirstSeed+s.Seeds-1)
}

// MaxSeeds caps the seeds of Table and Robustness.
const MaxSeeds = 10_000

// MaxFirstSeed caps the first seed of a range.
const MaxFirstSeed = 1 << 40

// Table is the paper's Table 1 experiment: every problem × kernel × seed
// (k_max only where bo accepts it), Metric summarized per cell. Its
// report is to be made once.
func Table(opts TableOptions) (Plan[*bo.Trace, *TableResult], error) {
	var plan Plan[*bo.Trace, *TableResult]
	names := opts.Problems
	if names == nil {
		names = tableProblems
	}
	kernels := opts.Kernels
	if kernels == nil {
		kernels = TableKernels
	}
	if len(names) == 0 || len(kernels) == 0 {
		return plan, fmt.Errorf("%w: need problems and kernels", ErrBadOptions)
	}
	if err := checkKernelList(kernels); err != nil {
		return plan, err
	}
	rs, err := setup(opts.Config, opts.Iters, opts.FirstSeed, opts.Seeds, opts.Batch, opts.Workers, opts.Skip)
	if err != nil {
		return plan, err
	}
	set := rs.set
	set.Noise = noiseName(opts.Noise)
	if opts.CountInit {
		set.Regret = "all"
	}
	res := &TableResult{Environment: Env(nil), Settings: set, Kernels: kernels, countInit: opts.CountInit}
	for _, name := range names {
		p, err := problem.New(name, 0)
		if err != nil {
			return plan, fmt.Errorf("experiments: %w", err)
		}
		if slices.ContainsFunc(res.Rows, func(r Row) bool { return r.Problem == p.Name() }) {
			return plan, fmt.Errorf("%w: problem %s listed twice", ErrBadOptions, p.Name())
		}
		row := Row{Problem: p.Name(), Group: p.Group().Name(), Order: groupOrder(p),
			Cells: map[string]*Cell{}, Paper: paperRow(p.Name())}
		_, row.known = p.Optimum()
		run, skipped, err := kernelsOn(p, kernels, rs.skip)
		if err != nil {
			return plan, err
		}
		row.Skipped = skipped
		for _, k := range run {
			c := &Cell{Problem: p.Name(), Kernel: k}
			row.Cells[k] = c
			res.CellList = append(res.CellList, c)
			res.Specs = appendSeeds(res.Specs, p.Name(), k, rs.first, rs.seeds, 0)
		}
		res.Rows = append(res.Rows, row)
	}
	// A skipped cell must be one of the table's (a misspelt or stale
	// --skip would otherwise skip nothing, silently), and something must
	// be left to run.
	for _, c := range opts.Skip {
		in := slices.ContainsFunc(res.Rows, func(r Row) bool { return r.Problem == c.Problem })
		if !in || !slices.Contains(kernels, c.Kernel) {
			return plan, fmt.Errorf("%w: skipped cell %s/%s is not in the table", ErrBadOptions, c.Problem, c.Kernel)
		}
	}
	if len(res.Specs) == 0 {
		return plan, fmt.Errorf("%w: every cell of the table is skipped or unsupported: nothing to run", ErrBadOptions)
	}
	return boPlan(res.Specs, rs.cfg, rs.iters, opts.Batch, opts.Noise, func(runs []*bo.Trace, wall time.Duration) *TableResult {
		res.Runs, res.WallSeconds = runs, wall.Seconds()
		res.summarize()
		return res
	})
}

// summarize fills the cells from the runs.
func (r *TableResult) summarize() {
	vals := map[*Cell][]float64{}
	cellOf := func(s RunSpec) *Cell {
		for i := range r.Rows {
			if r.Rows[i].Problem == s.Problem {
				return r.Rows[i].Cells[s.Kernel]
			}
		}
		return nil
	}
	for i, s := range r.Specs {
		c := cellOf(s)
		tr := r.Runs[i]
		vals[c] = append(vals[c], MetricOf(tr, r.countInit))
		c.ExactOptimumHits += tr.ExactOptimumHits
		if tr.ExactOptimumHits > 0 {
			c.RunsWithHits++
		}
		c.Seconds += (tr.Timings.Fit + tr.Timings.Acq + tr.Timings.Other).Seconds()
	}
	for _, c := range r.CellList {
		c.Summary = Summarize(vals[c])
		c.Median = math.NaN()
		if len(vals[c]) > 0 {
			c.Median = median(vals[c])
		}
		if c.N > 0 {
			c.Seconds /= float64(c.N)
		}
	}
}

// Curves returns, for one problem and kernel, the mean and standard error
// of Curve over the seeds at every iteration.
func (r *TableResult) Curves(problemName string, k string) (mean, se []float64) {
	var curves [][]float64
	for i, s := range r.Specs {
		if s.Problem == problemName && s.Kernel == k {
			curves = append(curves, Curve(r.Runs[i]))
		}
	}
	return meanCurve(curves)
}

func meanCurve(curves [][]float64) (mean, se []float64) {
	if len(curves) == 0 {
		return nil, nil
	}
	n := len(curves[0])
	for _, c := range curves {
		n = min(n, len(c))
	}
	mean, se = make([]float64, n), make([]float64, n)
	col := make([]float64, len(curves))
	for t := range n {
		for j, c := range curves {
			col[j] = c[t]
		}
		s := Summarize(col)
		mean[t], se[t] = s.Mean, s.SE
	}
	return mean, se
}

// perSeed returns the metric of every run: problem → kernel → seed.
func (r *TableResult) perSeed() PerSeed {
	per, _ := perSeedOf(r.Specs, r.Runs, func(tr *bo.Trace) float64 { return MetricOf(tr, r.countInit) })
	return per
}

// perSeedOf maps every run to metric(run) by problem, kernel and seed, and
// returns the problems in the order of their first run.
func perSeedOf(specs []RunSpec, runs []*bo.Trace, metric func(*bo.Trace) float64) (PerSeed, []string) {
	per := PerSeed{}
	var problems []string
	for i, s := range specs {
		if per[s.Problem] == nil {
			per[s.Problem] = map[string]map[uint64]float64{}
			problems = append(problems, s.Problem)
		}
		if per[s.Problem][s.Kernel] == nil {
			per[s.Problem][s.Kernel] = map[uint64]float64{}
		}
		per[s.Problem][s.Kernel][s.Seed] = metric(runs[i])
	}
	return per, problems
}

// pairedCols returns the values of a and b on the seeds they share, in
// seed order.
func pairedCols(a, b map[uint64]float64) (x, y []float64) {
	var seeds []uint64
	for s := range a {
		if _, ok := b[s]; ok {
			seeds = append(seeds, s)
		}
	}
	slices.Sort(seeds)
	for _, s := range seeds {
		x, y = append(x, a[s]), append(y, b[s])
	}
	return x, y
}

// OurMarks marks our entries of every row of the table (lower is better):
// the lowest mean is Best; another kernel is Overlapped (underlined) when
// it is not significantly worse than the best — the paired t test of
// their per-seed differences (on the seeds both ran) does not reject a
// zero mean after Holm's correction over every such comparison of the
// table (one family: all that the table underlines or leaves plain). The
// paper's rule (intervals m ± 1.96·s.e. overlap, no correction: Marks)
// still marks the paper's entries, which have no per-seed values. The
// comparisons are returned too, per row and kernel (nil for the best).
func (r *TableResult) OurMarks() (marks []map[string]Mark, vsBest []map[string]*Effect) {
	problems := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		problems[i] = row.Problem
	}
	return PairedMarks(problems, r.Kernels, r.perSeed())
}

// PairedMarks marks the rows problems of a table whose per-seed metrics
// are per (lower is better): per row the kernel with the lowest mean is
// Best, and another is Overlapped when the paired t test of its
// difference from the best (on the seeds both ran) does not reject 0
// after Holm's correction over every such comparison of the table.
// When a row's kernels ran different seeds, the best is the lowest mean
// over the seeds they all ran (if at least two), and a kernel whose mean
// difference from it on the seeds the two share is negative is
// Overlapped too, so that no kernel better than the best on the seeds
// they share is left Plain, which reads as worse. Comparisons without
// two shared seeds are left Plain. The comparisons are returned too, per
// row and kernel (none for the best).
func PairedMarks(problems, kernels []string, per PerSeed) (marks []map[string]Mark, vsBest []map[string]*Effect) {
	var family []*Effect
	for _, p := range problems {
		m, cmp := map[string]Mark{}, map[string]*Effect{}
		common := commonSeeds(per[p], kernels)
		best, bestMean := "", math.Inf(1)
		for _, k := range kernels {
			if v := per[p][k]; len(v) > 0 {
				if len(common) >= 2 {
					v = restrict(v, common)
				}
				if mean := cellMean(v); mean < bestMean {
					best, bestMean = k, mean
				}
			}
		}
		if best != "" {
			m[best] = Best
			for _, k := range kernels {
				if k == best || len(per[p][k]) == 0 {
					continue
				}
				x, y := pairedCols(per[p][k], per[p][best])
				e := pairedEffect(diff(x, y))
				cmp[k] = &e
				family = append(family, &e)
			}
		}
		marks, vsBest = append(marks, m), append(vsBest, cmp)
	}
	Holm(family)
	for i, cmp := range vsBest {
		for k, e := range cmp {
			// Plain is significantly worse: a kernel lower than the best
			// on the seeds the two share (possible only when the row's
			// kernels ran different seeds) is not, significant or not.
			if !math.IsNaN(e.P) && (!e.Significant || e.Est < 0) {
				marks[i][k] = Overlapped
			}
		}
	}
	return marks, vsBest
}

// commonSeeds returns the seeds that every kernel of kernels with a cell
// in row ran (nil when their seed sets are equal: nothing to restrict).
func commonSeeds(row map[string]map[uint64]float64, kernels []string) map[uint64]bool {
	var sets []map[uint64]float64
	for _, k := range kernels {
		if v := row[k]; len(v) > 0 {
			sets = append(sets, v)
		}
	}
	if len(sets) < 2 {
		return nil
	}
	common, equal := map[uint64]bool{}, true
	for s := range sets[0] {
		in := true
		for _, o := range sets[1:] {
			if _, ok := o[s]; !ok {
				in = false
				break
			}
		}
		if in {
			common[s] = true
		}
	}
	for _, o := range sets {
		equal = equal && len(o) == len(common)
	}
	if equal {
		return nil
	}
	return common
}

// restrict returns the values of v at the seeds of keep.
func restrict(v map[uint64]float64, keep map[uint64]bool) map[uint64]float64 {
	out := make(map[uint64]float64, len(keep))
	for s, x := range v {
		if keep[s] {
			out[s] = x
		}
	}
	return out
}

// cellMean is the mean of a cell's per-seed values (NaN values make it
// NaN, and a NaN mean is never the best).
func cellMean(v map[uint64]float64) float64 {
	seeds := make([]uint64, 0, len(v))
	for s := range v {
		seeds = append(seeds, s)
	}
	slices.Sort(seeds) // a fixed order of summation: the same bits every time
	var s float64
	for _, k := range seeds {
		s += v[k]
	}
	return s / float64(len(v))
}

// Mark is how a table entry is emphasized.
type Mark int

const (
	Plain      Mark = iota
	Best            // the lowest mean: bold
	Overlapped      // not significantly worse than the best (PairedMarks; the paper's entries: Marks' interval overlap): underlined
)

// inPaper reports whether the paper's Table 1 has a column for kernel k
// (base, avg, plus; not max nor the normalized average).
func inPaper(k string) bool { return k == bo.NameBase || k == bo.NameAvg || k == bo.NamePlus }

// z95 is the two-sided 95% normal quantile the paper uses.
const z95 = 1.96

// Marks applies the paper's rule to the summaries s (lower is better): the
// lowest mean is Best (the first on ties); every other entry whose interval
// m ± 1.96·SE intersects the best's interval is Overlapped. NaN means are
// never marked.
func Marks(s []Summary) []Mark {
	out := make([]Mark, len(s))
	best := -1
	for i, v := range s {
		if math.IsNaN(v.Mean) {
			continue
		}
		if best < 0 || v.Mean < s[best].Mean {
			best = i
		}
	}
	if best < 0 {
		return out
	}
	out[best] = Best
	if s[best].N == 1 {
		return out // one seed: no error bar, so no overlap to mark
	}
	bhi := s[best].Mean + z95*s[best].SE
	for i, v := range s {
		if i == best || math.IsNaN(v.Mean) {
			continue
		}
		if v.Mean-z95*v.SE <= bhi { // v.Mean ≥ best mean, so only the lower end can meet
			out[i] = Overlapped
		}
	}
	return out
}

// FormatEntry formats mean ± s.e. with one decimal (the mean alone from a
// single run: there is no error bar), emphasized per mark: **bold** for
// Best, <u>underline</u> for Overlapped.
func FormatEntry(s Summary, m Mark) string {
	e := fmt.Sprintf("%.1f ± %.1f", s.Mean, s.SE)
	if s.N == 1 {
		e = fmt.Sprintf("%.1f", s.Mean)
	}
	e = strings.ReplaceAll(e, "-", "−")
	switch m {
	case Best:
		return "**" + e + "**"
	case Overlapped:
		return "<u>" + e + "</u>"
	}
	return e
}

// Markdown formats the table: one row per benchmark with |G|, our mean ±
// s.e. per kernel beside the paper's (which has no max column; only when
// PaperComparable), our best per row in bold and those overlapping it
// underlined (the paper's entries marked by the same rule among
// themselves), and the exact-optimum hits per kernel (runs with any /
// total evaluations at f*).
func (r *TableResult) Markdown() string {
	var b strings.Builder
	kernels := r.Kernels
	withPaper := r.PaperComparable()
	hdr := []string{"Benchmark", "\\|G\\|"}
	for _, k := range kernels {
		hdr = append(hdr, string(k))
		if withPaper && inPaper(k) {
			hdr = append(hdr, string(k)+" (paper)")
		}
	}
	hdr = append(hdr, "exact-optimum hits (runs/evals)")
	b.WriteString("| " + strings.Join(hdr, " | ") + " |\n|")
	for range hdr {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	ourMarks, _ := r.OurMarks()
	for ri, row := range r.Rows {
		ours := make([]Summary, len(kernels))
		paper := make([]Summary, len(kernels))
		for i, k := range kernels {
			ours[i] = Summary{Mean: math.NaN(), SE: math.NaN()}
			if c := row.Cells[k]; c != nil {
				ours[i] = c.Summary
			}
			paper[i] = Summary{Mean: math.NaN(), SE: math.NaN()}
			if pc, ok := row.Paper[k]; ok {
				paper[i] = Summary{Mean: pc.Mean, SE: pc.SE, N: 10}
			}
		}
		om, pm := make([]Mark, len(kernels)), Marks(paper)
		for i, k := range kernels {
			om[i] = ourMarks[ri][k]
		}
		cols := []string{row.Problem, row.Order}
		var hits []string
		for i, k := range kernels {
			if c := row.Cells[k]; c != nil {
				cols = append(cols, FormatEntry(ours[i], om[i])+c.medianNote())
				if c.ExactOptimumHits > 0 {
					hits = append(hits, fmt.Sprintf("%s %d/%d", k, c.RunsWithHits, c.ExactOptimumHits))
				}
			} else if slices.Contains(row.Skipped, k) {
				cols = append(cols, "not run")
			} else {
				cols = append(cols, "—")
			}
			if withPaper && inPaper(k) {
				if math.IsNaN(paper[i].Mean) {
					cols = append(cols, "—")
				} else {
					cols = append(cols, FormatEntry(paper[i], pm[i]))
				}
			}
		}
		if len(hits) == 0 {
			hits = []string{"none"}
		}
		if !row.known {
			hits = []string{"n/a (f* unknown)"}
		}
		cols = append(cols, strings.Join(hits, ", "))
		b.WriteString("| " + strings.Join(cols, " | ") + " |\n")
	}
	return b.String()
}
