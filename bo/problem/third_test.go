package problem_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/bo/problem/problemtest"
	"github.com/symbo/symbo/orbit"
)

// thirdNames are the third held-out set's problems (lab/suite/third.md),
// in its order, with the page's regime: "off" (free orbit, exact group),
// "on" (optimum fixed by the whole group), "wrong" (declared group wrong
// or approximate), "partial" (a group on some coordinates of a box with
// sides of very different sizes; its optimum on a free orbit of the
// acting group) and "large" (|G| ≥ 10⁶).
var thirdNames = []struct {
	name   string
	regime string
}{
	{"QingAbs5d", "off"}, {"AlpineShell4d", "off"}, {"ZakharovSorted6d", "off"}, {"Blocks2x3d", "off"},
	{"CosineShell2d", "off"}, {"AlpineAbs5d", "on"}, {"CentreZakharov4d", "on"}, {"TiltedSign3d", "wrong"},
	{"WrongRot2d", "wrong"}, {"Mixer6d", "partial"}, {"Antenna5d", "partial"}, {"OffZakharov8dHyper", "large"},
}

// TestThirdConformance runs problemtest.Run on every problem of the third
// set (the two with a wrong group under the trivial group, as the fresh
// set's are: TestFreshConformance).
func TestThirdConformance(t *testing.T) {
	for _, c := range thirdNames {
		name := c.name
		if c.regime == "wrong" {
			name += problem.NoGroupSuffix
		}
		p := mustNew(t, name, 0)
		t.Run(p.Name(), func(t *testing.T) { problemtest.Run(t, p) })
	}
}

// TestThirdDeclarations checks the declarations against the page's table
// (written out here).
func TestThirdDeclarations(t *testing.T) {
	cases := []heldOutDecl{
		{"QingAbs5d", rep(5, -3), rep(5, 3), "hyperoctahedral", 3840, 0, 0},
		{"AlpineShell4d", rep(4, -6), rep(4, 6), "signflip", 16, 0, 0.01},
		{"ZakharovSorted6d", rep(6, -4), rep(6, 4), "permutation", 720, 0, 0.05},
		{"Blocks2x3d", rep(6, -2), rep(6, 2), "blockperm(2,3)", 2, 0, 0.2},
		{"CosineShell2d", rep(2, -3), rep(2, 3), "rotation2d", 0, 0, 0.01},
		{"AlpineAbs5d", rep(5, -3), rep(5, 3), "hyperoctahedral", 3840, 0, 0.05},
		{"CentreZakharov4d", rep(4, -2), rep(4, 3), "permutation", 24, 0, 0},
		{"TiltedSign3d", rep(3, -3), rep(3, 3), "signflip", 8, 0, 0.01},
		{"WrongRot2d", rep(2, -2.5), rep(2, 2.5), "rotation2d", 0, 0, 0},
		{"Mixer6d", []float64{100, 100, 100, 273, 0, 0}, []float64{3000, 3000, 3000, 373, 5, 1e5}, "permutation(3)@[0,1,2]/6", 6, 0, 0.01},
		{"Antenna5d", []float64{-180, -180, 0.001, 0, -1}, []float64{180, 180, 0.1, 1000, 1}, "signflip(2)@[0,1]/5", 4, 0, 0.05},
		{"OffZakharov8dHyper", rep(8, -2), rep(8, 2), "hyperoctahedral", 256 * 40320, 0, 0.01},
	}
	names := make([]string, len(thirdNames))
	for i, c := range thirdNames {
		names[i] = c.name
	}
	checkHeldOutDecls(t, problem.ClassThird, names, cases)
}

// thirdZakharov is the page's Z(z) = Σ z_i² + (Σ ½·i·z_i)² + (Σ ½·i·z_i)⁴,
// i from 1, with explicit loops.
func thirdZakharov(z []float64) float64 {
	var sq, lin float64
	for k := 0; k < len(z); k++ {
		i := float64(k + 1)
		sq += math.Pow(z[k], 2)
		lin += i * z[k] / 2
	}
	return sq + math.Pow(lin, 2) + math.Pow(lin, 4)
}

