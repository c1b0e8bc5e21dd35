package gp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestPlusLoopsBits: addScaledSep and dotSeq, plusPost.predict's two
// loops unrolled, give the bits of the loops they replaced — each product
// rounded, then each sum, in increasing index — at every length around
// the unrolling's multiple of four, on values of mixed signs and scales.
func TestPlusLoopsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	val := func() float64 { return rng.NormFloat64() * math.Ldexp(1, rng.IntN(40)-20) }
	for trial := range 300 {
		n := trial % 23
		x, y, w := make([]float64, n), make([]float64, n+trial%3), make([]float64, n+1)
		for i := range x {
			x[i] = val()
		}
		for i := range y {
			y[i] = val()
		}
		for i := range w {
			w[i] = val()
		}
		k := val()
		want := append([]float64(nil), y...)
		for c, v := range x {
			want[c] += float64(v * k)
		}
		got := append([]float64(nil), y...)
		addScaledSep(got, k, x)
		for c := range want {
			if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
				t.Fatalf("addScaledSep, n = %d: y[%d] = %v, the loop's %v", n, c, got[c], want[c])
			}
		}
		var s float64
		for c, v := range x {
			s += float64(v * w[c])
		}
		if d := dotSeq(x, w); math.Float64bits(d) != math.Float64bits(s) {
			t.Fatalf("dotSeq, n = %d: %v, the loop's %v", n, d, s)
		}
	}
}

// TestPlusPostPanicSticks: a panic while plus's posterior is built on the
// first prediction (a caller may recover it) leaves every later
// prediction failing — it had left no posterior and no error, and the
// predictions quietly took the exact path instead of plus's.
func TestPlusPostPanicSticks(t *testing.T) {
	p3 := mustG(orbit.Permutation(3))
	fam := mustG(NewPlusFamily(kernel.Matern52, p3, kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
	rng := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(8, 3, nil)
	y := make([]float64, 8)
	for i := range 8 {
		for j := range 3 {
			x.Set(i, j, 2*rng.Float64()-1)
		}
		y[i] = x.At(i, 0) * x.At(i, 1)
	}
	g, err := Fit(fam, x, y, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.plusParts == nil {
		t.Fatal("no plus parts: the test no longer reaches plus's posterior")
	}
	g.plusParts[0].b = nil // newPlusPost now panics
	q := []float64{0.1, 0.2, 0.3}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the first prediction did not panic")
			}
		}()
		g.Predict(nil, q)
	}()
	for range 2 {
		if m, v, err := g.Predict(nil, q); err == nil {
			t.Fatalf("a prediction after the panic: %v, %v with a nil error", m, v)
		}
	}
}
