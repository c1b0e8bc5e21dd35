package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestEmbeddedGradRowValues: GradTo of k_avg over an embedded group whose
// inner evaluator has rows takes the inner values for a whole row of
// pairs at once (innerValues, then gradAux); its gradient equals the
// per-pair one (grad, pairValue for each pair) bit for bit, for rows of
// 1 to 200 points (across embedChunk), several lengthscales, with one
// worker and two. The groups: sign flips, permutations (the permanent,
// d = 3 and 6, the fused rows), hyperoctahedral and rotations on some
// coordinates.
func TestEmbeddedGradRowValues(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	type gc struct {
		g      func() (orbit.Group, error)
		d      int
		coords []int
	}
	for _, c := range []gc{
		{func() (orbit.Group, error) { return orbit.SignFlip(2) }, 4, []int{3, 1}},
		{func() (orbit.Group, error) { return orbit.Permutation(3) }, 5, []int{4, 0, 2}},
		{func() (orbit.Group, error) { return orbit.Permutation(6) }, 10, []int{1, 3, 5, 7, 8, 9}},
		{func() (orbit.Group, error) { return orbit.Hyperoctahedral(3) }, 7, []int{1, 3, 0}},
		{func() (orbit.Group, error) { return orbit.Rotation2D() }, 3, []int{2, 0}},
	} {
		in, err := c.g()
		if err != nil {
			t.Fatal(err)
		}
		g, err := orbit.OnCoords(in, c.d, c.coords)
		if err != nil {
			t.Fatal(err)
		}
		for _, ell := range []float64{0.3, 1, 3} {
			for _, workers := range []int{1, 2} {
				a, err := NewAvg(Params{Shape: RBF, Variance: 1.3, Lengthscale: ell}, g, Options{Workers: workers})
				if err != nil {
					t.Fatal(err)
				}
				k := &a.orbitKernel
				if k.gradAux == nil {
					t.Fatalf("avg over %s: no row path for the gradient's inner values", g.Name())
				}
				for _, m := range []int{1, 9, 64, 65, 200} {
					x := make([]float64, c.d)
					for i := range x {
						x[i] = 2*r.Float64() - 1
					}
					y := mat.NewDense(m, c.d, nil)
					for i := range m {
						for j := range c.d {
							v := 2*r.Float64() - 1
							if i%7 == 3 {
								v = x[j] // a point equal to x on some rows
							}
							y.Set(i, j, v)
						}
					}
					var got, want mat.Dense
					if err := a.GradTo(&got, x, y); err != nil {
						t.Fatal(err)
					}
					gradTo(k.grad, k.gradLen, k.gradCost(), k.nw(), &want, x, y, m, c.d)
					for i := range m {
						for j := range c.d {
							if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
								t.Fatalf("%s ℓ=%g workers=%d m=%d: ∂k(x, y_%d)/∂x_%d = %v, per pair %v", g.Name(), ell, workers, m, i, j, got.At(i, j), want.At(i, j))
							}
						}
					}
				}
			}
		}
	}
}

// BenchmarkEmbeddedEnumerated times the choice embeddedProduct makes for
// an inner group that would be enumerated (docs/performance.md, "Embedded
// groups that are enumerated"): k_avg (rbf) Grams at n = 256, one worker,
// over the whole group enumerated (whole, what the code does) and factored
// as embedEval over the inner group's enumeration (factored, the
// alternative it declines), each on its own and both in turn
// (interleaved, which reports factored/whole).
func BenchmarkEmbeddedEnumerated(b *testing.B) {
	p := Params{Shape: RBF, Variance: 1, Lengthscale: 1}
	c8, _ := orbit.Cyclic(8)
	c16, _ := orbit.Cyclic(16)
	bp32, _ := orbit.BlockPerm(3, 2)
	bp42, _ := orbit.BlockPerm(4, 2)
	const n = 256
	for _, tc := range []struct {
		inner orbit.Group
		d     int
	}{{c8, 12}, {c16, 24}, {bp32, 7}, {bp42, 16}} {
		coords := make([]int, tc.inner.Dim()) // the last ones, reversed
		for i := range coords {
			coords[i] = tc.d - 1 - i
		}
		g, err := orbit.OnCoords(tc.inner, tc.d, coords)
		if err != nil {
			b.Fatal(err)
		}
		whole, err := newOrbitKernel(p, g, Options{Workers: 1}, false)
		if err != nil {
			b.Fatal(err)
		}
		in, err := newOrbitKernel(p, tc.inner, Options{Workers: 1}, false)
		if err != nil {
			b.Fatal(err)
		}
		if whole.method != Enumerate || in.method != Enumerate {
			b.Fatalf("%s: methods %v and %v, want the enumeration", g.Name(), whole.method, in.method)
		}
		factored := *whole
		ev := newEmbedEval(in.ev, coords, tc.d, p.Lengthscale)
		factored.ev = ev
		if re, ok := in.ev.(rowEvaluator); ok {
			factored.ev = &embedRowEval{embedEval: ev, rin: re}
		}
		rng := rand.New(rand.NewPCG(1, uint64(tc.d)))
		x := mat.NewDense(n, tc.d, nil)
		for i := range n {
			for j := range tc.d {
				x.Set(i, j, rng.NormFloat64())
			}
		}
		var ref, got mat.SymDense
		if err := whole.GramTo(&ref, x); err != nil {
			b.Fatal(err)
		}
		if err := factored.GramTo(&got, x); err != nil {
			b.Fatal(err)
		}
		for i := range n {
			for j := i; j < n; j++ {
				if d := math.Abs(got.At(i, j) - ref.At(i, j)); d > 1e-12 {
					b.Fatalf("%s: factored Gram differs by %g at (%d, %d)", g.Name(), d, i, j)
				}
			}
		}
		for _, v := range []struct {
			name string
			k    *orbitKernel
		}{{"whole", whole}, {"factored", &factored}} {
			b.Run(fmt.Sprintf("group=%s/d=%d/%s", tc.inner.Name(), tc.d, v.name), func(b *testing.B) {
				var dst mat.SymDense
				for b.Loop() {
					if err := v.k.GramTo(&dst, x); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		// Both in turn in each iteration: factored÷whole is the ratio of
		// their summed times, which a shared machine's load moves less
		// than two separate runs.
		b.Run(fmt.Sprintf("group=%s/d=%d/interleaved", tc.inner.Name(), tc.d), func(b *testing.B) {
			var dst mat.SymDense
			var tw, tf time.Duration
			for b.Loop() {
				t0 := time.Now()
				if err := whole.GramTo(&dst, x); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if err := factored.GramTo(&dst, x); err != nil {
					b.Fatal(err)
				}
				tw, tf = tw+t1.Sub(t0), tf+time.Since(t1)
			}
			b.ReportMetric(float64(tf)/float64(tw), "factored/whole")
		})
	}
}