// thirdAlpine is A(t) = |t·sin t + 0.1·t|, factored as |t|·|sin t + 0.1|.
func thirdAlpine(t float64) float64 { return math.Abs(t) * math.Abs(math.Sin(t)+0.1) }

// thirdLin returns n points evenly spaced from a to b.
func thirdLin(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	return out
}

// thirdAbsSorted returns |x| sorted ascending (a fresh slice).
func thirdAbsSorted(x []float64) []float64 {
	a := make([]float64, 0, len(x))
	for _, v := range x {
		a = append(a, math.Abs(v))
	}
	sort.Slice(a, func(i, j int) bool { return a[i] < a[j] })
	return a
}

// thirdBlock is b(u) of Blocks2x3d.
func thirdBlock(u0, u1, u2 float64) float64 {
	return u0*u0 + 2*u1*u1 + 3*u2*u2 -
		0.3*math.Cos(3*math.Pi*u0) - 0.4*math.Cos(4*math.Pi*u1) - 0.3*math.Cos(2*math.Pi*u2) + 1
}

// thirdBlocks is Blocks2x3d with both assignments written out.
func thirdBlocks(x []float64) float64 {
	t1 := [3]float64{-1, 0.5, 0}
	t2 := [3]float64{0.8, -0.6, 1}
	// π = identity: block 1 → t1, block 2 → t2.
	keep := thirdBlock(x[0]-t1[0], x[1]-t1[1], x[2]-t1[2]) + thirdBlock(x[3]-t2[0], x[4]-t2[1], x[5]-t2[2])
	// π = swap: block 2 → t1, block 1 → t2.
	swap := thirdBlock(x[3]-t1[0], x[4]-t1[1], x[5]-t1[2]) + thirdBlock(x[0]-t2[0], x[1]-t2[1], x[2]-t2[2])
	if swap < keep {
		return swap
	}
	return keep
}

// thirdRef holds the page's formulas, written out independently.
var thirdRef = map[string]func(x []float64) float64{
	"QingAbs5d": func(x []float64) float64 {
		a := thirdAbsSorted(x)
		var s float64
		for k, v := range a {
			s += math.Pow(math.Pow(v, 2)-float64(k+1), 2)
		}
		return s
	},
	"AlpineShell4d": func(x []float64) float64 {
		var s float64
		for _, v := range x {
			s += thirdAlpine(math.Abs(v) - 2)
		}
		return s
	},
	"ZakharovSorted6d": func(x []float64) float64 {
		z := slices.Sorted(slices.Values(x))
		c := thirdLin(-1.5, 1.5, 6)
		for i := range z {
			z[i] -= c[i]
		}
		return thirdZakharov(z)
	},
	"Blocks2x3d": thirdBlocks,
	"CosineShell2d": func(x []float64) float64 {
		r := math.Hypot(x[0], x[1])
		// sin²θ = (1 − cos 2θ)/2.
		return math.Pow(r*r/4-1, 2) + 0.1*(1-math.Cos(4*math.Pi*r))
	},
	"AlpineAbs5d": func(x []float64) float64 {
		var s float64
		for _, v := range x {
			s += thirdAlpine(math.Abs(v))
		}
		return s
	},
	"CentreZakharov4d": func(x []float64) float64 {
		var sq, sum float64
		for _, xi := range x {
			v := xi - 0.5
			sq += v * v
			sum += v
		}
		h := sum / 2
		return sq + math.Pow(h, 2) + math.Pow(h, 4)
	},
	"TiltedSign3d": func(x []float64) float64 {
		var s float64
		for _, v := range x {
			u := math.Abs(v) - 1.5
			s += u*u + 0.3*(1-math.Cos(2*math.Pi*u))
		}
		return s + 0.2*math.Pow(x[0]-1.5, 2)
	},
	"WrongRot2d": func(x []float64) float64 {
		u, v := x[0]-1, x[1]+0.5
		return u*u + 4*v*v + 0.3*(1-math.Cos(3*math.Pi*u))
	},
	"Mixer6d": func(x []float64) float64 {
		s := []float64{x[0], x[1], x[2]}
		sort.Float64s(s)
		sigma := []float64{600, 1400, 2200}
		var f float64
		for i := range s {
			w := (s[i] - sigma[i]) / 500
			f += w*w + 0.3*(1-math.Cos(2*math.Pi*w))
		}
		return f + math.Pow((x[3]-310)/20, 2) + math.Pow(x[4]-3.1, 2)/2
	},
	"Antenna5d": func(x []float64) float64 {
		alpha := []float64{60, 120}
		var f float64
		for j := 0; j < 2; j++ {
			w := (math.Abs(x[j]) - alpha[j]) / 30
			f += w*w + 0.2*(1-math.Cos(2*math.Pi*w))
		}
		return f + math.Pow((x[2]-0.03)/0.02, 2) + math.Pow((x[3]-700)/300, 2) + 1e-3*x[4]*x[4]
	},
	"OffZakharov8dHyper": func(x []float64) float64 {
		a := thirdAbsSorted(x)
		c := thirdLin(0.2, 1.6, 8)
		for i := range a {
			a[i] -= c[i]
		}
		return thirdZakharov(a)
	},
}

