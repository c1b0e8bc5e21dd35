package kernel_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestOutputBudget: an output matrix that would outgrow the memory budget
// is refused (orbit.ErrOverBudget) before it is allocated, by every kernel
// and every entry point (issue: a 4.4M-row point file made perf gram die
// of "out of memory" sizing its n×n output). The budget is the kernel's
// Options.Budget (k_plus: its k_max's), a value: two kernels with
// different budgets side by side each keep their own.
func TestOutputBudget(t *testing.T) {
	g, _ := orbit.Hyperoctahedral(2)
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	small := kernel.Options{Budget: 1 << 20}
	avg, _ := kernel.NewAvg(p, g, small)
	norm, _ := kernel.NewAvg(p, g, kernel.Options{Normalize: true, Budget: small.Budget})
	mx, _ := kernel.NewMax(p, g, small)
	plus, err := kernel.NewPlus(mx, mat.NewDense(2, 2, []float64{1, 0, 0, 1}), kernel.PlusOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := 600 // 600×600 float64 = 2.9 MB
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		x.Set(i, 0, float64(i))
	}
	for _, k := range []kernel.Kernel{avg, norm, mx, plus} {
		var c mat.Dense
		if err := k.CrossTo(&c, x, x); !errors.Is(err, orbit.ErrOverBudget) || !c.IsEmpty() {
			t.Errorf("%T CrossTo: error %v, dst empty %v", k, err, c.IsEmpty())
		}
		var s mat.SymDense
		if err := kernel.Gram(k, &s, x); !errors.Is(err, orbit.ErrOverBudget) || !s.IsEmpty() {
			t.Errorf("%T Gram: error %v, dst empty %v", k, err, s.IsEmpty())
		}
	}
	var d mat.SymDense
	if err := kernel.OrbitDist2To(&d, g, x, small); !errors.Is(err, orbit.ErrOverBudget) || !d.IsEmpty() {
		t.Errorf("OrbitDist2To: error %v", err)
	}
	if err := kernel.OrbitDist2To(&d, nil, x, small); !errors.Is(err, orbit.ErrOverBudget) || !d.IsEmpty() {
		t.Errorf("OrbitDist2To (Euclidean): error %v", err)
	}
	if _, err := kernel.NewOrbitDist(g, x, kernel.Options{Budget: 1 << 10}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("NewOrbitDist: error %v", err)
	}
	// Within the budget it works, and the same kernel with the default
	// budget (0: 8 GiB, whatever SYMBO_MEMORY_BUDGET says) takes the
	// 600×600 output.
	t.Setenv("SYMBO_MEMORY_BUDGET", "1KiB")
	sub := x.Slice(0, 100, 0, 2).(*mat.Dense)
	var c mat.Dense
	if err := avg.CrossTo(&c, sub, sub); err != nil {
		t.Errorf("100×100: %v", err)
	}
	wide, _ := kernel.NewAvg(p, g, kernel.Options{})
	var w mat.Dense
	if err := wide.CrossTo(&w, x, x); err != nil {
		t.Errorf("600×600 with the default budget: %v", err)
	}
	if err := kernel.OrbitDist2To(&d, g, x, kernel.Options{}); err != nil {
		t.Errorf("OrbitDist2To with the default budget: %v", err)
	}
	// Base takes no Options: its budget is orbit.DefaultBudget. An output
	// over 8 GiB (40000² float64s) is refused before anything is computed.
	base, _ := kernel.NewBase(p, 2)
	huge := mat.NewDense(40000, 2, nil)
	var hc mat.Dense
	if err := base.CrossTo(&hc, huge, huge); !errors.Is(err, orbit.ErrOverBudget) || !hc.IsEmpty() || !strings.Contains(err.Error(), "40000×40000") {
		t.Errorf("Base CrossTo 40000×40000: %v", err)
	}
	var hs mat.SymDense
	if err := kernel.Gram(base, &hs, huge); !errors.Is(err, orbit.ErrOverBudget) || !hs.IsEmpty() {
		t.Errorf("Base Gram 40000×40000: %v", err)
	}
	if _, err := kernel.NewAvg(p, g, kernel.Options{Budget: -1}); !errors.Is(err, kernel.ErrBadOptions) {
		t.Errorf("negative Budget: %v", err)
	}
	if err := kernel.OrbitDist2To(&d, nil, x, kernel.Options{Budget: -1}); !errors.Is(err, kernel.ErrBadOptions) {
		t.Errorf("negative Budget (Euclidean): %v", err)
	}
}

// TestEnumerationBudget: Options.Budget bounds one enumerated orbit; a
// group whose orbit exceeds it has no enumeration (an error under
// Method Enumerate), and another kernel with a larger budget enumerates it.
func TestEnumerationBudget(t *testing.T) {
	g, _ := orbit.Hyperoctahedral(4) // 384 elements: 384·4·8 = 12 KiB per orbit
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	if _, err := kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate, Budget: 1 << 10}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("1 KiB budget: %v", err)
	}
	k, err := kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate, Budget: 1 << 20})
	if err != nil || k.Method() != kernel.Enumerate {
		t.Errorf("1 MiB budget: %v", err)
	}
}

// TestEnumerationWorkersFitBudget: an enumerated kernel holds one orbit
// per assembly worker, so it starts no more workers than the budget has
// orbits for (results do not depend on the workers), and a large orbit
// buffer is not rounded up to a power of two: a CrossTo allocates within
// the budget whatever GOMAXPROCS is. perf gram with a 300 MiB budget
// once took 579 MB on two cores.
func TestEnumerationWorkersFitBudget(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	g, err := orbit.Permutation(8) // 40320 elements: an orbit is 2.6 MB
	if err != nil {
		t.Fatal(err)
	}
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	const budget = 5 << 20 // one orbit and its padding, not two
	k, err := kernel.NewAvg(p, g, kernel.Options{Method: kernel.Enumerate, Budget: budget})
	if err != nil {
		t.Fatal(err)
	}
	x, y := mat.NewDense(3, 8, nil), mat.NewDense(64, 8, nil)
	for i := range 8 {
		for r := range 3 {
			x.Set(r, i, float64(r+i)/10)
		}
		for r := range 64 {
			y.Set(r, i, float64(r*i%7)/10)
		}
	}
	var dst mat.Dense
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := k.CrossTo(&dst, x, y); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > budget {
		t.Errorf("CrossTo allocated %d bytes, over the budget of %d", got, budget)
	}
}
