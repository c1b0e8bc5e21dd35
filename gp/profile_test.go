package gp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

func TestBrentMax(t *testing.T) {
	for _, tc := range []struct {
		name      string
		f         func(float64) float64
		lo, hi, x float64 // x: the maximizer
	}{
		{"quadratic", func(x float64) float64 { return -(x - 0.3) * (x - 0.3) }, -2, 3, 0.3},
		{"quartic", func(x float64) float64 { return -math.Pow(x-1.7, 4) + 2 }, -2, 3, 1.7},
		{"boundary", func(x float64) float64 { return x }, -2, 3, 3},
		{"cosh", func(x float64) float64 { return -math.Cosh(x + 0.25) }, -5, 5, -0.25},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := 0
			f := func(x float64) float64 { n++; return tc.f(x) }
			x, v := max1D(f, tc.lo, tc.hi, math.NaN(), 9, 1e-8)
			if math.Abs(x-tc.x) > 1e-3 {
				t.Errorf("argmax %v, want %v (%d evaluations)", x, tc.x, n)
			}
			if v != tc.f(x) {
				t.Errorf("value %v ≠ f(%v) = %v", v, x, tc.f(x))
			}
			if n > 60 {
				t.Errorf("%d evaluations", n)
			}
		})
	}
	// Multimodal: the grid finds the global maximum.
	f := func(x float64) float64 { return math.Cos(3*x) - 0.1*(x-2)*(x-2) }
	x, _ := max1D(f, -5, 5, math.NaN(), 24, 1e-9)
	best := math.Inf(-1)
	bx := 0.0
	for i := range 100001 {
		z := -5 + 1e-4*float64(i)
		if v := f(z); v > best {
			best, bx = v, z
		}
	}
	if math.Abs(x-bx) > 1e-3 {
		t.Errorf("multimodal: argmax %v, brute force %v", x, bx)
	}
}

