package orbit_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/orbit"
	"github.com/symbo/symbo/orbit/orbittest"
)

func must[G any](g G, err error) G {
	if err != nil {
		panic(err)
	}
	return g
}

// pentagon is the dihedral group of order 10 given by its generators.
const pentagon = `{"dim": 2, "generators": [
  [[0.30901699437494745, -0.9510565162951535], [0.9510565162951535, 0.30901699437494745]],
  [[1, 0], [0, -1]]
]}`

func groups(t *testing.T) []orbit.Group {
	oct, err := orbit.Parse(orbit.Spec{Name: "matrices", Matrices: filepath.Join("testdata", "octahedral.json")})
	if err != nil {
		t.Fatal(err)
	}
	gs := []orbit.Group{
		must(orbit.Trivial(1)), must(orbit.Trivial(4)),
		must(orbit.SignFlip(1)), must(orbit.SignFlip(3)), must(orbit.SignFlip(12)), must(orbit.SignFlip(70)),
		must(orbit.Permutation(1)), must(orbit.Permutation(2)), must(orbit.Permutation(5)),
		must(orbit.Permutation(7)), must(orbit.Permutation(9)), must(orbit.Permutation(12)), must(orbit.Permutation(25)),
		must(orbit.Hyperoctahedral(1)), must(orbit.Hyperoctahedral(2)), must(orbit.Hyperoctahedral(4)),
		must(orbit.Hyperoctahedral(5)), must(orbit.Hyperoctahedral(8)), must(orbit.Hyperoctahedral(25)),
		must(orbit.Hyperoctahedral(70)),
		must(orbit.BlockPerm(1, 3)), must(orbit.BlockPerm(3, 2)), must(orbit.BlockPerm(4, 3)),
		must(orbit.BlockPerm(7, 1)), must(orbit.BlockPerm(10, 2)),
		must(orbit.PairedPerm(1)), must(orbit.PairedPerm(2)), must(orbit.PairedPerm(4)),
		must(orbit.PairedPerm(7)), must(orbit.PairedPerm(9)),
		must(orbit.Cyclic(1)), must(orbit.Cyclic(2)), must(orbit.Cyclic(6)), must(orbit.Cyclic(31)),
		oct, must(orbit.ReadMatrices(strings.NewReader(pentagon))),
		must(orbit.Rotation2D()),
		must(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})),
		must(orbit.Scaling([]float64{0.5, 1, 2}, []float64{2, 3, 100})),
	}
	return append(gs, embeddedGroups(t)...)
}

// embeddedGroups returns groups acting on subsets of the coordinates
// (OnCoords), in shuffled order, including all of them (k = d).
func embeddedGroups(t *testing.T) []orbit.Group {
	pent := must(orbit.ReadMatrices(strings.NewReader(pentagon)))
	on := func(g orbit.Group, err error) func(d int, coords ...int) orbit.Group {
		if err != nil {
			t.Fatal(err)
		}
		return func(d int, coords ...int) orbit.Group {
			e, err := orbit.OnCoords(g, d, coords)
			if err != nil {
				t.Fatal(err)
			}
			if e == g {
				t.Fatalf("OnCoords(%s, %d, %v) returned the group itself", g.Name(), d, coords)
			}
			return e
		}
	}
	return []orbit.Group{
		on(orbit.Trivial(2))(3, 2, 0),
		on(orbit.SignFlip(3))(6, 4, 0, 2),
		on(orbit.SignFlip(70))(72, func() []int { // reversed, skipping 5 and 40
			var c []int
			for k := 71; k >= 0; k-- {
				if k != 5 && k != 40 {
					c = append(c, k)
				}
			}
			return c
		}()...),
		on(orbit.Permutation(4))(4, 3, 1, 0, 2),
		on(orbit.Permutation(5))(8, 7, 1, 4, 0, 5),
		on(orbit.Hyperoctahedral(3))(7, 5, 1, 3),
		on(orbit.Hyperoctahedral(25))(26, 25, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 24),
		on(orbit.BlockPerm(2, 2))(6, 0, 5, 2, 3),
		on(orbit.BlockPerm(3, 1))(3, 2, 1, 0),
		on(orbit.PairedPerm(2))(5, 1, 3, 0, 4),
		on(orbit.Cyclic(3))(4, 3, 0, 1),
		on(pent, nil)(4, 3, 1),
		on(orbit.Rotation2D())(3, 2, 0),
		on(orbit.Rotation2D())(2, 1, 0),
		on(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10}))(4, 1, 3),
		on(orbit.Scaling([]float64{0.5, 1, 2}, []float64{2, 3, 100}))(5, 4, 2, 0),
	}
}

