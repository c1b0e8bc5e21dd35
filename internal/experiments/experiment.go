package experiments

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/kernel"
)

// Errors returned by the experiment functions wrap ErrBadOptions for
// invalid options (test with errors.Is).
var ErrBadOptions = errors.New("experiments: invalid experiment options")

// RunSpec is one Bayesian-optimization run of an experiment: a problem
// (the paper's name with its dimension, e.g. "Rastrigin5d"), a kernel and a
// seed. Index is its position in the experiment's plan, which fixes where
// its trace is written whatever order the runs finish in.
type RunSpec struct {
	Index   int    `json:"index"`
	Problem string `json:"problem"`
	Kernel  string `json:"kernel"`
	Seed    uint64 `json:"seed"`
	// Batch is the run's batch size (0: RunAllOptions.Batch).
	Batch int `json:"batch,omitempty"`
}

func (s RunSpec) batch(def int) int {
	if s.Batch > 0 {
		return s.Batch
	}
	return def
}

// Progress reports the state of a batch of runs: Done of Total finished,
// and the same in estimated cost units (see EstimatedCost), which make a
// better ETA than run counts because run times differ by 100×.
type Progress struct {
	// Done of Total runs are finished; Resumed of them were done before
	// this batch started (RunAllOptions.Done).
	Done, Total, Resumed int
	// Elapsed is the batch's wall time so far.
	Elapsed time.Duration
	// ETA estimates the remaining wall time: every pending run is
	// predicted by the mean time of the finished runs of its cell (problem,
	// kernel) once one has finished, else by its EstimatedCost times the
	// seconds per unit of cost measured so far (secondsPerCost before any
	// run finishes), and the sum is spread over the workers.
	ETA time.Duration
}

// secondsPerCost is the prior wall time of one unit of EstimatedCost (a
// base-kernel run of the paper's 5 + 50 evaluations on a small problem),
// before any run has been measured; priorRate scales it to other lengths.
const secondsPerCost = 0.25

// priorRate is secondsPerCost for runs of n evaluations: the GP's cost
// per step grows with the observations, so about quadratically in n.
func priorRate(n int) float64 {
	r := float64(n) / 55
	return secondsPerCost * r * r
}

// etaModel predicts the remaining wall time of a batch from the runs that
// finished (see Progress.ETA).
type etaModel struct {
	cost             []float64
	cell             []string
	cellSum          map[string]float64
	cellN            map[string]int
	measuredS, costS float64
	prior            float64 // seconds per unit of cost before any run is measured
	pending          map[int]bool
	workers          int
}

func (m *etaModel) finished(i int, seconds float64) {
	delete(m.pending, i)
	m.cellSum[m.cell[i]] += seconds
	m.cellN[m.cell[i]]++
	m.measuredS += seconds
	m.costS += m.cost[i]
}

func (m *etaModel) eta() time.Duration {
	rate := m.prior
	if m.costS > 0 {
		rate = m.measuredS / m.costS
	}
	var sum float64
	for i := range m.pending {
		if n := m.cellN[m.cell[i]]; n > 0 {
			sum += m.cellSum[m.cell[i]] / float64(n)
		} else {
			sum += m.cost[i] * rate
		}
	}
	par := min(m.workers, len(m.pending))
	if par == 0 {
		return 0
	}
	return time.Duration(sum / float64(par) * float64(time.Second))
}

// EstimatedCost is a rough relative cost of one run of kernel k on p (base
// on a small problem ≈ 1), set by hand from early measurements (the
// current mean seconds per run are in the tables under docs/results):
// k_avg's fit enumerates the group, k_plus eigendecomposes at every
// likelihood evaluation. It only orders the runs (the most
// expensive start first, which shortens the tail of a parallel batch) and
// weighs the progress ETA; results do not depend on it.
func EstimatedCost(p *problem.Problem, k string) float64 {
	order := math.Inf(1)
	if o := p.Group().Order(); o != nil {
		order, _ = new(big.Float).SetInt(o).Float64()
	}
	d := float64(p.Dim())
	switch k {
	case bo.NameAvg:
		if math.IsInf(order, 1) {
			if strings.HasPrefix(p.Group().Name(), "rotation") {
				return 3 // closed form (Bessel I₀)
			}
			// No closed form (scaling): a double average over
			// kernel.DefaultQuadratureGauss = 32 Gauss–Legendre nodes
			// per orbit, 32×32 base-kernel evaluations per pair.
			return 150
		}
		if p.BaseShape() != kernel.RBF {
			// No closed form: |G| base-kernel evaluations per pair
			// (Ackley5d: 3840, minutes per run).
			return 10 + 0.5*order
		}
		return 10 + 5*math.Log2(order) // closed forms (permanents)
	case bo.NamePlus:
		return 6 + 0.2*d
	case bo.NameMax:
		return 1.3 + 0.1*d
	default:
		return 1 + 0.1*d
	}
}

