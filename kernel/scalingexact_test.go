package kernel_test

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
)

// The reference for the exact scaling average integrates in the scalings
// themselves, c ∈ C(x) and c' ∈ C(y), against dc/c ⊗ dc'/c' (not in their
// logarithms, as the kernel does), by nested adaptive Gauss–Legendre
// (gonum's 12-point rule per panel, a panel accepted when it agrees with
// the sum over its halves), the inner integral split at c'*(c) = c·x·y/‖y‖²
// (the scaling of y nearest c·x: the ridge of the integrand, a kink there
// for Matérn bases on collinear pairs) and the outer one where that ridge
// enters or leaves C(y), each with panels graded toward those points on
// the scale of ℓ. Its κ (refKappa), orbit ranges and quadrature
// share nothing with the kernel.

// refAdapt integrates f over the panels between the sorted break points
// bp to relative accuracy about rel: a panel is accepted when it agrees
// with the sum over its halves within rel·|∫f| (the first estimate over
// all panels) or within rounding.
func refAdapt(f func(float64) float64, bp []float64, rel float64) float64 {
	whole := make([]float64, len(bp)-1)
	var est float64
	for i := range whole {
		whole[i] = quad.Fixed(f, bp[i], bp[i+1], 12, quad.Legendre{}, 0)
		est += math.Abs(whole[i])
	}
	tol := rel * est / float64(len(whole))
	var acc float64
	for i := range whole {
		acc += refAdaptRec(f, bp[i], bp[i+1], whole[i], tol, 0)
	}
	return acc
}

func refAdaptRec(f func(float64) float64, a, b, whole, tol float64, depth int) float64 {
	m := 0.5 * (a + b)
	l := quad.Fixed(f, a, m, 12, quad.Legendre{}, 0)
	r := quad.Fixed(f, m, b, 12, quad.Legendre{}, 0)
	if d := math.Abs(l + r - whole); d <= tol || d <= 2e-14*(math.Abs(l)+math.Abs(r)) || d < 1e-290 || depth > 18 {
		return l + r
	}
	return refAdaptRec(f, a, m, l, tol/1.5, depth+1) + refAdaptRec(f, m, b, r, tol/1.5, depth+1)
}

// refBreaks returns lo, hi and, inside, the points c ± w·2^j (j ≥ 0) for
// each centre c, sorted: panels graded toward the integrand's ridges.
func refBreaks(lo, hi, w float64, centres ...float64) []float64 {
	bp := []float64{lo, hi}
	for _, c := range centres {
		if c > lo && c < hi {
			bp = append(bp, c)
		}
		for s := w; s < hi-lo; s *= 2 {
			for _, v := range []float64{c - s, c + s} {
				if v > lo && v < hi {
					bp = append(bp, v)
				}
			}
		}
	}
	sort.Float64s(bp)
	out := bp[:1]
	for _, v := range bp[1:] {
		if v > out[len(out)-1] {
			out = append(out, v)
		}
	}
	return out
}

// refRange is C(z) = [max lo_k/z_k, min hi_k/z_k] for z in the box.
func refRange(lo, hi, z []float64) (float64, float64) {
	a, b := 0.0, math.Inf(1)
	for k, v := range z {
		a, b = math.Max(a, lo[k]/v), math.Min(b, hi[k]/v)
	}
	return a, b
}