func TestConformance(t *testing.T) {
	for i, g := range groups(t) {
		if testdepth.Keep(t, i) {
			t.Run(g.Name(), func(t *testing.T) { orbittest.Run(t, g) })
		}
	}
}

// Closed forms must equal brute-force enumeration on many random inputs
// with ties and zeros.
func TestClosedFormsBruteForce(t *testing.T) {
	gs := []orbit.Finite{
		must(orbit.Trivial(3)), must(orbit.SignFlip(4)), must(orbit.Permutation(5)),
		must(orbit.Hyperoctahedral(4)), must(orbit.BlockPerm(4, 2)), must(orbit.BlockPerm(3, 3)),
		must(orbit.PairedPerm(5)), must(orbit.Cyclic(6)),
	}
	rng := rand.New(rand.NewPCG(5, 5))
	trials := 300
	if testing.Short() {
		trials = 60
	}
	for _, g := range gs {
		ds := g.(orbit.Distancer)
		d, G := g.Dim(), must(orbit.Size(g))
		buf := make([]float64, d)
		for trial := 0; trial < trials; trial++ {
			x, y := make([]float64, d), make([]float64, d)
			for k := range x {
				switch trial % 3 {
				case 0:
					x[k], y[k] = rng.NormFloat64(), rng.NormFloat64()
				case 1:
					x[k], y[k] = float64(rng.IntN(3)-1), float64(rng.IntN(3)-1)
				default:
					x[k], y[k] = 1e-8*rng.NormFloat64(), 1e8*float64(rng.IntN(2))
				}
			}
			best := math.Inf(1)
			for j := 0; j < G; j++ {
				g.ActTo(buf, y, j)
				var s float64
				for k := range x {
					s += (x[k] - buf[k]) * (x[k] - buf[k])
				}
				best = math.Min(best, s)
			}
			if v := ds.OrbitDist2(x, y); math.Abs(v-best) > 1e-12*best {
				t.Fatalf("%s: OrbitDist2(%v, %v) = %.17g, brute force %.17g", g.Name(), x, y, v, best)
			}
		}
	}
}

