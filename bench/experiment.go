package bench

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/cpuid/v2"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/kernel"
)

// ModulePath is the module whose version ExperimentEnvironment records.
const ModulePath = "github.com/symbo/symbo"

// ExperimentEnv is what, besides the seed and the settings, reproduces a
// record: the module version, the Go toolchain, the SIMD path of
// internal/f64, GOMAXPROCS and the machine. The linear-algebra backend is
// recorded with the settings (bo.Trace.Backend).
type ExperimentEnv struct {
	Module     string `json:"module"`     // path@version ("(devel)" for a source build)
	Revision   string `json:"revision"`   // VCS revision when the build recorded one
	GoVersion  string `json:"go_version"` // runtime.Version()
	SIMD       string `json:"simd"`       // internal/f64.Level()
	GOMAXPROCS int    `json:"gomaxprocs"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	CPU        string `json:"cpu"` // brand name
	NumCPU     int    `json:"num_cpu"`
}

// ExperimentEnvironment returns the ExperimentEnv of this process.
func ExperimentEnvironment() ExperimentEnv {
	e := ExperimentEnv{
		Module:     ModulePath + "@(devel)",
		GoVersion:  runtime.Version(),
		SIMD:       f64.Level(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		CPU:        strings.TrimSpace(cpuid.CPU.BrandName),
		NumCPU:     runtime.NumCPU(),
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Path == ModulePath && bi.Main.Version != "" {
			e.Module = ModulePath + "@" + bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" {
				e.Revision = s.Value
			}
		}
	}
	return e
}

// Errors returned by the experiment functions wrap ErrBadOptions for
// invalid options (test with errors.Is).
var ErrBadOptions = errors.New("bench: invalid experiment options")

// RunSpec is one Bayesian-optimization run of an experiment: a problem
// (the paper's name with its dimension, e.g. "Rastrigin5d"), a kernel and a
// seed. Index is its position in the experiment's plan, which fixes where
// its trace is written whatever order the runs finish in.
type RunSpec struct {
	Index   int           `json:"index"`
	Problem string        `json:"problem"`
	Kernel  bo.KernelKind `json:"kernel"`
	Seed    uint64        `json:"seed"`
}

// Progress reports the state of a batch of runs: Done of Total finished,
// and the same in estimated cost units (see EstimatedCost), which make a
// better ETA than run counts because run times differ by 100×.
type Progress struct {
	Done, Total         int
	DoneCost, TotalCost float64
	Elapsed             time.Duration
}

// ETA estimates the remaining time from the cost done so far; it is 0
// before the first run finishes.
func (p Progress) ETA() time.Duration {
	if p.DoneCost <= 0 {
		return 0
	}
	return time.Duration(float64(p.Elapsed) * (p.TotalCost - p.DoneCost) / p.DoneCost)
}

// EstimatedCost is a rough relative cost of one run of kernel k on p (base
// on a small problem ≈ 1), from the measured times in the bo package
// documentation: k_avg's fit enumerates the group, k_plus eigendecomposes
// at every likelihood evaluation. It only orders the runs (the most
// expensive start first, which shortens the tail of a parallel batch) and
// weighs the progress ETA; results do not depend on it.
func EstimatedCost(p *problem.Problem, k bo.KernelKind) float64 {
	order := math.Inf(1)
	if o := p.Group().Order(); o != nil {
		order, _ = new(big.Float).SetInt(o).Float64()
	}
	d := float64(p.Dim())
	switch k {
	case bo.Avg:
		if math.IsInf(order, 1) {
			if strings.HasPrefix(p.Group().Name(), "rotation") {
				return 3 // closed form (Bessel I₀)
			}
			// Discretized orbits: a 64×64-node double average per pair.
			return 150
		}
		if p.BaseShape() != kernel.RBF {
			// No closed form: |G| base-kernel evaluations per pair
			// (Ackley5d: 3840, minutes per run).
			return 10 + 0.5*order
		}
		return 10 + 5*math.Log2(order) // closed forms (permanents)
	case bo.Plus:
		return 6 + 0.2*d
	case bo.Max:
		return 1.3 + 0.1*d
	default:
		return 1 + 0.1*d
	}
}

// RunAll runs every spec with the protocol cfg (cfg.Kernel is replaced by
// the spec's kernel and cfg.Workers by 1: parallelism is across runs, on
// workers goroutines, 0 meaning GOMAXPROCS) and returns the traces in
// spec order. Runs start most expensive first (EstimatedCost). progress,
// if not nil, is called after each run finishes, from one goroutine at a
// time. The first error (lowest index) stops the batch.
func RunAll(specs []RunSpec, cfg bo.Config, workers int, progress func(Progress)) ([]*bo.Trace, error) {
	if workers < 0 {
		return nil, fmt.Errorf("%w: workers = %d < 0", ErrBadOptions, workers)
	}
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	probs := map[string]*problem.Problem{}
	costs := make([]float64, len(specs))
	var total float64
	for i, s := range specs {
		p, ok := probs[s.Problem]
		if !ok {
			var err error
			if p, err = problem.New(s.Problem, 0); err != nil {
				return nil, fmt.Errorf("bench: run %d: %w", i, err)
			}
			probs[s.Problem] = p
		}
		costs[i] = EstimatedCost(p, s.Kernel)
		total += costs[i]
	}
	order := make([]int, len(specs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] > costs[order[b]] })

	traces := make([]*bo.Trace, len(specs))
	errs := make([]error, len(specs))
	var (
		next   atomic.Int64
		failed atomic.Bool
		mu     sync.Mutex
		done   int
		doneC  float64
		wg     sync.WaitGroup
	)
	start := time.Now()
	for range min(workers, len(specs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				j := int(next.Add(1)) - 1
				if j >= len(order) || failed.Load() {
					return
				}
				i := order[j]
				s := specs[i]
				c := cfg
				c.Kernel = s.Kernel
				c.Workers = 1
				tr, err := bo.Run(probs[s.Problem], c, s.Seed, nil)
				if err != nil {
					errs[i] = fmt.Errorf("bench: run %d (%s, %s, seed %d): %w", i, s.Problem, s.Kernel, s.Seed, err)
					failed.Store(true)
					return
				}
				traces[i] = tr
				mu.Lock()
				done++
				doneC += costs[i]
				if progress != nil {
					progress(Progress{Done: done, Total: len(specs), DoneCost: doneC, TotalCost: total, Elapsed: time.Since(start)})
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
	return traces, nil
}

// supportsKernel reports whether bo accepts kernel k on p (k_max only
// where it is provably PSD).
func supportsKernel(p *problem.Problem, k bo.KernelKind) (bool, error) {
	lo, hi := p.Bounds()
	_, err := bo.New(lo, hi, p.Group(), p.BaseShape(), bo.Config{Kernel: k, Workers: 1}, 0)
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
func Metric(tr *bo.Trace) float64 {
	if tr.Optimum != nil && len(tr.CumulativeRegret) > 0 {
		return tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
	}
	return -tr.BestF
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
