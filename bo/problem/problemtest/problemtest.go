// Package problemtest is the conformance suite for benchmark problems:
// Run checks the declared dimension, box, group, optimum and noise of any
// Problem, that bad points are refused, and that the objective is
// invariant under random elements of the declared group.
//
// # Invariants
//
// Run draws everything from fixed seeds: a failure reproduces.
//
// # Concurrency
//
// Run calls the problem's methods from several goroutines at once (run
// the tests with -race).
//
// # Errors
//
// Failures are reported through t; Run returns nothing.
package problemtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// Problem is what Run tests; *problem.Problem implements it.
type Problem interface {
	Name() string
	Dim() int
	Bounds() (lo, hi []float64)
	Group() orbit.Group
	Evaluate(x []float64) (float64, error)
	Maximize() bool
	Optimum() (fstar float64, ok bool)
	Optimizers() [][]float64
	NoiseVariance() float64
}

// Samples is the number of random points each check uses.
const Samples = 200

// Run runs the conformance suite on p as subtests of t.
func Run(t *testing.T, p Problem) {
	t.Helper()
	d := p.Dim()
	lo, hi := p.Bounds()
	ok := t.Run("Declarations", func(t *testing.T) { declarations(t, p) })
	if !ok || d < 1 || len(lo) != d || len(hi) != d {
		t.Fatalf("%s: declarations broken; skipping the rest", p.Name())
	}
	t.Run("Optimum", func(t *testing.T) { optimum(t, p) })
	t.Run("BadInput", func(t *testing.T) { badInput(t, p) })
	t.Run("Invariance", func(t *testing.T) { invariance(t, p) })
	t.Run("Noise", func(t *testing.T) { noise(t, p) })
	t.Run("Concurrent", func(t *testing.T) { concurrent(t, p) })
}

func declarations(t *testing.T, p Problem) {
	if p.Name() == "" {
		t.Error("empty Name")
	}
	d := p.Dim()
	if d < 1 {
		t.Fatalf("Dim = %d", d)
	}
	lo, hi := p.Bounds()
	if len(lo) != d || len(hi) != d {
		t.Fatalf("Bounds lengths %d, %d, want %d", len(lo), len(hi), d)
	}
	for i := range lo {
		if !(lo[i] < hi[i]) || math.IsInf(lo[i], 0) || math.IsInf(hi[i], 0) {
			t.Errorf("Bounds[%d] = [%v, %v], want finite lo < hi", i, lo[i], hi[i])
		}
	}
	// Bounds returns copies.
	lo[0], hi[0] = math.NaN(), math.NaN()
	lo2, hi2 := p.Bounds()
	if math.IsNaN(lo2[0]) || math.IsNaN(hi2[0]) {
		t.Error("Bounds returns the problem's own slices")
	}
	g := p.Group()
	if g == nil {
		t.Fatal("nil Group")
	}
	if g.Dim() != d {
		t.Errorf("Group %s has Dim %d, want %d", g.Name(), g.Dim(), d)
	}
	if _, finite := g.(orbit.Finite); finite != (g.Order() != nil) {
		t.Errorf("Group %s: implements Finite = %v but Order = %v", g.Name(), finite, g.Order())
	}
}

func uniform(rng *rand.Rand, lo, hi []float64) []float64 {
	x := make([]float64, len(lo))
	for i := range x {
		x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
	}
	return x
}

func inBox(x, lo, hi []float64) bool {
	for i, v := range x {
		if !(v >= lo[i] && v <= hi[i]) {
			return false
		}
	}
	return true
}

func tol(f float64) float64 { return 1e-9 * math.Max(1, math.Abs(f)) }