// TestThirdValues compares Evaluate with the page's formulas written out
// independently, at points off the optima (box corners included).
func TestThirdValues(t *testing.T) {
	alt := func(n int, v float64) []float64 {
		out := rep(n, v)
		for i := 1; i < n; i += 2 {
			out[i] = -v
		}
		return out
	}
	points := map[string][][]float64{
		"QingAbs5d":          {rep(5, 0), alt(5, 3), {0.5, -2.9, 1.7, -0.2, 2.2}},
		"AlpineShell4d":      {rep(4, 0), rep(4, -6), {1, -3.3, 4.5, 0.25}},
		"ZakharovSorted6d":   {rep(6, -4), alt(6, 4), {0.3, -2.2, 1.1, 3.9, -0.7, 0}},
		"Blocks2x3d":         {rep(6, 0), alt(6, 2), {0.8, -0.6, 1.1, -1, 0.5, 0.1}, {-0.9, 0.4, 0.1, 0.7, -0.5, 0.9}},
		"CosineShell2d":      {{0, 0}, {3, -3}, {1.2, -0.7}},
		"AlpineAbs5d":        {rep(5, 3), {-3, 2, -1, 0.5, -0.1}},
		"CentreZakharov4d":   {rep(4, -2), rep(4, 3), {-2, 3, 0, 1}},
		"TiltedSign3d":       {rep(3, 0), alt(3, -3), {-1.5, 1.5, -1.5}, {0.7, -2.2, 2.9}},
		"WrongRot2d":         {{0, 0}, {-2.5, 2.5}, {2.5, -2.5}, {0.5, 1}},
		"Mixer6d":            {{100, 100, 100, 273, 0, 0}, {3000, 3000, 3000, 373, 5, 1e5}, {2200, 600, 1450, 300, 2.5, 777}},
		"Antenna5d":          {{-180, -180, 0.001, 0, -1}, {180, 180, 0.1, 1000, 1}, {120, -60, 0.05, 100, 0.5}},
		"OffZakharov8dHyper": {rep(8, 0), alt(8, -2), thirdLin(-1.9, 1.7, 8)},
	}
	for _, c := range thirdNames {
		p := mustNew(t, c.name, 0)
		ref := thirdRef[c.name]
		for _, x := range points[c.name] {
			got := must(p.Evaluate(x))
			want := ref(x)
			if math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("%s at %v = %.17g, want %.17g", c.name, x, got, want)
			}
			if want < 1e-3 {
				t.Errorf("%s: test point %v is (nearly) an optimum: %v", c.name, x, want)
			}
		}
	}
}