// refScalingAvg is the exact average for x, y in the box, to relative
// accuracy about rel.
func refScalingAvg(shape kernel.Shape, ell float64, lo, hi, x, y []float64, rel float64) float64 {
	A1, B1 := refRange(lo, hi, x)
	A2, B2 := refRange(lo, hi, y)
	var xx, xy, yy float64
	for k := range x {
		xx += x[k] * x[k]
		xy += x[k] * y[k]
		yy += y[k] * y[k]
	}
	g := func(c, cp float64) float64 {
		var s float64
		for k := range x {
			t := c*x[k] - cp*y[k]
			s += t * t
		}
		return refKappa(shape, math.Sqrt(s)/ell) / (c * cp)
	}
	nx, ny := math.Sqrt(xx), math.Sqrt(yy)
	inner := func(c float64) float64 {
		f := func(cp float64) float64 { return g(c, cp) }
		return refAdapt(f, refBreaks(A2, B2, ell/ny, c*xy/yy), 0.01*rel)
	}
	// Outer ridges: where the inner ridge enters or leaves C(y), and the
	// ends (the orbits' closest approach for far pairs).
	obp := refBreaks(A1, B1, ell/nx, A2*yy/xy, B2*yy/xy, A1, B1)
	acc := refAdapt(inner, obp, rel)
	return acc / (math.Log(B1/A1) * math.Log(B2/A2))
}

// scalingExactCases are pairs in the box: random, collinear (y on the ray
// of x, the orbits overlapping), touching (y·c at an end of x's orbit),
// nearly collinear, repeated, and near the box's corners (short orbits).
func scalingExactCases(rng *rand.Rand, lo, hi []float64, n int) [][2][]float64 {
	pt := func() []float64 {
		z := make([]float64, len(lo))
		for k := range z {
			z[k] = lo[k] * math.Pow(hi[k]/lo[k], rng.Float64())
		}
		return z
	}
	scale := func(z []float64, c float64) []float64 {
		w := make([]float64, len(z))
		for k := range z {
			w[k] = c * z[k]
		}
		return w
	}
	var out [][2][]float64
	for i := range n {
		x := pt()
		A, B := refRange(lo, hi, x)
		var y []float64
		switch i % 6 {
		case 0, 1:
			y = pt()
		case 2: // collinear, inside the orbit
			y = scale(x, A*math.Pow(B/A, rng.Float64()))
		case 3: // collinear at an end
			y = scale(x, B)
		case 4: // nearly collinear
			y = scale(x, A*math.Pow(B/A, rng.Float64()))
			y[0] *= 1 + 1e-4*rng.NormFloat64()
			y[0] = math.Min(math.Max(y[0], lo[0]), hi[0])
		case 5:
			y = append([]float64(nil), x...)
		}
		out = append(out, [2][]float64{x, y})
	}
	// A point near the corner ray lo_0/x_0 = hi_1/x_1 (a short orbit).
	x := append([]float64(nil), hi...)
	x[0] = lo[0] * 1.0001
	out = append(out, [2][]float64{x, pt()}, [2][]float64{x, scale(x, 0.99995)})
	return out
}

// TestScalingExactValues holds the default (exact) k_avg over scaling to
// the independent reference within 1e−12 relative, for every shape, from
// tiny to huge lengthscales (valueTol).
func TestScalingExactValues(t *testing.T) {
	testdepth.Once(t)
	skipSerialUnderRace(t)
	boxes := []struct{ lo, hi []float64 }{
		{[]float64{0.1, 0.1}, []float64{10, 10}},
		{[]float64{0.1, 0.2, 0.3}, []float64{10, 5, 9}},
	}
	ells := []float64{0.01, 0.03, 0.3, 1, 6, 100, 1e4}
	npairs := 24
	if testing.Short() {
		ells = []float64{0.03, 1, 6}
		npairs = 12
	}
	var worst float64
	for bi, box := range boxes {
		g, err := orbit.Scaling(box.lo, box.hi)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(11, uint64(bi)))
		cases := scalingExactCases(rng, box.lo, box.hi, npairs)
		for _, s := range kernel.Shapes() {
			for _, ell := range ells {
				p := kernel.Params{Shape: s, Variance: 1.7, Lengthscale: ell}
				k, err := kernel.NewAvg(p, g, kernel.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if k.Method() != kernel.Closed {
					t.Fatalf("method %v, want closed", k.Method())
				}
				for ci, c := range cases {
					got := kval(t, k, c[0], mat.NewDense(1, len(c[1]), c[1]))[0]
					want := p.Variance * refScalingAvg(s, ell, box.lo, box.hi, c[0], c[1], 1e-14)
					e := math.Abs(got - want)
					if want > 0 {
						e /= want
					}
					if e/valueTol(g, p, c[0], c[1]) > worst && want > 1e-300 {
						worst = e / valueTol(g, p, c[0], c[1])
					}
					if e > valueTol(g, p, c[0], c[1]) && !(want < 1e-300 && got < 1e-300) {
						t.Errorf("box %d %s ℓ=%g case %d x=%v y=%v: %.17g, reference %.17g (rel %.2g)", bi, s, ell, ci, c[0], c[1], got, want, e)
					}
				}
			}
		}
	}
	t.Logf("worst relative difference, in units of the tolerance: %.2g", worst)
}

