package problem_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/bo/problem/problemtest"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func mustNew(t testing.TB, name string, d int) *problem.Problem {
	t.Helper()
	p, err := problem.New(name, d)
	if err != nil {
		t.Fatalf("New(%q, %d): %v", name, d, err)
	}
	return p
}

func TestConformance(t *testing.T) {
	cases := []struct {
		name string
		d    int
	}{
		{"ackley", 0}, {"ackley", 1}, {"ackley", 3}, {"ackley", 5},
		{"griewank", 0}, {"griewank", 1}, {"griewank", 2},
		{"rastrigin", 0}, {"rastrigin", 1}, {"rastrigin", 2},
		{"radial", 0}, {"scaling", 0},
		{"wlan", 0}, {"wlan", 2}, {"wlan", 6},
		{"radialscaled", 0},
		{"shiftedackley", 0}, {"shiftedackley", 3}, {"shiftedrastrigin", 0}, {"shiftedrastrigin", 2},
		{"shiftedgriewank", 0}, {"shiftedgriewank", 2},
		{"centredackley", 0}, {"centredackley", 3}, {"centredrastrigin", 0}, {"centredrastrigin", 2},
		{"centredgriewank", 0}, {"centredgriewank", 2},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			name string
			d    int
		}{"ackley", problem.MaxDim}, struct {
			name string
			d    int
		}{"rastrigin", 8})
	}
	for _, c := range cases {
		p := mustNew(t, c.name, c.d)
		t.Run(p.Name(), func(t *testing.T) { problemtest.Run(t, p) })
	}
	// A WLAN with a custom layout: 3 users, 2 APs.
	p, err := problem.NewWLAN([][2]float64{{0, 0}, {-50, 50}, {10, -3}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("WLAN-custom", func(t *testing.T) { problemtest.Run(t, p) })
}

// TestDeclarations checks each problem's paper settings against the table
// in the issue (written out here, not read from the package).
func TestDeclarations(t *testing.T) {
	cases := []struct {
		name   string
		want   string
		d      int
		lo, hi float64
		group  string // orbit group name prefix
		order  int64  // 0: continuous
		shape  kernel.Shape
		chosen bool
		max    bool
		known  bool
	}{
		{"ackley", "Ackley2d", 2, -16, 16, "hyperoctahedral", 8, kernel.Matern52, false, false, true},
		{"griewank", "Griewank6d", 6, -600, 600, "signflip", 64, kernel.RBF, true, false, true},
		{"rastrigin", "Rastrigin5d", 5, -5.12, 5.12, "hyperoctahedral", 3840, kernel.RBF, true, false, true},
		{"radial", "Radial2d", 2, -10, 10, "rotation2d", 0, kernel.RBF, false, false, true},
		{"scaling", "Scaling2d", 2, 0.1, 10, "scaling", 0, kernel.RBF, false, false, true},
		{"wlan", "WLAN8d", 8, -50, 50, "pairedperm", 24, kernel.Matern32, false, true, false},
		{"radialscaled", "RadialScaled2d", 2, -10, 10, "rotation2d", 0, kernel.RBF, false, false, true},
		{"shiftedackley", "ShiftedAckley2d", 2, -16, 16, "hyperoctahedral", 8, kernel.Matern52, true, false, true},
		{"shiftedrastrigin", "ShiftedRastrigin4d", 4, -5.12, 5.12, "permutation", 24, kernel.RBF, true, false, true},
		{"shiftedgriewank", "ShiftedGriewank6d", 6, -600, 600, "signflip", 64, kernel.RBF, true, false, true},
		{"centredackley", "CentredAckley2d", 2, -16, 16, "hyperoctahedral", 8, kernel.Matern52, true, false, true},
		{"centredrastrigin", "CentredRastrigin4d", 4, -5.12, 5.12, "permutation", 24, kernel.RBF, true, false, true},
		{"centredgriewank", "CentredGriewank6d", 6, -600, 600, "signflip", 64, kernel.RBF, true, false, true},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			p := mustNew(t, c.name, 0)
			if p.Name() != c.want || p.Dim() != c.d {
				t.Errorf("Name, Dim = %q, %d, want %q, %d", p.Name(), p.Dim(), c.want, c.d)
			}
			lo, hi := p.Bounds()
			for i := range lo {
				if lo[i] != c.lo || hi[i] != c.hi {
					t.Errorf("Bounds[%d] = [%v, %v], want [%v, %v]", i, lo[i], hi[i], c.lo, c.hi)
				}
			}
			g := p.Group()
			if !strings.HasPrefix(g.Name(), c.group) {
				t.Errorf("Group %s, want %s", g.Name(), c.group)
			}
			if o := g.Order(); (c.order == 0) != (o == nil) || (o != nil && o.Int64() != c.order) {
				t.Errorf("|G| = %v, want %d (0: infinite)", o, c.order)
			}
			if p.BaseShape() != c.shape || p.BaseChosen() != c.chosen {
				t.Errorf("BaseShape, BaseChosen = %v, %v, want %v, %v", p.BaseShape(), p.BaseChosen(), c.shape, c.chosen)
			}
			if p.Maximize() != c.max {
				t.Errorf("Maximize = %v", p.Maximize())
			}
			if f, ok := p.Optimum(); ok != c.known || (ok && f != 0) {
				t.Errorf("Optimum = %v, %v", f, ok)
			}
			// Also reachable by the paper's spelling.
			if q, err := problem.New(c.want, 0); err != nil || q.Name() != c.want {
				t.Errorf("New(%q, 0) = %v, %v", c.want, q, err)
			}
		})
	}
}

