package problem_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/bo/problem/problemtest"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// freshNames are the fresh held-out set's problems (lab/suite/fresh.md),
// in its order; the two declared with a wrong group are marked.
var freshNames = []struct {
	name  string
	wrong bool
}{
	{"StyblinskiAbs4d", false}, {"OffLevy6d", false}, {"OffRosen5d", false}, {"Targets4x2d", false},
	{"Halo2d", false}, {"Salomon4d", false}, {"DiagRastrigin6d", false}, {"TiltedRing2d", true},
	{"WrongPerm4d", true}, {"Pumps6d", false}, {"Rig7d", false}, {"OffLevy10dPerm", false},
}

// TestFreshConformance runs problemtest.Run on every problem of the fresh
// set (the two with a wrong group on purpose under the trivial group, as
// the suite's are: TestSuiteConformance).
func TestFreshConformance(t *testing.T) {
	for _, c := range freshNames {
		name := c.name
		if c.wrong {
			name += problem.NoGroupSuffix
		}
		p := mustNew(t, name, 0)
		t.Run(p.Name(), func(t *testing.T) { problemtest.Run(t, p) })
	}
}

// TestFreshDeclarations checks the declarations against the page's table
// (written out here).
func TestFreshDeclarations(t *testing.T) {
	cases := []heldOutDecl{
		{"StyblinskiAbs4d", rep(4, -5), rep(4, 5), "signflip", 16, -100.11778662113576, 0.01},
		{"OffLevy6d", rep(6, -5), rep(6, 5), "permutation", 720, 0, 0},
		{"OffRosen5d", rep(5, -3), rep(5, 3), "hyperoctahedral", 3840, 0, 0.05},
		{"Targets4x2d", rep(8, -2), rep(8, 2), "blockperm(4,2)", 24, 0, 0},
		{"Halo2d", rep(2, -2.5), rep(2, 2.5), "rotation2d", 0, 0, 0.01},
		{"Salomon4d", rep(4, -4), rep(4, 4), "hyperoctahedral", 384, 0, 0.01},
		{"DiagRastrigin6d", rep(6, -3), rep(6, 3), "permutation", 720, 0, 0.05},
		{"TiltedRing2d", rep(2, -2.5), rep(2, 2.5), "rotation2d", 0, -0.22587921214551734, 0},
		{"WrongPerm4d", rep(4, -2), rep(4, 2), "permutation", 24, 0, 0.01},
		{"Pumps6d", []float64{0, 0, 0, 250, 0, 0}, []float64{500, 500, 500, 400, 4, 1}, "permutation(3)@[0,1,2]/6", 6, 0, 0.05},
		{"Rig7d", []float64{-90, -90, -90, 1e3, 0, 0, -1}, []float64{90, 90, 90, 1e6, 0.01, 1e5, 1}, "hyperoctahedral(3)@[0,1,2]/7", 48, 0, 0.01},
		{"OffLevy10dPerm", rep(10, -5), rep(10, 5), "permutation", 3628800, 0, 0.01},
	}
	names := make([]string, len(freshNames))
	for i, c := range freshNames {
		names[i] = c.name
	}
	checkHeldOutDecls(t, problem.ClassFresh, names, cases)
}

// heldOutDecl is one row of a held-out set's page, written out: the name,
// the box, the group's name (a prefix of it) and order (0: continuous),
// f* and the noise fraction.
type heldOutDecl struct {
	name   string
	lo, hi []float64
	group  string
	order  int64
	fstar  float64
	noise  float64
}

// checkHeldOutDecls checks that the problems names, in that order, are
// declared as cases says, with the RBF base kernel, minimized, and
// registered in class.
func checkHeldOutDecls(t *testing.T, class string, names []string, cases []heldOutDecl) {
	t.Helper()
	if len(cases) != len(names) {
		t.Fatalf("%d cases for %d problems", len(cases), len(names))
	}
	for i, c := range cases {
		if names[i] != c.name {
			t.Fatalf("case %d is %s, the set has %s", i, c.name, names[i])
		}
		p := mustNew(t, strings.ToUpper(c.name), 0)
		lo, hi := p.Bounds()
		if p.Name() != c.name || p.Dim() != len(c.lo) || !slices.Equal(lo, c.lo) || !slices.Equal(hi, c.hi) {
			t.Errorf("%s: built %s, d = %d, box %v, %v", c.name, p.Name(), p.Dim(), lo, hi)
		}
		g := p.Group()
		if !strings.HasPrefix(g.Name(), c.group) {
			t.Errorf("%s: group %s, want %s", c.name, g.Name(), c.group)
		}
		if o := g.Order(); (c.order == 0) != (o == nil) || (o != nil && o.Int64() != c.order) {
			t.Errorf("%s: |G| = %v, want %d", c.name, o, c.order)
		}
		if f, ok := p.Optimum(); !ok || math.Abs(f-c.fstar) > 1e-12 {
			t.Errorf("%s: Optimum %v, %v, want %v", c.name, f, ok, c.fstar)
		}
		if p.NoiseFraction() != c.noise || p.BaseShape() != kernel.RBF || p.Maximize() {
			t.Errorf("%s: noise %v (want %v), shape %v, maximize %v", c.name, p.NoiseFraction(), c.noise, p.BaseShape(), p.Maximize())
		}
		j := slices.IndexFunc(problem.Families(), func(f problem.Info) bool { return strings.EqualFold(f.Name, c.name) })
		if j < 0 || problem.Families()[j].Class != class {
			t.Errorf("%s: not registered in class %q", c.name, class)
		}
	}
}