// valueTol is 1e−12, or more where the value is ill-conditioned: κ at
// u = d/ℓ moves by u²·ε relative when the points move by ε relative, so
// both the kernel and the reference carry ~u_min²·ε of rounding, u_min
// the orbit distance in lengthscales (u_min² < 1000 keeps 1e−12); and an
// orbit of log-length L = ln(B/A) has its ends, hence its length and the
// average's normalization, known to ~ε/L relative (the corner cases,
// L ≈ 1e−4).
func valueTol(g *orbit.ScalingGroup, p kernel.Params, x, y []float64) float64 {
	u2 := g.OrbitDist2(x, y) / (p.Lengthscale * p.Lengthscale)
	cond := func(z []float64) float64 {
		a, b := g.Interval(z)
		if b == a {
			return 0
		}
		return 1e-15 / math.Log(b/a)
	}
	return math.Max(1e-12, 2e-15*u2) + cond(x) + cond(y)
}

// TestScalingExactMatchesGauss1024: where the old Gauss–Legendre rule
// converges (ℓ ≳ 1 on Scaling2d's box, pairs off the collinear ridge) its
// 1024-node composite version (Options.Quadrature = 1024, the paper's
// protocol at high order) agrees with the exact average within 1e−12
// relative (measured: ≤ 6e−14 for RBF at ℓ ≥ 0.5, the series route;
// Matérn-5/2, the quadrature route, ≤ 1.5e−13 at ℓ = 2 including the
// diagonal, where the rule itself converges only algebraically).
func TestScalingExactMatchesGauss1024(t *testing.T) {
	testdepth.Once(t)
	skipSerialUnderRace(t)
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, _ := orbit.Scaling(lo, hi)
	rng := rand.New(rand.NewPCG(12, 1))
	x := scalingPoints(rng, lo, hi, 6)
	y := scalingPoints(rng, lo, hi, 5)
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
		for _, ell := range []float64{1, 2, 6} {
			if s != kernel.RBF && ell < 2 {
				continue // the 1024-node rule has not converged to 1e−12 there
			}
			p := kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}
			ke, _ := kernel.NewAvg(p, g, kernel.Options{})
			kq, _ := kernel.NewAvg(p, g, kernel.Options{Quadrature: 1024})
			var a, b mat.Dense
			must(t, ke.CrossTo(&a, x, y))
			must(t, kq.CrossTo(&b, x, y))
			for i := range 6 {
				for j := range 5 {
					if e := math.Abs(a.At(i, j)-b.At(i, j)) / a.At(i, j); e > 1e-12 {
						t.Errorf("%s ℓ=%g [%d,%d]: exact %.17g, 1024 nodes %.17g (rel %.2g)", s, ell, i, j, a.At(i, j), b.At(i, j), e)
					}
				}
			}
		}
	}
}