func optimum(t *testing.T, p Problem) {
	lo, hi := p.Bounds()
	fstar, ok := p.Optimum()
	opts := p.Optimizers()
	if !ok {
		if len(opts) != 0 {
			t.Errorf("Optimum unknown but %d Optimizers", len(opts))
		}
		return
	}
	if math.IsNaN(fstar) || math.IsInf(fstar, 0) {
		t.Fatalf("Optimum = %v", fstar)
	}
	if len(opts) == 0 {
		t.Error("known Optimum but no Optimizers")
	}
	for _, x := range opts {
		if !inBox(x, lo, hi) {
			t.Errorf("optimizer %v outside the box", x)
			continue
		}
		f, err := p.Evaluate(x)
		if err != nil {
			t.Errorf("Evaluate(%v): %v", x, err)
			continue
		}
		if math.Abs(f-fstar) > tol(fstar) {
			t.Errorf("Evaluate(x* = %v) = %v, want Optimum %v", x, f, fstar)
		}
	}
	// Optimizers returns copies.
	if len(opts) > 0 {
		opts[0][0] = math.NaN()
		if x := p.Optimizers()[0]; math.IsNaN(x[0]) {
			t.Error("Optimizers returns the problem's own slices")
		}
	}
	// f* bounds f on random points (from below when minimizing).
	sign := -1.0
	if p.Maximize() {
		sign = 1
	}
	rng := rand.New(rand.NewPCG(1, 0))
	for range 20 * Samples {
		x := uniform(rng, lo, hi)
		f, err := p.Evaluate(x)
		if err != nil {
			t.Fatalf("Evaluate(%v): %v", x, err)
		}
		if sign*f > sign*fstar+tol(fstar) {
			t.Fatalf("Evaluate(%v) = %v beats Optimum %v", x, f, fstar)
		}
	}
}

func badInput(t *testing.T, p Problem) {
	d := p.Dim()
	lo, hi := p.Bounds()
	rng := rand.New(rand.NewPCG(2, 0))
	x := uniform(rng, lo, hi)
	orig := slices.Clone(x)
	if _, err := p.Evaluate(x); err != nil {
		t.Fatalf("Evaluate(%v): %v", x, err)
	}
	if !slices.Equal(x, orig) {
		t.Error("Evaluate modified its input")
	}
	// Box corners are in the (closed) box.
	for _, c := range [][]float64{lo, hi} {
		if _, err := p.Evaluate(c); err != nil {
			t.Errorf("Evaluate(corner %v): %v", c, err)
		}
	}
	bad := func(what string, y []float64) {
		t.Helper()
		f, err := p.Evaluate(y)
		if err == nil {
			t.Errorf("%s: Evaluate(%v) = %v, want an error", what, y, f)
		} else if !strings.Contains(err.Error(), ":") {
			t.Errorf("%s: error %q does not name its package", what, err)
		}
	}
	bad("nil point", nil)
	bad("short point", x[:d-1])
	bad("long point", append(slices.Clone(x), lo[0]))
	for i := range d {
		w := hi[i] - lo[i]
		for _, v := range []float64{
			math.NaN(), math.Inf(1), math.Inf(-1),
			hi[i] + 1e-3*w, lo[i] - 1e-3*w,
			math.Nextafter(hi[i], math.Inf(1)), math.Nextafter(lo[i], math.Inf(-1)),
		} {
			y := slices.Clone(x)
			y[i] = v
			bad(fmt.Sprintf("x[%d] = %v", i, v), y)
		}
	}
}

// act returns a function applying a random element of g to x (into a new
// slice), or nil if the suite does not know how to sample g.
func act(t *testing.T, g orbit.Group, rng *rand.Rand, lo, hi []float64) func(x []float64) []float64 {
	if f, ok := g.(orbit.Finite); ok {
		n, err := orbit.Size(g)
		if err != nil {
			t.Fatalf("orbit.Size(%s): %v", g.Name(), err)
		}
		return func(x []float64) []float64 {
			y := make([]float64, len(x))
			f.ActTo(y, x, rng.IntN(n))
			return y
		}
	}
	name := g.Name()
	switch {
	case strings.HasPrefix(name, "rotation2d"):
		return func(x []float64) []float64 {
			a := 2 * math.Pi * rng.Float64()
			s, c := math.Sincos(a)
			return []float64{c*x[0] - s*x[1], s*x[0] + c*x[1]}
		}
	case strings.HasPrefix(name, "scaling"):
		return func(x []float64) []float64 { return scale(x, rng, lo, hi) }
	}
	return nil
}

// scale multiplies x by a random c > 0, log-uniform over the factors that
// keep c·x in the box [lo, hi] (up to rounding, which invariance checks).
func scale(x []float64, rng *rand.Rand, lo, hi []float64) []float64 {
	cmin, cmax := 0.0, math.Inf(1)
	for i, v := range x {
		switch {
		case v > 0:
			cmin, cmax = math.Max(cmin, lo[i]/v), math.Min(cmax, hi[i]/v)
		case v < 0:
			cmin, cmax = math.Max(cmin, hi[i]/v), math.Min(cmax, lo[i]/v)
		}
	}
	c := 1.0
	if cmin > 0 && cmax < math.Inf(1) && cmin < cmax {
		c = math.Exp(math.Log(cmin) + rng.Float64()*(math.Log(cmax)-math.Log(cmin)))
	}
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = c * v
	}
	return y
}