// Independent forms: the textbook Levy of w = 1 + (z − 1)/4 at z = u + 1,
// Rosenbrock, and Styblinski–Tang.
func levyRef(u []float64) float64 {
	w := make([]float64, len(u))
	for i := range u {
		w[i] = 1 + (u[i]+1-1)/4
	}
	d := len(w)
	f := math.Pow(math.Sin(math.Pi*w[0]), 2)
	for i := 0; i < d-1; i++ {
		f += math.Pow(w[i]-1, 2) * (1 + 10*math.Pow(math.Sin(math.Pi*w[i]+1), 2))
	}
	return f + math.Pow(w[d-1]-1, 2)*(1+math.Pow(math.Sin(2*math.Pi*w[d-1]), 2))
}

func rosenRef(z []float64) float64 {
	var f float64
	for i := 0; i+1 < len(z); i++ {
		f += 100*math.Pow(z[i+1]-z[i]*z[i], 2) + math.Pow(1-z[i], 2)
	}
	return f
}

// TestFreshValues compares Evaluate with the page's formulas written out
// independently, at points off the optima.
func TestFreshValues(t *testing.T) {
	lin := func(a, b float64, n int) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = a + (b-a)*float64(i)/float64(n-1)
		}
		return out
	}
	radius := func(x []float64) float64 { return math.Sqrt(x[0]*x[0] + x[1]*x[1]) }
	cases := []struct {
		name string
		f    func(x []float64) float64
		xs   [][]float64
	}{
		{"StyblinskiAbs4d", func(x []float64) float64 {
			var s float64
			for _, v := range x {
				a := math.Abs(v)
				s += math.Pow(a, 4) - 16*a*a + 5*a
			}
			return s / 2
		}, [][]float64{{0, 1, -2, 5}, {-3, 2.7, 4.4, -0.1}}},
		{"OffLevy6d", func(x []float64) float64 { return levyRef(sortedMinus(x, lin(-2.5, 2.5, 6), false)) },
			[][]float64{rep(6, 0), {5, -5, 1, 0.3, -2, 4}}},
		{"OffRosen5d", func(x []float64) float64 {
			z := sortedMinus(x, []float64{0.3, 0.7, 1.1, 1.5, 1.9}, true)
			for i := range z {
				z[i]++
			}
			return rosenRef(z) / 100
		}, [][]float64{rep(5, 0), {-3, 2, 0.5, -1.25, 2.9}}},
		{"Targets4x2d", func(x []float64) float64 {
			tg := [][2]float64{{-1, -1}, {1, -0.5}, {-0.5, 1}, {1.2, 1.2}}
			h := func(ux, uy float64) float64 {
				return ux*ux + uy*uy + 0.3*(2-math.Cos(3*math.Pi*ux)-math.Cos(3*math.Pi*uy))
			}
			// Every assignment, by Heap's algorithm over the target order.
			perm := []int{0, 1, 2, 3}
			best := math.Inf(1)
			var heap func(k int)
			heap = func(k int) {
				if k == 1 {
					var s float64
					for i, j := range perm {
						s += h(x[2*i]-tg[j][0], x[2*i+1]-tg[j][1])
					}
					best = math.Min(best, s)
					return
				}
				for i := 0; i < k; i++ {
					heap(k - 1)
					if k%2 == 0 {
						perm[i], perm[k-1] = perm[k-1], perm[i]
					} else {
						perm[0], perm[k-1] = perm[k-1], perm[0]
					}
				}
			}
			heap(4)
			return best
		}, [][]float64{rep(8, 0), {1.2, 1.2, -1, -1, 1, -0.5, -0.5, 1.1}, {2, -2, 0.3, 0.1, -1.9, 1.5, 0, 0}}},
		{"Halo2d", func(x []float64) float64 {
			r := radius(x)
			return math.Pow(r-1.5, 2)*(1+math.Pow(math.Sin(5*r), 2)) + 0.1*(1-math.Cos(4*math.Pi*(r-1.5)))
		}, [][]float64{{0, 0}, {1, -2}, {2.5, 2.5}}},
		{"Salomon4d", func(x []float64) float64 {
			r := math.Sqrt(x[0]*x[0] + x[1]*x[1] + x[2]*x[2] + x[3]*x[3])
			return 1 - math.Cos(2*math.Pi*r) + 0.1*r
		}, [][]float64{{1, 1, 1, 1}, {-4, 0.2, 3, -0.7}}},
		{"DiagRastrigin6d", func(x []float64) float64 {
			s := 18.0
			for _, v := range x {
				s += (v-1)*(v-1) - 3*math.Cos(2*math.Pi*(v-1))
			}
			return s
		}, [][]float64{rep(6, 0), {-3, 3, 1, 0.5, 1.5, 2}}},
		{"TiltedRing2d", func(x []float64) float64 {
			r := radius(x)
			return (r-1.5)*(r-1.5) + 0.3*(1-math.Cos(6*(r-1.5))) + 0.15*x[0]
		}, [][]float64{{0, 0}, {1.5, 0}, {-1, 2}}},
		{"WrongPerm4d", func(x []float64) float64 {
			w, c := []float64{1, 2, 4, 8}, []float64{-1, -0.3, 0.4, 1.1}
			var s float64
			for i := range x {
				s += w[i] * (math.Pow(x[i]-c[i], 2) + 0.2*(1-math.Cos(2*math.Pi*(x[i]-c[i]))))
			}
			return s
		}, [][]float64{rep(4, 0), {1.1, 0.4, -0.3, -1}}},
		{"Pumps6d", func(x []float64) float64 {
			q := slices.Clone(x[:3])
			sort.Float64s(q)
			s := math.Pow(q[0]/100-1, 2) + math.Pow(q[1]/100-2.5, 2) + math.Pow(q[2]/100-4, 2)
			s += 0.2 * (1 - math.Cos(2*math.Pi*(x[0]+x[1]+x[2]-750)/100))
			u, v := (x[3]-330)/40, (x[5]-0.35)/0.2
			return s + u*u + 0.5*u*v + v*v + math.Pow(x[4]-2.2, 2)/2
		}, [][]float64{{0, 500, 123, 250, 4, 1}, {400, 250, 100, 330, 2.2, 0.35}, {77, 300, 300, 399, 0.5, 0}}},
		{"Rig7d", func(x []float64) float64 {
			a := []float64{math.Abs(x[0]) / 30, math.Abs(x[1]) / 30, math.Abs(x[2]) / 30}
			sort.Float64s(a)
			u := []float64{a[0] - 0.4, a[1] - 1.1, a[2] - 2.2}
			return levyRef(u) + math.Pow((x[3]-3.7e5)/2e5, 2) + math.Pow((x[4]-0.004)/0.003, 2) + math.Pow(x[6]-0.2, 2)
		}, [][]float64{{-90, 10, 45, 1e3, 0.01, 7, -1}, {12, -33, 66, 3.7e5, 0.004, 1e5, 0.2}}},
		{"OffLevy10dPerm", func(x []float64) float64 { return levyRef(sortedMinus(x, lin(-3, 3, 10), false)) },
			[][]float64{rep(10, 0), lin(5, -5, 10)}},
	}
	for _, c := range cases {
		p := mustNew(t, c.name, 0)
		for _, x := range c.xs {
			got := must(p.Evaluate(x))
			if want := c.f(x); math.Abs(got-want) > 1e-10*math.Max(1, math.Abs(want)) {
				t.Errorf("%s at %v = %.17g, want %.17g", c.name, x, got, want)
			}
		}
	}
}