// TestThirdOptima: the registered optimizers evaluate to 0, no point of
// 20000 drawn uniformly in the box is below it, and each element of the
// declared group (for the exact finite groups of at most 2¹⁶ elements)
// maps an optimizer to an optimum; on the "off" and "partial" problems no
// non-identity element fixes it (a free orbit of the acting group), on
// AlpineAbs5d and CentreZakharov4d every element does. On
// OffZakharov8dHyper (≈ 10⁷ elements) the sorted |x*| are distinct and
// nonzero, and random elements map x* to optima.
func TestThirdOptima(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, c := range thirdNames {
		p := mustNew(t, c.name, 0)
		fstar, ok := p.Optimum()
		if !ok || fstar != 0 {
			t.Fatalf("%s: optimum %v, %v", c.name, fstar, ok)
		}
		opt := p.Optimizers()
		if len(opt) == 0 {
			t.Errorf("%s: no optimizers", c.name)
		}
		for _, x := range opt {
			if v := must(p.Evaluate(x)); math.Abs(v-fstar) > 1e-12 {
				t.Errorf("%s: f(%v) = %.17g, f* = %.17g", c.name, x, v, fstar)
			}
			if v := thirdRef[c.name](x); math.Abs(v) > 1e-12 {
				t.Errorf("%s: the page's f at the registered optimizer %v is %.17g", c.name, x, v)
			}
		}
		lo, hi := p.Bounds()
		x := make([]float64, p.Dim())
		for range 20000 {
			for i := range x {
				x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
			}
			if v := must(p.Evaluate(x)); v < fstar-1e-8 {
				t.Errorf("%s: f(%v) = %v below f* = %v", c.name, x, v, fstar)
				break
			}
		}
		if c.name == "CosineShell2d" {
			for _, x := range opt {
				if r := math.Hypot(x[0], x[1]); math.Abs(r-2) > 1e-12 {
					t.Errorf("CosineShell2d: optimizer %v at r = %v", x, r)
				}
			}
		}
		g, finite := p.Group().(orbit.Finite)
		if !finite || c.regime == "wrong" {
			continue
		}
		n := int(p.Group().Order().Int64())
		gx := make([]float64, p.Dim())
		if n > 1<<16 {
			for _, x := range opt {
				z := thirdAbsSorted(x)
				for i := range z {
					if z[i] == 0 || (i > 0 && z[i] == z[i-1]) {
						t.Errorf("%s: optimizer %v is not on a free orbit", c.name, x)
						break
					}
				}
				for range 500 {
					i := rng.IntN(n)
					g.ActTo(gx, x, i)
					if v := must(p.Evaluate(gx)); math.Abs(v-fstar) > 1e-9 {
						t.Errorf("%s: f(g_%d·x*) = %v, want %v", c.name, i, v, fstar)
						break
					}
				}
			}
			continue
		}
		for _, x := range opt {
			checkOrbitOptimal(t, c.name, p, g, n, fstar, x, c.regime == "on")
		}
	}
}