func TestSize(t *testing.T) {
	for _, c := range []struct {
		g    orbit.Group
		want int
		err  error
		msg  string
	}{
		{must(orbit.Hyperoctahedral(5)), 3840, nil, ""},
		{must(orbit.Hyperoctahedral(10)), 3715891200, nil, ""},
		{must(orbit.Permutation(20)), 2432902008176640000, nil, ""},
		{must(orbit.SignFlip(62)), 1 << 62, nil, ""},
		{must(orbit.SignFlip(63)), 0, orbit.ErrTooLarge, "signflip(63) has 9.2e+18 elements"},
		{must(orbit.Permutation(21)), 0, orbit.ErrTooLarge, "permutation(21) has 5.1e+19 elements"},
		{must(orbit.Hyperoctahedral(20)), 0, orbit.ErrTooLarge, "hyperoctahedral(20) has 2.6e+24 elements"},
		{must(orbit.Hyperoctahedral(25)), 0, orbit.ErrTooLarge, "hyperoctahedral(25) has 5.2e+32 elements"},
		{must(orbit.Rotation2D()), 0, orbit.ErrInfinite, "rotation2d has infinitely many elements"},
	} {
		n, err := orbit.Size(c.g)
		if c.err == nil {
			if err != nil || n != c.want {
				t.Errorf("Size(%s) = %d, %v; want %d", c.g.Name(), n, err, c.want)
			}
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Size(%s) error %v; want %v containing %q", c.g.Name(), err, c.err, c.msg)
		}
	}
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pent := write("pent.json", pentagon)
	bad := write("bad.json", `{"dim": 2, "generators": [[[1, 0.001], [0, 1]]]}`)
	irr := write("irr.json", `{"dim": 2, "generators": [[[0.5403023058681398, -0.8414709848078965], [0.8414709848078965, 0.5403023058681398]]]}`)
	ragged := write("ragged.json", `{"dim": 2, "elements": [[[1, 0], [0]]]}`)
	for _, c := range []struct {
		s    orbit.Spec
		name string // want the group's Name, or
		err  error  // this error
		msg  string // containing this
	}{
		{s: orbit.Spec{Name: "none", D: 3}, name: "none(3)"},
		{s: orbit.Spec{Name: "SignFlip", D: 3}, name: "signflip(3)"},
		{s: orbit.Spec{Name: "permutation", D: 4}, name: "permutation(4)"},
		{s: orbit.Spec{Name: "hyperoctahedral", D: 5}, name: "hyperoctahedral(5)"},
		{s: orbit.Spec{Name: "blockperm", D: 6, Block: 2}, name: "blockperm(3,2)"},
		{s: orbit.Spec{Name: "pairedperm", D: 8}, name: "pairedperm(4)"},
		{s: orbit.Spec{Name: "cyclic", D: 5}, name: "cyclic(5)"},
		{s: orbit.Spec{Name: "rotation2d", D: 2}, name: "rotation2d"},
		{s: orbit.Spec{Name: "scaling", D: 2, Lo: []float64{0.1}, Hi: []float64{10}}, name: "scaling(2,0.1,10)"},
		{s: orbit.Spec{Name: "scaling", Lo: []float64{0.1, 1}, Hi: []float64{10, 5}}, name: "scaling(2,[0.1 1],[10 5])"},
		{s: orbit.Spec{Name: "matrices", Matrices: pent}, name: "matrices(dim=2,order=10)"},
		{s: orbit.Spec{Name: "matrices", D: 2, Matrices: pent}, name: "matrices(dim=2,order=10)"},

		{s: orbit.Spec{Name: "rotation3d", D: 3}, err: orbit.ErrUnknown, msg: `"rotation3d"`},
		{s: orbit.Spec{Name: "", D: 3}, err: orbit.ErrUnknown, msg: "want one of none, signflip"},
		{s: orbit.Spec{Name: "signflip", D: 0}, err: orbit.ErrInvalid, msg: "signflip needs d ≥ 1, got 0"},
		{s: orbit.Spec{Name: "permutation", D: -2}, err: orbit.ErrInvalid, msg: "d ≥ 1"},
		{s: orbit.Spec{Name: "none", D: 0}, err: orbit.ErrInvalid, msg: "d ≥ 1"},
		{s: orbit.Spec{Name: "hyperoctahedral", D: 0}, err: orbit.ErrInvalid, msg: "d ≥ 1"},
		{s: orbit.Spec{Name: "cyclic", D: 0}, err: orbit.ErrInvalid, msg: "d ≥ 1"},
		{s: orbit.Spec{Name: "pairedperm", D: 7}, err: orbit.ErrInvalid, msg: "pairedperm needs an even d = 2m (x1..xm, y1..ym), got 7"},
		{s: orbit.Spec{Name: "pairedperm", D: 0}, err: orbit.ErrInvalid, msg: "d ≥ 1"},
		{s: orbit.Spec{Name: "blockperm", D: 7, Block: 2}, err: orbit.ErrInvalid, msg: "multiple of the block size, got d = 7, block = 2"},
		{s: orbit.Spec{Name: "blockperm", D: 6}, err: orbit.ErrInvalid, msg: "block size ≥ 1, got 0"},
		{s: orbit.Spec{Name: "rotation2d", D: 3}, err: orbit.ErrInvalid, msg: "d = 2, got 3"},
		{s: orbit.Spec{Name: "scaling", D: 2, Lo: []float64{0}, Hi: []float64{10}}, err: orbit.ErrInvalid, msg: "0 < lo < hi"},
		{s: orbit.Spec{Name: "scaling", D: 2, Lo: []float64{2}, Hi: []float64{1}}, err: orbit.ErrInvalid, msg: "0 < lo < hi"},
		{s: orbit.Spec{Name: "scaling", D: 3, Lo: []float64{1, 1}, Hi: []float64{2}}, err: orbit.ErrInvalid, msg: "lo of length 1 or d = 3, got 2"},
		{s: orbit.Spec{Name: "scaling", D: 2, Lo: []float64{1}, Hi: []float64{math.Inf(1)}}, err: orbit.ErrInvalid, msg: "0 < lo < hi < ∞"},
		{s: orbit.Spec{Name: "scaling"}, err: orbit.ErrInvalid, msg: "d ≥ 1"},
		{s: orbit.Spec{Name: "matrices"}, err: orbit.ErrInvalid, msg: "path"},
		{s: orbit.Spec{Name: "matrices", Matrices: filepath.Join(dir, "nope.json")}, err: os.ErrNotExist, msg: "nope.json"},
		{s: orbit.Spec{Name: "matrices", D: 3, Matrices: pent}, err: orbit.ErrInvalid, msg: "2×2 matrices, but d = 3"},
		{s: orbit.Spec{Name: "matrices", Matrices: bad}, err: orbit.ErrInvalid, msg: "matrix 0 is not orthogonal"},
		{s: orbit.Spec{Name: "matrices", Matrices: irr}, err: orbit.ErrTooLarge, msg: "is the group finite?"},
		{s: orbit.Spec{Name: "matrices", Matrices: ragged}, err: orbit.ErrInvalid, msg: "row 1 has 1 entries"},
		// A parameter the group does not use is refused, not ignored (the
		// matrices file is not opened).
		{s: orbit.Spec{Name: "signflip", D: 2, Block: 2}, err: orbit.ErrInvalid, msg: "block size is used only by blockperm, not signflip"},
		{s: orbit.Spec{Name: "Permutation", D: 2, Lo: []float64{1}, Hi: []float64{2}}, err: orbit.ErrInvalid, msg: "box is used only by scaling and scalingdir, not permutation"},
		{s: orbit.Spec{Name: "signflip", D: 2, Matrices: filepath.Join(dir, "nope.json")}, err: orbit.ErrInvalid, msg: "matrices file is used only by the group matrices"},
		{s: orbit.Spec{Name: "matrices", Block: 2, Matrices: pent}, err: orbit.ErrInvalid, msg: "not matrices"},
		{s: orbit.Spec{Name: "hyperoctahedral", D: 4, Block: 2, Coords: []int{0, 1}}, err: orbit.ErrInvalid, msg: "used only by blockperm"},
	} {
		g, err := orbit.Parse(c.s)
		if c.err == nil {
			if err != nil || g.Name() != c.name {
				t.Errorf("Parse(%+v) = %v, %v; want %s", c.s, g, err, c.name)
			}
			continue
		}
		if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "orbit: ") && c.err != os.ErrNotExist {
			t.Errorf("Parse(%+v) error %v; want %v containing %q", c.s, err, c.err, c.msg)
		}
		// With an error the Group is nil, not a typed nil a caller's
		// g != nil would take for a group.
		if g != nil {
			t.Errorf("Parse(%+v) returned the non-nil Group %#v with its error", c.s, g)
		}
		if c2 := c.s; c2.Coords == nil && c2.D > 0 {
			c2.Coords = []int{0}
			c2.D++
			if g, err := orbit.Parse(c2); err != nil && g != nil {
				t.Errorf("Parse(%+v) returned the non-nil Group %#v with its error", c2, g)
			}
		}
	}
}

