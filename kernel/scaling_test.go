package kernel_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
)

// scalingRefAvg is the double average of the base kernel over the
// box-restricted scaling orbits of x and y in log c, by nested
// gonum quad.Fixed Gauss–Legendre with n nodes per orbit, the orbit
// ranges computed here from the box: an independent spelling of what
// NewAvg computes with Options.Quadrature = n ≤ 32.
func scalingRefAvg(p kernel.Params, lo, hi, x, y []float64, n int) float64 {
	rng := func(z []float64) (float64, float64) {
		a, b := 0.0, math.Inf(1)
		for k, v := range z {
			a, b = math.Max(a, lo[k]/v), math.Min(b, hi[k]/v)
		}
		return math.Log(a), math.Log(b)
	}
	ax, bx := rng(x)
	ay, by := rng(y)
	base, err := kernel.NewBase(p, len(x))
	if err != nil {
		panic(err)
	}
	u, w := mat.NewDense(1, len(x), nil), mat.NewDense(1, len(y), nil)
	var out mat.Dense
	inner := func(s float64) float64 {
		return quad.Fixed(func(t float64) float64 {
			for k := range x {
				u.Set(0, k, math.Exp(s)*x[k])
				w.Set(0, k, math.Exp(t)*y[k])
			}
			out.Reset()
			if err := base.CrossTo(&out, u, w); err != nil {
				panic(err)
			}
			return out.At(0, 0)
		}, ay, by, n, quad.Legendre{}, 1) / (by - ay)
	}
	return quad.Fixed(inner, ax, bx, n, quad.Legendre{}, 1) / (bx - ax)
}

func scalingPoints(rng *rand.Rand, lo, hi []float64, n int) *mat.Dense {
	x := mat.NewDense(n, len(lo), nil)
	for i := range n {
		for k := range lo {
			x.Set(i, k, lo[k]*math.Pow(hi[k]/lo[k], rng.Float64()))
		}
	}
	return x
}

func TestScalingAvgMatchesReference(t *testing.T) {
	lo, hi := []float64{0.1, 0.2, 0.3}, []float64{10, 5, 9}
	g, err := orbit.Scaling(lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := scalingPoints(rng, lo, hi, 4), scalingPoints(rng, lo, hi, 3)
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		for _, m := range []int{5, 16} {
			p := kernel.Params{Shape: s, Variance: 1.3, Lengthscale: 0.7}
			k, err := kernel.NewAvg(p, g, kernel.Options{Quadrature: m})
			if err != nil {
				t.Fatal(err)
			}
			var got mat.Dense
			if err := k.CrossTo(&got, x, y); err != nil {
				t.Fatal(err)
			}
			for i := range 4 {
				for j := range 3 {
					want := scalingRefAvg(p, lo, hi, x.RawRowView(i), y.RawRowView(j), m)
					if e := math.Abs(got.At(i, j) - want); e > 1e-12*p.Variance {
						t.Errorf("%s m=%d [%d,%d]: %.17g, want %.17g", s, m, i, j, got.At(i, j), want)
					}
				}
			}
		}
	}
}

// TestScalingAvgConverges: the default rule is within 1e-7·v of a fine
// one where the integrand is resolved (ℓ comparable to the box).
func TestScalingAvgConverges(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, _ := orbit.Scaling(lo, hi)
	x := scalingPoints(rand.New(rand.NewPCG(3, 4)), lo, hi, 12)
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 3}
	k, _ := kernel.NewAvg(p, g, kernel.Options{})
	fine, _ := kernel.NewAvg(p, g, kernel.Options{Quadrature: 256})
	var a, b mat.SymDense
	must(t, kernel.Gram(k, &a, x))
	must(t, kernel.Gram(fine, &b, x))
	for i := range 12 {
		for j := i; j < 12; j++ {
			if e := math.Abs(a.At(i, j) - b.At(i, j)); e > 1e-7 {
				t.Errorf("[%d,%d]: default %.15g, fine %.15g", i, j, a.At(i, j), b.At(i, j))
			}
		}
	}
}

