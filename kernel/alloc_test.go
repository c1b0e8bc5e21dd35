package kernel_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

type allocCase struct {
	name string
	g    orbit.Group
	k    kernel.Kernel
}

// allocCases returns one kernel of every type and evaluation path.
func allocCases(t testing.TB) []allocCase {
	t.Helper()
	rbf := kernel.Params{Shape: kernel.RBF, Variance: 1.2, Lengthscale: 0.8}
	m52 := kernel.Params{Shape: kernel.Matern52, Variance: 1.2, Lengthscale: 0.8}
	sf, _ := orbit.SignFlip(3)
	pm, _ := orbit.Permutation(4)
	ho, _ := orbit.Hyperoctahedral(3)
	bp, _ := orbit.BlockPerm(3, 2)
	rot, _ := orbit.Rotation2D()
	sc, _ := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	var cs []allocCase
	add := func(name string, g orbit.Group, k kernel.Kernel, err error) {
		if err != nil {
			t.Fatal(err)
		}
		cs = append(cs, allocCase{name, g, k})
	}
	b, err := kernel.NewBase(m52, 3)
	add("base", sf, b, err)
	a, err := kernel.NewAvg(m52, ho, kernel.Options{})
	add("avg/enumerate/"+ho.Name(), ho, a, err)
	a, err = kernel.NewAvg(rbf, sf, kernel.Options{})
	add("avg/closed/"+sf.Name(), sf, a, err)
	a, err = kernel.NewAvg(rbf, pm, kernel.Options{})
	add("avg/closed/"+pm.Name(), pm, a, err)
	a, err = kernel.NewAvg(rbf, ho, kernel.Options{})
	add("avg/closed/"+ho.Name(), ho, a, err)
	a, err = kernel.NewAvg(rbf, rot, kernel.Options{})
	add("avg/closed/rotation2d", rot, a, err)
	a, err = kernel.NewAvg(m52, rot, kernel.Options{})
	add("avg/quadrature/rotation2d", rot, a, err)
	a, err = kernel.NewAvg(m52, sc, kernel.Options{Quadrature: 16})
	add("avg/quadrature/scaling", sc, a, err)
	a, err = kernel.NewAvg(rbf, sc, kernel.Options{})
	add("avg/exact-series/scaling", sc, a, err)
	a, err = kernel.NewAvg(m52, sc, kernel.Options{})
	add("avg/exact-quadrature/scaling", sc, a, err)
	a, err = kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 0.05}, sc, kernel.Options{Normalize: true})
	add("avg/exact-quadrature+normalized/scaling/heavy", sc, a, err)
	a, err = kernel.NewAvg(m52, ho, kernel.Options{Normalize: true})
	add("avg/enumerate+normalized/"+ho.Name(), ho, a, err)
	a, err = kernel.NewAvg(rbf, ho, kernel.Options{Normalize: true})
	add("avg/closed+normalized/"+ho.Name(), ho, a, err)
	a, err = kernel.NewAvg(m52, sc, kernel.Options{Quadrature: 16, Normalize: true})
	add("avg/quadrature+normalized/scaling", sc, a, err)
	var m *kernel.Max
	m, err = kernel.NewMax(m52, ho, kernel.Options{})
	add("max/closed/"+ho.Name(), ho, m, err)
	m, err = kernel.NewMax(m52, bp, kernel.Options{})
	add("max/closed/"+bp.Name(), bp, m, err)
	m, err = kernel.NewMax(m52, ho, kernel.Options{Method: kernel.Enumerate})
	add("max/enumerate/"+ho.Name(), ho, m, err)
	// Groups on some coordinates: the RBF product over the inner group's
	// closed form, enumeration (transposed for one row) and Bessel form;
	// Matérn over the whole group; max through the canonical map.
	hoS, _ := orbit.OnCoords(ho, 5, []int{4, 0, 2})
	bpS, _ := orbit.OnCoords(bp, 7, []int{6, 5, 0, 1, 3, 2})
	rotS, _ := orbit.OnCoords(rot, 3, []int{2, 0})
	a, err = kernel.NewAvg(rbf, hoS, kernel.Options{})
	add("avg/closed/"+hoS.Name(), hoS, a, err)
	a, err = kernel.NewAvg(rbf, bpS, kernel.Options{})
	add("avg/enumerate/"+bpS.Name(), bpS, a, err)
	a, err = kernel.NewAvg(rbf, rotS, kernel.Options{})
	add("avg/closed/"+rotS.Name(), rotS, a, err)
	a, err = kernel.NewAvg(m52, hoS, kernel.Options{})
	add("avg/enumerate/m52/"+hoS.Name(), hoS, a, err)
	m, err = kernel.NewMax(m52, hoS, kernel.Options{})
	add("max/closed/"+hoS.Name(), hoS, m, err)
	mp, err := kernel.NewMax(m52, ho, kernel.Options{})
	if err == nil {
		var p *kernel.Plus
		p, err = kernel.NewPlus(mp, kerneltest.Points(ho, 55, 1), kernel.PlusOptions{})
		add("plus/"+ho.Name(), ho, p, err)
	}
	return cs
}