func TestReadMatrices(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "octahedral.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := orbit.ReadMatrices(f)
	if err != nil {
		t.Fatal(err)
	}
	// The full symmetry group of the cube is the hyperoctahedral group B3.
	if n := must(orbit.Size(g)); n != 48 {
		t.Fatalf("order %d, want 48", n)
	}
	// Same orbits as Hyperoctahedral(3): orbit distances agree.
	h := must(orbit.Hyperoctahedral(3))
	rng := rand.New(rand.NewPCG(6, 1))
	buf := make([]float64, 3)
	for trial := 0; trial < 50; trial++ {
		x := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		y := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		best := math.Inf(1)
		for j := 0; j < 48; j++ {
			g.ActTo(buf, y, j)
			best = math.Min(best, (x[0]-buf[0])*(x[0]-buf[0])+(x[1]-buf[1])*(x[1]-buf[1])+(x[2]-buf[2])*(x[2]-buf[2]))
		}
		if v := h.OrbitDist2(x, y); math.Abs(v-best) > 1e-12*best {
			t.Fatalf("octahedral matrices give %g, hyperoctahedral(3) %g", best, v)
		}
	}
	// "elements" listing the whole group gives the same order.
	p := must(orbit.ReadMatrices(strings.NewReader(`{"elements": [[[1,0],[0,1]], [[-1,0],[0,-1]], [[0,1],[1,0]], [[0,-1],[-1,0]]]}`)))
	if n := must(orbit.Size(p)); n != 4 {
		t.Fatalf("order %d, want 4", n)
	}
	for _, in := range []string{`{"dim": 0}`, `{"dim": 2, "generators": [[[1,0],[0,1],[0,0]]]}`, `{"gens": []}`, `not json`,
		`{"dim": 2, "generators": [[[0.7071, -0.7071], [0.7071, 0.7071]]]}`} {
		if _, err := orbit.ReadMatrices(strings.NewReader(in)); err == nil || !strings.HasPrefix(err.Error(), "orbit: ") {
			t.Errorf("ReadMatrices(%s) error %v", in, err)
		}
	}
}

func TestOrbitsLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for _, g := range []orbit.Finite{must(orbit.Hyperoctahedral(3)), must(orbit.PairedPerm(3)), must(orbit.Cyclic(4)),
		must(orbit.ReadMatrices(strings.NewReader(pentagon)))} {
		d, G := g.Dim(), must(orbit.Size(g))
		for _, n := range []int{0, 1, 7, 65, 300} {
			x := make([]float64, n*d)
			for k := range x {
				x[k] = rng.NormFloat64()
			}
			x0 := slices.Clone(x)
			serial, err := orbit.Enumerator{Workers: 1}.Orbits(nil, g, x, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(serial) != n*G*d {
				t.Fatalf("%s n=%d: len %d, want %d", g.Name(), n, len(serial), n*G*d)
			}
			buf := make([]float64, d)
			for i := 0; i < n; i++ {
				for j := 0; j < G; j++ {
					g.ActTo(buf, x[i*d:(i+1)*d], j)
					if row := serial[(i*G+j)*d : (i*G+j+1)*d]; !slices.Equal(row, buf) {
						t.Fatalf("%s: row %d·|G|+%d = %v, want g_%d·x_%d = %v", g.Name(), i, j, row, j, i, buf)
					}
				}
			}
			for _, w := range []int{0, 2, 8} {
				// Reuse a dirty, larger buffer.
				dst := make([]float64, n*G*d+5)
				for k := range dst {
					dst[k] = math.NaN()
				}
				par, err := orbit.Enumerator{Workers: w}.Orbits(dst, g, x, n)
				if err != nil {
					t.Fatal(err)
				}
				if n > 0 && &par[0] != &dst[0] {
					t.Errorf("dst not reused")
				}
				if !bitsEqual(par, serial) {
					t.Fatalf("%s n=%d: Workers %d differs from serial", g.Name(), n, w)
				}
			}
			if !slices.Equal(x, x0) {
				t.Fatal("Orbits modified x")
			}
		}
	}
}

func bitsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
			return false
		}
	}
	return true
}

func TestOrbitsBudget(t *testing.T) {
	// A zero Budget is DefaultBudget, never the environment's (perf and
	// the C ABI read SYMBO_MEMORY_BUDGET and pass a Budget down).
	t.Setenv("SYMBO_MEMORY_BUDGET", "1TiB")
	g := must(orbit.Hyperoctahedral(8)) // 10321920 elements
	x := make([]float64, 100*8)
	_, err := orbit.Enumerator{}.Orbits(nil, g, x, 100)
	if !errors.Is(err, orbit.ErrOverBudget) {
		t.Fatalf("err = %v, want ErrOverBudget", err)
	}
	// 100·10321920·8·8 bytes = 61.5 GiB.
	for _, s := range []string{"hyperoctahedral(8)", "100 points", "61.5 GiB", "budget 8 GiB"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %q", err, s)
		}
	}
	// Just within / just over a custom budget.
	h := must(orbit.Hyperoctahedral(3))
	need := int64(10 * 48 * 3 * 8)
	if _, err := (orbit.Enumerator{Budget: need}).Orbits(nil, h, make([]float64, 30), 10); err != nil {
		t.Errorf("at budget: %v", err)
	}
	if _, err := (orbit.Enumerator{Budget: need - 1}).Orbits(nil, h, make([]float64, 30), 10); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("over budget by one byte: %v", err)
	}
	// Orders beyond int are over any budget, and say so.
	big := must(orbit.Hyperoctahedral(25))
	_, err = orbit.Enumerator{Budget: math.MaxInt64}.Orbits(nil, big, make([]float64, 25), 1)
	if !errors.Is(err, orbit.ErrOverBudget) || !strings.Contains(err.Error(), "hyperoctahedral(25)") || !strings.Contains(err.Error(), "5.2e+32 elements") {
		t.Errorf("hyperoctahedral(25): %v", err)
	}
	if _, err := (orbit.Enumerator{}).Orbits(nil, h, make([]float64, 7), 3); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("bad x length: %v", err)
	}
}