// TestScalingAvgGrad compares GradTo with central differences of CrossTo
// at generic points (the box faces that end both orbit ranges are the same
// at x ± h, so k is smooth there), including the dependence of the nodes
// on x through the range ends.
func TestScalingAvgGrad(t *testing.T) {
	lo, hi := []float64{0.1, 0.2, 0.3}, []float64{10, 5, 9}
	g, _ := orbit.Scaling(lo, hi)
	rng := rand.New(rand.NewPCG(5, 6))
	y := scalingPoints(rng, lo, hi, 4)
	faces := func(x []float64) [2]int {
		_, _, a, b := g.IntervalFaces(x)
		return [2]int{a, b}
	}
	checked := 0
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52} {
		for _, m := range []int{7, 32} {
			for _, ell := range []float64{0.5, 3} {
				p := kernel.Params{Shape: s, Variance: 1.3, Lengthscale: ell}
				kk, err := kernel.NewAvg(p, g, kernel.Options{Quadrature: m})
				if err != nil {
					t.Fatal(err)
				}
				k := kernel.Gradienter(kk)
				for range 3 {
					x := scalingPoints(rng, lo, hi, 1).RawRowView(0)
					var gr mat.Dense
					must(t, k.GradTo(&gr, x, y))
					xp := append([]float64(nil), x...)
					for kx := range x {
						h := 1e-6 * x[kx]
						xp[kx] = x[kx] + h
						fp, okp := kval(t, kk, xp, y), faces(xp) == faces(x)
						xp[kx] = x[kx] - h
						fm, okm := kval(t, kk, xp, y), faces(xp) == faces(x)
						xp[kx] = x[kx]
						if !okp || !okm {
							continue
						}
						checked++
						for j := range 4 {
							fd := (fp[j] - fm[j]) / (2 * h)
							an := gr.At(j, kx)
							if math.Abs(fd-an) > 1e-6*(math.Abs(an)+p.Variance/ell) {
								t.Errorf("%s m=%d ℓ=%g x=%v: ∂k(x,y_%d)/∂x_%d = %.10g, central differences %.10g", s, m, ell, x, j, kx, an, fd)
							}
						}
					}
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d derivatives checked", checked)
	}
}

func kval(t *testing.T, k kernel.Kernel, x []float64, y *mat.Dense) []float64 {
	var out mat.Dense
	must(t, k.CrossTo(&out, mat.NewDense(1, len(x), append([]float64(nil), x...)), y))
	return mat.Row(nil, 0, &out)
}

// TestScalingAvgPSD: the node double sum is PSD for any rule with
// positive weights, also with few nodes, a small ℓ (the rule far from
// converged) and points on common rays and repeated.
func TestScalingAvgPSD(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, _ := orbit.Scaling(lo, hi)
	rng := rand.New(rand.NewPCG(7, 8))
	x := scalingPoints(rng, lo, hi, 40)
	for i := 20; i < 40; i++ { // scaled copies and repeats of earlier points
		c := 0.5 + rng.Float64()
		for k := range 2 {
			x.Set(i, k, math.Min(hi[k], math.Max(lo[k], c*x.At(i-20, k))))
		}
	}
	x.SetRow(39, x.RawRowView(3))
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern52} {
		for _, m := range []int{3, 8, 32} {
			for _, ell := range []float64{0.05, 1} {
				p := kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}
				k, _ := kernel.NewAvg(p, g, kernel.Options{Quadrature: m})
				var K mat.SymDense
				must(t, kernel.Gram(k, &K, x))
				var es mat.EigenSym
				if !es.Factorize(&K, false) {
					t.Fatal("eigen failed")
				}
				ev := es.Values(nil)
				if ev[0] < -1e-12*ev[len(ev)-1]*40 {
					t.Errorf("%s m=%d ℓ=%g: λ_min = %.3g (λ_max %.3g)", s, m, ell, ev[0], ev[len(ev)-1])
				}
			}
		}
	}
}

// The max kernel over scalingdir is PSD (a base kernel on the canonical
// map), where the paper's scaling max kernel is not; both share k_avg.
func TestScalingDirMaxPSD(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	sg, _ := orbit.Scaling(lo, hi)
	dg, _ := orbit.ScalingDir(lo, hi)
	rng := rand.New(rand.NewPCG(5, 8))
	const n = 80
	x := mat.NewDense(n, 2, nil)
	for i := range n {
		for k := range 2 {
			x.Set(i, k, 0.1*math.Pow(100, rng.Float64()))
		}
	}
	minEig := func(k kernel.Kernel) (float64, float64) {
		var g mat.SymDense
		if err := kernel.Gram(k, &g, x); err != nil {
			t.Fatal(err)
		}
		var es mat.EigenSym
		if !es.Factorize(&g, false) {
			t.Fatal("EigenSym failed")
		}
		v := es.Values(nil)
		return v[0], v[len(v)-1]
	}
	indefinite := 0
	for _, s := range shapes {
		for _, ell := range []float64{0.03, 0.3, 1, 3} {
			p := kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}
			kd, err := kernel.NewMax(p, dg, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if lmin, lmax := minEig(kd); lmin < -1e-12*lmax {
				t.Errorf("%s ℓ = %g: scalingdir k_max Gram has λ_min = %g (λ_max %g)", s, ell, lmin, lmax)
			}
			ks, err := kernel.NewMax(p, sg, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if lmin, lmax := minEig(ks); lmin < -1e-6*lmax {
				indefinite++
			}
			// The same k_avg on both.
			ad, err := kernel.NewAvg(p, dg, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			as, err := kernel.NewAvg(p, sg, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var gd, gs mat.SymDense
			x10 := x.Slice(0, 10, 0, 2).(*mat.Dense)
			if err := kernel.Gram(ad, &gd, x10); err != nil {
				t.Fatal(err)
			}
			if err := kernel.Gram(as, &gs, x10); err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(&gd, &gs) {
				t.Errorf("%s ℓ = %g: k_avg over scalingdir differs from scaling's", s, ell)
			}
		}
	}
	if indefinite == 0 {
		t.Errorf("the paper's scaling k_max Gram was PSD at every shape and ℓ: the witness of the difference is gone")
	}
	t.Logf("the paper's scaling k_max Gram is indefinite at %d of %d (shape, ℓ)", indefinite, 4*len(shapes))
}
