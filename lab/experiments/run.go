package experiments

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Run is one unit of an experiment: a computation whose result Execute
// keeps, and a journal can hold. A run's identity is its index in its
// plan, which the plan derives from its settings alone, so that a result
// kept from an interrupted execution (ExecOptions.Done, read back from a
// journal) is found again by its index; Check vets that it is this run's.
type Run[R any] struct {
	// Label names the run in errors, e.g. "Ackley2d, plus, seed 3".
	Label string
	// Cell groups the runs that cost alike, e.g. "Ackley2d/plus": the ETA
	// predicts a run by the measured runs of its cell.
	Cell string
	// Cost is the run's predicted wall time in seconds, a rough model
	// (EstimatedCost for a BO run): runs start most expensive first, which
	// shortens the tail of a parallel execution, and the ETA uses it until
	// a run of the cell has finished. Results do not depend on it.
	Cost float64
	// Do computes the result, from any goroutine; once ctx is done it
	// returns an error. Results must not depend on which goroutine runs
	// Do, nor on what else runs at the same time.
	Do func(ctx context.Context) (R, error)
	// Check, if not nil, reports whether a result kept from before is
	// this run's (the same problem, kernel, seed, …).
	Check func(R) bool
}

// ExecOptions configure Execute. The zero value runs everything on
// GOMAXPROCS goroutines without callbacks.
type ExecOptions[R any] struct {
	// Workers is the number of runs in parallel (0 means GOMAXPROCS).
	Workers int
	// Context cancels the execution: no run starts after it is done, and
	// Execute returns its error once the running ones finish.
	Context context.Context
	// Progress, if not nil, is called once at the start and after each
	// run finishes, from one goroutine at a time.
	Progress func(Progress)
	// Done holds the results of runs already finished, by index (read
	// back from a journal): they are not run again. Each must pass its
	// run's Check.
	Done map[int]R
	// OnRun, if not nil, is called with each run's index and result as it
	// finishes, from one goroutine at a time (e.g. to journal it); an
	// error stops the execution.
	OnRun func(i int, r R) error
}

// Execute runs every run not in o.Done on o.Workers goroutines, one run
// per goroutine at a time, most expensive first (Run.Cost), and returns
// the results in plan order: they do not depend on the number of workers
// nor on the order the runs finish in. The first error (lowest index)
// stops the execution; a cancelled context stops it with the context's
// error once the running runs return.
func Execute[R any](runs []Run[R], o ExecOptions[R]) ([]R, error) {
	e, err := newExecution(runs, o)
	if err != nil {
		return nil, err
	}
	e.report()
	var wg sync.WaitGroup
	for range min(e.workers, len(e.order)) {
		wg.Go(e.work)
	}
	wg.Wait()
	for _, err := range e.errs {
		if err != nil {
			return nil, err
		}
	}
	if err := e.ctx.Err(); err != nil {
		return nil, fmt.Errorf("experiments: stopped with %d of %d runs done: %w", e.done, len(runs), err)
	}
	return e.results, nil
}

// execution is the state of one Execute. Its workers take the next run of
// order; mu serializes what follows a finished run (its result, OnRun,
// the progress report).
type execution[R any] struct {
	runs    []Run[R]
	o       ExecOptions[R]
	ctx     context.Context
	workers int
	order   []int // the runs to do, most expensive first
	model   *etaModel
	start   time.Time
	resumed int // runs of o.Done

	next    atomic.Int64
	failed  atomic.Bool
	mu      sync.Mutex
	done    int
	results []R
	errs    []error // by run index
}

// newExecution checks the options and the kept results and orders the
// runs to do.
func newExecution[R any](runs []Run[R], o ExecOptions[R]) (*execution[R], error) {
	if o.Workers < 0 {
		return nil, fmt.Errorf("%w: workers = %d < 0", ErrBadOptions, o.Workers)
	}
	for i, res := range o.Done {
		if i < 0 || i >= len(runs) {
			return nil, fmt.Errorf("%w: a finished run has index %d, the plan has %d runs", ErrBadOptions, i, len(runs))
		}
		if r := runs[i]; r.Check != nil && !r.Check(res) {
			return nil, fmt.Errorf("%w: finished run %d does not match the plan (%s)", ErrBadOptions, i, r.Label)
		}
	}
	e := &execution[R]{runs: runs, o: o, ctx: cmp.Or(o.Context, context.Background()), workers: cmp.Or(o.Workers, runtime.GOMAXPROCS(0)),
		results: make([]R, len(runs)), errs: make([]error, len(runs)), start: time.Now()}
	costs := make([]float64, len(runs))
	cells := make([]string, len(runs))
	for i, r := range runs {
		costs[i], cells[i] = r.Cost, r.Cell
	}
	e.model = newETAModel(costs, cells, 1, e.workers)
	for i := range runs {
		if res, ok := o.Done[i]; ok {
			e.results[i] = res
			e.done++
			continue
		}
		e.order = append(e.order, i)
		e.model.add(i)
	}
	e.resumed = e.done
	sort.SliceStable(e.order, func(a, b int) bool { return costs[e.order[a]] > costs[e.order[b]] })
	return e, nil
}

