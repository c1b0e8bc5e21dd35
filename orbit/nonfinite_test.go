package orbit_test

import (
	"errors"
	"math"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// nonFinite are the coordinates the tests below plant in a point.
var nonFinite = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}

// TestNonFiniteDistances pins what the package doc promises for points
// with a NaN or ±Inf coordinate, which the methods on points do not
// check: every squared distance (OrbitDist2, PointOrbitDist2, AlignTo's
// result) is NaN or +Inf, never a finite number, for every group, with the
// bad coordinate in x, in y or in both; the actions, canonical maps and
// orbit nodes run without panicking; a scaling's interval is [1, 1] with
// no faces.
func TestNonFiniteDistances(t *testing.T) {
	gs := append(groups(t),
		must(orbit.ScalingDir([]float64{0.1, 0.1, 0.1}, []float64{10, 10, 10})),
		must(orbit.PairedPerm(20)), // the Hungarian algorithm's pooled scratch
		must(orbit.BlockPerm(18, 1)))
	for _, g := range gs {
		d := g.Dim()
		x0, y0 := make([]float64, d), make([]float64, d)
		for k := range d {
			x0[k] = 0.5 + float64((3*k)%7)/4
			y0[k] = 0.75 + float64((5*k)%11)/8
		}
		for _, bad := range nonFinite {
			for _, pos := range []int{0, d / 2, d - 1} {
				x := append([]float64(nil), x0...)
				x[pos] = bad
				yb := append([]float64(nil), y0...)
				yb[(pos+1)%d] = -bad // the same and the other infinity, or NaN
				for _, pair := range [][2][]float64{{x, y0}, {y0, x}, {x, x}, {x, yb}} {
					a, b := pair[0], pair[1]
					check := func(what string, v float64) {
						t.Helper()
						if !(math.IsNaN(v) || math.IsInf(v, 1)) {
							t.Errorf("%s %s(%v, %v) = %v, want NaN or +Inf", g.Name(), what, a, b, v)
						}
					}
					if dg, ok := g.(orbit.Distancer); ok {
						check("OrbitDist2", dg.OrbitDist2(a, b))
					}
					if pd, ok := g.(orbit.PointDistancer); ok {
						check("PointOrbitDist2", pd.PointOrbitDist2(a, b))
					}
					if al, ok := g.(orbit.Aligner); ok {
						check("AlignTo", al.AlignTo(make([]float64, d), a, b))
					}
				}
				if c, ok := g.(orbit.Canonicalizer); ok {
					c.CanonicalTo(make([]float64, c.CanonicalDim()), x)
				}
				if f, ok := g.(orbit.Finite); ok {
					f.ActTo(make([]float64, d), x, 0)
				}
				if dz, ok := g.(orbit.Discretizer); ok {
					dz.OrbitTo(make([]float64, 3*d), x, 3)
				}
				if s, ok := g.(orbit.Segmenter); ok {
					if a, b, ka, kb := s.IntervalFaces(x); a != 1 || b != 1 || ka != -1 || kb != -1 {
						t.Errorf("%s IntervalFaces(%v) = %v, %v, %d, %d, want 1, 1, -1, -1", g.Name(), x, a, b, ka, kb)
					}
				}
			}
		}
	}
}

// TestOrbitsNonFinite: Enumerator.Orbits, which returns an error, refuses
// points with a NaN or ±Inf coordinate (ErrInvalid); it wrote their
// orbits with a nil error.
func TestOrbitsNonFinite(t *testing.T) {
	g := must(orbit.Hyperoctahedral(3))
	for _, bad := range nonFinite {
		x := []float64{1, 2, 3, 4, 5, 6}
		x[4] = bad
		if _, err := (orbit.Enumerator{}).Orbits(nil, g, x, 2); !errors.Is(err, orbit.ErrInvalid) {
			t.Errorf("a coordinate %v: err = %v, want ErrInvalid", bad, err)
		}
	}
}

// TestRotationNormOverflow: rotation2d's distances at finite points whose
// norms overflow (coordinates past MaxFloat64/√2) are never NaN — its
// OrbitDist2 took ‖x‖ − ‖y‖ = Inf − Inf, NaN even for x = y, and AlignTo
// scaled x by ‖y‖/‖x‖ = Inf/Inf — but the distance of two points of one
// orbit is 0, and AlignTo's is that of a point of y's orbit on x's ray.
func TestRotationNormOverflow(t *testing.T) {
	g := must(orbit.Rotation2D())
	m := math.MaxFloat64
	for _, c := range []struct {
		x, y []float64
		want float64 // the squared orbit distance
	}{
		{[]float64{m, m}, []float64{m, m}, 0},
		{[]float64{m, m}, []float64{-m, -m}, 0},
		{[]float64{m, -m}, []float64{-m, m}, 0},
		{[]float64{m, 0}, []float64{0, m}, 0},
		{[]float64{m, m}, []float64{1, 2}, math.Inf(1)},
		{[]float64{m, m}, []float64{m, m / 2}, math.Inf(1)},
	} {
		if got := g.OrbitDist2(c.x, c.y); got != c.want {
			t.Errorf("OrbitDist2(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
		dst := make([]float64, 2)
		if got := g.AlignTo(dst, c.x, c.y); math.IsNaN(got) || math.IsNaN(dst[0]) || math.IsNaN(dst[1]) {
			t.Errorf("AlignTo(%v, %v) = %v, dst %v", c.x, c.y, got, dst)
		}
	}
	// Below the overflow the values are unchanged: both norms finite.
	x, y := []float64{3e153, 4e153}, []float64{0, 5e153}
	if got := g.OrbitDist2(x, y); got != 0 {
		t.Errorf("OrbitDist2(%v, %v) = %v, want 0", x, y, got)
	}
}