// TestProfileInnerGlobal: at fixed ℓ the inner (v, σ²) optimum is at least
// as good as a brute-force grid over the box, and matches the Cholesky
// objective there.
func TestProfileInnerGlobal(t *testing.T) {
	testdepth.Sequential(t) // no goroutine: checked with go test -trace
	rng := rand.New(rand.NewPCG(31, 0))
	for _, n := range []int{1, 6, 30} {
		x, y := sample(rng, n, 3)
		for i := range y {
			y[i] += 0.1 * rng.NormFloat64()
		}
		ys, _, _ := standardize(y)
		for _, fam := range []Family{
			mustG(NewBaseFamily(kernel.Matern52, 3)),
			mustG(NewPlusFamily(kernel.RBF, mustG(orbit.Cyclic(3)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})),
		} {
			b := mustG(fam.Bind(x))
			p := newProfiler(b, linalg.Gonum(), ys, false)
			p.a0, p.a1 = math.Log(1e-3), math.Log(1e3)
			p.b0, p.b1 = math.Log(1e-6), 0
			obj := newObjective(b, linalg.Gonum(), ys)
			for _, l := range []float64{0.1, 0.7, 3} {
				pt := p.at(math.Log(l))
				ref, err := obj.eval([3]float64{pt.logv, pt.logl, pt.logs2}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(ref-pt.lml) > 1e-8*max(1, math.Abs(ref)) {
					t.Errorf("n=%d %T ℓ=%v: profile lml %v, Cholesky %v", n, fam, l, pt.lml, ref)
				}
				for i := range 41 {
					for j := range 41 {
						a := p.a0 + (p.a1-p.a0)*float64(i)/40
						c := p.b0 + (p.b1-p.b0)*float64(j)/40
						v, err := obj.eval([3]float64{a, math.Log(l), c}, nil)
						if err == nil && v > pt.lml+1e-9*max(1, math.Abs(v)) {
							t.Fatalf("n=%d %T ℓ=%v: grid (%v, %v) has %v > profile %v", n, fam, l, a, c, v, pt.lml)
						}
					}
				}
			}
		}
	}
}

// fitQualityData returns BO-like data sets: n uniform points of a
// Rastrigin/Ackley-type function in d dimensions, plus noise.
func fitQualityData(seed uint64, n, d int, ackley bool) (*mat.Dense, []float64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	x := mat.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := range n {
		r := x.RawRowView(i)
		var s1, s2 float64
		for j := range r {
			r[j] = -5 + 10*rng.Float64()
			s1 += r[j] * r[j]
			s2 += math.Cos(2 * math.Pi * r[j])
		}
		if ackley {
			y[i] = 20*math.Exp(-0.2*math.Sqrt(s1/float64(d))) + math.Exp(s2/float64(d))
		} else {
			y[i] = -(10*float64(d) + s1 - 10*s2)
		}
		y[i] += 0.3 * rng.NormFloat64()
	}
	return x, y
}

// TestProfileVsBFGS: over a set of fits, the profile method reaches a log
// marginal likelihood no worse than BFGS's (up to 1e-3) on each, for
// base, max, plus and avg families. SYMBO_FITCMP=1 prints the table.
func TestProfileVsBFGS(t *testing.T) {
	type fc struct {
		name string
		fam  func(d int) Family
	}
	fams := []fc{
		{"base", func(d int) Family { return mustG(NewBaseFamily(kernel.Matern52, d)) }},
		{"max", func(d int) Family {
			return mustG(NewMaxFamily(kernel.RBF, mustG(orbit.Hyperoctahedral(d)), kernel.Options{}))
		}},
		{"plus", func(d int) Family {
			return mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Cyclic(d)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
		}},
		{"avg", func(d int) Family { return mustG(NewAvgFamily(kernel.RBF, mustG(orbit.SignFlip(d)), kernel.Options{})) }},
	}
	sizes := []int{8, 20, 40}
	seeds := 3
	if testing.Short() {
		sizes, seeds = []int{8, 25}, 1
	}
	verbose := os.Getenv("SYMBO_FITCMP") != ""
	var worse, better, total int
	for _, f := range fams {
		for _, d := range []int{2, 4} {
			for _, n := range sizes {
				for seed := range seeds {
					for _, fix := range []bool{false, true} {
						x, y := fitQualityData(uint64(seed), n, d, d == 2)
						opts := FitOptions{Backend: linalg.Gonum(), Seed: uint64(seed), FixNoise: fix, Noise: 0.09}
						ob := opts
						ob.method = fitBFGS
						gb, errB := Fit(f.fam(d), x, y, ob)
						gpf, errP := Fit(f.fam(d), x, y, opts)
						name := fmt.Sprintf("%s/d=%d/n=%d/seed=%d/fix=%v", f.name, d, n, seed, fix)
						if errP != nil {
							t.Errorf("%s: profile: %v", name, errP)
							continue
						}
						if errB != nil {
							continue
						}
						total++
						lb, lp := gb.LogMarginal(), gpf.LogMarginal()
						if verbose {
							t.Logf("%-32s bfgs %12.6f (%4d evals) profile %12.6f (%3d evals) %+.2e", name, lb, gb.fit.Evaluations, lp, gpf.fit.Evaluations, lp-lb)
						}
						switch {
						case lp < lb-1e-3:
							worse++
							t.Errorf("%s: profile lml %v < BFGS %v", name, lp, lb)
						case lp > lb+1e-3:
							better++
						}
					}
				}
			}
		}
	}
	t.Logf("%d fits: profile better on %d, worse on %d", total, better, worse)
}

// TestPlusFeaturePosterior: the feature form of a k_plus posterior (used
// by Predict and PredictGrad) agrees with the generic posterior of the same
// kernel.Plus, at design points and elsewhere, for PSD and non-PSD k_max.
func TestPlusFeaturePosterior(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 0))
	for _, tc := range []struct {
		name  string
		shape kernel.Shape
		g     orbit.Group
		noise float64
	}{
		{"cyclic4/matern52", kernel.Matern52, mustG(orbit.Cyclic(4)), 1e-2},
		{"hyperoct3/rbf", kernel.RBF, mustG(orbit.Hyperoctahedral(3)), 1e-4},
		{"trivial2/rbf/tiny-noise", kernel.RBF, mustG(orbit.Trivial(2)), 1e-8},
		{"scaling2/rbf", kernel.RBF, mustG(orbit.Scaling([]float64{0.1, 0.1}, []float64{2, 2})), 1e-3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.g.Dim()
			x, y := sample(rng, 25, d)
			if tc.name == "scaling2/rbf" {
				for i := range 25 {
					for j := range d {
						x.Set(i, j, 0.1+1.9*rng.Float64())
					}
				}
			}
			fam := mustG(NewPlusFamily(tc.shape, tc.g, kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))
			h := Hyper{Variance: 1.3, Lengthscale: 0.8, Noise: tc.noise}
			fast := mustG(New(fam, x, y, h, Options{}))
			sc := fast.yScale
			gen := mustG(newKernelGP(fast.Kernel(), x, y, h.Noise, Options{}))
			_ = sc
			var w1, w2 Workspace
			dm1, dv1 := make([]float64, d), make([]float64, d)
			dm2, dv2 := make([]float64, d), make([]float64, d)
			for k := range 40 {
				p := make([]float64, d)
				if k < 10 {
					copy(p, x.RawRowView(k))
				} else {
					for j := range p {
						p[j] = -1.5 + 3*rng.Float64()
						if tc.name == "scaling2/rbf" {
							p[j] = 0.1 + 1.9*rng.Float64()
						}
					}
				}
				m1, v1, err1 := fast.PredictGrad(&w1, p, dm1, dv1)
				if fast.plus == nil {
					t.Fatal("no feature form")
				}
				m2, v2, err2 := gen.PredictGrad(&w2, p, dm2, dv2)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				close := func(a, b, scale float64) bool { return math.Abs(a-b) <= 1e-7*scale }
				if !close(m1, m2, 1+math.Abs(m2)) || !close(v1, v2, sc*sc) {
					t.Errorf("point %d: (mean, var) = (%v, %v), generic (%v, %v)", k, m1, v1, m2, v2)
				}
				for j := range d {
					if !close(dm1[j], dm2[j], 1+math.Abs(dm2[j])) || (v2 > 1e-6*sc*sc && !close(dv1[j], dv2[j], sc*sc*(1+math.Abs(dv2[j])))) {
						t.Errorf("point %d coord %d: grads (%v, %v), generic (%v, %v)", k, j, dm1[j], dv1[j], dm2[j], dv2[j])
					}
				}
			}
			if a := testing.AllocsPerRun(20, func() { fast.PredictGrad(&w1, x.RawRowView(3), dm1, dv1) }); a != 0 && !raceEnabled {
				t.Errorf("PredictGrad allocates %v", a)
			}
		})
	}
}

