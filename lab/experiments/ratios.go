package experiments

import (
	"errors"
	"fmt"
	"runtime"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// RatiosOptions configure Ratios. The zero value is the default.
type RatiosOptions struct {
	// N is the number of points of the Gram and the order of the GEMM;
	// 0 means 1000.
	N int
	// EigenN is the order of the eigendecompositions; 0 means 1000.
	EigenN int
	// Threads is the GOMAXPROCS (hence kernel workers and gonum GEMM
	// goroutines) Ratios runs with; 0 means the current GOMAXPROCS.
	Threads int
	// Reps is the number of timed repetitions of each measurement, whose
	// median is reported; 0 means 3.
	Reps int
	// SkipEigen skips the eigendecompositions (the slowest part: gonum's
	// takes seconds at n = 1000).
	SkipEigen bool
}

// GemmRatio is one backend's GEMM measurement in a Ratios run.
type GemmRatio struct {
	Backend string
	// Seconds is the median time of one n×n product, GFLOPS its rate
	// (GemmFlops(n)/Seconds/1e9).
	Seconds, GFLOPS float64
	// EnumFraction is the enumeration Gram's GFLOP/s divided by this
	// backend's DGEMM GFLOP/s.
	EnumFraction float64
}

// RatiosResult is what Ratios measured. Times are medians over Reps.
type RatiosResult struct {
	N, EigenN, Threads, Reps int
	// OpenBLASThreads and OpenBLASCore describe the openblas backend (0
	// and "" in builds without it). A fair comparison needs
	// OpenBLASThreads == Threads; see Ratios.
	OpenBLASThreads int
	OpenBLASCore    string

	// The enumeration Gram: k_max, Matérn-5/2, hyperoctahedral(5),
	// method enumerate, N standard normal points; GFLOPS counts
	// EnumGramFlops.
	Group       string
	EnumSeconds float64
	EnumGFLOPS  float64

	// Gemm has one entry per backend in linalg.Available() order.
	Gemm []GemmRatio

	// Eigen maps a backend name to the median EigenSym time at EigenN
	// (empty with SkipEigen). EigenRatio is openblas's time over gonum's,
	// 0 when openblas is not compiled in or with SkipEigen.
	Eigen      map[string]float64
	EigenRatio float64
}

// Ratios measures, in one process and with one thread count, the
// enumeration path's throughput against each backend's own DGEMM, and the
// openblas/gonum eigendecomposition time ratio.
//
// The enumerated k_max Gram (hyperoctahedral(5), N points) and the N×N
// GEMMs are timed alternately, Reps rounds after one untimed round, so
// slow phases of a shared machine hit both; likewise the
// eigendecompositions (timeRounds, the package's timing loop). Ratios sets
// GOMAXPROCS to Threads for its duration (restoring it afterwards), so it
// must not run concurrently with other timing-sensitive code. OpenBLAS's
// thread count is fixed the first time the openblas backend is requested
// (linalg.EnvOpenBLASThreads, default 1); callers wanting a like-for-like
// comparison set that variable to Threads before the first request (the
// ratios command does) and check OpenBLASThreads in the result.
func Ratios(o RatiosOptions) (RatiosResult, error) {
	if o.N == 0 {
		o.N = 1000
	}
	if o.EigenN == 0 {
		o.EigenN = 1000
	}
	if o.Reps == 0 {
		o.Reps = 3
	}
	if o.N < 1 || o.EigenN < 1 || o.Reps < 1 || o.Threads < 0 {
		return RatiosResult{}, fmt.Errorf("experiments: ratios: invalid options %+v", o)
	}
	prev := runtime.GOMAXPROCS(0)
	if o.Threads == 0 {
		o.Threads = prev
	}
	runtime.GOMAXPROCS(o.Threads)
	defer runtime.GOMAXPROCS(prev)

	res := RatiosResult{N: o.N, EigenN: o.EigenN, Threads: o.Threads, Reps: o.Reps}
	var backends []linalg.Backend
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
		}
		backends = append(backends, be)
	}
	res.OpenBLASThreads = linalg.OpenBLASThreads()
	res.OpenBLASCore = linalg.OpenBLASCoreName()

	g, err := orbit.Hyperoctahedral(5)
	if err != nil {
		return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
	}
	res.Group = g.Name()
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	k, err := kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate, Workers: o.Threads})
	if err != nil {
		return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
	}
	x := Points(o.N, g.Dim(), 2)
	var gram mat.SymDense
	a, bm := Dense(o.N, 3, 0), Dense(o.N, 3, 1)
	c := mat.NewDense(o.N, o.N, nil)

	// Exactly Reps rounds, after the untimed one that allocates dst and
	// warms caches and OpenBLAS.
	rule := timing{minReps: o.Reps, maxReps: o.Reps}
	fs := []func() error{func() error { return kernel.Gram(k, &gram, x) }}
	for _, be := range backends {
		fs = append(fs, func() error { be.Gemm(false, false, 1, a, bm, 0, c); return nil })
	}
	med, _, err := timeRounds(rule, fs...)
	if err != nil {
		return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
	}
	res.EnumSeconds = med[0]
	res.EnumGFLOPS = EnumGramFlops(o.N, g.Dim(), int(g.Order().Int64())) / res.EnumSeconds / 1e9
	for i, be := range backends {
		s := med[1+i]
		gf := GemmFlops(o.N) / s / 1e9
		res.Gemm = append(res.Gemm, GemmRatio{Backend: be.Name(), Seconds: s, GFLOPS: gf, EnumFraction: res.EnumGFLOPS / gf})
	}

	if o.SkipEigen {
		return res, nil
	}
	sym := Symmetric(o.EigenN, 1)
	var e linalg.Eigen
	fs = nil
	for _, be := range backends {
		fs = append(fs, func() error {
			if err := be.EigenSym(&e, sym); err != nil {
				return fmt.Errorf("%s: %w", be.Name(), err)
			}
			return nil
		})
	}
	if med, _, err = timeRounds(rule, fs...); err != nil {
		return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
	}
	res.Eigen = make(map[string]float64, len(backends))
	for i, be := range backends {
		res.Eigen[be.Name()] = med[i]
	}
	if ob, ok := res.Eigen["openblas"]; ok {
		gn, ok := res.Eigen["gonum"]
		if !ok || gn <= 0 {
			return RatiosResult{}, errors.New("experiments: ratios: no gonum eigendecomposition time")
		}
		res.EigenRatio = ob / gn
	}
	return res, nil
}