// TestValues compares Value with values worked out by hand (closed forms
// written independently of the package's code).
func TestValues(t *testing.T) {
	e := math.E
	s5 := math.Sqrt(5)
	cases := []struct {
		name string
		x    []float64
		want float64
	}{
		{"ackley", []float64{0, 0}, 0},
		{"ackley", []float64{1, 1}, 20 * (1 - math.Exp(-0.2))}, // 3.6253849384403627
		{"ackley", []float64{1, -1}, 20 * (1 - math.Exp(-0.2))},
		{"ackley", []float64{0.5, -0.5}, 20*(1-math.Exp(-0.1)) + e - 1/e}, // mean cos = −1
		{"ackley", []float64{0.5, 0}, 20*(1-math.Exp(-0.2*math.Sqrt(0.125))) + e - 1},
		{"ackley1d", []float64{-3}, 20*(1-math.Exp(-0.6)) + e - e},
		{"ackley3d", []float64{16, -16, 16}, 20*(1-math.Exp(-3.2)) + e - e},
		{"rastrigin", []float64{0, 0, 0, 0, 0}, 0},
		{"rastrigin", []float64{1, -2, 3, 0, 0}, 14},
		{"rastrigin", []float64{0.5, 0.5, -0.5, 0.5, -0.5}, 5 * (0.25 + 20)},
		{"rastrigin2d", []float64{-4.5, 4.5}, 2 * (20.25 + 20)},
		{"rastrigin1d", []float64{5.12}, 5.12*5.12 + 10 - 10*math.Cos(2*math.Pi*5.12)},
		{"griewank", []float64{0, 0, 0, 0, 0, 0}, 0},
		{"griewank", []float64{math.Pi, 0, 0, 0, 0, 0}, 2 + math.Pi*math.Pi/4000},
		{"griewank", []float64{0, math.Pi * math.Sqrt2, 0, 0, 0, 0}, 2 + 2*math.Pi*math.Pi/4000},
		{"griewank", []float64{
			2 * math.Pi, 2 * math.Pi * math.Sqrt(2), 2 * math.Pi * math.Sqrt(3),
			4 * math.Pi, 2 * math.Pi * math.Sqrt(5), 2 * math.Pi * math.Sqrt(6),
		}, 4 * math.Pi * math.Pi * 21 / 4000},
		{"griewank1d", []float64{600}, 91 - math.Cos(600)},
		{"radial", []float64{8, 8}, 0},
		{"radial", []float64{3, 3}, 20.25},          // t = 0.3 − 0.8 = −0.5
		{"radial", []float64{0, 0}, 13.14 - 2.5*s5}, // t = −0.8, cos 288° = (√5−1)/4
		{"radial", []float64{-3, 3}, 20.25},
		{"scaling", []float64{2, 1}, 1},
		{"scaling", []float64{1, 2}, 0.25},
		{"scaling", []float64{10, 0.1}, 99 * 99},
		{"scaling", []float64{0.1, 10}, 0.99 * 0.99},
		{"scaling", []float64{7, 7}, 0},
		// RadialScaled: t = 5.12·(‖x‖/a − b); ‖x‖/a = 0.8 + 25/256 gives t = 0.5.
		{"radialscaled", []float64{8, 8}, 0},
		{"radialscaled", []float64{8.9765625, -8.9765625}, 20.25},
		// ShiftedAckley2d: c = (3.2, 9.6); at the origin z = −c, Σz²/2 = 51.2
		// and the mean cosine is (cos 0.4π + cos 1.2π)/2 = −1/4.
		{"shiftedackley", []float64{0, 0}, 20*(1-math.Exp(-0.2*math.Sqrt(51.2))) + e - math.Exp(-0.25)},
		{"shiftedackley", []float64{-9.6, 3.2}, 0},
		{"shiftedackley", []float64{3.2, 9.6}, 0},
		// ShiftedRastrigin4d: c = (−3.072, −1.024, 1.024, 3.072).
		{"shiftedrastrigin", []float64{1.024, -1.024, 3.072, -3.072}, 0},
		{"shiftedrastrigin", []float64{3.072, -2.572, -1.024, 1.024}, 20.25}, // z = (½, 0, 0, 0)
		// ShiftedGriewank6d: c = (40, 120, …, 440); z = (0, …, 0, 2π√6).
		{"shiftedgriewank", []float64{-40, 120, -200, 280, 360, -440}, 0},
		{"shiftedgriewank", []float64{-40, 120, 200, 280, 360, 440 + 2*math.Pi*math.Sqrt(6)}, 24 * math.Pi * math.Pi / 4000},
		// The fixed-point twins (c = 0): minimum 0 at the origin. At x = c
		// CentredAckley2d's z = (3.2, 9.6), the value ShiftedAckley2d takes
		// at the origin (z = −c).
		{"centredackley", []float64{0, 0}, 0},
		{"centredackley", []float64{1, -1}, 20 * (1 - math.Exp(-0.2))},
		{"centredackley", []float64{-9.6, 3.2}, 20*(1-math.Exp(-0.2*math.Sqrt(51.2))) + e - math.Exp(-0.25)},
		{"centredackley", []float64{0, 0.5}, 20*(1-math.Exp(-0.2*math.Sqrt(0.125))) + e - 1},
		{"centredrastrigin", []float64{0, 0, 0, 0}, 0},
		{"centredrastrigin", []float64{3, 0, -2, 1}, 14},
		{"centredrastrigin", []float64{0, 0.5, 0, 0}, 20.25},
		{"centredgriewank", []float64{0, 0, 0, 0, 0, 0}, 0},
		{"centredgriewank", []float64{-math.Pi, 0, 0, 0, 0, 0}, 2 + math.Pi*math.Pi/4000},
		{"centredgriewank", []float64{0, -math.Pi * math.Sqrt2, 0, 0, 0, 0}, 2 + 2*math.Pi*math.Pi/4000},
		{"centredgriewank", []float64{0, 0, 0, 0, 0, -2 * math.Pi * math.Sqrt(6)}, 24 * math.Pi * math.Pi / 4000},
	}
	for _, c := range cases {
		p := mustNew(t, c.name, 0)
		got, err := p.Evaluate(c.x)
		if err != nil {
			t.Errorf("%s.Evaluate(%v): %v", p.Name(), c.x, err)
			continue
		}
		if math.Abs(got-c.want) > 1e-12*math.Max(1, math.Abs(c.want)) {
			t.Errorf("%s.Evaluate(%v) = %.17g, want %.17g", p.Name(), c.x, got, c.want)
		}
	}
}

