package kernel

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestCrossPrepared: CrossPreparedTo gives CrossTo's bits for every kernel
// type and evaluation path (row evaluators, enumeration, quadrature, the
// normalized average's own path), refuses another kernel's points and bad
// x, and the prepared path is taken where it is meant to be.
func TestCrossPrepared(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := Params{Shape: Matern52, Variance: 1.7, Lengthscale: 0.6}
	mk := func(g orbit.Group, err error) orbit.Group {
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	type kc struct {
		name string
		k    interface {
			Kernel
			Preparer
		}
		rows bool // the prepared rows are used
	}
	var cases []kc
	add := func(name string, rows bool) func(Kernel, error) {
		return func(k Kernel, err error) {
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			cases = append(cases, kc{name, k.(interface {
				Kernel
				Preparer
			}), rows})
		}
	}
	add("base3", true)(NewBase(p, 3))
	add("max/none3", true)(NewMax(p, mk(orbit.Trivial(3)), Options{}))
	add("max/hyperoct3", true)(NewMax(p, mk(orbit.Hyperoctahedral(3)), Options{}))
	add("max/perm3", true)(NewMax(p, mk(orbit.Permutation(3)), Options{}))
	add("max/rotation2d", true)(NewMax(p, mk(orbit.Rotation2D()), Options{}))
	add("max/cyclic3", true)(NewMax(p, mk(orbit.Cyclic(3)), Options{}))
	add("avg/perm3", true)(NewAvg(Params{Shape: RBF, Variance: 1.7, Lengthscale: 0.6}, mk(orbit.Permutation(3)), Options{}))
	add("avg/cyclic3", false)(NewAvg(p, mk(orbit.Cyclic(3)), Options{}))
	add("avgnorm/perm3", false)(NewAvg(Params{Shape: RBF, Variance: 1.7, Lengthscale: 0.6}, mk(orbit.Permutation(3)), Options{Normalize: true}))
	for _, c := range cases {
		d := c.k.Dim()
		m := 37
		y := mat.NewDense(m, d, nil)
		for i := range m {
			for j := range d {
				y.Set(i, j, -2+4*rng.Float64())
			}
		}
		pr, err := c.k.Prepare(y)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if (pr.py != nil) != c.rows {
			t.Errorf("%s: prepared rows %v, want %v", c.name, pr.py != nil, c.rows)
		}
		for _, n := range []int{1, 4} {
			x := mat.NewDense(n, d, nil)
			for i := range n {
				for j := range d {
					x.Set(i, j, -2+4*rng.Float64())
				}
			}
			var a, b mat.Dense
			if err := c.k.CrossTo(&a, x, y); err != nil {
				t.Fatal(err)
			}
			if err := c.k.CrossPreparedTo(&b, x, pr); err != nil {
				t.Fatal(err)
			}
			ar, br := a.RawMatrix(), b.RawMatrix()
			for i := range n {
				for j := range m {
					if u, v := ar.Data[i*ar.Stride+j], br.Data[i*br.Stride+j]; math.Float64bits(u) != math.Float64bits(v) {
						t.Fatalf("%s n=%d (%d,%d): prepared %v, CrossTo %v", c.name, n, i, j, v, u)
					}
				}
			}
		}
		var dst mat.Dense
		bad := mat.NewDense(1, d, nil)
		bad.Set(0, 0, math.NaN())
		if err := c.k.CrossPreparedTo(&dst, bad, pr); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: NaN x: %v, want ErrBadPoints", c.name, err)
		}
		other, _ := NewBase(p, d)
		if err := c.k.CrossPreparedTo(&dst, y, mustPrepare(t, other, y)); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: another kernel's points: %v, want ErrBadPoints", c.name, err)
		}
		if err := c.k.CrossPreparedTo(&dst, y, nil); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: nil points: %v, want ErrBadPoints", c.name, err)
		}
		if _, err := c.k.Prepare(bad); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: Prepare(NaN): %v, want ErrBadPoints", c.name, err)
		}
	}
}

