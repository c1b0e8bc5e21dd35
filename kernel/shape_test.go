package kernel

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestShapeTable: every row of the shape table is consistent — its
// derivatives match finite differences of its profile, its vectorized
// profile matches the scalar one, its guard slope bounds |dκ(√t)/dt| and
// its fusedErr bounds the change of κ it guards — and a shape outside the
// table is an error at every entry point.
func TestShapeTable(t *testing.T) {
	us := []float64{0, 1e-3, 0.1, 0.5, 1, 1.7, 3, 8, 30}
	for _, s := range Shapes() {
		sp := s.spec()
		if got, err := ParseShape(strings.ToUpper(sp.name)); err != nil || got != s || s.String() != sp.name {
			t.Errorf("%v: parse %v, %v", s, got, err)
		}
		if k0 := kappa(s, 0); k0 != 1 {
			t.Errorf("%v: κ(0) = %v", s, k0)
		}
		u2 := make([]float64, len(us))
		for i, u := range us {
			u2[i] = u * u
		}
		vec := make([]float64, len(us))
		KappaU2To(vec, u2, s)
		for i, u := range us {
			if k := kappa(s, u); math.Abs(vec[i]-k) > 1e-15 {
				t.Errorf("%v at u = %g: vectorized %v, scalar %v", s, u, vec[i], k)
			}
			if u < 0.05 { // central differences lose too many digits below
				continue
			}
			const h = 1e-6
			dk := (kappa(s, u*(1+h)) - kappa(s, u*(1-h))) / (2 * h * u) // κ'(u)
			if d := sp.dlog(u); math.Abs(d+u*dk) > 1e-7 {
				t.Errorf("%v at u = %g: dlog %v, finite differences %v", s, u, d, -u*dk)
			}
			if d := dkappaOverU(s, u); math.Abs(d-dk/u) > 1e-6*(1+math.Abs(dk/u)) {
				t.Errorf("%v at u = %g: κ'/u %v, finite differences %v", s, u, d, dk/u)
			}
			// dκ(√t)/dt = κ'(u)/(2u) is within the guard's slope.
			if math.Abs(dk/(2*u)) > sp.slope*(1+1e-6) {
				t.Errorf("%v at u = %g: |dκ/dt| = %v above the slope %v", s, u, math.Abs(dk/(2*u)), sp.slope)
			}
			for _, b := range []float64{1e-10, 1e-4, 0.1} {
				lo := max(u*u-b, 0)
				worst := 0.0
				for k := range 21 {
					tt := lo + (u*u+b-lo)*float64(k)/20
					worst = max(worst, math.Abs(kappaU2(s, tt)-kappaU2(s, u*u)))
				}
				if e := sp.fusedErr(lo, u*u, b); worst > e*(1+1e-5)+1e-15 { // rounding of κ

					t.Errorf("%v at u = %g, b = %g: change %v above the bound %v", s, u, b, worst, e)
				}
			}
		}
	}
	bad := Shape(len(shapes))
	if _, err := ParseShape("matern72"); err == nil {
		t.Error("ParseShape accepted matern72")
	}
	if err := (Params{Shape: bad, Variance: 1, Lengthscale: 1}).Validate(); err == nil {
		t.Error("Validate accepted a shape outside the table")
	}
	if err := (Params{Shape: -1, Variance: 1, Lengthscale: 1}).Validate(); err == nil {
		t.Error("Validate accepted a negative shape")
	}
	if _, err := NewBase(Params{Shape: bad, Variance: 1, Lengthscale: 1}, 2); err == nil {
		t.Error("NewBase accepted a shape outside the table")
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("kappa of a shape outside the table did not panic")
			}
		}()
		kappa(bad, 1)
	}()
}

// TestDkappaOverUTo: the batched κ'(u)/u equals, bit for bit, the scalar
// one and the formulas written out (each shape's as it was before the
// exponentials were batched) on ordinary, tiny, zero, huge and infinite
// u — where the exponential underflows, and for lengths that leave a
// remainder after the blocks of eight.
func TestDkappaOverUTo(t *testing.T) {
	written := map[Shape]func(u float64) float64{
		RBF: func(u float64) float64 { return -math.Exp(-0.5 * u * u) },
		Matern12: func(u float64) float64 {
			if u == 0 {
				return 0
			}
			if e := math.Exp(-u); e != 0 {
				return -e / u
			}
			return 0
		},
		Matern32: func(u float64) float64 { return -3 * math.Exp(-sqrt3*u) },
		Matern52: func(u float64) float64 {
			a := sqrt5 * u
			e := math.Exp(-a)
			if e == 0 {
				return -5.0 / 3 * e
			}
			return -5.0 / 3 * ((1 + a) * e)
		},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	us := []float64{0, 1e-300, 1e-8, 0.5, 1, 3, 30, 38, 39, 300, 700, 1e10, math.Inf(1)}
	for range 2000 {
		us = append(us, rng.ExpFloat64()*rng.Float64()*40)
	}
	for s := range Shape(len(shapes)) {
		f := written[s]
		if f == nil {
			t.Fatalf("no written formula for %v", s)
		}
		for _, n := range []int{len(us), 13, 8, 7, 1} {
			out := make([]float64, n)
			dkappaOverUTo(s, out, us[:n])
			for i, u := range us[:n] {
				if w := f(u); math.Float64bits(out[i]) != math.Float64bits(w) || math.Float64bits(dkappaOverU(s, u)) != math.Float64bits(w) {
					t.Fatalf("%v at u = %v: batched %v, scalar %v, written %v", s, u, out[i], dkappaOverU(s, u), w)
				}
			}
		}
	}
}