// TestOptimaBeatGrid checks on a fine grid that no point beats the declared
// optimum and that the grid's best point is near a declared optimizer.
func TestOptimaBeatGrid(t *testing.T) {
	for _, name := range []string{"ackley", "radial", "scaling", "rastrigin2d", "griewank2d", "radialscaled", "shiftedackley", "shiftedrastrigin2d", "shiftedgriewank2d",
		"centredackley", "centredrastrigin2d", "centredgriewank2d"} {
		p := mustNew(t, name, 0)
		lo, hi := p.Bounds()
		fstar, _ := p.Optimum()
		const n = 401
		best := math.Inf(1)
		for i := range n {
			for j := range n {
				x := []float64{lo[0] + (hi[0]-lo[0])*float64(i)/(n-1), lo[1] + (hi[1]-lo[1])*float64(j)/(n-1)}
				f, err := p.Evaluate(x)
				if err != nil {
					t.Fatal(err)
				}
				best = math.Min(best, f)
			}
		}
		if best < fstar-1e-12 {
			t.Errorf("%s: grid min %v < Optimum %v", p.Name(), best, fstar)
		}
	}
}

func TestNewErrors(t *testing.T) {
	cases := []struct {
		name string
		d    int
		want error
	}{
		{"", 0, problem.ErrUnknown},
		{"nosuchproblem", 2, problem.ErrUnknown},
		{"ackleyd", 0, problem.ErrUnknown},
		{"ackley2", 0, problem.ErrUnknown},
		{"ackley", -1, problem.ErrDim},
		{"ackley", problem.MaxDim + 1, problem.ErrDim},
		{"griewank", 1000, problem.ErrDim},
		{"rastrigin17d", 0, problem.ErrDim},
		{"ackley0d", 0, problem.ErrDim},
		{"ackley2d", 3, problem.ErrDim},
		{"radial", 3, problem.ErrDim},
		{"radial", 1, problem.ErrDim},
		{"scaling3d", 0, problem.ErrDim},
		{"wlan", 7, problem.ErrDim},
		{"wlan", 2*problem.MaxAPs + 2, problem.ErrDim},
		{"ackley2d:none", 3, problem.ErrDim},
		{"nosuchproblem:none", 0, problem.ErrUnknown},
		{":none", 0, problem.ErrUnknown},
		{"ackley2d:none:none", 0, problem.ErrUnknown},
	}
	for _, c := range cases {
		p, err := problem.New(c.name, c.d)
		if !errors.Is(err, c.want) {
			t.Errorf("New(%q, %d) = %v, %v; want error %v", c.name, c.d, p, err, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "problem: ") {
			t.Errorf("New(%q, %d): error %q lacks the package prefix", c.name, c.d, err)
		}
	}
	// Case and suffix spellings that work.
	for _, s := range []string{"ACKLEY", " Ackley ", "ackley2d", "Rastrigin5D", "wlan8d", "WLAN4d"} {
		if _, err := problem.New(s, 0); err != nil {
			t.Errorf("New(%q, 0): %v", s, err)
		}
	}
	if p := mustNew(t, "ackley7d", 7); p.Dim() != 7 {
		t.Errorf("ackley7d has Dim %d", p.Dim())
	}
}

// sameBits checks that q evaluates to p's bits at n uniform points of
// p's box (stream seed).
func sameBits(t *testing.T, p, q *problem.Problem, n int, seed uint64) {
	t.Helper()
	lo, hi := p.Bounds()
	r := rand.New(rand.NewPCG(seed, uint64(len(p.Name()))))
	for range n {
		x := make([]float64, len(lo))
		for i := range x {
			x[i] = lo[i] + (hi[i]-lo[i])*r.Float64()
		}
		a, errA := p.Evaluate(x)
		b, errB := q.Evaluate(x)
		if errA != nil || errB != nil || math.Float64bits(a) != math.Float64bits(b) {
			t.Fatalf("%s at %v: %v, %v against %s's %v, %v", q.Name(), x, b, errB, p.Name(), a, errA)
		}
	}
}

// TestNoGroup: "<name>:none" is the named objective, bit for bit, with the
// trivial group declared in place of its own.
func TestNoGroup(t *testing.T) {
	for _, name := range []string{"Ackley2d", "Rastrigin5d", "Scaling2d", "WLAN8d", "ShiftedRastrigin4d"} {
		p, q := mustNew(t, name, 0), mustNew(t, strings.ToUpper(name)+":None", 0)
		if q.Name() != p.Name()+":none" || q.Dim() != p.Dim() || q.Maximize() != p.Maximize() || q.BaseShape() != p.BaseShape() {
			t.Errorf("%s:none: name %q, d %d, maximize %v, shape %v; want %q, %d, %v, %v",
				name, q.Name(), q.Dim(), q.Maximize(), q.BaseShape(), p.Name()+":none", p.Dim(), p.Maximize(), p.BaseShape())
		}
		if g := q.Group(); !strings.HasPrefix(g.Name(), "none(") || g.Dim() != p.Dim() || g.Order() == nil || g.Order().Int64() != 1 {
			t.Errorf("%s:none: group %s (d %d, order %v), want the trivial group on R^%d", name, g.Name(), g.Dim(), g.Order(), p.Dim())
		}
		if strings.HasPrefix(p.Group().Name(), "none(") {
			t.Errorf("%s declares the trivial group itself", name)
		}
		sameBits(t, p, q, 20, 7)
		if p.NoiseVariance() != q.NoiseVariance() {
			t.Errorf("%s:none: noise variance %v, want %v", name, q.NoiseVariance(), p.NoiseVariance())
		}
	}
}

// TestDeclaredGroup: "<name>:G" is the named objective, bit for bit, with
// the group G on R^d declared in place of its own (its name keeps the
// suffix); Griewank6d is not invariant under the hyperoctahedral group it
// can then declare (a signed permutation changes its value: the product
// term weighs coordinate i by 1/√i), ShiftedRastrigin4d not under sign
// flips; a suffix that is not a declarable group, given twice, or that
// does not fit d is an error.
func TestDeclaredGroup(t *testing.T) {
	for _, c := range []struct{ name, group string }{
		{"Griewank6d", "hyperoctahedral"}, {"ShiftedRastrigin4d", "HyperOctahedral"},
		{"WLAN8d", "permutation"}, {"Ackley2d", "rotation2d"}, {"Rastrigin5d", "cyclic"},
	} {
		p, q := mustNew(t, c.name, 0), mustNew(t, c.name+":"+c.group, 0)
		want := must(orbit.Parse(orbit.Spec{Name: c.group, D: p.Dim()}))
		if q.Name() != p.Name()+":"+strings.ToLower(c.group) || q.Group().Name() != want.Name() || q.Dim() != p.Dim() || q.BaseShape() != p.BaseShape() {
			t.Errorf("%s:%s: name %q, group %s, shape %v", c.name, c.group, q.Name(), q.Group().Name(), q.BaseShape())
		}
		sameBits(t, p, q, 10, 9)
	}
	// Wrong groups: the objective changes under an element of the group.
	grie := mustNew(t, "Griewank6d:hyperoctahedral", 0)
	x := []float64{100, -250, 30, 410, -5, 77}
	y := []float64{-250, 100, 30, 410, -5, 77} // a permutation of x
	if a, b := must(grie.Evaluate(x)), must(grie.Evaluate(y)); a == b {
		t.Errorf("Griewank6d at %v and at its permutation %v: both %v", x, y, a)
	}
	sr := mustNew(t, "ShiftedRastrigin4d:hyperoctahedral", 0)
	u := []float64{1.2, -0.7, 2.5, 0.3}
	v := []float64{-1.2, -0.7, 2.5, 0.3} // a sign flip of u
	if a, b := must(sr.Evaluate(u)), must(sr.Evaluate(v)); a == b {
		t.Errorf("ShiftedRastrigin4d at %v and at its sign flip %v: both %v", u, v, a)
	}
	for _, bad := range []string{"ackley2d:foo", "ackley2d:scaling", "ackley2d:none:signflip", "ackley3d:rotation2d", "wlan8d:", ":signflip"} {
		if _, err := problem.New(bad, 0); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestPointErrors(t *testing.T) {
	p := mustNew(t, "ackley", 0)
	cases := []struct {
		x    []float64
		want error
		msg  string
	}{
		{nil, problem.ErrLength, "length 0, want 2"},
		{[]float64{1}, problem.ErrLength, "length 1, want 2"},
		{[]float64{1, 2, 3}, problem.ErrLength, "length 3, want 2"},
		{[]float64{1, math.NaN()}, problem.ErrNotFinite, "x[1] = NaN"},
		{[]float64{math.Inf(-1), 0}, problem.ErrNotFinite, "x[0] = -Inf"},
		{[]float64{17, 0}, problem.ErrOutOfBounds, "x[0] = 17 is outside [-16, 16]"},
		{[]float64{0, -16.000001}, problem.ErrOutOfBounds, "x[1]"},
		{[]float64{100, math.NaN()}, problem.ErrNotFinite, "NaN"}, // NaN is reported first
	}
	for _, c := range cases {
		for _, f := range []func([]float64) (float64, error){p.Evaluate} {
			_, err := f(c.x)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.msg) || !strings.Contains(err.Error(), "Ackley2d") {
				t.Errorf("x = %v: error %v, want %v mentioning %q and Ackley2d", c.x, err, c.want, c.msg)
			}
		}
	}
	if err := p.Check([]float64{16, -16}); err != nil {
		t.Errorf("the box is closed: %v", err)
	}
}

// wlanNaive follows the paper's text literally: association to the
// closest AP (first one on ties), then Σ_{k≠i} interference in index
// order, with distances through Sqrt and min(d^−λ, 1).
func wlanNaive(users [][2]float64, x []float64) float64 {
	m := len(x) / 2
	p0 := math.Pow(10, -46.67/10) // mW
	noise := math.Pow(10, -85.0/10)
	power := func(i int, u [2]float64) float64 {
		d := math.Sqrt((x[i]-u[0])*(x[i]-u[0]) + (x[m+i]-u[1])*(x[m+i]-u[1]))
		return p0 * math.Min(1, 1/(d*d*d))
	}
	total := 0.0
	for _, u := range users {
		best := 0
		for i := 1; i < m; i++ {
			if math.Hypot(x[i]-u[0], x[m+i]-u[1]) < math.Hypot(x[best]-u[0], x[m+best]-u[1]) {
				best = i
			}
		}
		interf := 0.0
		for k := 0; k < m; k++ {
			if k != best {
				interf += power(k, u)
			}
		}
		total += 1 * math.Log2(1+power(best, u)/(noise+interf))
	}
	return total
}

func TestWLANByHand(t *testing.T) {
	// One AP at the origin, one user 10 m away: P = 10^(−4.667−3) mW,
	// γ = P/N = 10^(−7.667+8.5) = 10^0.833.
	one := func(users [][2]float64, ap []float64, want float64) {
		t.Helper()
		p, err := problem.NewWLAN(users, len(ap)/2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Evaluate(ap)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("users %v, APs %v: %.17g Mbps, want %.17g", users, ap, got, want)
		}
	}
	one([][2]float64{{10, 0}}, []float64{0, 0}, math.Log2(1+math.Pow(10, 0.833)))
	one([][2]float64{{-40, 30}}, []float64{-34, 22}, math.Log2(1+math.Pow(10, 0.833))) // 6-8-10 triangle
	// Within 1 m the power saturates at 10^−4.667 mW: γ = 10^3.833.
	one([][2]float64{{0.6, 0.8}}, []float64{0, 0}, math.Log2(1+math.Pow(10, 3.833)))
	one([][2]float64{{5, 5}}, []float64{5, 5}, math.Log2(1+math.Pow(10, 3.833)))
	// Two APs at (0,0) and (20,0); user A at (0,0.5) is served by AP 1
	// (saturated) with AP 2 at √400.25 m interfering; user B at (30,0) by
	// AP 2 at 10 m with AP 1 at 30 m interfering. In units of N:
	// p0/N = 10^3.833.
	g := math.Pow(10, 3.833)
	gA := g / (1 + g*math.Pow(400.25, -1.5))
	gB := g * 1e-3 / (1 + g/27000)
	one([][2]float64{{0, 0.5}, {30, 0}}, []float64{0, 20, 0, 0}, math.Log2(1+gA)+math.Log2(1+gB))
	one([][2]float64{{30, 0}, {0, 0.5}}, []float64{20, 0, 0, 0}, math.Log2(1+gA)+math.Log2(1+gB))
	// Two coincident APs: each user gets γ = P/(N+P) < 1.
	gc := g * 1e-3 / (1 + g*1e-3)
	one([][2]float64{{10, 0}}, []float64{0, 0, 0, 0}, math.Log2(1+gc))
}

func TestWLANNaive(t *testing.T) {
	p := mustNew(t, "wlan", 0)
	users := problem.DefaultUsers()
	lo, hi := p.Bounds()
	rng := rand.New(rand.NewPCG(7, 0))
	for k := range 2000 {
		x := make([]float64, 8)
		for i := range x {
			x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
		}
		if k%4 == 0 { // put APs on users, and one AP on another
			x[k%3], x[4+k%3] = users[k%16][0], users[k%16][1]
			x[3], x[7] = x[k%3], x[4+k%3]
		}
		got, _ := p.Evaluate(x)
		want := wlanNaive(users, x)
		if math.Abs(got-want) > 1e-12*want {
			t.Fatalf("Value(%v) = %.17g, naive %.17g", x, got, want)
		}
		ap, mbps, err := p.UserThroughputs(x)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for j, u := range users {
			sum += mbps[j]
			// ap[j] is a closest AP, the lowest index on ties.
			dj := math.Hypot(x[ap[j]]-u[0], x[4+ap[j]]-u[1])
			for i := range 4 {
				di := math.Hypot(x[i]-u[0], x[4+i]-u[1])
				if di < dj || (di == dj && i < ap[j]) {
					t.Fatalf("user %d served by AP %d at %v m, but AP %d is at %v m", j, ap[j], dj, i, di)
				}
			}
		}
		if math.Abs(sum-got) > 1e-12*got {
			t.Fatalf("Σ UserThroughputs = %v, Value = %v", sum, got)
		}
	}
	if _, _, err := mustNew(t, "ackley", 0).UserThroughputs([]float64{0, 0}); err == nil {
		t.Error("UserThroughputs on Ackley: no error")
	}
}

// TestWLANExactInvariance checks f(g·x) == f(x) bitwise for all 24 AP
// permutations, including coincident and equidistant APs.
func TestWLANExactInvariance(t *testing.T) {
	p := mustNew(t, "wlan", 0)
	g, ok := p.Group().(orbit.Finite)
	if !ok {
		t.Fatalf("%s is not Finite", p.Group().Name())
	}
	n, err := orbit.Size(g)
	if err != nil || n != 24 {
		t.Fatalf("orbit.Size = %d, %v", n, err)
	}
	u := problem.DefaultUsers()
	xs := [][]float64{
		{1, -20, 33.3, 7, 2, 40, -9, 12},
		{0, 0, 10, 10, 0, 0, -10, -10},                                  // APs 1=2, 3, 4 coincide in pairs
		{u[0][0], u[0][0], u[1][0], 50, u[0][1], u[0][1], u[1][1], -50}, // on users
		{-10, 10, 0, 0, 0, 0, -10, 10},                                  // equidistant from the origin
		{-50, -50, -50, -50, 50, 50, 50, 50},                            // all four at a corner
	}
	gx := make([]float64, 8)
	for _, x := range xs {
		f, err := p.Evaluate(x)
		if err != nil {
			t.Fatal(err)
		}
		if want := wlanNaive(u, x); math.Abs(f-want) > 1e-12*want {
			t.Errorf("Value(%v) = %v, naive %v", x, f, want)
		}
		for i := range n {
			g.ActTo(gx, x, i)
			if fg, _ := p.Evaluate(gx); fg != f {
				t.Errorf("f(g_%d·x) = %.17g != f(x) = %.17g for x = %v", i, fg, f, x)
			}
		}
	}
}

func TestUsers(t *testing.T) {
	u := problem.DefaultUsers()
	if len(u) != 16 {
		t.Fatalf("%d default users", len(u))
	}
	// The shipped testdata copy equals the embedded one.
	f, err := os.Open("../../testdata/wlan/users16.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := problem.ReadUsers(f, "users.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(u, v) {
		t.Errorf("testdata/wlan/users16.csv differs from the embedded layout")
	}
	// Copies.
	u[0][0] = 99
	if problem.DefaultUsers()[0][0] == 99 {
		t.Error("DefaultUsers returns shared storage")
	}
	users := [][2]float64{{1, 2}}
	p, err := problem.NewWLAN(users, 1)
	if err != nil {
		t.Fatal(err)
	}
	users[0][0] = 3
	if p.Users()[0][0] != 1 {
		t.Error("NewWLAN keeps the caller's slice")
	}
	if mustNew(t, "ackley", 0).Users() != nil {
		t.Error("Ackley has users")
	}

	good := "1,2\n-3.5, 4e1\n"
	if v, err := problem.ReadUsers(strings.NewReader(good), "good"); err != nil || !slices.Equal(v, [][2]float64{{1, 2}, {-3.5, 40}}) {
		t.Errorf("ReadUsers(%q) = %v, %v", good, v, err)
	}
	for _, bad := range []string{"", "1,2,3\n", "1\n", "a,b\n", "1,2\n3\n"} {
		if _, err := problem.ReadUsers(strings.NewReader(bad), "bad"); !errors.Is(err, problem.ErrUsers) {
			t.Errorf("ReadUsers(%q): err = %v, want ErrUsers", bad, err)
		}
	}
	// Reading is bounded by the caller's budget (ReadUsersBudget), the
	// default's by 8 GiB whatever SYMBO_MEMORY_BUDGET says.
	t.Setenv("SYMBO_MEMORY_BUDGET", "1KiB")
	many := strings.Repeat("1,2\n", 1<<12) // 16 KiB of text
	if _, err := problem.ReadUsersBudget(strings.NewReader(many), "many", 16<<10); !errors.Is(err, problem.ErrUsers) || !strings.Contains(err.Error(), "memory budget of 16 KiB") {
		t.Errorf("ReadUsersBudget 16 KiB: err = %v, want ErrUsers naming the budget", err)
	}
	if v, err := problem.ReadUsersBudget(strings.NewReader(many), "many", 1<<20); err != nil || len(v) != 1<<12 {
		t.Errorf("ReadUsersBudget 1 MiB: %d users, %v", len(v), err)
	}
	if v, err := problem.ReadUsers(strings.NewReader(many), "many"); err != nil || len(v) != 1<<12 {
		t.Errorf("ReadUsers: %d users, %v", len(v), err)
	}
	for _, c := range []struct {
		users [][2]float64
		m     int
		want  error
	}{
		{nil, 4, problem.ErrUsers},
		{[][2]float64{{0, 51}}, 4, problem.ErrUsers},
		{[][2]float64{{math.NaN(), 0}}, 4, problem.ErrUsers},
		{[][2]float64{{0, math.Inf(1)}}, 4, problem.ErrUsers},
		{[][2]float64{{0, 0}}, 0, problem.ErrDim},
		{[][2]float64{{0, 0}}, problem.MaxAPs + 1, problem.ErrDim},
	} {
		if _, err := problem.NewWLAN(c.users, c.m); !errors.Is(err, c.want) {
			t.Errorf("NewWLAN(%v, %d): %v, want %v", c.users, c.m, err, c.want)
		}
	}
}

// Closed-form variances over the box, for the noise protocol check.

// momX2Cos returns E[x²·cos(kx)] for x uniform on [−a, a].
func momX2Cos(k, a float64) float64 {
	s, c := math.Sincos(k * a)
	return (a*a*s/k + 2*a*c/(k*k) - 2*s/(k*k*k)) / a
}

func sinc(z float64) float64 { return math.Sin(z) / z }

func varGriewank(d int) float64 {
	const a = 600.0
	es := a * a / 3 / 4000
	es2 := a * a * a * a / 5 / (4000 * 4000)
	ec, ec2, esc := make([]float64, d), make([]float64, d), make([]float64, d)
	for i := range d {
		k := 1 / math.Sqrt(float64(i+1))
		ec[i] = sinc(k * a)
		ec2[i] = (1 + sinc(2*k*a)) / 2
		esc[i] = momX2Cos(k, a) / 4000
	}
	varS := float64(d) * (es2 - es*es)
	pc2, pc := 1.0, 1.0
	for i := range d {
		pc2 *= ec2[i]
		pc *= ec[i]
	}
	varP := pc2 - pc*pc
	var cov float64
	for i := range d {
		rest := 1.0
		for k := range d {
			if k != i {
				rest *= ec[k]
			}
		}
		cov += (esc[i] - es*ec[i]) * rest
	}
	return varS + varP - 2*cov
}

func varRastrigin(d int) float64 {
	const a = 5.12
	k := 2 * math.Pi
	ex2, ex4 := a*a/3, a*a*a*a/5
	ec, ec2, ex2c := sinc(k*a), (1+sinc(2*k*a))/2, momX2Cos(k, a)
	eg := ex2 - 10*ec
	eg2 := ex4 - 20*ex2c + 100*ec2
	return float64(d) * (eg2 - eg*eg)
}

// varScaling is Var (X/Y − 1)² for X, Y independent uniform on [0.1, 10],
// from E[R^k] = E[X^k]·E[Y^−k].
func varScaling() float64 {
	const lo, hi = 0.1, 10.0
	ex := func(k float64) float64 { // E[X^k]
		if k == -1 {
			return math.Log(hi/lo) / (hi - lo)
		}
		return (math.Pow(hi, k+1) - math.Pow(lo, k+1)) / ((k + 1) * (hi - lo))
	}
	er := func(k float64) float64 { return ex(k) * ex(-k) }
	m1 := er(2) - 2*er(1) + 1
	m2 := er(4) - 4*er(3) + 6*er(2) - 4*er(1) + 1
	return m2 - m1*m1
}

// gridVariance is the variance of f over a 2-d box by the midpoint rule.
func gridVariance(p *problem.Problem, n int) float64 {
	lo, hi := p.Bounds()
	var s, s2 float64
	x := make([]float64, 2)
	for i := range n {
		x[0] = lo[0] + (hi[0]-lo[0])*(float64(i)+0.5)/float64(n)
		for j := range n {
			x[1] = lo[1] + (hi[1]-lo[1])*(float64(j)+0.5)/float64(n)
			f, _ := p.Evaluate(x)
			s += f
			s2 += f * f
		}
	}
	nn := float64(n * n)
	return s2/nn - (s/nn)*(s/nn)
}

// TestNoiseVariance checks NoiseVariance against the exact variance of f
// over the box (closed forms, or a fine midpoint grid in 2-d), within the
// sampling error of 2^14 uniform points.
func TestNoiseVariance(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 400
	}
	cases := []struct {
		name string
		d    int
		v    func() float64
		rel  float64
	}{
		{"ackley", 2, func() float64 { return gridVariance(mustNew(t, "ackley", 2), n) }, 0.05},
		{"griewank", 6, func() float64 { return varGriewank(6) }, 0.05},
		{"griewank", 1, func() float64 { return varGriewank(1) }, 0.05},
		{"rastrigin", 5, func() float64 { return varRastrigin(5) }, 0.05},
		{"rastrigin", 1, func() float64 { return varRastrigin(1) }, 0.05},
		{"radial", 2, func() float64 { return gridVariance(mustNew(t, "radial", 2), n) }, 0.05},
		{"scaling", 2, varScaling, 0.4}, // heavy tail: (x₁/x₂)⁴ up to 10^8
	}
	for _, c := range cases {
		p := mustNew(t, c.name, c.d)
		want := 0.02 * c.v()
		got := p.NoiseVariance()
		t.Logf("%-12s NoiseVariance %.6g, exact 2%% of Var f %.6g (ratio %.4f)", p.Name(), got, want, got/want)
		if math.Abs(got-want) > c.rel*want {
			t.Errorf("%s: NoiseVariance = %.6g, exact 2%% of Var f = %.6g", p.Name(), got, want)
		}
	}
}

// TestNoiseReport logs the noise variances (go test -v -run NoiseReport).
func TestNoiseReport(t *testing.T) {
	for _, name := range problem.Names() {
		p := mustNew(t, name, 0)
		v := p.NoiseVariance()
		t.Logf("%-12s noise variance %.6g (σ = %.4g)", p.Name(), v, math.Sqrt(v))
	}
}

func TestNoAllocs(t *testing.T) {
	for _, name := range problem.Names() {
		p := mustNew(t, name, 0)
		x := make([]float64, p.Dim())
		lo, hi := p.Bounds()
		for i := range x {
			x[i] = (lo[i] + 2*hi[i]) / 3
		}
		if a := testing.AllocsPerRun(100, func() { _, _ = p.Evaluate(x) }); a != 0 {
			t.Errorf("%s: Evaluate allocates %v times", p.Name(), a)
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, name := range problem.Names() {
		p := mustNew(b, name, 0)
		x := make([]float64, p.Dim())
		lo, hi := p.Bounds()
		for i := range x {
			x[i] = (lo[i] + 2*hi[i]) / 3
		}
		b.Run(fmt.Sprintf("problem=%s", p.Name()), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = p.Evaluate(x)
			}
		})
	}
}

// TestShiftedOptimaOffFixedPoints: the shifted problems' minimizers lie
// on free orbits — no group element other than the identity fixes one
// (their reason to exist: k_avg's prior variance peaks at fixed points) —
// and every orbit point is a minimizer. The paper's Ackley, Rastrigin and
// Griewank, for contrast, have their optimum at the origin, fixed by
// every element.
func TestShiftedOptimaOffFixedPoints(t *testing.T) {
	for _, name := range []string{"shiftedackley", "shiftedrastrigin", "shiftedgriewank", "ackley",
		"centredackley", "centredrastrigin", "centredgriewank"} {
		p := mustNew(t, name, 0)
		g, ok := p.Group().(orbit.Finite)
		if !ok {
			t.Fatalf("%s: group %s is not finite", p.Name(), p.Group().Name())
		}
		n := int(p.Group().Order().Int64())
		if len(p.Optimizers()) == 0 {
			t.Fatalf("%s declares no optimizer", p.Name())
		}
		for _, x := range p.Optimizers() {
			gx := make([]float64, len(x))
			fixed := 0
			for i := 1; i < n; i++ {
				g.ActTo(gx, x, i)
				if slices.Equal(gx, x) {
					fixed++
				}
				if f, err := p.Evaluate(gx); err != nil || math.Abs(f) > 1e-9 {
					t.Errorf("%s: f(g_%d·x*) = %v, %v; want 0", p.Name(), i, f, err)
				}
			}
			want := 0
			if name == "ackley" || strings.HasPrefix(name, "centred") {
				want = n - 1
			}
			if fixed != want {
				t.Errorf("%s: %d non-identity elements fix the optimizer %v, want %d", p.Name(), fixed, x, want)
			}
		}
	}
}

// TestTwins: each fixed-point twin differs from its shifted problem only
// in where the optimum lies — the same dimension, box, group, base kernel
// and class of function — and its one optimizer is the origin, at f* = 0.
// (That the shifted optima are off the fixed points and the twins' on
// them is TestShiftedOptimaOffFixedPoints.)
func TestTwins(t *testing.T) {
	for _, pair := range [][2]string{
		{"centredackley", "shiftedackley"}, {"centredrastrigin", "shiftedrastrigin"}, {"centredgriewank", "shiftedgriewank"},
	} {
		for _, d := range []int{0, 3} {
			c, s := mustNew(t, pair[0], d), mustNew(t, pair[1], d)
			if c.Dim() != s.Dim() || c.Group().Name() != s.Group().Name() || c.BaseShape() != s.BaseShape() || c.BaseChosen() != s.BaseChosen() {
				t.Errorf("%s vs %s: d %d/%d, group %s/%s, base %v/%v, chosen %v/%v", c.Name(), s.Name(), c.Dim(), s.Dim(),
					c.Group().Name(), s.Group().Name(), c.BaseShape(), s.BaseShape(), c.BaseChosen(), s.BaseChosen())
			}
			clo, chi := c.Bounds()
			slo, shi := s.Bounds()
			if !slices.Equal(clo, slo) || !slices.Equal(chi, shi) {
				t.Errorf("%s box [%v, %v], %s box [%v, %v]", c.Name(), clo, chi, s.Name(), slo, shi)
			}
			if f, ok := c.Optimum(); !ok || f != 0 {
				t.Errorf("%s: Optimum %v, %v", c.Name(), f, ok)
			}
			if opt := c.Optimizers(); len(opt) != 1 || !slices.Equal(opt[0], make([]float64, c.Dim())) {
				t.Errorf("%s: Optimizers %v, want the origin", c.Name(), opt)
			}
		}
	}
	for _, f := range problem.Families() {
		if want := strings.HasPrefix(f.Name, "centred"); (f.Class == problem.ClassTwin) != want {
			t.Errorf("%s: class %q", f.Name, f.Class)
		}
	}
}

// TestRegistry: every registered family builds at its default dimension
// with its display name, refuses a dimension it does not support with
// problem.ErrDim, and Families agrees with Names and DefaultDim.
func TestRegistry(t *testing.T) {
	fams := problem.Families()
	if len(fams) != len(problem.Names()) {
		t.Fatalf("%d families, %d names", len(fams), len(problem.Names()))
	}
	for i, f := range fams {
		if f.Name != problem.Names()[i] || f.About == "" || f.Dims == "" {
			t.Errorf("family %d: %+v", i, f)
		}
		if d, err := problem.DefaultDim(f.Name); err != nil || d != f.DefaultDim {
			t.Errorf("%s: DefaultDim %d, %v", f.Name, d, err)
		}
		p, err := problem.New(f.Name, 0)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		want := fmt.Sprintf("%s%dd", f.Name, f.DefaultDim)
		if f.Class == problem.ClassSuite || f.Class == problem.ClassFresh || f.Class == problem.ClassThird {
			want = f.Name // the suite's and the held-out sets' names carry their dimension
		}
		if p.Dim() != f.DefaultDim || !strings.EqualFold(p.Name(), want) {
			t.Errorf("%s: built %s (d = %d)", f.Name, p.Name(), p.Dim())
		}
		if _, err := problem.New(f.Name, 41); !errors.Is(err, problem.ErrDim) {
			t.Errorf("%s at d = 41: %v", f.Name, err)
		}
	}
}

// TestReadUsersNilReader: a nil reader, or a nil pointer of a reader type,
// is ErrUsers; the CSV reader dereferenced it and panicked.
func TestReadUsersNilReader(t *testing.T) {
	for _, r := range []io.Reader{nil, (*strings.Reader)(nil), (*bytes.Buffer)(nil)} {
		if _, err := problem.ReadUsers(r, "users.csv"); !errors.Is(err, problem.ErrUsers) {
			t.Errorf("ReadUsers(%T): %v, want ErrUsers", r, err)
		}
	}
}