// TestFreshOptima: the registered optimizers evaluate to f*, no point of
// 20000 drawn uniformly in the box is below it, and each element of the
// declared group maps an optimizer to an optimum; on the "off" problems
// no non-identity element fixes it (a free orbit; for 10! permutations,
// distinct coordinates), on Salomon4d and DiagRastrigin6d every element
// does. StyblinskiAbs4d's and
// TiltedRing2d's constants are recomputed by bisection.
func TestFreshOptima(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, c := range freshNames {
		p := mustNew(t, c.name, 0)
		fstar, ok := p.Optimum()
		if !ok {
			t.Fatalf("%s: optimum unknown", c.name)
		}
		for _, x := range p.Optimizers() {
			if v := must(p.Evaluate(x)); math.Abs(v-fstar) > 1e-12 {
				t.Errorf("%s: f(%v) = %.17g, f* = %.17g", c.name, x, v, fstar)
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
		g, finite := p.Group().(orbit.Finite)
		if !finite || c.wrong {
			continue
		}
		n := int(p.Group().Order().Int64())
		if n > 1<<16 {
			// OffLevy10dPerm (10! elements): a free orbit of the
			// permutations is a point with distinct coordinates.
			for _, x := range p.Optimizers() {
				z := slices.Clone(x)
				sort.Float64s(z)
				for i := 1; i < len(z); i++ {
					if z[i] == z[i-1] {
						t.Errorf("%s: optimizer %v is not on a free orbit", c.name, x)
					}
				}
			}
			continue
		}
		on := c.name == "Salomon4d" || c.name == "DiagRastrigin6d"
		for _, x := range p.Optimizers() {
			checkOrbitOptimal(t, c.name, p, g, n, fstar, x, on)
		}
	}
	bisect := func(f func(float64) float64, a, b float64) float64 {
		for range 200 {
			m := (a + b) / 2
			if (f(a) < 0) == (f(m) < 0) {
				a = m
			} else {
				b = m
			}
		}
		return (a + b) / 2
	}
	ts := bisect(func(t float64) float64 { return 4*t*t*t - 32*t + 5 }, 2, 3.5)
	fs, _ := mustNew(t, "StyblinskiAbs4d", 0).Optimum()
	if want := 2 * (math.Pow(ts, 4) - 16*ts*ts + 5*ts); math.Abs(ts-2.746802770990837) > 1e-14 || math.Abs(want-fs) > 1e-12 {
		t.Errorf("StyblinskiAbs4d: root %.17g, f* %.17g", ts, want)
	}
	r := bisect(func(r float64) float64 { return 2*(r-1.5) + 1.8*math.Sin(6*(r-1.5)) - 0.15 }, 1.4, 1.6)
	g := (r-1.5)*(r-1.5) + 0.3*(1-math.Cos(6*(r-1.5))) - 0.15*r
	p := mustNew(t, "TiltedRing2d", 0)
	if ft, _ := p.Optimum(); math.Abs(r+p.Optimizers()[0][0]) > 1e-14 || math.Abs(g-ft) > 1e-14 {
		t.Errorf("TiltedRing2d: r* %.17g, f* %.17g; registered %v, %v", r, g, p.Optimizers(), ft)
	}
}

// checkOrbitOptimal checks that each non-identity element of g (of order
// n) maps the optimizer x of p to a point where f is fstar, and that every
// such element fixes x when on (an optimum on the fixed points), none
// otherwise (a free orbit).
func checkOrbitOptimal(t *testing.T, name string, p *problem.Problem, g orbit.Finite, n int, fstar float64, x []float64, on bool) {
	t.Helper()
	gx := make([]float64, len(x))
	fixed := 0
	for i := 1; i < n; i++ {
		g.ActTo(gx, x, i)
		if slices.Equal(gx, x) {
			fixed++
		}
		if v := must(p.Evaluate(gx)); math.Abs(v-fstar) > 1e-9 {
			t.Errorf("%s: f(g_%d·x*) = %v, want %v", name, i, v, fstar)
			return
		}
	}
	if want := map[bool]int{true: n - 1, false: 0}[on]; fixed != want {
		t.Errorf("%s: %d non-identity elements fix %v, want %d", name, fixed, x, want)
	}
}

// TestFreshWrongGroups: TiltedRing2d and WrongPerm4d change value under an
// element of their declared group.
func TestFreshWrongGroups(t *testing.T) {
	for _, c := range []struct {
		name string
		x, y []float64
	}{
		{"TiltedRing2d", []float64{1.5, 0}, []float64{-1.5, 0}},
		{"WrongPerm4d", []float64{-1, -0.3, 0.4, 1.1}, []float64{1.1, -0.3, 0.4, -1}},
	} {
		p := mustNew(t, c.name, 0)
		if fx, fy := must(p.Evaluate(c.x)), must(p.Evaluate(c.y)); !(math.Abs(fx-fy) > 0.1) {
			t.Errorf("%s: f(x) = %v, f(g·x) = %v", c.name, fx, fy)
		}
	}
}
