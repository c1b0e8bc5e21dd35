package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// checkTridiag checks that (w, z) is an eigendecomposition of the
// tridiagonal (d, e): ascending w, ‖T·Z − Z·W‖ and ‖ZᵀZ − I‖ small.
func checkTridiag(t *testing.T, n int, d, e, w, z []float64, tol float64) {
	t.Helper()
	if !slices.IsSorted(w) {
		t.Errorf("eigenvalues not ascending")
	}
	var tn float64
	for i := range n {
		tn = max(tn, math.Abs(d[i]))
		if i < n-1 {
			tn = max(tn, math.Abs(e[i]))
		}
	}
	var res, orth float64
	for j := range n {
		for i := range n {
			s := d[i] * z[i*n+j]
			if i > 0 {
				s += e[i-1] * z[(i-1)*n+j]
			}
			if i < n-1 {
				s += e[i] * z[(i+1)*n+j]
			}
			s -= w[j] * z[i*n+j]
			res = max(res, math.Abs(s))
		}
	}
	for a := range n {
		for b := a; b < n; b++ {
			var s float64
			for i := range n {
				s += z[i*n+a] * z[i*n+b]
			}
			if a == b {
				s--
			}
			orth = max(orth, math.Abs(s))
		}
	}
	if res > tol*tn*float64(n) {
		t.Errorf("max |TZ − ZW| = %g (‖T‖max = %g)", res, tn)
	}
	if orth > tol*float64(n) {
		t.Errorf("max |ZᵀZ − I| = %g", orth)
	}
}

func tridiagCases(n int, r *rand.Rand) map[string][2][]float64 {
	cs := map[string][2][]float64{}
	mk := func(name string, fd func(i int) float64, fe func(i int) float64) {
		d, e := make([]float64, n), make([]float64, max(n-1, 0))
		for i := range d {
			d[i] = fd(i)
		}
		for i := range e {
			e[i] = fe(i)
		}
		cs[name] = [2][]float64{d, e}
	}
	mk("random", func(int) float64 { return r.NormFloat64() }, func(int) float64 { return r.NormFloat64() })
	mk("toeplitz-1-2-1", func(int) float64 { return 2 }, func(int) float64 { return 1 })
	mk("wilkinson", func(i int) float64 { return math.Abs(float64(i) - float64(n-1)/2) }, func(int) float64 { return 1 })
	mk("zeros-offdiag", func(i int) float64 { return float64(i % 5) }, func(i int) float64 {
		if i%7 == 3 {
			return 0
		}
		return 0.5
	})
	mk("graded", func(i int) float64 { return math.Pow(10, -float64(i%30)) }, func(i int) float64 { return math.Pow(10, -float64(i%30)-0.5) })
	mk("constant-diag", func(int) float64 { return 1 }, func(i int) float64 { return 1e-9 * float64(i%3) })
	mk("glued-wilkinson", func(i int) float64 { return math.Abs(float64(i%21) - 10) }, func(i int) float64 {
		if i%21 == 20 {
			return 1e-10
		}
		return 1
	})
	return cs
}

func TestStedc(t *testing.T) {
	sizes := []int{1, 2, 3, 5, 25, 26, 27, 51, 64, 100, 130}
	if !testing.Short() {
		sizes = append(sizes, 257, 600)
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 5))
		for name, c := range tridiagCases(n, r) {
			t.Run(fmt.Sprintf("n=%d/%s", n, name), func(t *testing.T) {
				d := slices.Clone(c[0])
				e := slices.Clone(c[1])
				z := make([]float64, n*n)
				var ws workspace
				if err := stedc(n, d, e, z, n, &ws, 2); err != nil {
					t.Fatal(err)
				}
				checkTridiag(t, n, c[0], c[1], d, z, 4*eps)
			})
		}
	}
}

// TestStedcDeflation exercises heavy deflation: equal diagonals with tiny
// couplings, and a block of identical 2×2 pieces.
func TestStedcDeflation(t *testing.T) {
	sizes := []int{40, 130}
	if !testing.Short() {
		sizes = append(sizes, 400)
	}
	for _, n := range sizes {
		r := rand.New(rand.NewPCG(uint64(n), 21))
		cases := map[string][2][]float64{}
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			e[i] = 1e-17 * r.Float64()
		}
		cases["equal-diag-tiny-e"] = [2][]float64{d, e}
		d2, e2 := make([]float64, n), make([]float64, n-1)
		for i := range d2 {
			d2[i] = float64(i % 2)
		}
		for i := range e2 {
			if i%2 == 0 {
				e2[i] = 0.5
			} else {
				e2[i] = 1e-12
			}
		}
		cases["repeated-2x2"] = [2][]float64{d2, e2}
		d3, e3 := make([]float64, n), make([]float64, n-1)
		for i := range d3 {
			d3[i] = float64(i%4) * 1e-8
		}
		for i := range e3 {
			e3[i] = 1e-9
		}
		cases["tiny-spread"] = [2][]float64{d3, e3}
		for name, c := range cases {
			t.Run(fmt.Sprintf("n=%d/%s", n, name), func(t *testing.T) {
				d := slices.Clone(c[0])
				e := slices.Clone(c[1])
				z := make([]float64, n*n)
				var ws workspace
				if err := stedc(n, d, e, z, n, &ws, 2); err != nil {
					t.Fatal(err)
				}
				checkTridiag(t, n, c[0], c[1], d, z, 4*eps)
			})
		}
	}
}