func mustPrepare(t *testing.T, k Preparer, y *mat.Dense) *Prepared {
	t.Helper()
	p, err := k.Prepare(y)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestGradPrepared: GradPreparedTo gives GradTo's bits for the enumerated
// k_avg (own coordinates and some of them, every Matérn shape and RBF
// where it is enumerated, 1 and 3 workers) and for RBF's closed forms on
// some coordinates (the inner values from the prepared rows), keeps the
// orbits only where it is meant to (enumerated, within its budget), falls
// back to GradTo elsewhere (a closed form on all coordinates, the
// normalized average, a small budget), and refuses another kernel's
// points, nil and bad x.
func TestGradPrepared(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 4))
	mk := func(g orbit.Group, err error) orbit.Group {
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	type gc struct {
		name string
		p    Params
		g    orbit.Group
		o    Options
		orbs bool // the orbits are kept
		aux  bool // a closed form on some coordinates: the inner values from the prepared rows
	}
	var cases []gc
	for _, s := range []Shape{Matern12, Matern32, Matern52} {
		p := Params{Shape: s, Variance: 1.3, Lengthscale: 0.7}
		cases = append(cases,
			gc{"hyperoct3/" + s.String(), p, mk(orbit.Hyperoctahedral(3)), Options{}, true, false},
			gc{"perm4-of-7/" + s.String(), p, mk(orbit.OnCoords(mk(orbit.Permutation(4)), 7, []int{0, 2, 3, 6})), Options{Workers: 3}, true, false},
		)
	}
	rbf := Params{Shape: RBF, Variance: 1.3, Lengthscale: 0.7}
	cases = append(cases,
		gc{"cyclic4/rbf enumerated", rbf, mk(orbit.Cyclic(4)), Options{Method: Enumerate}, true, false},
		gc{"perm3/rbf closed", rbf, mk(orbit.Permutation(3)), Options{}, false, false},
		gc{"perm4-of-7/rbf closed", rbf, mk(orbit.OnCoords(mk(orbit.Permutation(4)), 7, []int{0, 2, 3, 6})), Options{Workers: 3}, false, true},
		gc{"hyperoct3-of-6/rbf closed", rbf, mk(orbit.OnCoords(mk(orbit.Hyperoctahedral(3)), 6, []int{5, 1, 2})), Options{}, false, true},
		gc{"perm4-of-7/rbf closed norm", rbf, mk(orbit.OnCoords(mk(orbit.Permutation(4)), 7, []int{0, 2, 3, 6})), Options{Normalize: true}, false, false},
		gc{"hyperoct3/matern52 norm", Params{Shape: Matern52, Variance: 1.3, Lengthscale: 0.7}, mk(orbit.Hyperoctahedral(3)), Options{Normalize: true}, false, false},
		gc{"hyperoct3/matern52 small budget", Params{Shape: Matern52, Variance: 1.3, Lengthscale: 0.7}, mk(orbit.Hyperoctahedral(3)), Options{Budget: 1 << 16}, false, false},
	)
	for _, c := range cases {
		k, err := NewAvg(c.p, c.g, c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		d, m := k.Dim(), 29
		y := mat.NewDense(m, d, nil)
		for i := range m {
			for j := range d {
				y.Set(i, j, -2+4*rng.Float64())
			}
		}
		pr := mustPrepare(t, k, y)
		if (pr.orbits != nil) != c.orbs || pr.orbs != nil {
			t.Errorf("%s: orbits to keep %v (%d floats before a gradient), want %v", c.name, pr.orbits != nil, len(pr.orbs), c.orbs)
		}
		if aux := k.gradAux != nil && pr.py != nil; aux != c.aux {
			t.Errorf("%s: inner values from the prepared rows %v, want %v", c.name, aux, c.aux)
		}
		if c.o.Workers > 1 {
			// Enough work per call for the workers to start.
			defer parallel.SetSerialThreshold(1)()
		}
		for range 3 {
			x := make([]float64, d)
			for j := range x {
				x[j] = -2 + 4*rng.Float64()
			}
			x[0] = y.At(5, 0) // a difference of 0 in one coordinate
			var a, b mat.Dense
			if err := k.GradTo(&a, x, y); err != nil {
				t.Fatal(err)
			}
			if err := k.GradPreparedTo(&b, x, pr); err != nil {
				t.Fatal(err)
			}
			ar, br := a.RawMatrix(), b.RawMatrix()
			for i := range m {
				for j := range d {
					if u, v := ar.Data[i*ar.Stride+j], br.Data[i*br.Stride+j]; math.Float64bits(u) != math.Float64bits(v) {
						t.Fatalf("%s (%d,%d): prepared %v, GradTo %v", c.name, i, j, v, u)
					}
				}
			}
		}
		if (pr.orbs != nil) != c.orbs {
			t.Errorf("%s: orbits kept %v after the gradients, want %v", c.name, pr.orbs != nil, c.orbs)
		}
		var dst mat.Dense
		other, _ := NewAvg(c.p, c.g, c.o)
		if err := k.GradPreparedTo(&dst, make([]float64, d), mustPrepare(t, other, y)); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: another kernel's points: %v, want ErrBadPoints", c.name, err)
		}
		if err := k.GradPreparedTo(&dst, make([]float64, d), nil); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: nil points: %v, want ErrBadPoints", c.name, err)
		}
		bad := make([]float64, d)
		bad[0] = math.Inf(1)
		if err := k.GradPreparedTo(&dst, bad, pr); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: infinite x: %v, want ErrBadPoints", c.name, err)
		}
	}
}