func invariance(t *testing.T, p Problem) {
	g := p.Group()
	lo, hi := p.Bounds()
	rng := rand.New(rand.NewPCG(3, 0))
	apply := act(t, g, rng, lo, hi)
	checked := 0
	check := func(x, gx []float64, how string) {
		t.Helper()
		if !inBox(gx, lo, hi) {
			return
		}
		fx, err := p.Evaluate(x)
		if err != nil {
			t.Fatalf("Evaluate(%v): %v", x, err)
		}
		fgx, err := p.Evaluate(gx)
		if err != nil {
			t.Fatalf("Evaluate(%v): %v", gx, err)
		}
		checked++
		if math.Abs(fx-fgx) > tol(fx) {
			t.Errorf("%s %s: f(x) = %v but f(g·x) = %v for x = %v, g·x = %v", g.Name(), how, fx, fgx, x, gx)
		}
	}
	if apply != nil {
		for range 5 * Samples {
			x := uniform(rng, lo, hi)
			check(x, apply(x), "random element")
		}
		// Points that stay in the box more often: the box's inner half.
		for range Samples {
			x := uniform(rng, lo, hi)
			for i := range x {
				m := (lo[i] + hi[i]) / 2
				x[i] = m + (x[i]-m)/4
			}
			check(x, apply(x), "random element (inner box)")
		}
	} else if _, ok := g.(orbit.Discretizer); !ok {
		t.Errorf("cannot sample elements of %s (not Finite, not a Discretizer)", g.Name())
	}
	if dz, ok := g.(orbit.Discretizer); ok {
		const m = 16
		d := p.Dim()
		dst := make([]float64, m*d)
		for range Samples / 10 {
			x := uniform(rng, lo, hi)
			dz.OrbitTo(dst, x, m)
			for j := range m {
				check(x, dst[j*d:(j+1)*d], "discretized orbit node")
			}
		}
	}
	if checked < Samples {
		t.Errorf("only %d invariance checks had g·x inside the box", checked)
	}
}

// NoiseFractioner is a Problem that declares its own noise fraction (the
// ratio of NoiseVariance to the variance of f over the box); a Problem
// without it is held to the paper's 2%.
type NoiseFractioner interface {
	NoiseFraction() float64
}

func noise(t *testing.T, p Problem) {
	frac := 0.02
	if nf, ok := p.(NoiseFractioner); ok {
		frac = nf.NoiseFraction()
	}
	v := p.NoiseVariance()
	if v2 := p.NoiseVariance(); v2 != v {
		t.Errorf("NoiseVariance not deterministic: %v then %v", v, v2)
	}
	if frac == 0 {
		if v != 0 {
			t.Errorf("NoiseVariance = %v for a noiseless problem (NoiseFraction 0)", v)
		}
		return
	}
	if !(v > 0) || math.IsInf(v, 0) {
		t.Fatalf("NoiseVariance = %v, want finite > 0", v)
	}
	// Independent estimate (other seed, plain loop): frac (2%) of the
	// variance of the objective over the box, within a factor that
	// tolerates the sampling error of heavy-tailed objectives.
	lo, hi := p.Bounds()
	rng := rand.New(rand.NewPCG(4, 0))
	const n = 1 << 13
	var s, s2 float64
	for range n {
		f, err := p.Evaluate(uniform(rng, lo, hi))
		if err != nil {
			t.Fatal(err)
		}
		s += f
		s2 += f * f
	}
	mean := s / n
	want := frac * (s2/n - mean*mean) * n / (n - 1)
	if r := v / want; r < 0.5 || r > 2 {
		t.Errorf("NoiseVariance = %v, an independent estimate of %g of Var f is %v (ratio %.3g)", v, frac, want, r)
	}
}

func concurrent(t *testing.T, p Problem) {
	lo, hi := p.Bounds()
	var wg sync.WaitGroup
	const workers = 4
	vs := make([]float64, workers)
	for w := range workers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(5, uint64(w)))
			vs[w] = p.NoiseVariance()
			for range Samples {
				if _, err := p.Evaluate(uniform(rng, lo, hi)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	for w := range vs {
		if vs[w] != vs[0] {
			t.Errorf("NoiseVariance differs across goroutines: %v", vs)
		}
	}
}
