package kernel_test

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestOrbitDist2To checks the distance matrix against min_g ‖x − g·y‖² by
// direct enumeration (and the Euclidean one for a nil group), through the
// closed and the enumerated path, and its GOMAXPROCS determinism.
func TestOrbitDist2To(t *testing.T) {
	for _, g := range []orbit.Finite{mg(orbit.Hyperoctahedral(3)), mg(orbit.SignFlip(4)), mg(orbit.Cyclic(4)), mg(orbit.PairedPerm(2))} {
		x := kerneltest.Points(g, 40, 3)
		x.Set(1, 0, 1e8) // far from the origin: the guard's exact path
		x.Set(2, 0, 1e8+0.5)
		for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
			var dst mat.SymDense
			if err := kernel.OrbitDist2To(&dst, g, x, kernel.Options{Method: m}); err != nil {
				t.Fatal(err)
			}
			G := int(g.Order().Int64())
			d := g.Dim()
			gy := make([]float64, d)
			for i := range 40 {
				for j := range 40 {
					best := math.Inf(1)
					for a := range G {
						g.ActTo(gy, x.RawRowView(j), a)
						var s float64
						for k := range d {
							s += (x.At(i, k) - gy[k]) * (x.At(i, k) - gy[k])
						}
						best = min(best, s)
					}
					if got := dst.At(i, j); math.Abs(got-best) > 1e-12*max(best, 1e-300)+1e-14 {
						t.Fatalf("%s %v: d²(%d, %d) = %.17g, want %.17g", g.Name(), m, i, j, got, best)
					}
				}
			}
		}
	}
	x := kerneltest.Points(mg(orbit.SignFlip(3)), 300, 4)
	var e1, e4 mat.SymDense
	prev := runtime.GOMAXPROCS(1)
	if err := kernel.OrbitDist2To(&e1, nil, x, kernel.Options{}); err != nil {
		t.Fatal(err)
	}
	runtime.GOMAXPROCS(4)
	kernel.OrbitDist2To(&e4, nil, x, kernel.Options{})
	runtime.GOMAXPROCS(prev)
	if !mat.Equal(&e1, &e4) {
		t.Error("Euclidean distances differ between GOMAXPROCS 1 and 4")
	}
	for i := range 300 {
		for j := range 300 {
			var s float64
			for k := range 3 {
				s += (x.At(i, k) - x.At(j, k)) * (x.At(i, k) - x.At(j, k))
			}
			if math.Abs(e1.At(i, j)-s) > 1e-13*(1+s) {
				t.Fatalf("Euclidean d²(%d, %d) = %g, want %g", i, j, e1.At(i, j), s)
			}
		}
	}
}