func TestRotation2D(t *testing.T) {
	g := must(orbit.Rotation2D())
	rng := rand.New(rand.NewPCG(8, 1))
	for trial := 0; trial < 50; trial++ {
		x := []float64{rng.NormFloat64(), rng.NormFloat64()}
		y := []float64{rng.NormFloat64(), rng.NormFloat64()}
		// Brute force over a fine grid of angles, refined by golden section.
		best := math.Inf(1)
		f := func(th float64) float64 {
			s, c := math.Sincos(th)
			a, b := x[0]-(c*y[0]-s*y[1]), x[1]-(s*y[0]+c*y[1])
			return a*a + b*b
		}
		bt := 0.0
		for k := 0; k < 3600; k++ {
			th := 2 * math.Pi * float64(k) / 3600
			if v := f(th); v < best {
				best, bt = v, th
			}
		}
		lo, hi := bt-2*math.Pi/3600, bt+2*math.Pi/3600
		for it := 0; it < 100; it++ {
			m1, m2 := lo+(hi-lo)*0.382, lo+(hi-lo)*0.618
			if f(m1) < f(m2) {
				hi = m2
			} else {
				lo = m1
			}
		}
		best = math.Min(best, f((lo+hi)/2))
		if v := g.OrbitDist2(x, y); math.Abs(v-best) > 1e-9*(1+best) || v > best*(1+1e-12)+1e-15 {
			t.Fatalf("OrbitDist2 = %.17g, brute force %.17g", v, best)
		}
	}
	// The m-point rule averages (R x)_0² exactly to ‖x‖²/2 for m ≥ 3.
	x := []float64{0.3, -1.7}
	for _, m := range []int{3, 5, 64} {
		buf := make([]float64, 2*m)
		g.OrbitTo(buf, x, m)
		var s float64
		for j := 0; j < m; j++ {
			s += buf[2*j] * buf[2*j]
		}
		if want := (x[0]*x[0] + x[1]*x[1]) / 2; math.Abs(s/float64(m)-want) > 1e-14 {
			t.Errorf("m = %d: mean (Rx)_0² = %g, want %g", m, s/float64(m), want)
		}
	}
}

