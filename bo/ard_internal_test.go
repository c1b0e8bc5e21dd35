package bo

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// ardGroup is a permutation of coordinates 1, 3 and 4 of five: classes
// {1, 3, 4}, {0}, {2}, the mixed ones not first (so that the canonical
// map puts them elsewhere).
func ardGroup(t *testing.T) orbit.Group {
	t.Helper()
	perm := must(orbit.Permutation(3))
	return must(orbit.OnCoords(perm, 5, []int{1, 3, 4}))
}

// ardObjective is invariant under ardGroup: a symmetric function of
// coordinates 1, 3, 4 (in [0, 2]), a sine of coordinate 0 (in [-50, 50],
// two periods) and coordinate 2 (in [1e-3, 1e-1]) nearly ignored: a
// problem where a lengthscale per class earns its keep (ardEarns).
func ardObjective(x []float64) float64 {
	s := 0.0
	for _, k := range []int{1, 3, 4} {
		s += (x[k] - 0.7) * (x[k] - 0.7)
	}
	return 2*math.Sin(x[0]/8) + s + 1e-4*x[2]/0.1 + 0.3*x[1]*x[3]*x[4]
}

var (
	ardLo = []float64{-50, 0, 1e-3, 0, 0}
	ardHi = []float64{50, 2, 1e-1, 2, 2}
)

