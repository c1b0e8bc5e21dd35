package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/bo"
)

// BatchOptions configure Batch. The zero value is the study of parallel
// evaluations: Ackley2d, Rastrigin5d and Griewank6d × base and plus × batch
// sizes 1, 2, 4, 8 × 10 seeds, 50 acquisition evaluations after 5 initial
// points.
type BatchOptions struct {
	Problems []string
	Kernels  []string
	Qs       []int
	// Seeds FirstSeed…FirstSeed+Seeds−1 (Seeds 0 means 10).
	FirstSeed int
	Seeds     int
	Config    bo.Config
	Iters     int
	// Workers is recorded in the settings (see TableOptions.Workers).
	Workers int
}

// BatchCell is one (problem, kernel, q): the cumulative regret after all
// acquisition evaluations (the price of batching: the same evaluations,
// fewer model updates), and after Rounds rounds of q parallel evaluations
// the cumulative and the simple regret, the wall-clock view (Rounds is
// the smallest round count of the study, the q = max one's, so every q
// gets the same time; the cumulative regret then sums q·Rounds
// evaluations, the simple regret is the best found so far).
type BatchCell struct {
	Problem string  `json:"problem"`
	Kernel  string  `json:"kernel"`
	Q       int     `json:"q"`
	Regret  Summary `json:"cumulative_regret"`
	Simple  Summary `json:"simple_regret_at_rounds"`
	CumAt   Summary `json:"cumulative_regret_at_rounds"`
	Rounds  int     `json:"rounds"`
	Seconds float64 `json:"seconds"` // mean wall time of a run
}

// BatchResult is a finished Batch study.
type BatchResult struct {
	Environment Environment  `json:"environment"`
	Settings    Settings     `json:"settings"`
	Qs          []int        `json:"qs"`
	Cells       []*BatchCell `json:"cells"`
	WallSeconds float64      `json:"wall_seconds"`
	Specs       []RunSpec    `json:"-"`
	Runs        []*bo.Trace  `json:"runs"`
}

// BatchKernels are the kernels of the batch study by default
// (BatchOptions.Kernels nil).
var BatchKernels = []string{bo.NameBase, bo.NamePlus}

// Batch is the study of parallel evaluations. Its report is to be made
// once.
func Batch(o BatchOptions) (Plan[*bo.Trace, *BatchResult], error) {
	var plan Plan[*bo.Trace, *BatchResult]
	problems := o.Problems
	if problems == nil {
		problems = []string{"Ackley2d", "Rastrigin5d", "Griewank6d"}
	}
	kernels := o.Kernels
	if kernels == nil {
		kernels = BatchKernels
	}
	qs := o.Qs
	if qs == nil {
		qs = []int{1, 2, 4, 8}
	}
	if len(problems) == 0 || len(kernels) == 0 || len(qs) == 0 {
		return plan, fmt.Errorf("%w: need problems, kernels and batch sizes", ErrBadOptions)
	}
	for _, q := range qs {
		if q < 1 || q > bo.MaxBatch {
			return plan, fmt.Errorf("%w: batch size %d outside [1, %d]", ErrBadOptions, q, bo.MaxBatch)
		}
	}
	rs, err := setup(o.Config, o.Iters, o.FirstSeed, o.Seeds, 0, o.Workers, nil)
	if err != nil {
		return plan, err
	}
	res := &BatchResult{Environment: Env(nil), Settings: rs.set, Qs: qs}
	for _, name := range problems {
		p, err := regretProblem(name, 0)
		if err != nil {
			return plan, err
		}
		run, _, err := kernelsOn(p, kernels, nil)
		if err != nil {
			return plan, err
		}
		for _, k := range run {
			for _, q := range qs {
				res.Cells = append(res.Cells, &BatchCell{Problem: p.Name(), Kernel: k, Q: q})
				res.Specs = appendSeeds(res.Specs, p.Name(), k, rs.first, rs.seeds, q)
			}
		}
	}
	return boPlan(res.Specs, rs.cfg, rs.iters, 0, bo.NoiseRule{}, func(runs []*bo.Trace, wall time.Duration) *BatchResult {
		res.Runs, res.WallSeconds = runs, wall.Seconds()
		res.summarize(rs.iters)
		return res
	})
}

// summarize fills the cells from the runs of a study of iters
// acquisition evaluations.
func (r *BatchResult) summarize(iters int) {
	qmax := slices.Max(r.Qs)
	rounds := (iters + qmax - 1) / qmax
	type key struct {
		p, k string
		q    int
	}
	final := map[key][]float64{}
	simple := map[key][]float64{}
	cumAt := map[key][]float64{}
	secs := map[key]float64{}
	for i, s := range r.Specs {
		tr := r.Runs[i]
		kk := key{s.Problem, s.Kernel, s.Batch}
		final[kk] = append(final[kk], tr.CumulativeRegret[len(tr.CumulativeRegret)-1])
		simple[kk] = append(simple[kk], simpleAtRound(tr, rounds))
		cumAt[kk] = append(cumAt[kk], cumulativeAtRound(tr, rounds))
		secs[kk] += (tr.Timings.Fit + tr.Timings.Acq + tr.Timings.Other).Seconds()
	}
	for _, c := range r.Cells {
		kk := key{c.Problem, c.Kernel, c.Q}
		c.Regret, c.Simple, c.CumAt, c.Rounds = Summarize(final[kk]), Summarize(simple[kk]), Summarize(cumAt[kk]), rounds
		c.Seconds = secs[kk] / float64(len(final[kk]))
	}
}