// TestWorkspaceCache: a Workspace shared between GPs and points, with
// Predict followed by PredictGrad at the same point (the cached path),
// gives exactly what a fresh Workspace gives.
func TestWorkspaceCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 0))
	d := 3
	x, y := sample(rng, 15, d)
	g1 := mustG(New(mustG(NewBaseFamily(kernel.Matern52, d)), x, y, Hyper{1, 0.7, 1e-3}, Options{}))
	g2 := mustG(New(mustG(NewPlusFamily(kernel.RBF, mustG(orbit.Cyclic(d)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})), x, y, Hyper{1.2, 0.5, 1e-2}, Options{}))
	var shared Workspace
	pts := [][]float64{{0.1, 0.2, 0.3}, {0.1, 0.2, 0.3}, {-0.4, 0.2, 0.9}, {0.1, 0.2, 0.3}}
	for k := range 24 {
		g := []*GP{g1, g2}[k%2]
		p := pts[(k/2)%len(pts)]
		var fresh Workspace
		wm, wv, _ := g.Predict(&fresh, p)
		gm, gv := make([]float64, d), make([]float64, d)
		var fresh2 Workspace
		wm2, wv2, _ := g.PredictGrad(&fresh2, p, gm, gv)
		m, v, err := g.Predict(&shared, p)
		if err != nil || m != wm || v != wv {
			t.Fatalf("step %d: Predict (%v, %v), fresh (%v, %v)", k, m, v, wm, wv)
		}
		dm, dv := make([]float64, d), make([]float64, d)
		m2, v2, err := g.PredictGrad(&shared, p, dm, dv)
		if err != nil || m2 != wm2 || v2 != wv2 {
			t.Fatalf("step %d: PredictGrad (%v, %v), fresh (%v, %v)", k, m2, v2, wm2, wv2)
		}
		for j := range d {
			if dm[j] != gm[j] || dv[j] != gv[j] {
				t.Fatalf("step %d: gradients (%v, %v), fresh (%v, %v)", k, dm, dv, gm, gv)
			}
		}
		if k%3 == 0 { // PredictGrad twice in a row.
			if _, _, err := g.PredictGrad(&shared, p, dm, dv); err != nil || dm[0] != gm[0] || dv[0] != gv[0] {
				t.Fatalf("step %d: repeated PredictGrad differs", k)
			}
		}
	}
}