// TestCrossDiagPrepared: CrossDiagPreparedTo gives CrossPreparedTo's and
// DiagTo's bits, on the fused path (the enumerated average, a few x
// against more prepared points, serial and on workers, points at a
// training point, far out where the guard recomputes pairs, and on some
// coordinates), on the rows path (RBF's permanents, fused into
// f64.ExpPermanent8's lanes up to f64.MaxExpPermDim coordinates and not
// above, on their own coordinates and on some: 7, 8, 9 and 300 prepared
// points, so that k(x, x) takes an idle lane, a call of its own, and a
// row longer than a tile; far out, where pairs take the difference
// form) and on the others (other closed forms, the normalized average,
// as many x as points), and their errors.
func TestCrossDiagPrepared(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	mk := func(g orbit.Group, err error) orbit.Group {
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	m52 := Params{Shape: Matern52, Variance: 1.7, Lengthscale: 0.6}
	rbf := Params{Shape: RBF, Variance: 0.9, Lengthscale: 0.8}
	m12 := Params{Shape: Matern12, Variance: 1.1, Lengthscale: 0.3}
	on := mk(orbit.OnCoords(mk(orbit.Hyperoctahedral(3)), 6, []int{4, 0, 2}))
	cases := []struct {
		name  string
		p     Params
		g     orbit.Group
		o     Options
		fused bool
		rows  bool // RBF's permanents: rowDiag
	}{
		{"matern52/hyperoct3", m52, mk(orbit.Hyperoctahedral(3)), Options{}, true, false},
		{"matern52/hyperoct3/workers4", m52, mk(orbit.Hyperoctahedral(3)), Options{Workers: 4}, true, false},
		{"matern12/perm4", m12, mk(orbit.Permutation(4)), Options{}, true, false},
		{"matern52/signflip3", m52, mk(orbit.SignFlip(3)), Options{}, true, false},
		{"matern52/cyclic5", m52, mk(orbit.Cyclic(5)), Options{}, true, false},
		{"matern52/hyperoct3-on-6", m52, on, Options{}, true, false},
		{"rbf/perm3/enumerate", rbf, mk(orbit.Permutation(3)), Options{Method: Enumerate}, true, false},
		{"rbf/perm3/closed", rbf, mk(orbit.Permutation(3)), Options{}, false, true},
		{"rbf/perm3/normalized", rbf, mk(orbit.Permutation(3)), Options{Normalize: true}, false, false},
		{"rbf/signflip3/closed", rbf, mk(orbit.SignFlip(3)), Options{}, false, false},
		{"rbf/perm6/closed", rbf, mk(orbit.Permutation(6)), Options{}, false, true},
		{"rbf/perm6/closed/workers4", rbf, mk(orbit.Permutation(6)), Options{Workers: 4}, false, true},
		{"rbf/hyperoct4/closed", rbf, mk(orbit.Hyperoctahedral(4)), Options{}, false, true},
		{"rbf/perm7/closed", rbf, mk(orbit.Permutation(7)), Options{}, false, true},
		{"rbf/perm4-on-10/closed", rbf, mk(orbit.OnCoords(mk(orbit.Permutation(4)), 10, []int{1, 3, 5, 7})), Options{}, false, true},
		{"rbf/hyperoct3-on-6/closed", rbf, mk(orbit.OnCoords(mk(orbit.Hyperoctahedral(3)), 6, []int{4, 0, 2})), Options{}, false, true},
	}
	for _, c := range cases {
		a, err := NewAvg(c.p, c.g, c.o)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, enum := a.ev.(*enumEval); enum != c.fused && !a.norm {
			t.Fatalf("%s: enumerated %t, want %t", c.name, enum, c.fused)
		}
		if _, rows := diagRows(a.ev); (rows && !a.norm) != c.rows {
			t.Fatalf("%s: rows path %t, want %t", c.name, rows, c.rows)
		}
		d := a.Dim()
		pts := func(n int, scale float64) *mat.Dense {
			x := mat.NewDense(n, d, nil)
			for i := range n {
				for j := range d {
					x.Set(i, j, scale*(2*rng.Float64()-1))
				}
			}
			return x
		}
		ms := []int{9}
		if c.rows {
			ms = []int{7, 8, 9, 300}
		}
		var y *mat.Dense
		var pr *Prepared
		for _, m := range ms {
			y = pts(m, 2)
			pr, err = a.Prepare(y)
			if err != nil {
				t.Fatal(err)
			}
			far := pts(1, 1e3) // far from the origin: the guard's exact pairs
			at := mat.NewDense(1, d, mat.Row(nil, 3, y))
			for _, x := range []*mat.Dense{pts(1, 2), pts(3, 2), far, at, pts(m, 2), pts(m+2, 2)} {
				n, _ := x.Dims()
				var want, got mat.Dense
				if err := a.CrossPreparedTo(&want, x, pr); err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				wd, err := a.DiagTo(nil, x)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				gd := make([]float64, n)
				for i := range gd {
					gd[i] = math.NaN()
				}
				if _, err := a.CrossDiagPreparedTo(&got, gd, x, pr); err != nil {
					t.Fatalf("%s, %d rows: %v", c.name, n, err)
				}
				for i := range n {
					if math.Float64bits(gd[i]) != math.Float64bits(wd[i]) {
						t.Fatalf("%s, %d rows: k(x_%d, x_%d) = %v, DiagTo %v", c.name, n, i, i, gd[i], wd[i])
					}
					for j := range m {
						if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
							t.Fatalf("%s, %d rows: k(x_%d, y_%d) = %v, CrossPreparedTo %v", c.name, n, i, j, got.At(i, j), want.At(i, j))
						}
					}
				}
			}
		}
		// The errors of the two calls, in their order.
		var dst mat.Dense
		if _, err := a.CrossDiagPreparedTo(&dst, nil, pts(1, 1), nil); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: nil Prepared: %v", c.name, err)
		}
		other, _ := NewAvg(c.p, c.g, c.o)
		po, _ := other.Prepare(y)
		if _, err := a.CrossDiagPreparedTo(&dst, nil, pts(1, 1), po); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: another kernel's points: %v", c.name, err)
		}
		bad := pts(1, 1)
		bad.Set(0, 0, math.NaN())
		_, err1 := a.CrossDiagPreparedTo(&dst, nil, bad, pr)
		err2 := a.CrossPreparedTo(&dst, bad, pr)
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
			t.Errorf("%s: NaN x: %v, CrossPreparedTo: %v", c.name, err1, err2)
		}
		if _, err := a.CrossDiagPreparedTo(&dst, nil, nil, pr); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: nil x: %v", c.name, err)
		}
		if _, err := a.CrossDiagPreparedTo(&dst, nil, mat.NewDense(1, d+1, nil), pr); !errors.Is(err, ErrBadPoints) {
			t.Errorf("%s: wrong dimension: %v", c.name, err)
		}
	}
}