func TestScaling(t *testing.T) {
	g := must(orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10}))
	rng := rand.New(rand.NewPCG(9, 1))
	in := func() []float64 {
		return []float64{0.1 * math.Pow(100, rng.Float64()), 0.1 * math.Pow(100, rng.Float64())}
	}
	// Paper's objective (x1/x2 − 1)² is constant on orbits.
	for trial := 0; trial < 20; trial++ {
		x := in()
		buf := make([]float64, 2*9)
		g.OrbitTo(buf, x, 9)
		for j := 0; j < 9; j++ {
			p := buf[2*j : 2*j+2]
			if p[0] < 0.1 || p[0] > 10 || p[1] < 0.1 || p[1] > 10 {
				t.Fatalf("node %v of %v outside the box", p, x)
			}
			if math.Abs(p[0]/p[1]-x[0]/x[1]) > 1e-12*x[0]/x[1] {
				t.Fatalf("node %v not on the ray of %v", p, x)
			}
		}
	}
	// Exact distance, independently: h(c) = min_{c'} ‖c·x − c'·y‖² (inner
	// minimum by clamping) is convex, so a fine grid on c refined by
	// ternary search finds min_c h(c).
	for trial := 0; trial < 200; trial++ {
		x, y := in(), in()
		if trial%4 == 0 {
			y = []float64{x[0] * 1.7, x[1] * 1.7}
			y[0], y[1] = math.Min(y[0], 10), math.Min(y[1], 10)
		}
		a1, b1 := g.Interval(x)
		a2, b2 := g.Interval(y)
		xy, yy := x[0]*y[0]+x[1]*y[1], y[0]*y[0]+y[1]*y[1]
		h := func(c float64) float64 {
			cp := math.Min(b2, math.Max(a2, c*xy/yy))
			u, v := c*x[0]-cp*y[0], c*x[1]-cp*y[1]
			return u*u + v*v
		}
		const n = 1000
		best, bi := math.Inf(1), 0
		for i := 0; i <= n; i++ {
			if v := h(a1 + (b1-a1)*float64(i)/n); v < best {
				best, bi = v, i
			}
		}
		lo := a1 + (b1-a1)*float64(max(bi-1, 0))/n
		hi := a1 + (b1-a1)*float64(min(bi+1, n))/n
		for it := 0; it < 200; it++ {
			m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
			if h(m1) < h(m2) {
				hi = m2
			} else {
				lo = m1
			}
		}
		best = math.Min(best, h((lo+hi)/2))
		scale := x[0]*x[0] + x[1]*x[1] + yy
		if v := g.OrbitDist2(x, y); math.Abs(v-best) > 1e-12*best+1e-15*scale {
			t.Fatalf("OrbitDist2(%v, %v) = %.17g, search %.17g", x, y, v, best)
		}
	}
	// The Haar midpoint rule: mean of c over dc/c on [a, b] is (b−a)/log(b/a).
	x := []float64{2, 0.5}
	a, b := g.Interval(x)
	if a != 0.2 && math.Abs(a-0.2) > 1e-15 || math.Abs(b-5) > 1e-15 {
		t.Fatalf("Interval(%v) = [%g, %g], want [0.2, 5]", x, a, b)
	}
	want := (b - a) / math.Log(b/a)
	prev := math.Inf(1)
	for _, m := range []int{4, 16, 64, 256} {
		buf := make([]float64, 2*m)
		g.OrbitTo(buf, x, m)
		var s float64
		for j := 0; j < m; j++ {
			s += buf[2*j] / x[0]
		}
		e := math.Abs(s/float64(m) - want)
		if e > prev/10 { // second order: ×16 per step
			t.Errorf("m = %d: Haar mean error %g after %g", m, e, prev)
		}
		prev = e
	}
	// Points outside the box keep themselves in their orbit.
	out := []float64{20, 0.5}
	if c1, c2 := g.Interval(out); c1 > 1 || c2 < 1 {
		t.Errorf("Interval(%v) = [%g, %g] excludes 1", out, c1, c2)
	}
	if v := g.OrbitDist2(out, out); v != 0 {
		t.Errorf("OrbitDist2(x, x) = %g outside the box", v)
	}
	if v := g.OrbitDist2([]float64{-1, 2}, []float64{-1, 2}); v != 0 {
		t.Errorf("OrbitDist2 with a negative coordinate: %g", v)
	}
}

func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 1))
	for _, g := range []orbit.Finite{must(orbit.SignFlip(5)), must(orbit.Permutation(5)), must(orbit.Permutation(12)),
		must(orbit.Hyperoctahedral(5)), must(orbit.Hyperoctahedral(10)), must(orbit.BlockPerm(4, 2)),
		must(orbit.PairedPerm(4)), must(orbit.Cyclic(5))} {
		d := g.Dim()
		x, y, dst := make([]float64, d), make([]float64, d), make([]float64, d)
		for k := range x {
			x[k], y[k] = rng.NormFloat64(), rng.NormFloat64()
		}
		i, G := 0, must(orbit.Size(g))
		if a := testing.AllocsPerRun(100, func() { g.ActTo(dst, x, i); i = (i + 7919) % G }); a != 0 {
			t.Errorf("%s: ActTo allocates %g", g.Name(), a)
		}
		ds := g.(orbit.Distancer)
		if a := testing.AllocsPerRun(100, func() { ds.OrbitDist2(x, y) }); a != 0 {
			t.Errorf("%s: OrbitDist2 allocates %g", g.Name(), a)
		}
		if cn, ok := g.(orbit.Canonicalizer); ok {
			if a := testing.AllocsPerRun(100, func() { cn.CanonicalTo(dst, x) }); a != 0 {
				t.Errorf("%s: CanonicalTo allocates %g", g.Name(), a)
			}
		}
	}
}

// Blocks of one coordinate are a permutation group: the Hungarian
// algorithm (stack scratch up to 16 blocks, pooled beyond) must reproduce
// the sorting closed form.
func TestBlockPermMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	for _, m := range []int{2, 9, 16, 17, 40} {
		b, p := must(orbit.BlockPerm(m, 1)), must(orbit.Permutation(m))
		x, y := make([]float64, m), make([]float64, m)
		for trial := 0; trial < 20; trial++ {
			for k := range x {
				x[k], y[k] = rng.NormFloat64(), float64(rng.IntN(3))
			}
			if v, w := b.OrbitDist2(x, y), p.OrbitDist2(x, y); math.Abs(v-w) > 1e-12*w {
				t.Fatalf("m = %d: Hungarian %.17g, sort %.17g", m, v, w)
			}
		}
	}
}

