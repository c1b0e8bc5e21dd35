package kernel

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

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