// panickyGroup is permutation(3) whose ActTo panics once when armed (a
// caller's group), without RangeActor or PackedActor, so that the
// enumeration goes through ActTo.
type panickyGroup struct {
	g     *orbit.PermutationGroup
	armed *bool
}

func (p panickyGroup) Name() string      { return "panicky" }
func (p panickyGroup) Dim() int          { return p.g.Dim() }
func (p panickyGroup) Order() *big.Int   { return p.g.Order() }
func (p panickyGroup) Inverse(i int) int { return p.g.Inverse(i) }
func (p panickyGroup) ActTo(dst, x []float64, i int) {
	if *p.armed && i == 3 {
		*p.armed = false
		panic("the caller's group")
	}
	p.g.ActTo(dst, x, i)
}

// TestGradPreparedAfterPanic: a panic while GradPreparedTo keeps the
// orbits of the prepared points (a caller's group; the caller may recover)
// keeps none, and the calls after it give GradTo's bits — it had kept the
// orbits enumerated up to the panic, zeros after, and differentiated
// against them silently.
func TestGradPreparedAfterPanic(t *testing.T) {
	pg, err := orbit.Permutation(3)
	if err != nil {
		t.Fatal(err)
	}
	armed := false
	a, err := NewAvg(Params{Shape: Matern52, Variance: 1.3, Lengthscale: 0.7}, panickyGroup{pg, &armed}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	y := mat.NewDense(4, 3, []float64{0.1, -0.4, 0.8, 0.5, 0.2, -0.3, -0.7, 0.6, 0.05, 0.3, 0.3, -0.9})
	p, err := a.Prepare(y)
	if err != nil {
		t.Fatal(err)
	}
	if p.orbits == nil {
		t.Fatal("the orbits are not kept: the test no longer reaches them")
	}
	x := []float64{0.2, -0.1, 0.4}
	armed = true
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the first GradPreparedTo did not panic")
			}
		}()
		var dst mat.Dense
		a.GradPreparedTo(&dst, x, p)
	}()
	var got, want mat.Dense
	if err := a.GradTo(&want, x, y); err != nil {
		t.Fatal(err)
	}
	if err := a.GradPreparedTo(&got, x, p); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		for j := range 3 {
			if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
				t.Fatalf("∂k(x, y_%d)/∂x_%d after the panic: %v, GradTo %v", i, j, got.At(i, j), want.At(i, j))
			}
		}
	}
}
