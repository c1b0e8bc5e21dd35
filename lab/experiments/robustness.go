package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
)

// RobustnessOptions configure Robustness, the paper's group-size study
// (Figure 4, left). The zero value is the paper's: Ackley and Rastrigin in
// d = 1…5 (hyperoctahedral groups of order 2^d·d!), every kernel, 10
// seeds, 50 iterations.
type RobustnessOptions struct {
	// Problems are problem names without dimension (nil means ackley,
	// rastrigin); Dims the dimensions (nil means 1…5).
	Problems []string
	Dims     []int
	// Kernels (nil means base, avg, plus, max; max only where PSD).
	Kernels []string
	// Seeds FirstSeed…FirstSeed+Seeds−1 (Seeds 0 means 10): a
	// replication takes a disjoint range, e.g. FirstSeed 100.
	FirstSeed int
	Seeds     int
	// Config is the protocol of every run (see TableOptions.Config);
	// Iters the acquisition steps (0 means 50).
	Config bo.Config
	Iters  int
	Batch  int
	// Workers is recorded in the settings (see TableOptions.Workers).
	Workers int
	// Skip leaves these (problem with dimension, kernel) points out,
	// shown as "not run" (see TableOptions.Skip).
	Skip []CellKey
}

// RobustnessPoint is the average regret R_T/T of one (problem, d, kernel)
// over the seeds.
type RobustnessPoint struct {
	Problem string `json:"problem"` // e.g. "Rastrigin3d"
	Family  string `json:"family"`  // e.g. "rastrigin"
	D       int    `json:"d"`
	Order   string `json:"order"` // |G|
	Kernel  string `json:"kernel"`
	// Summary of R_T/T, T = Iters.
	Summary
	ExactOptimumHits int `json:"exact_optimum_hits"`
	RunsWithHits     int `json:"runs_with_hits"`
}

// RobustnessResult is a finished Robustness study.
type RobustnessResult struct {
	Environment Environment        `json:"environment"`
	Settings    Settings           `json:"settings"`
	WallSeconds float64            `json:"wall_seconds"`
	Families    []string           `json:"families"`
	Dims        []int              `json:"dims"`
	Kernels     []string           `json:"kernels"`
	Points      []*RobustnessPoint `json:"points"`
	Skipped     []CellKey          `json:"skipped,omitempty"`
	Specs       []RunSpec          `json:"-"`
	Runs        []*bo.Trace        `json:"runs"`
}

// Robustness is the group-size study: for every problem family, d and
// kernel, Seeds runs, summarized as the average regret R_T/T. Its report
// is to be made once.
func Robustness(opts RobustnessOptions) (Plan[*bo.Trace, *RobustnessResult], error) {
	var plan Plan[*bo.Trace, *RobustnessResult]
	fams := opts.Problems
	if fams == nil {
		fams = []string{"ackley", "rastrigin"}
	}
	dims := opts.Dims
	if dims == nil {
		dims = []int{1, 2, 3, 4, 5}
	}
	kernels := opts.Kernels
	if kernels == nil {
		kernels = TableKernels
	}
	if len(fams) == 0 || len(dims) == 0 || len(kernels) == 0 {
		return plan, fmt.Errorf("%w: need problems, dimensions and kernels", ErrBadOptions)
	}
	if err := checkKernelList(kernels); err != nil {
		return plan, err
	}
	rs, err := setup(opts.Config, opts.Iters, opts.FirstSeed, opts.Seeds, opts.Batch, opts.Workers, opts.Skip)
	if err != nil {
		return plan, err
	}
	res := &RobustnessResult{Environment: Env(nil), Settings: rs.set, Dims: dims, Kernels: kernels}
	var pointOf []*RobustnessPoint // per spec
	var names []string             // the study's problems, with their dimension
	for _, fam := range fams {
		fam = strings.ToLower(fam)
		res.Families = append(res.Families, fam)
		for _, d := range dims {
			p, err := regretProblem(fam, d)
			if err != nil {
				return plan, err
			}
			names = append(names, p.Name())
			run, skipped, err := kernelsOn(p, kernels, rs.skip)
			if err != nil {
				return plan, err
			}
			for _, k := range skipped {
				res.Skipped = append(res.Skipped, CellKey{p.Name(), k})
			}
			for _, k := range run {
				pt := &RobustnessPoint{Problem: p.Name(), Family: fam, D: d, Order: groupOrder(p), Kernel: k}
				res.Points = append(res.Points, pt)
				res.Specs = appendSeeds(res.Specs, p.Name(), k, rs.first, rs.seeds, 0)
				for range rs.seeds {
					pointOf = append(pointOf, pt)
				}
			}
		}
	}
	// A skipped point must be one of the study's (a misspelt or stale
	// --skip would otherwise skip nothing, silently), and something must
	// be left to run, as in Table.
	for _, c := range opts.Skip {
		p, err := problem.New(c.Problem, 0) // setup checked the name
		if err != nil || !slices.Contains(names, p.Name()) || !slices.Contains(kernels, c.Kernel) {
			return plan, fmt.Errorf("%w: skipped point %s/%s is not in the study", ErrBadOptions, c.Problem, c.Kernel)
		}
	}
	if len(res.Specs) == 0 {
		return plan, fmt.Errorf("%w: every point of the study is skipped or unsupported: nothing to run", ErrBadOptions)
	}
	return boPlan(res.Specs, rs.cfg, rs.iters, opts.Batch, bo.NoiseRule{}, func(runs []*bo.Trace, wall time.Duration) *RobustnessResult {
		res.Runs, res.WallSeconds = runs, wall.Seconds()
		vals := map[*RobustnessPoint][]float64{}
		for i, tr := range runs {
			pt := pointOf[i]
			vals[pt] = append(vals[pt], AverageRegret(tr))
			pt.ExactOptimumHits += tr.ExactOptimumHits
			if tr.ExactOptimumHits > 0 {
				pt.RunsWithHits++
			}
		}
		for _, pt := range res.Points {
			pt.Summary = Summarize(vals[pt])
		}
		return res
	})
}