// RunAllOptions configure RunAll. The zero value runs everything on
// GOMAXPROCS goroutines without callbacks.
type RunAllOptions struct {
	// Workers is the number of runs in parallel (0 means GOMAXPROCS).
	Workers int
	// Progress, if not nil, is called after each run finishes (and once
	// at the start), from one goroutine at a time.
	Progress func(Progress)
	// Context cancels the batch: no run starts after it is done, and
	// RunAll returns its error once the running ones finish.
	Context context.Context
	// Done holds the traces of runs already finished, by spec index (e.g.
	// read back from a journal): they are not run again.
	Done map[int]*bo.Trace
	// OnRun, if not nil, is called with each run's index and trace as it
	// finishes, from one goroutine at a time (e.g. to journal it); an
	// error stops the batch.
	OnRun func(i int, tr *bo.Trace) error
	// Batch is the number of points each run asks per round
	// (bo.RunOptions.Batch; 0 means 1).
	Batch int
	// Noise is the observation noise rule of every run
	// (bo.RunOptions.Noise; the zero value: the problem's).
	Noise bo.NoiseRule
}

// RunAll runs every spec with the protocol cfg (cfg.Kernel and
// cfg.Minimize are set from the spec's kernel and problem, cfg.Workers to
// 1: parallelism is across runs) for iters acquisition steps, and returns
// the traces in spec order. Runs start most expensive first
// (EstimatedCost). The first error (lowest index) stops the batch.
func RunAll(specs []RunSpec, cfg bo.Config, iters int, o RunAllOptions) ([]*bo.Trace, error) {
	workers := o.Workers
	if workers < 0 {
		return nil, fmt.Errorf("%w: workers = %d < 0", ErrBadOptions, workers)
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx := o.Context
	if ctx == nil {
		ctx = context.Background()
	}
	probs := map[string]*problem.Problem{}
	costs := make([]float64, len(specs))
	for i, s := range specs {
		p, ok := probs[s.Problem]
		if !ok {
			var err error
			if p, err = problem.New(s.Problem, 0); err != nil {
				return nil, fmt.Errorf("experiments: run %d: %w", i, err)
			}
			probs[s.Problem] = p
		}
		costs[i] = EstimatedCost(p, s.Kernel)
	}
	traces := make([]*bo.Trace, len(specs))
	var order []int
	var done int
	model := &etaModel{cost: costs, cell: make([]string, len(specs)), cellSum: map[string]float64{}, cellN: map[string]int{}, pending: map[int]bool{}, workers: workers,
		prior: priorRate(cmp.Or(cfg.Init, bo.DefaultInit) + iters)}
	for i := range o.Done {
		if i < 0 || i >= len(specs) {
			return nil, fmt.Errorf("%w: a finished run has index %d, the plan has %d runs", ErrBadOptions, i, len(specs))
		}
		s, tr := specs[i], o.Done[i]
		if tr == nil || tr.Problem != s.Problem || tr.Kernel != s.Kernel || tr.Seed != s.Seed || tr.Iters != iters || tr.Batch != max(s.batch(o.Batch), 1) || tr.NoiseRule != noiseName(o.Noise) {
			return nil, fmt.Errorf("%w: finished run %d does not match the plan (%s, %s, seed %d)", ErrBadOptions, i, s.Problem, s.Kernel, s.Seed)
		}
	}
	for i, s := range specs {
		model.cell[i] = s.Problem + "/" + s.Kernel
		if tr := o.Done[i]; tr != nil {
			traces[i] = tr
			done++
			continue
		}
		order = append(order, i)
		model.pending[i] = true
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] > costs[order[b]] })

	errs := make([]error, len(specs))
	var (
		next   atomic.Int64
		failed atomic.Bool
		mu     sync.Mutex
		wg     sync.WaitGroup
	)
	start := time.Now()
	if o.Progress != nil {
		o.Progress(Progress{Done: done, Total: len(specs), Resumed: done, ETA: model.eta()})
	}
	resumed := done
	for range min(workers, len(order)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j := int(next.Add(1)) - 1
				if j >= len(order) || failed.Load() || ctx.Err() != nil {
					return
				}
				i := order[j]
				s := specs[i]
				p := probs[s.Problem]
				c := cfg
				k, err := bo.ParseKernel(s.Kernel, p.Group(), p.BaseShape())
				if err != nil {
					errs[i] = fmt.Errorf("experiments: run %d: %w", i, err)
					failed.Store(true)
					return
				}
				c.Kernel, c.Minimize, c.Workers = k, !p.Maximize(), 1
				t0 := time.Now()
				tr, err := bo.Run(ctx, p, c, s.Seed, bo.RunOptions{Iters: iters, Batch: s.batch(o.Batch), Noise: o.Noise})
				took := time.Since(t0).Seconds()
				if err != nil {
					if ctx.Err() == nil {
						errs[i] = fmt.Errorf("experiments: run %d (%s, %s, seed %d): %w", i, s.Problem, s.Kernel, s.Seed, err)
						failed.Store(true)
					}
					return
				}
				mu.Lock()
				traces[i] = tr
				if o.OnRun != nil {
					if err := o.OnRun(i, tr); err != nil {
						errs[i] = fmt.Errorf("experiments: run %d: %w", i, err)
						failed.Store(true)
						mu.Unlock()
						return
					}
				}
				done++
				model.finished(i, took)
				if o.Progress != nil {
					o.Progress(Progress{Done: done, Total: len(specs), Elapsed: time.Since(start), Resumed: resumed, ETA: model.eta()})
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("experiments: stopped with %d of %d runs done: %w", done, len(specs), err)
	}
	return traces, nil
}

