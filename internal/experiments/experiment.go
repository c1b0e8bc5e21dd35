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
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
)

// Errors returned by the experiment functions wrap ErrBadOptions for
// invalid options (test with errors.Is).
var ErrBadOptions = errclass.New(errclass.Input, "experiments: invalid experiment options")

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
// and an estimate of the remaining wall time (see ETA), which weighs the
// runs by their measured or modelled cost because run times differ by
// 100×.
type Progress struct {
	// Done of Total runs are finished; Resumed of them were done before
	// this batch started (RunAllOptions.Done).
	Done, Total, Resumed int
	// Elapsed is the batch's wall time so far.
	Elapsed time.Duration
	// ETA estimates the remaining wall time at the moment of the report
	// (ETAAt(now)).
	ETA time.Duration
	// ETAAt, if not nil, estimates the remaining wall time at a later
	// moment from what is known then (a run that has been going for a
	// while needs only the rest of its predicted time), so that a display
	// can refresh it between reports. Each pending run is predicted by the
	// mean time of the finished runs of its cell (problem, kernel) once
	// one has finished; otherwise by its EstimatedCost times a rate in
	// seconds per unit of cost: the median over the measured cells of
	// their own rates, with the prior (secondsPerCost) counted twice, so
	// that one cell the cost model gets wrong — a slow cell measured, or
	// in progress — does not inflate the estimate of every other cell. A
	// running run counts the rest of its prediction (none once it is
	// overdue). The remaining work is spread over the workers, and the
	// estimate is never below the longest single run still to finish.
	// Safe to call from any goroutine, also after RunAll returned.
	ETAAt func(now time.Time) time.Duration `json:"-"`
}

// secondsPerCost is the prior wall time of one unit of EstimatedCost (a
// base-kernel run of the paper's 5 + 50 evaluations on a small problem:
// 0.19–0.28 s in docs/results, GOMAXPROCS 2), before any run has been
// measured; priorRate scales it to other lengths.
const secondsPerCost = 0.2

// priorRate is secondsPerCost for runs of n evaluations: the GP's cost
// per step grows with the observations, so about quadratically in n.
func priorRate(n int) float64 {
	r := float64(n) / 55
	return secondsPerCost * r * r
}

// etaModel predicts the remaining wall time of a batch of runs (see
// Progress.ETAAt) from what is known at a moment: the measured times of
// the finished runs of each cell, the cost model for cells without one,
// and how long each running run has been going. Its methods take the
// time explicitly (tests drive it with a fake clock) and lock mu (the
// display may ask for an estimate while runs start and finish).
type etaModel struct {
	mu      sync.Mutex
	cost    []float64
	cell    []string
	sum     map[string]float64 // seconds of the finished runs of each cell
	n       map[string]int
	prior   float64           // seconds per unit of cost before any run is measured
	pending map[int]bool      // not finished (queued or running)
	running map[int]time.Time // started, not finished: when
	workers int
}

func newETAModel(cost []float64, cell []string, prior float64, workers int) *etaModel {
	return &etaModel{cost: cost, cell: cell, sum: map[string]float64{}, n: map[string]int{}, prior: prior,
		pending: map[int]bool{}, running: map[int]time.Time{}, workers: workers}
}

// add marks run i as to be done.
func (m *etaModel) add(i int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending[i] = true
}

// start records that run i started at t.
func (m *etaModel) start(i int, t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running[i] = t
}

// finished records that run i took the given seconds.
func (m *etaModel) finished(i int, seconds float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.pending, i)
	delete(m.running, i)
	m.sum[m.cell[i]] += seconds
	m.n[m.cell[i]]++
}

// rate is the seconds per unit of cost of a cell not measured yet: the
// median of the measured cells' rates (mean time / cost) and the prior,
// which counts twice: one measured cell cannot move it, two move it half
// way (the geometric mean of the middle pair), three or more outvote the
// prior. m.mu is held.
func (m *etaModel) rate() float64 {
	rates := []float64{m.prior, m.prior}
	costOf := map[string]float64{}
	for i, c := range m.cell {
		costOf[c] = m.cost[i]
	}
	for c, n := range m.n {
		if k := costOf[c]; k > 0 && n > 0 {
			rates = append(rates, m.sum[c]/float64(n)/k)
		}
	}
	slices.Sort(rates)
	h := len(rates) / 2
	if len(rates)%2 == 1 {
		return rates[h]
	}
	return math.Sqrt(rates[h-1] * rates[h])
}