// TestThirdStatedPoints checks the points the page states, independently
// of the registered optimizers: each problem is 0 there (and its page
// formula too), AlpineShell4d's constants are the zeros of t·(sin t + 0.1)
// in [−2, 4] (found by scanning and bisection), it is positive at 0, and
// AlpineAbs5d's next zero lies outside its box.
func TestThirdStatedPoints(t *testing.T) {
	s2, s3, s5 := math.Sqrt(2), math.Sqrt(3), math.Sqrt(5)
	as := math.Asin(0.1)
	lo1, hi1 := 2-as, 2+math.Pi+as
	c6 := thirdLin(-1.5, 1.5, 6)
	c8 := thirdLin(0.2, 1.6, 8)
	zeros := map[string][][]float64{
		"QingAbs5d":        {{1, s2, s3, 2, s5}, {-s5, 2, -1, s3, -s2}, {s3, -s5, -s2, -2, 1}},
		"AlpineShell4d":    {{2, 2, 2, 2}, {-lo1, hi1, 2, -2}, {hi1, -hi1, lo1, -lo1}, {-2, lo1, -hi1, lo1}},
		"ZakharovSorted6d": {c6, {c6[5], c6[0], c6[3], c6[1], c6[4], c6[2]}},
		"Blocks2x3d":       {{-1, 0.5, 0, 0.8, -0.6, 1}, {0.8, -0.6, 1, -1, 0.5, 0}},
		"CosineShell2d": {{2, 0}, {0, -2}, {-2, 0}, {2 * math.Cos(1), 2 * math.Sin(1)},
			{2 * math.Cos(2.5), 2 * math.Sin(2.5)}, {2 * math.Cos(-0.3), 2 * math.Sin(-0.3)}, {s2, -s2}},
		"AlpineAbs5d":        {rep(5, 0)},
		"CentreZakharov4d":   {rep(4, 0.5)},
		"TiltedSign3d":       {{1.5, 1.5, 1.5}, {1.5, -1.5, 1.5}, {1.5, -1.5, -1.5}},
		"WrongRot2d":         {{1, -0.5}},
		"Mixer6d":            {{600, 1400, 2200, 310, 3.1, 0}, {2200, 600, 1400, 310, 3.1, 12345}, {1400, 2200, 600, 310, 3.1, 1e5}},
		"Antenna5d":          {{60, 120, 0.03, 700, 0}, {-60, -120, 0.03, 700, 0}, {60, -120, 0.03, 700, 0}},
		"OffZakharov8dHyper": {c8, {-c8[7], c8[2], -c8[0], c8[5], c8[1], -c8[6], c8[3], -c8[4]}},
	}
	for _, c := range thirdNames {
		p := mustNew(t, c.name, 0)
		for _, x := range zeros[c.name] {
			if v := must(p.Evaluate(x)); math.Abs(v) > 1e-12 {
				t.Errorf("%s: f(%v) = %.17g, want 0", c.name, x, v)
			}
			if v := thirdRef[c.name](x); math.Abs(v) > 1e-12 {
				t.Errorf("%s: the page's f(%v) = %.17g, want 0", c.name, x, v)
			}
		}
	}

	// AlpineShell4d: the zeros of h(t) = t·(sin t + 0.1) in [−2, 4].
	h := func(t float64) float64 { return t * (math.Sin(t) + 0.1) }
	const n = 5999 // 0 is not a grid point
	var roots []float64
	for k := 0; k < n; k++ {
		a, b := -2+6*float64(k)/n, -2+6*float64(k+1)/n
		if (h(a) < 0) == (h(b) < 0) {
			continue
		}
		for range 200 {
			m := (a + b) / 2
			if (h(a) < 0) == (h(m) < 0) {
				a = m
			} else {
				b = m
			}
		}
		roots = append(roots, (a+b)/2)
	}
	if len(roots) != 3 || math.Abs(roots[0]+as) > 1e-12 || math.Abs(roots[1]) > 1e-12 || math.Abs(roots[2]-math.Pi-as) > 1e-12 {
		t.Errorf("zeros of t·(sin t + 0.1) in [−2, 4]: %v, want %v, 0, %v", roots, -as, math.Pi+as)
	}
	// The page's "1.8998…", "5.2418…" and "3.2418…" are rounded to four places.
	round4 := func(v float64) float64 { return math.Round(v*1e4) / 1e4 }
	if round4(lo1) != 1.8998 || round4(hi1) != 5.2418 {
		t.Errorf("AlpineShell4d: |x_i| zeros %.17g, %.17g, want 1.8998…, 5.2418…", lo1, hi1)
	}
	p := mustNew(t, "AlpineShell4d", 0)
	if v, want := must(p.Evaluate(rep(4, 0))), 4*(2*math.Sin(2)-0.2); !(v > 1) || math.Abs(v-want) > 1e-12 {
		t.Errorf("AlpineShell4d: f(0) = %.17g, want %.17g > 0", v, want)
	}
	for i := range 4 {
		x := []float64{2, -2, lo1, -hi1}
		x[i] = 0
		if v := must(p.Evaluate(x)); !(v > 1) {
			t.Errorf("AlpineShell4d: f(%v) = %v, want > 0 (never at x_i = 0)", x, v)
		}
	}
	// AlpineAbs5d: the next zero, π + asin 0.1 = 3.2418…, is outside [−3, 3].
	if _, hi := mustNew(t, "AlpineAbs5d", 0).Bounds(); !(math.Pi+as > hi[0]) || round4(math.Pi+as) != 3.2418 {
		t.Errorf("AlpineAbs5d: next zero %v, box up to %v", math.Pi+as, hi[0])
	}
	// Antenna5d matches a_j to α_j by index: swapping the angles costs.
	q := mustNew(t, "Antenna5d", 0)
	if v := must(q.Evaluate([]float64{120, 60, 0.03, 700, 0})); !(v > 1) {
		t.Errorf("Antenna5d: f at swapped angles = %v, want > 1 (α matched by index)", v)
	}
	// Mixer6d ignores x₆.
	m := mustNew(t, "Mixer6d", 0)
	x := []float64{900, 2900, 150, 290, 4.2, 0}
	f0 := must(m.Evaluate(x))
	for _, x6 := range []float64{1, 5e4, 1e5} {
		x[5] = x6
		if v := must(m.Evaluate(x)); v != f0 {
			t.Errorf("Mixer6d: f depends on x₆: %v at x₆ = 0, %v at %v", f0, v, x6)
		}
	}
}