// AverageRegret is R_T/T over the T acquisition steps of a run (NaN when
// the optimum is unknown).
func AverageRegret(tr *bo.Trace) float64 {
	if n := len(tr.CumulativeRegret); n > 0 {
		return tr.CumulativeRegret[n-1] / float64(n)
	}
	return math.NaN()
}

func (r *RobustnessResult) point(fam string, d int, k string) *RobustnessPoint {
	for _, p := range r.Points {
		if p.Family == fam && p.D == d && p.Kernel == k {
			return p
		}
	}
	return nil
}

// Markdown formats the study: one row per (problem, d) with |G| and the
// mean ± s.e. of R_T/T per kernel (two decimals), bold and underlined as
// in Table 1 (PairedMarks over the whole study), and the exact-optimum
// hits.
func (r *RobustnessResult) Markdown() string {
	var b strings.Builder
	per, problems := perSeedOf(r.Specs, r.Runs, AverageRegret)
	allMarks, _ := PairedMarks(problems, r.Kernels, per)
	marksOf := func(name string) map[string]Mark {
		for i, p := range problems {
			if p == name {
				return allMarks[i]
			}
		}
		return nil
	}
	b.WriteString("| Problem | d | \\|G\\| |")
	for _, k := range r.Kernels {
		b.WriteString(" " + string(k) + " |")
	}
	b.WriteString(" exact-optimum hits (runs/evals) |\n|---|---|---|" + strings.Repeat("---|", len(r.Kernels)) + "---|\n")
	for _, fam := range r.Families {
		for _, d := range r.Dims {
			s := make([]Summary, len(r.Kernels))
			var order, name string
			var hits []string
			for i, k := range r.Kernels {
				s[i] = Summary{Mean: math.NaN(), SE: math.NaN()}
				if p := r.point(fam, d, k); p != nil {
					s[i] = p.Summary
					order, name = p.Order, p.Problem
					if p.ExactOptimumHits > 0 {
						hits = append(hits, fmt.Sprintf("%s %d/%d", k, p.RunsWithHits, p.ExactOptimumHits))
					}
				}
			}
			if name == "" {
				continue
			}
			if len(hits) == 0 {
				hits = []string{"none"}
			}
			marks := marksOf(name)
			fmt.Fprintf(&b, "| %s | %d | %s |", name, d, order)
			for i := range r.Kernels {
				if math.IsNaN(s[i].Mean) {
					if slices.Contains(r.Skipped, CellKey{name, r.Kernels[i]}) {
						b.WriteString(" not run |")
					} else {
						b.WriteString(" — |")
					}
					continue
				}
				e := fmt.Sprintf("%.2f ± %.2f", s[i].Mean, s[i].SE)
				switch marks[r.Kernels[i]] {
				case Best:
					e = "**" + e + "**"
				case Overlapped:
					e = "<u>" + e + "</u>"
				}
				b.WriteString(" " + e + " |")
			}
			b.WriteString(" " + strings.Join(hits, ", ") + " |\n")
		}
	}
	return b.String()
}

// Caption states what the robustness figure shows.
func (r *RobustnessResult) Caption() []string {
	return []string{fmt.Sprintf("Average regret R_T/T after T = %d iterations: mean ± s.e. (error bars) over %s; lower is better.", r.Settings.Iters, r.Settings.SeedsPhrase())}
}

// Panels returns the paper's Figure 4 (left): one panel per problem family,
// the mean R_T/T against d with standard-error bars per kernel.
func (r *RobustnessResult) Panels() []Panel {
	var out []Panel
	for _, fam := range r.Families {
		title := strings.ToUpper(fam[:1]) + fam[1:]
		p := Panel{Title: title + " (hyperoctahedral, |G| = 2^d·d!)", XLabel: "dimension d", YLabel: "average regret R_T/T"}
		for _, k := range r.Kernels {
			var s Series
			s.Kernel, s.Bars = k, true
			for _, d := range r.Dims {
				if pt := r.point(fam, d, k); pt != nil {
					s.X = append(s.X, float64(d))
					s.Y = append(s.Y, pt.Mean)
					s.Err = append(s.Err, pt.SE)
				}
			}
			if len(s.X) > 0 {
				p.Series = append(p.Series, s)
			}
		}
		out = append(out, p)
	}
	return out
}