// TestHostileGroupInputs (red team): a nil group is an error from Orbits
// and has no coordinate maps (it used to panic in both); n·d that
// overflows int is ErrInvalid, not a wrapped length that passed the check
// and panicked in a worker; a scaling box whose ‖hi‖² overflows is
// refused (ScalingDir's radius was +Inf and its distances NaN, and
// PointOrbitDist2 NaN on finite points of [1, MaxFloat64]²); the zero
// ScalingGroup has a name.
func TestHostileGroupInputs(t *testing.T) {
	var e orbit.Enumerator
	if _, err := e.Orbits(nil, nil, []float64{1, 2}, 1); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("Orbits of a nil group: %v, want ErrInvalid", err)
	}
	if _, err := e.Orbits(nil, (*orbit.PermutationGroup)(nil), []float64{1, 2}, 1); !errors.Is(err, orbit.ErrInvalid) {
		t.Errorf("Orbits of a typed nil group: %v, want ErrInvalid", err)
	}
	if m := orbit.CoordinateMaps(nil); m != nil {
		t.Errorf("CoordinateMaps(nil) = %v, want nil", m)
	}
	if m := orbit.CoordinateMaps((*orbit.PermutationGroup)(nil)); m != nil {
		t.Errorf("CoordinateMaps(typed nil) = %v, want nil", m)
	}
	g, err := orbit.Permutation(4)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, 8)
	for _, n := range []int{2 + 1<<62, math.MaxInt / 2, math.MaxInt, -2} {
		if _, err := e.Orbits(nil, g, x, n); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("Orbits with n = %d, len(x) = 8: %v, want ErrInvalid", n, err)
		} else if n > 0 && strings.Contains(err.Error(), "-") {
			t.Errorf("Orbits with n = %d: %q shows a wrapped count", n, err)
		}
	}
	for _, hi := range [][]float64{{1e308, 1e308, 1e308, 1e308}, {2, math.MaxFloat64}} {
		lo := slices.Repeat([]float64{1}, len(hi))
		if _, err := orbit.ScalingDir(lo, hi); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("ScalingDir on [1, %v]: %v, want ErrInvalid", hi, err)
		}
		if _, err := orbit.Scaling(lo, hi); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("Scaling on [1, %v]: %v, want ErrInvalid", hi, err)
		}
	}
	// The largest box accepted keeps PointOrbitDist2 finite on its points.
	s, err := orbit.Scaling([]float64{1, 1}, []float64{9e153, 9e153})
	if err != nil {
		t.Fatal(err)
	}
	if d := s.PointOrbitDist2([]float64{1.5, 1.2}, []float64{9e153, 9e153}); math.IsNaN(d) || math.IsInf(d, 0) {
		t.Errorf("PointOrbitDist2 on [1, 9e153]²: %v", d)
	}
	if name := (&orbit.ScalingGroup{}).Name(); name == "" {
		t.Error("the zero ScalingGroup has an empty name")
	}
}

// TestOrbitsNegativeWorkers: a negative Enumerator.Workers is refused
// with ErrInvalid, as kernel.Options and bo.Config refuse theirs — it ran
// on GOMAXPROCS goroutines, as 0 does, and no doc said so — also with no
// points to write; 0 and positive counts give the same bits.
func TestOrbitsNegativeWorkers(t *testing.T) {
	g := must(orbit.Hyperoctahedral(3))
	x := []float64{0.5, -1, 2, 3, 0.25, -0.75}
	for _, n := range []int{0, 2} {
		if _, err := (orbit.Enumerator{Workers: -1}).Orbits(nil, g, x[:n*3], n); !errors.Is(err, orbit.ErrInvalid) || !strings.Contains(err.Error(), "Workers") {
			t.Errorf("n = %d, Workers -1: %v, want ErrInvalid naming Workers", n, err)
		}
	}
	want, err := orbit.Enumerator{Workers: 1}.Orbits(nil, g, x, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{0, 2} {
		if got, err := (orbit.Enumerator{Workers: w}).Orbits(nil, g, x, 2); err != nil || !bitsEqual(got, want) {
			t.Errorf("Workers %d: %v, want Workers 1's bits", w, err)
		}
	}
}