// eta is the estimate at now (see Progress.ETAAt).
func (m *etaModel) eta(now time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.pending) == 0 {
		return 0
	}
	rate := m.rate()
	var sum, longest float64
	for i := range m.pending {
		pred := m.cost[i] * rate
		if n := m.n[m.cell[i]]; n > 0 {
			pred = m.sum[m.cell[i]] / float64(n)
		}
		if t, ok := m.running[i]; ok {
			pred = max(pred-now.Sub(t).Seconds(), 0)
		}
		sum += pred
		longest = max(longest, pred)
	}
	par := min(m.workers, len(m.pending))
	return time.Duration(max(sum/float64(par), longest) * float64(time.Second))
}

// EstimatedCost is a rough relative cost of one run of kernel k on p (base
// on a small problem ≈ 1), set by hand from the mean seconds per run of
// the tables under docs/results (GOMAXPROCS 2, 5 + 50 evaluations; the
// figures below are those, divided by secondsPerCost): k_avg's fit
// enumerates the group unless a closed form applies, k_plus
// eigendecomposes at every likelihood evaluation. It only orders the runs
// (the most expensive start first, which shortens the tail of a parallel
// batch) and gives the progress ETA its prior; results do not depend on
// it.
func EstimatedCost(p *problem.Problem, k string) float64 {
	order := math.Inf(1)
	if o := p.Group().Order(); o != nil {
		order, _ = new(big.Float).SetInt(o).Float64()
	}
	d := float64(p.Dim())
	base := 1 + 0.1*d // base: 0.19–0.28 s for d = 1…8
	switch k {
	case bo.NameAvg, bo.NameAvgNorm: // avgnorm: the same orbit averages, normalized
		if math.IsInf(order, 1) {
			if strings.HasPrefix(p.Group().Name(), "rotation") {
				return 1.5 // closed form (Bessel I₀): 0.29–0.30 s
			}
			// No closed form (scaling): a double average over
			// kernel.DefaultQuadratureGauss = 32 Gauss–Legendre nodes
			// per orbit, 32×32 base-kernel evaluations per pair:
			// 14.6–45.7 s on Scaling2d.
			return 120
		}
		if p.BaseShape() != kernel.RBF {
			// No closed form: |G| base-kernel evaluations per pair
			// (Ackley1d…5d, |G| = 2…3840: 0.28, 0.29, 0.60, 3.5, 41 s;
			// WLAN8d, |G| = 24: 0.8–1.0 s).
			return base * (1 + 0.05*order)
		}
		// Closed forms (products, permanents): Rastrigin1d…5d 0.22–0.49 s,
		// Griewank6d 0.31–0.38 s.
		return 1.5 * base
	case bo.NamePlus:
		return 1.3 * base // 0.20–0.53 s; WLAN8d 0.9–1.2 s
	case bo.NameMax:
		return 1.2 * base // 0.19–0.42 s
	default:
		return base
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
	cells := make([]string, len(specs))
	model := newETAModel(costs, cells, priorRate(cmp.Or(cfg.Init, bo.DefaultInit)+iters), workers)
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
		cells[i] = s.Problem + "/" + s.Kernel
		if tr := o.Done[i]; tr != nil {
			traces[i] = tr
			done++
			continue
		}
		order = append(order, i)
		model.add(i)
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
		o.Progress(Progress{Done: done, Total: len(specs), Resumed: done, ETA: model.eta(start), ETAAt: model.eta})
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
				model.start(i, t0)
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
					now := time.Now()
					o.Progress(Progress{Done: done, Total: len(specs), Elapsed: now.Sub(start), Resumed: resumed, ETA: model.eta(now), ETAAt: model.eta})
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