// TestFitAround: FitOptions.Around searches only around the given
// lengthscale. Started at the full search's own optimum it reaches the
// same log marginal likelihood (to 1e-6) with fewer evaluations, and its
// lengthscale stays within the refinement's reach of the start; started a
// factor 64 away it walks its bracket to a maximum no better than the full
// search's (to the refinement's tolerance); a negative, NaN or infinite
// Around is bad input.
func TestFitAround(t *testing.T) {
	fams := map[string]Family{
		"base": mustG(NewBaseFamily(kernel.Matern52, 2)),
		"plus": mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(2)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()})),
		"avg":  mustG(NewAvgFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(2)), kernel.Options{})),
	}
	for _, name := range []string{"base", "plus", "avg"} {
		fam := fams[name]
		for seed := range uint64(3) {
			x, y := fitQualityData(seed, 25, 2, true)
			opts := FitOptions{Backend: linalg.Gonum(), Seed: seed, Prior: PriorBoTorch, Mean: MeanConstant}
			full, err := Fit(fam, x, y, opts)
			if err != nil {
				t.Fatalf("%s seed %d: full: %v", name, seed, err)
			}
			at := opts
			at.Around = full.Hyper().Lengthscale
			g, err := Fit(fam, x, y, at)
			if err != nil {
				t.Fatalf("%s seed %d: around: %v", name, seed, err)
			}
			if d := g.LogMarginal() - full.LogMarginal(); math.Abs(d) > 1e-6 {
				t.Errorf("%s seed %d: around the optimum: lml %v, full %v", name, seed, g.LogMarginal(), full.LogMarginal())
			}
			if g.fit.Evaluations >= full.fit.Evaluations {
				t.Errorf("%s seed %d: around: %d evaluations, full %d", name, seed, g.fit.Evaluations, full.fit.Evaluations)
			}
			if r := g.Hyper().Lengthscale / full.Hyper().Lengthscale; r < 0.5 || r > 2 {
				t.Errorf("%s seed %d: around the optimum moved ℓ by %v", name, seed, r)
			}
			far := opts
			far.Around = 64 * full.Hyper().Lengthscale
			g, err = Fit(fam, x, y, far)
			if err != nil {
				t.Fatalf("%s seed %d: far: %v", name, seed, err)
			}
			// Both refine to Brent's tolerance (1e-4 in log ℓ), so the
			// far start may end a hair above the full search.
			if g.LogMarginal() > full.LogMarginal()+1e-4 {
				t.Errorf("%s seed %d: around a far start: lml %v above the full search's %v", name, seed, g.LogMarginal(), full.LogMarginal())
			}
		}
	}
	x, y := fitQualityData(0, 10, 2, true)
	for _, a := range []float64{-1, math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := Fit(fams["base"], x, y, FitOptions{Around: a})
		if err == nil || errclass.Of(err) != errclass.Input {
			t.Errorf("Around %v: err %v, want bad input", a, err)
		}
	}
}

// BenchmarkFitAround times a fit by the full profile search and one
// around plus's fitted lengthscale (bo's anchored candidate fits), with
// the likelihood evaluations each made, for a nystrom-like (plus over the
// trivial group), an avg and a plus family at n = 15, 30 and 50 (five
// fitQualityData sets each, d = 2, BoTorch's priors, constant mean):
//
//	go test -run XXX -bench FitAround ./gp
func BenchmarkFitAround(b *testing.B) {
	fams := []struct {
		name string
		fam  Family
	}{
		{"nystrom", mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Trivial(2)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))},
		{"avg", mustG(NewAvgFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(2)), kernel.Options{}))},
		{"plus", mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Hyperoctahedral(2)), kernel.Options{}, kernel.PlusOptions{Backend: linalg.Gonum()}))},
	}
	anchor := fams[2].fam
	for _, n := range []int{15, 30, 50} {
		for _, f := range fams {
			for _, around := range []bool{false, true} {
				mode := "full"
				if around {
					mode = "around"
				}
				b.Run(fmt.Sprintf("n=%d/%s/%s", n, f.name, mode), func(b *testing.B) {
					type set struct {
						x    *mat.Dense
						y    []float64
						opts FitOptions
					}
					var sets []set
					for seed := range uint64(5) {
						x, y := fitQualityData(seed, n, 2, true)
						opts := FitOptions{Backend: linalg.Gonum(), Seed: seed, Prior: PriorBoTorch, Mean: MeanConstant}
						if around {
							a, err := Fit(anchor, x, y, opts)
							if err != nil {
								b.Fatal(err)
							}
							opts.Around = a.Hyper().Lengthscale
						}
						sets = append(sets, set{x, y, opts})
					}
					evals := 0
					for i := 0; b.Loop(); i++ {
						s := sets[i%len(sets)]
						g, err := Fit(f.fam, s.x, s.y, s.opts)
						if err != nil {
							b.Fatal(err)
						}
						evals += g.fit.Evaluations
					}
					b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
				})
			}
		}
	}
}