// TestAllocs: after warm-up, single-point CrossTo, GradTo and DiagTo
// against n = 55 rows and GramTo at n = 55 allocate nothing.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	for _, c := range allocCases(t) {
		y := kerneltest.Points(c.g, 55, 1) // the Plus design
		x := kerneltest.Points(c.g, 1, 2)
		other := kerneltest.Points(c.g, 55, 3)
		var cross, cross2, grad mat.Dense
		var gram mat.SymDense
		diag := make([]float64, 55)
		ops := []struct {
			name string
			f    func() error
		}{
			{"cross", func() error { return c.k.CrossTo(&cross, x, y) }},
			{"cross-other", func() error { return c.k.CrossTo(&cross2, x, other) }},
			{"diag", func() error { _, err := c.k.DiagTo(diag, y); return err }},
			{"gram", func() error { return kernel.Gram(c.k, &gram, y) }},
			{"grad", func() error {
				return c.k.(kernel.Gradienter).GradTo(&grad, x.RawRowView(0), y)
			}},
		}
		for _, op := range ops {
			t.Run(fmt.Sprintf("kernel=%s/op=%s", c.name, op.name), func(t *testing.T) {
				must(t, op.f())
				var err error
				n := testing.AllocsPerRun(20, func() {
					if e := op.f(); e != nil {
						err = e
					}
				})
				must(t, err)
				if n != 0 {
					t.Errorf("%v allocations per call", n)
				}
			})
		}
	}
}

// TestAllocsMultiCore repeats the single-point checks without
// AllocsPerRun's GOMAXPROCS(1): below the serial threshold no workers
// start, so nothing is allocated whatever GOMAXPROCS is. It includes a
// Plus with a design of 1000 points (cross and diag only).
func TestAllocsMultiCore(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	cs := allocCases(t)
	ho, _ := orbit.Hyperoctahedral(3)
	m52 := kernel.Params{Shape: kernel.Matern52, Variance: 1.2, Lengthscale: 0.8}
	mp, err := kernel.NewMax(m52, ho, kernel.Options{})
	must(t, err)
	big := kerneltest.Points(ho, 1000, 1)
	p, err := kernel.NewPlus(mp, big, kernel.PlusOptions{})
	must(t, err)
	cs = append(cs, allocCase{"plus/n=1000", ho, p})
	for _, c := range cs {
		if strings.HasSuffix(c.name, "/heavy") {
			// Its pairs cost ~15 µs each (the quadrature at ℓ = 0.05):
			// 55 of them are worth workers, whose start allocates.
			continue
		}
		y := kerneltest.Points(c.g, 55, 1)
		if c.name == "plus/n=1000" {
			y = big
		}
		x := kerneltest.Points(c.g, 1, 2)
		var cross, grad mat.Dense
		diag := make([]float64, 1)
		large := c.name == "plus/n=1000"
		f := func() {
			must(t, c.k.CrossTo(&cross, x, y))
			_, err := c.k.DiagTo(diag, x)
			must(t, err)
			if !large {
				// At n = 1000 the k_max gradients (1000·|G|·d flops)
				// are worth workers, whose start allocates O(workers).
				must(t, c.k.(kernel.Gradienter).GradTo(&grad, x.RawRowView(0), y))
			}
		}
		f()
		// One measurement over many calls, no retry: an allocation in
		// the code allocates in every call (≥ 1 per call), while a pooled
		// scratch buffer is per P, so a goroutine moved to another P
		// mid-way (a loaded machine) misses it and allocates once per
		// move — a few in a hundred calls at most.
		const runs = 100
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		for range runs {
			f()
		}
		runtime.ReadMemStats(&ms)
		if per := float64(ms.Mallocs-before) / runs; per >= 0.5 {
			t.Errorf("%s: %.2f allocations per single-point cross+diag+grad at GOMAXPROCS 4 (%d calls)", c.name, per, runs)
		}
	}
}