// TestThirdWrongGroups: TiltedSign3d and WrongRot2d change value under an
// element of their declared group.
func TestThirdWrongGroups(t *testing.T) {
	p := mustNew(t, "TiltedSign3d", 0)
	// Flipping x₁ at the optimum adds 0.2·(−1.5 − 1.5)² = 1.8.
	want := 0.2 * math.Pow(-1.5-1.5, 2)
	fx, fy := must(p.Evaluate([]float64{1.5, -1.5, 1.5})), must(p.Evaluate([]float64{-1.5, -1.5, 1.5}))
	if math.Abs(want-1.8) > 1e-15 || math.Abs(fy-fx-want) > 1e-12 {
		t.Errorf("TiltedSign3d: f(x*) = %v, f(flip₁·x*) = %v, want a difference %v", fx, fy, want)
	}
	q := mustNew(t, "WrongRot2d", 0)
	// The rotation by 90° maps (1, −0.5) to (0.5, 1).
	fx, fy = must(q.Evaluate([]float64{1, -0.5})), must(q.Evaluate([]float64{0.5, 1}))
	if !(math.Abs(fx-fy) > 0.1) {
		t.Errorf("WrongRot2d: f(x) = %v, f(R₉₀·x) = %v", fx, fy)
	}
}

// TestThirdInvariance: for the exact groups, f(g·x) = f(x) at random x for
// random group elements; CosineShell2d is rotated by hand (x drawn in the
// disk of radius 3, so that every rotation stays in the box).
func TestThirdInvariance(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(a)) }
	for _, c := range thirdNames {
		if c.regime == "wrong" {
			continue
		}
		p := mustNew(t, c.name, 0)
		lo, hi := p.Bounds()
		x := make([]float64, p.Dim())
		gx := make([]float64, p.Dim())
		g, finite := p.Group().(orbit.Finite)
		if !finite {
			if c.name != "CosineShell2d" {
				t.Errorf("%s: group %s is not finite", c.name, p.Group().Name())
				continue
			}
			for range 50 {
				r, phi := 3*math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
				x[0], x[1] = r*math.Cos(phi), r*math.Sin(phi)
				f := must(p.Evaluate(x))
				for _, th := range []float64{math.Pi / 2, 1, -2.2, math.Pi, 0.123} {
					gx[0] = math.Cos(th)*x[0] - math.Sin(th)*x[1]
					gx[1] = math.Sin(th)*x[0] + math.Cos(th)*x[1]
					gx[0], gx[1] = math.Max(-3, math.Min(3, gx[0])), math.Max(-3, math.Min(3, gx[1]))
					if v := must(p.Evaluate(gx)); !near(f, v) {
						t.Errorf("CosineShell2d: f(%v) = %.17g, f(R(%v)·x) = %.17g", x, f, th, v)
					}
				}
			}
			continue
		}
		n := int(p.Group().Order().Int64())
		for range 30 {
			for i := range x {
				x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
			}
			f := must(p.Evaluate(x))
			for range 20 {
				i := rng.IntN(n)
				g.ActTo(gx, x, i)
				if v := must(p.Evaluate(gx)); !near(f, v) {
					t.Errorf("%s: f(%v) = %.17g, f(g_%d·x) = %.17g", c.name, x, f, i, v)
				}
			}
		}
	}
}