// TestOrbitDistTo: the distances are the square roots of OrbitDist2To's
// squared ones, bit for bit, and 0 on the diagonal; an error of
// OrbitDist2To (an input with NaN) comes through.
func TestOrbitDistTo(t *testing.T) {
	g := mg(orbit.Hyperoctahedral(3))
	x := kerneltest.Points(g, 30, 5)
	var d2, d mat.SymDense
	if err := kernel.OrbitDist2To(&d2, g, x, kernel.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := kernel.OrbitDistTo(&d, g, x, kernel.Options{}); err != nil {
		t.Fatal(err)
	}
	for i := range 30 {
		for j := range 30 {
			if want := math.Sqrt(max(d2.At(i, j), 0)); d.At(i, j) != want {
				t.Fatalf("d(%d, %d) = %.17g, want √%.17g = %.17g", i, j, d.At(i, j), d2.At(i, j), want)
			}
		}
		if d.At(i, i) != 0 {
			t.Errorf("d(%d, %d) = %g", i, i, d.At(i, i))
		}
	}
	x.Set(3, 1, math.NaN())
	var bad mat.SymDense
	if err := kernel.OrbitDistTo(&bad, g, x, kernel.Options{}); err == nil {
		t.Error("a NaN input gave no error")
	}
}

func mg[G any](g G, err error) G {
	if err != nil {
		panic(err)
	}
	return g
}

// TestOrbitDistColumns: OrbitDist's columns are OrbitDist2To's upper
// triangle bit for bit (the same evaluation path), for closed and
// enumerated paths and the Euclidean distance, and the same bits serially
// and on forced parallel blocks with GOMAXPROCS 1 and 4.
func TestOrbitDistColumns(t *testing.T) {
	type tc struct {
		name string
		g    orbit.Group
		m    kernel.Method
	}
	var cases []tc
	for _, g := range []orbit.Finite{mg(orbit.Hyperoctahedral(3)), mg(orbit.SignFlip(3)), mg(orbit.Cyclic(3))} {
		for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
			cases = append(cases, tc{g.Name() + "/" + m.String(), g, m})
		}
	}
	cases = append(cases, tc{"euclidean", nil, kernel.Auto})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := c.g
			if g == nil {
				g = mg(orbit.SignFlip(3))
			}
			x := kerneltest.Points(g.(orbit.Finite), 600, 5)
			x.Set(7, 1, 1e8) // the enumeration's exact fallback
			var full mat.SymDense
			if err := kernel.OrbitDist2To(&full, c.g, x, kernel.Options{Method: c.m}); err != nil {
				t.Fatal(err)
			}
			od, err := kernel.NewOrbitDist(c.g, x, kernel.Options{Method: c.m})
			if err != nil {
				t.Fatal(err)
			}
			if od.N() != 600 {
				t.Fatalf("N = %d", od.N())
			}
			col := make([]float64, 600)
			for _, j := range []int{0, 7, 255, 256, 599} {
				if err := od.ColumnTo(col, x.RawRowView(j)); err != nil {
					t.Fatal(err)
				}
				for i := range 600 {
					w := full.At(i, j)
					if i <= j && math.Float64bits(col[i]) != math.Float64bits(w) {
						t.Fatalf("column %d row %d: %v, OrbitDist2To %v", j, i, col[i], w)
					}
					if math.Abs(col[i]-w) > 1e-12*max(w, 1e-300)+1e-14 {
						t.Fatalf("column %d row %d: %v, OrbitDist2To %v", j, i, col[i], w)
					}
				}
				restore := parallel.SetSerialThreshold(1)
				par := make([]float64, 600)
				for _, p := range []int{1, 4} {
					prev := runtime.GOMAXPROCS(p)
					err := od.ColumnTo(par, x.RawRowView(j))
					runtime.GOMAXPROCS(prev)
					if err != nil {
						t.Fatal(err)
					}
					for i := range par {
						if math.Float64bits(par[i]) != math.Float64bits(col[i]) {
							t.Fatalf("GOMAXPROCS %d, parallel blocks: column %d row %d: %v, serial %v", p, j, i, par[i], col[i])
						}
					}
				}
				restore()
			}
			if err := od.ColumnTo(col, []float64{0, math.NaN(), 0}); err == nil {
				t.Error("NaN point accepted")
			}
		})
	}
}

// TestOrbitDistNilGroupWorkers: OrbitDist2To and NewOrbitDist run over
// Options.Workers goroutines for a nil group (the Euclidean distances)
// as for any other — the nil group's path built a base kernel that took
// GOMAXPROCS whatever Workers said, and accepted a negative Workers,
// which every group's path refuses with ErrBadOptions. The bits are the
// same for any Workers.
func TestOrbitDistNilGroupWorkers(t *testing.T) {
	restore := parallel.SetSerialThreshold(1)
	defer restore()
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	g := mg(orbit.Hyperoctahedral(3))
	x := kerneltest.Points(g, 40, 3)
	var want mat.SymDense
	must(t, kernel.OrbitDist2To(&want, nil, x, kernel.Options{}))
	before := parallel.Dispatches()
	var got mat.SymDense
	must(t, kernel.OrbitDist2To(&got, nil, x, kernel.Options{Workers: 1}))
	od, err := kernel.NewOrbitDist(nil, x, kernel.Options{Workers: 1})
	must(t, err)
	col := make([]float64, 40)
	must(t, od.ColumnTo(col, x.RawRowView(7)))
	if n := parallel.Dispatches() - before; n != 0 {
		t.Errorf("nil group, Workers 1: %d parallel dispatches, want 0", n)
	}
	if !mat.Equal(&got, &want) {
		t.Error("nil group: Workers 1 and GOMAXPROCS give different distances")
	}
	for i := range 8 {
		if math.Float64bits(col[i]) != math.Float64bits(want.At(i, 7)) {
			t.Fatalf("nil group: column 7 row %d: %v, OrbitDist2To %v", i, col[i], want.At(i, 7))
		}
	}
	var bad mat.SymDense
	if err := kernel.OrbitDist2To(&bad, nil, x, kernel.Options{Workers: -1}); !errors.Is(err, kernel.ErrBadOptions) {
		t.Errorf("nil group, negative Workers: %v, want ErrBadOptions", err)
	}
	if _, err := kernel.NewOrbitDist(nil, x, kernel.Options{Workers: -1}); !errors.Is(err, kernel.ErrBadOptions) {
		t.Errorf("NewOrbitDist, nil group, negative Workers: %v, want ErrBadOptions", err)
	}
}
