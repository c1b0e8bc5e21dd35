package experiments

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

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
// GEMMs are timed alternately, Reps times, so slow phases of a shared
// machine hit both; likewise the eigendecompositions. Ratios sets
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

	// One untimed pass: allocates dst and warms caches and OpenBLAS.
	if err := kernel.Gram(k, &gram, x); err != nil {
		return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
	}
	for _, be := range backends {
		be.Gemm(false, false, 1, a, bm, 0, c)
	}
	enum := make([]float64, 0, o.Reps)
	gemm := make([][]float64, len(backends))
	for range o.Reps {
		t := time.Now()
		if err := kernel.Gram(k, &gram, x); err != nil {
			return RatiosResult{}, fmt.Errorf("experiments: ratios: %w", err)
		}
		enum = append(enum, time.Since(t).Seconds())
		for i, be := range backends {
			t := time.Now()
			be.Gemm(false, false, 1, a, bm, 0, c)
			gemm[i] = append(gemm[i], time.Since(t).Seconds())
		}
	}
	res.EnumSeconds = median(enum)
	res.EnumGFLOPS = EnumGramFlops(o.N, g.Dim(), int(g.Order().Int64())) / res.EnumSeconds / 1e9
	for i, be := range backends {
		s := median(gemm[i])
		gf := GemmFlops(o.N) / s / 1e9
		res.Gemm = append(res.Gemm, GemmRatio{Backend: be.Name(), Seconds: s, GFLOPS: gf, EnumFraction: res.EnumGFLOPS / gf})
	}

	if o.SkipEigen {
		return res, nil
	}
	sym := Symmetric(o.EigenN, 1)
	eig := make([][]float64, len(backends))
	var e linalg.Eigen
	for range o.Reps {
		for i, be := range backends {
			t := time.Now()
			if err := be.EigenSym(&e, sym); err != nil {
				return RatiosResult{}, fmt.Errorf("experiments: ratios: %s: %w", be.Name(), err)
			}
			eig[i] = append(eig[i], time.Since(t).Seconds())
		}
	}
	res.Eigen = make(map[string]float64, len(backends))
	for i, be := range backends {
		res.Eigen[be.Name()] = median(eig[i])
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

// median returns the median of v (the mean of the middle two for even
// lengths) without modifying v.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