// supportsKernel reports whether bo accepts kernel k on p (k_max only
// where it is provably PSD).
func supportsKernel(p *problem.Problem, k string) (bool, error) {
	lo, hi := p.Bounds()
	kern, err := bo.ParseKernel(k, p.Group(), p.BaseShape())
	if err != nil {
		return false, err
	}
	_, err = bo.New(lo, hi, bo.Config{Kernel: kern, Workers: 1}, 0)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, bo.ErrMaxNotPSD):
		return false, nil
	default:
		return false, err
	}
}

// Summary is a mean and its standard error over N runs.
type Summary struct {
	Mean float64 `json:"mean"`
	SE   float64 `json:"se"` // sample standard deviation / √N (0 for N < 2)
	N    int     `json:"n"`
}

// Summarize returns the mean and standard error of v.
func Summarize(v []float64) Summary {
	n := len(v)
	if n == 0 {
		return Summary{Mean: math.NaN(), SE: math.NaN()}
	}
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(n)
	s := Summary{Mean: m, N: n}
	if n > 1 {
		var ss float64
		for _, x := range v {
			ss += (x - m) * (x - m)
		}
		s.SE = math.Sqrt(ss / float64(n-1) / float64(n))
	}
	return s
}

// Metric is the paper's Table 1 measure of a run (lower is better): the
// cumulative regret R_T over the Iters acquisition steps where the optimum
// is known, otherwise (WLAN) the negated best reward −max f over all
// evaluations, initial design included.
func Metric(tr *bo.Trace) float64 { return MetricOf(tr, false) }

// MetricOf is Metric, with the initial design's regret added to R_T when
// countInit (the negated best reward is the same either way).
func MetricOf(tr *bo.Trace, countInit bool) float64 {
	if tr.Optimum != nil && len(tr.CumulativeRegret) > 0 {
		r := tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
		if countInit {
			var init float64
			for _, e := range tr.Evaluations {
				if e.Phase == bo.PhaseInit && e.Regret != nil {
					init += *e.Regret
				}
			}
			r += init
		}
		return r
	}
	return -tr.BestF
}

// noiseName is the trace's NoiseRule field for rule r ("" for the
// default).
func noiseName(r bo.NoiseRule) string {
	if r.Kind == bo.NoiseBox {
		return ""
	}
	return r.String()
}

// Curve is the per-iteration version of Metric: element i is the
// cumulative regret after acquisition step i+1, or (WLAN) the negated best
// reward over the initial design and the first i+1 steps.
func Curve(tr *bo.Trace) []float64 {
	if tr.Optimum != nil {
		return slices.Clone(tr.CumulativeRegret)
	}
	var out []float64
	best := math.Inf(-1)
	for _, e := range tr.Evaluations {
		best = max(best, e.F)
		if e.Phase == bo.PhaseBO {
			out = append(out, -best)
		}
	}
	return out
}

// groupOrder formats |G| as in the paper: an integer or ∞.
func groupOrder(p *problem.Problem) string {
	if o := p.Group().Order(); o != nil {
		return o.String()
	}
	return "∞"
}