// simpleAtRound is the simple regret after the given number of acquisition
// rounds (the initial design included).
func simpleAtRound(tr *bo.Trace, rounds int) float64 {
	k := roundEvals(tr, rounds)
	if k == 0 {
		return math.NaN()
	}
	return tr.SimpleRegret[k-1]
}

// roundEvals is the number of acquisition evaluations in the first rounds
// acquisition rounds of tr.
func roundEvals(tr *bo.Trace, rounds int) int {
	first := -1
	for _, e := range tr.Evaluations {
		if e.Phase == bo.PhaseBO {
			first = e.Round
			break
		}
	}
	k := 0
	for _, e := range tr.Evaluations {
		if e.Phase == bo.PhaseBO && e.Round < first+rounds {
			k++
		}
	}
	return k
}

// cumulativeAtRound is the cumulative regret over the acquisition
// evaluations of the first rounds rounds.
func cumulativeAtRound(tr *bo.Trace, rounds int) float64 {
	k := roundEvals(tr, rounds)
	if k == 0 {
		return math.NaN()
	}
	return tr.CumulativeRegret[k-1]
}

// Markdown formats the three tables of the study.
func (r *BatchResult) Markdown() string {
	var b strings.Builder
	hdr := func(title string) {
		b.WriteString(title + "\n\n| Benchmark | kernel |")
		for _, q := range r.Qs {
			fmt.Fprintf(&b, " q = %d |", q)
		}
		b.WriteString("\n|---|---|" + strings.Repeat("---|", len(r.Qs)) + "\n")
	}
	row := func(val func(*BatchCell) Summary) {
		for i := 0; i < len(r.Cells); i += len(r.Qs) {
			c := r.Cells[i]
			fmt.Fprintf(&b, "| %s | %s |", c.Problem, c.Kernel)
			for j := range r.Qs {
				b.WriteString(" " + FormatEntry(val(r.Cells[i+j]), Plain) + " |")
			}
			b.WriteString("\n")
		}
	}
	hdr(fmt.Sprintf("Cumulative regret after the %d acquisition evaluations, by batch size q (the price of batching):", r.Settings.Iters))
	row(func(c *BatchCell) Summary { return c.Regret })
	rounds := 0
	if len(r.Cells) > 0 {
		rounds = r.Cells[0].Rounds
	}
	b.WriteString("\n")
	hdr(fmt.Sprintf("Cumulative regret after %d rounds of q parallel evaluations (q·%d evaluations: more regret per round as q grows):", rounds, rounds))
	row(func(c *BatchCell) Summary { return c.CumAt })
	b.WriteString("\n")
	hdr(fmt.Sprintf("Simple regret after %d rounds of q parallel evaluations (the same wall-clock time for every q: the gain):", rounds))
	row(func(c *BatchCell) Summary { return c.Simple })
	return b.String()
}

// Batch figures: what Panels plots against what.
const (
	CumulativeByEvaluation = iota // cumulative regret against evaluations
	SimpleByRound                 // simple regret against rounds
	CumulativeByRound             // cumulative regret against rounds
)

// Caption states what the batch figure of view shows.
func (r *BatchResult) Caption(view int) []string {
	what := "Cumulative regret against acquisition evaluations"
	switch view {
	case SimpleByRound:
		what = fmt.Sprintf("Simple regret (floored at %g for the log scale) against rounds of q parallel evaluations", SimpleRegretFloor)
	case CumulativeByRound:
		what = "Cumulative regret against rounds of q parallel evaluations"
	}
	return []string{fmt.Sprintf("%s: mean ± s.e. (bands) over %s; lower is better.", what, r.Settings.SeedsPhrase())}
}

// Panels are the study's figures: per (problem, kernel), the mean regret
// of view (CumulativeByEvaluation, SimpleByRound, CumulativeByRound), one
// series per q.
func (r *BatchResult) Panels(view int) []Panel {
	rounds := view != CumulativeByEvaluation
	type key struct{ p, k string }
	var keys []key
	seen := map[key]bool{}
	for _, s := range r.Specs {
		k := key{s.Problem, s.Kernel}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	var out []Panel
	for _, k := range keys {
		p := Panel{Title: k.p + ", " + k.k, XLabel: "acquisition evaluation", YLabel: "cumulative regret (mean ± s.e.)"}
		switch view {
		case SimpleByRound:
			p.XLabel, p.YLabel, p.LogY = "round of q parallel evaluations", "simple regret (mean ± s.e.)", true
		case CumulativeByRound:
			p.XLabel = "round of q parallel evaluations"
		}
		for qi, q := range r.Qs {
			var curves [][]float64
			for i, s := range r.Specs {
				if s.Problem != k.p || s.Kernel != k.k || s.Batch != q {
					continue
				}
				tr := r.Runs[i]
				if !rounds {
					curves = append(curves, tr.CumulativeRegret)
					continue
				}
				// Floored at SimpleRegretFloor for the log scale (exact
				// optimum hits have regret 0).
				c := make([]float64, (r.Settings.Iters+q-1)/q)
				for t := range c {
					if view == CumulativeByRound {
						c[t] = cumulativeAtRound(tr, t+1)
					} else {
						c[t] = max(simpleAtRound(tr, t+1), SimpleRegretFloor)
					}
				}
				curves = append(curves, c)
			}
			mean, se := meanCurve(curves)
			x := make([]float64, len(mean))
			for i := range x {
				x[i] = float64(i + 1)
			}
			p.Series = append(p.Series, Series{Color: qi, Label: fmt.Sprintf("q = %d", q), X: x, Y: mean, Err: se})
		}
		out = append(out, p)
	}
	return out
}

// SimpleRegretFloor is where the log-scale plots of simple regret draw
// smaller values (exact optimum hits are 0).
const SimpleRegretFloor = 1e-3