// work runs the next run of the order until none is left, one has
// failed or the context is done.
func (e *execution[R]) work() {
	for {
		j := int(e.next.Add(1)) - 1
		if j >= len(e.order) || e.failed.Load() || e.ctx.Err() != nil {
			return
		}
		i := e.order[j]
		t0 := time.Now()
		e.model.start(i, t0)
		res, err := e.runs[i].Do(e.ctx)
		if err != nil {
			if e.ctx.Err() == nil {
				e.fail(i, fmt.Errorf("experiments: run %d (%s): %w", i, e.runs[i].Label, err))
			}
			return
		}
		if !e.finished(i, res, time.Since(t0).Seconds()) {
			return
		}
	}
}

// finished keeps run i's result (which took the given seconds), passes it
// to OnRun and reports the progress; it reports whether to go on.
func (e *execution[R]) finished(i int, res R, seconds float64) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.results[i] = res
	if e.o.OnRun != nil {
		if err := e.o.OnRun(i, res); err != nil {
			e.fail(i, fmt.Errorf("experiments: run %d: %w", i, err))
			return false
		}
	}
	e.done++
	e.model.finished(i, seconds)
	e.report()
	return true
}

// fail records run i's error and stops the other workers.
func (e *execution[R]) fail(i int, err error) {
	e.errs[i] = err
	e.failed.Store(true)
}

// report calls o.Progress, at the start (before the workers) and then
// with mu held.
func (e *execution[R]) report() {
	if e.o.Progress == nil {
		return
	}
	now := time.Now()
	e.o.Progress(Progress{Done: e.done, Total: len(e.runs), Resumed: e.resumed, Elapsed: now.Sub(e.start), ETA: e.model.eta(now), ETAAt: e.model.eta})
}

// Plan is an experiment as data: its runs, and its report of their
// results. A new experiment is a function from its options to a Plan;
// whoever executes it (perf's runner: the journal, signals, progress)
// needs nothing else.
type Plan[R, Res any] struct {
	Runs []Run[R]
	// Report makes the experiment's result from every run's result, in
	// plan order, and the wall time of the execution that finished them.
	Report func(results []R, wall time.Duration) Res
}

// Execute runs the plan's runs (see Execute) and reports their results.
func (p Plan[R, Res]) Execute(o ExecOptions[R]) (Res, error) {
	start := time.Now()
	results, err := Execute(p.Runs, o)
	if err != nil {
		var zero Res
		return zero, err
	}
	return p.Report(results, time.Since(start)), nil
}

// Progress reports the state of a batch of runs: Done of Total finished,
// and an estimate of the remaining wall time (see ETA), which weighs the
// runs by their measured or modelled cost because run times differ by
// 100×.
type Progress struct {
	// Done of Total runs are finished; Resumed of them were done before
	// this batch started (ExecOptions.Done).
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
	// mean time of the finished runs of its cell (Run.Cell) once one has
	// finished; otherwise by its Run.Cost times a rate: the median over
	// the measured cells of their own rates (measured seconds per
	// predicted second), with the prior rate 1 counted twice, so
	// that one cell the cost model gets wrong — a slow cell measured, or
	// in progress — does not inflate the estimate of every other cell. A
	// running run counts the rest of its prediction, and at least half the
	// time it has run so far (a run past its prediction still counts). The remaining work is spread over the workers, and the
	// estimate is never below the longest single run still to finish.
	// Safe to call from any goroutine, also after Execute returned.
	ETAAt func(now time.Time) time.Duration `json:"-"`
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
			// The rest of its prediction, and at least half as long
			// again as it has run: a run past its prediction is not
			// about to end for that (the estimate never reads 0 while
			// a run goes on), and the two meet at 2/3 of the
			// prediction, so the estimate does not jump.
			e := now.Sub(t).Seconds()
			pred = max(pred-e, e/2)
		}
		sum += pred
		longest = max(longest, pred)
	}
	par := min(m.workers, len(m.pending))
	return time.Duration(max(sum/float64(par), longest) * float64(time.Second))
}