// TestScalingExactGrad compares GradTo with fourth-order central
// differences of CrossTo (step 1e−5 of the coordinate or of ℓ, whichever
// is smaller: truncation ~(h/scale)⁴, the values' own tolerance 1e−13
// relative amplified by 1/h) at points
// whose orbit-ending faces do not change within the stencil, on both
// routes: the series (RBF, ℓ ≥ 0.2 here), the quadrature (Matérn; RBF at
// ℓ = 0.05), and plain and normalized k_avg.
func TestScalingExactGrad(t *testing.T) {
	boxes := []struct{ lo, hi []float64 }{
		{[]float64{0.1, 0.1}, []float64{10, 10}},
		{[]float64{0.1, 0.2, 0.3}, []float64{10, 5, 9}},
	}
	ells := []float64{0.05, 0.5, 3}
	shapes := kernel.Shapes()
	if testing.Short() {
		shapes = []kernel.Shape{kernel.RBF, kernel.Matern32}
	}
	checked, worst := 0, 0.0
	for bi, box := range boxes {
		g, _ := orbit.Scaling(box.lo, box.hi)
		rng := rand.New(rand.NewPCG(13, uint64(bi)))
		faces := func(x []float64) [2]int {
			_, _, a, b := g.IntervalFaces(x)
			return [2]int{a, b}
		}
		y := scalingPoints(rng, box.lo, box.hi, 3)
		// A y on the ray of the first x: the orbits overlap.
		for _, s := range shapes {
			for _, ell := range ells {
				for _, norm := range []bool{false, true} {
					p := kernel.Params{Shape: s, Variance: 1.3, Lengthscale: ell}
					k, err := kernel.NewAvg(p, g, kernel.Options{Normalize: norm})
					if err != nil {
						t.Fatal(err)
					}
					for r := range 2 {
						x := scalingPoints(rng, box.lo, box.hi, 1).RawRowView(0)
						yy := y
						if r == 1 { // add a nearly collinear partner
							yy = mat.DenseCopyOf(y)
							for c := range x {
								yy.Set(0, c, x[c]*(0.8+1e-3*float64(c)))
							}
						}
						var gr mat.Dense
						must(t, k.GradTo(&gr, x, yy))
						for c := range x {
							h := 1e-5 * math.Min(x[c], ell)
							vals := make([][]float64, 4)
							ok := true
							for si, st := range []float64{-2, -1, 1, 2} {
								xp := append([]float64(nil), x...)
								xp[c] += st * h
								ok = ok && faces(xp) == faces(x)
								vals[si] = kval(t, k, xp, yy)
							}
							if !ok {
								continue
							}
							for j := range vals[0] {
								fd := (vals[0][j] - 8*vals[1][j] + 8*vals[2][j] - vals[3][j]) / (12 * h)
								an := gr.At(j, c)
								tol := 1e-6*math.Abs(an) + 1e-9*p.Variance/x[c]
								worst = math.Max(worst, math.Abs(fd-an)/tol)
								if math.Abs(fd-an) > tol {
									t.Errorf("box %d %s ℓ=%g norm=%v x=%v y_%d: ∂k/∂x_%d = %.12g, differences %.12g", bi, s, ell, norm, x, j, c, an, fd)
								}
								checked++
							}
						}
					}
				}
			}
		}
	}
	if checked < 200 {
		t.Errorf("only %d derivatives checked", checked)
	}
	t.Logf("%d derivatives, worst difference %.2g of the tolerance", checked, worst)
}

// TestScalingExactPSD: Grams of the exact average are PSD to rounding,
// also with points on common rays, repeats, and small and large ℓ.
func TestScalingExactPSD(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, _ := orbit.Scaling(lo, hi)
	rng := rand.New(rand.NewPCG(7, 9))
	x := scalingPoints(rng, lo, hi, 40)
	for i := 20; i < 40; i++ { // scaled copies and repeats of earlier points
		c := 0.5 + rng.Float64()
		for k := range 2 {
			x.Set(i, k, math.Min(hi[k], math.Max(lo[k], c*x.At(i-20, k))))
		}
	}
	x.SetRow(39, x.RawRowView(3))
	shapes := kernel.Shapes()
	if testing.Short() {
		shapes = []kernel.Shape{kernel.RBF, kernel.Matern12}
	}
	for _, s := range shapes {
		for _, ell := range []float64{0.05, 1, 20} {
			k, _ := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}, g, kernel.Options{})
			var K mat.SymDense
			must(t, kernel.Gram(k, &K, x))
			var es mat.EigenSym
			if !es.Factorize(&K, false) {
				t.Fatal("eigen failed")
			}
			ev := es.Values(nil)
			if ev[0] < -1e-12*ev[len(ev)-1]*40 {
				t.Errorf("%s ℓ=%g: λ_min = %.3g (λ_max %.3g)", s, ell, ev[0], ev[len(ev)-1])
			}
		}
	}
}