func TestARDClasses(t *testing.T) {
	perm4 := must(orbit.Permutation(4))
	sf := must(orbit.SignFlip(3))
	hyp := must(orbit.Hyperoctahedral(3))
	sc := must(orbit.Scaling([]float64{1}, []float64{4}))
	for _, tc := range []struct {
		name string
		k    Kernel
		d    int
		want []int
	}{
		{"permutation(4)", Plus(perm4, kernel.RBF), 4, nil},
		{"perm on 4 of 6", Plus(must(orbit.OnCoords(perm4, 6, []int{0, 1, 2, 3})), kernel.RBF), 6, []int{0, 0, 0, 0, 1, 2}},
		{"perm on 1,3,4 of 5", Plus(ardGroup(t), kernel.RBF), 5, []int{0, 1, 2, 1, 1}},
		{"signflip(3)", Plus(sf, kernel.RBF), 3, []int{0, 1, 2}},
		{"hyperoctahedral(3)", Plus(hyp, kernel.RBF), 3, nil},
		{"scaling on 1 of 2", Plus(must(orbit.OnCoords(sc, 2, []int{0})), kernel.RBF), 2, nil},
		{"base", Base(kernel.RBF), 3, []int{0, 1, 2}},
		{"base parsed over signflip(3)", must(ParseKernel(NameBase, sf, kernel.RBF)), 3, []int{0, 1, 2}},
		{"nystrom parsed over permutation(4)", must(ParseKernel(NameNystrom, perm4, kernel.RBF)), 4, nil},
		{"base 1-d", Base(kernel.RBF), 1, nil},
	} {
		if got := ardClasses(tc.k, tc.d); !slices.Equal(got, tc.want) {
			t.Errorf("%s: classes %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestClassCanon: where classCanon accepts a canonical map, each
// canonical coordinate scales with its class, checked here at random
// points and class scales; it accepts the groups with canonical maps
// below (rotation2d's one canonical coordinate included) and refuses a
// scaling group's.
func TestClassCanon(t *testing.T) {
	perm2 := must(orbit.Permutation(2))
	rot := must(orbit.Rotation2D())
	hyp := must(orbit.Hyperoctahedral(2))
	rng := rand.New(rand.NewPCG(3, 3))
	for _, tc := range []struct {
		name string
		g    orbit.Group
	}{
		{"perm on 1,3,4 of 5", ardGroup(t)},
		{"perm on 1,2 of 4", must(orbit.OnCoords(perm2, 4, []int{1, 2}))},
		{"signflip(3)", must(orbit.SignFlip(3))},
		{"hyperoctahedral on 0,2 of 3", must(orbit.OnCoords(hyp, 3, []int{0, 2}))},
		{"rotation2d on 1,2 of 3", must(orbit.OnCoords(rot, 3, []int{1, 2}))},
	} {
		classes := ardClasses(Plus(tc.g, kernel.RBF), tc.g.Dim())
		c, cc := classCanon(tc.g, classes)
		if c == nil {
			t.Errorf("%s: no canonical class fit", tc.name)
			continue
		}
		d, cd := tc.g.Dim(), c.CanonicalDim()
		x, sx, a, b := make([]float64, d), make([]float64, d), make([]float64, cd), make([]float64, cd)
		for range 20 {
			scale := make([]float64, slices.Max(classes)+1)
			for q := range scale {
				scale[q] = math.Exp(3 * (2*rng.Float64() - 1))
			}
			for k := range x {
				x[k] = 2*rng.Float64() - 1
				sx[k] = scale[classes[k]] * x[k]
			}
			c.CanonicalTo(a, sx)
			c.CanonicalTo(b, x)
			for j := range a {
				if w := scale[cc[j]] * b[j]; math.Abs(a[j]-w) > 1e-12*(1+math.Abs(w)) {
					t.Errorf("%s: φ(Sx)_%d = %v, s_%d·φ(x)_%d = %v", tc.name, j, a[j], cc[j], j, w)
				}
			}
		}
	}
	sc := must(orbit.Scaling([]float64{1, 1}, []float64{4, 4}))
	if c, _ := classCanon(sc, []int{0, 0}); c != nil {
		t.Error("scaling group: classCanon accepted its canonical map")
	}
}

// ardOptimizer returns an optimizer with ARD over ardGroup after 16
// evaluations of ardObjective, asked once more (fitted).
func ardOptimizer(t *testing.T, kn string) *Optimizer {
	t.Helper()
	g := ardGroup(t)
	cfg := must(Recommended(g, kernel.Matern52))
	if kn != "" {
		cfg.Kernel = must(ParseKernel(kn, g, kernel.Matern52))
	}
	cfg.Minimize, cfg.Init, cfg.RawSamples, cfg.Starts, cfg.Workers = true, 8, 64, 2, 1
	o := must(New(ardLo, ardHi, cfg, 5))
	for range 16 {
		x := must(o.Ask())
		if err := o.Tell(x, ardObjective(x)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.Ask(); err != nil {
		t.Fatal(err)
	}
	if o.ard == nil {
		t.Fatalf("%s: no ARD scales", kn)
	}
	return o
}

var ardKernels = []string{"", NameBase, NameNystrom, NameAvg, NameAvgNorm, NameMax, NamePlus, NameSoft}

// TestARDInvariantAndGradient: with ARD, every invariant kernel's
// acquisition is invariant under the group, and every kernel's gradient
// (chained through the scaling, and the canonical map for max and plus)
// agrees with central differences; the reported lengthscales are equal
// within a class of the group, and the fastest-varying coordinate's is
// the shortest.
func TestARDInvariantAndGradient(t *testing.T) {
	g := ardGroup(t).(orbit.Finite)
	ng := must(orbit.Size(g))
	for _, kn := range ardKernels {
		o := ardOptimizer(t, kn)
		// Base and Nystrom are not invariant, but take the group's
		// classes (ParseKernel); nor is soft (its residual part), nor the
		// default, which may predict with soft or Nystrom.
		ls := o.last.Hyper.Lengthscales
		if len(ls) != 5 || ls[1] != ls[3] || ls[1] != ls[4] {
			t.Errorf("%s: lengthscales %v: want one per coordinate, equal on 1, 3, 4", kn, ls)
		} else if slices.Min(ls) != ls[0] || !(ls[0] < ls[2]/2) {
			t.Errorf("%s: lengthscales %v: want coordinate 0's (its sine the fastest) the shortest, below half coordinate 2's (nearly ignored)", kn, ls)
		}
		a := o.newAcq()
		s := newAcqScratch(5, o.predCanon)
		rng := rand.New(rand.NewPCG(6, 6))
		x, gx, grad, xh := make([]float64, 5), make([]float64, 5), make([]float64, 5), make([]float64, 5)
		for range 4 {
			for i := range x {
				x[i] = o.mlo[i] + (o.mhi[i]-o.mlo[i])*rng.Float64()
			}
			a0 := must(a.eval(s, x, grad))
			if kn != NameBase && kn != NameNystrom && kn != NameSoft && kn != "" {
				for j := range ng {
					g.ActTo(gx, x, j)
					if agx := must(a.eval(s, gx, nil)); math.Abs(agx-a0) > 1e-8*math.Max(1, math.Abs(a0)) {
						t.Errorf("%s: α(g%d·x) = %v, α(x) = %v", kn, j, agx, a0)
					}
				}
			}
			for i := range x {
				h := 1e-6 * (o.mhi[i] - o.mlo[i])
				copy(xh, x)
				xh[i] = x[i] + h
				ap := must(a.eval(s, xh, nil))
				xh[i] = x[i] - h
				am := must(a.eval(s, xh, nil))
				fd := (ap - am) / (2 * h)
				if math.Abs(fd-grad[i]) > 1e-4*math.Max(math.Abs(a0)/(o.mhi[i]-o.mlo[i]), math.Abs(fd)) {
					t.Errorf("%s: ∂α/∂x%d = %v, central difference %v", kn, i, grad[i], fd)
				}
			}
		}
	}
}

// TestARDOff: without ARD, where the class fit does not earn its
// lengthscales, or over a group that mixes every coordinate, no scale is
// used and no lengthscales are reported.
func TestARDOff(t *testing.T) {
	g := ardGroup(t)
	cfg := must(Recommended(g, kernel.Matern52))
	cfg.ARD = false
	cfg.Init = 6
	o := must(New(ardLo, ardHi, cfg, 5))
	for range 7 {
		x := must(o.Ask())
		if err := o.Tell(x, ardObjective(x)); err != nil {
			t.Fatal(err)
		}
	}
	if o.ard != nil || o.last.Hyper.Lengthscales != nil {
		t.Errorf("ARD off: scales %v, lengthscales %v", o.ard, o.last.Hyper.Lengthscales)
	}
	// An objective alike along every class: the class fit does not earn
	// its extra lengthscales (ardEarns), one stays.
	sf := must(orbit.SignFlip(4))
	cfg = must(Recommended(sf, kernel.Matern52))
	cfg.Minimize, cfg.Init, cfg.RawSamples, cfg.Starts, cfg.Workers = true, 8, 64, 2, 1
	o = must(New([]float64{-1, -1, -1, -1}, []float64{1, 1, 1, 1}, cfg, 2))
	for range 17 {
		x := must(o.Ask())
		v := 0.0
		for _, c := range x {
			v += (math.Abs(c) - 0.5) * (math.Abs(c) - 0.5)
		}
		if err := o.Tell(x, v); err != nil {
			t.Fatal(err)
		}
	}
	if o.classes == nil || o.ard != nil {
		t.Errorf("signflip(4), alike along every coordinate: classes %v, scales %v: want classes and no scales", o.classes, o.ard)
	}
	perm := must(orbit.Permutation(3))
	o = must(New([]float64{0, 0, 0}, []float64{1, 1, 1}, Config{Kernel: Plus(perm, kernel.RBF), Init: 4, Protocol: Protocol{ARD: true}}, 1))
	if o.classes != nil {
		t.Errorf("permutation(3): classes %v, want none", o.classes)
	}
}