// TestScalingExactSymmetricDeterministic: k(x, y) and k(y, x) are the
// same bits on both routes, and Grams and cross-covariances the same bits
// for Workers 1 and 8.
func TestScalingExactSymmetricDeterministic(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, _ := orbit.Scaling(lo, hi)
	rng := rand.New(rand.NewPCG(8, 8))
	x := scalingPoints(rng, lo, hi, 30)
	y := scalingPoints(rng, lo, hi, 20)
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
		for _, ell := range []float64{0.05, 1} {
			p := kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}
			k1, _ := kernel.NewAvg(p, g, kernel.Options{Workers: 1})
			k8, _ := kernel.NewAvg(p, g, kernel.Options{Workers: 8})
			var a, b, c mat.Dense
			must(t, k1.CrossTo(&a, x, y))
			must(t, k1.CrossTo(&b, y, x))
			must(t, k8.CrossTo(&c, x, y))
			for i := range 30 {
				for j := range 20 {
					if a.At(i, j) != b.At(j, i) {
						t.Errorf("%s ℓ=%g: k(x%d, y%d) = %v, k(y%d, x%d) = %v", s, ell, i, j, a.At(i, j), j, i, b.At(j, i))
					}
				}
			}
			if !mat.Equal(&a, &c) {
				t.Errorf("%s ℓ=%g: cross differs between Workers 1 and 8", s, ell)
			}
			var g1, g8 mat.SymDense
			must(t, kernel.Gram(k1, &g1, x))
			must(t, kernel.Gram(k8, &g8, x))
			if !mat.Equal(&g1, &g8) {
				t.Errorf("%s ℓ=%g: Gram differs between Workers 1 and 8", s, ell)
			}
		}
	}
}

// TestScalingExactDegenerate: orbits that are a single point (x on a ray
// through opposite box corners, and x with a coordinate ≤ 0, C(x) = {1})
// reduce
// the average to one over y's orbit, held to a 1-D reference.
func TestScalingExactDegenerate(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, _ := orbit.Scaling(lo, hi)
	ys := [][]float64{{1, 2}, {3, 3}, {0.2, 7}}
	for _, x := range [][]float64{{0.1, 10}, {10, 0.1}, {5, -1}} {
		A1, _ := g.Interval(x)
		for _, s := range kernel.Shapes() {
			for _, ell := range []float64{0.1, 2} {
				p := kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}
				k, _ := kernel.NewAvg(p, g, kernel.Options{})
				for _, y := range ys {
					A2, B2 := refRange(lo, hi, y)
					f := func(c float64) float64 {
						var d2 float64
						for i := range x {
							t := A1*x[i] - c*y[i]
							d2 += t * t
						}
						return refKappa(s, math.Sqrt(d2)/ell) / c
					}
					var xy, yy float64
					for i := range x {
						xy += x[i] * y[i]
						yy += y[i] * y[i]
					}
					want := refAdapt(f, refBreaks(A2, B2, ell/math.Sqrt(yy), A1*xy/yy), 1e-15) / math.Log(B2/A2)
					got := kval(t, k, x, mat.NewDense(1, 2, y))[0]
					if e := math.Abs(got-want) / want; e > 1e-12 && want > 1e-300 {
						t.Errorf("%s ℓ=%g x=%v y=%v: %.17g, reference %.17g (rel %.2g)", s, ell, x, y, got, want, e)
					}
				}
			}
		}
	}
}
