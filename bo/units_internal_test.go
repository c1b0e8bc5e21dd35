package bo

import (
	"math"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// TestUnitsMap: the maps newUnits chooses — a shared class gets the
// centre and half-width of the union of its sides, a flipped coordinate
// centre 0 and its largest |bound|, a scaling group's coordinates the
// identity, a side too small for a normal scale the identity — and the
// box's image holds the image of every point of the box, on boxes near
// ±MaxFloat64 too.
func TestUnitsMap(t *testing.T) {
	must := func(g orbit.Group, err error) orbit.Group {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	perm := must(orbit.Permutation(2))
	sf := must(orbit.SignFlip(1))
	sc := must(orbit.Scaling([]float64{1}, []float64{4}))
	for _, tc := range []struct {
		name         string
		g            orbit.Group
		lo, hi, c, s []float64
	}{
		{"perm@[0,2]", must(orbit.OnCoords(perm, 4, []int{0, 2})), []float64{0, 1e-5, -1, 16}, []float64{1, 1e-1, 2, 1024},
			[]float64{0.5, 0.050005, 0.5, 520}, []float64{1.5, 0.049995, 1.5, 504}},
		{"signflip@[1]", must(orbit.OnCoords(sf, 2, []int{1})), []float64{0, -3}, []float64{2, 1}, []float64{1, 0}, []float64{1, 3}},
		{"scaling@[0]", must(orbit.OnCoords(sc, 2, []int{0})), []float64{1, 10}, []float64{4, 30}, []float64{0, 20}, []float64{1, 10}},
		{"nil", nil, []float64{-1e308, 0, 0}, []float64{1e308, 1e-310, 3}, []float64{0, 0, 1.5}, []float64{1e308, 1, 1.5}},
		{"huge", nil, []float64{-math.MaxFloat64}, []float64{math.MaxFloat64}, []float64{0}, []float64{math.MaxFloat64}},
	} {
		u := newUnits(tc.lo, tc.hi, tc.g)
		for k := range tc.lo {
			if math.Abs(u.c[k]-tc.c[k]) > 1e-15*math.Abs(tc.s[k]) || math.Abs(u.s[k]-tc.s[k]) > 1e-15*tc.s[k] {
				t.Errorf("%s: coordinate %d: c %v s %v, want %v %v", tc.name, k, u.c[k], u.s[k], tc.c[k], tc.s[k])
			}
		}
		mlo, mhi := u.toModelTo(nil, tc.lo), u.toModelTo(nil, tc.hi)
		for k := range mlo {
			if !(mlo[k] < mhi[k]) || math.IsInf(mlo[k], 0) || math.IsInf(mhi[k], 0) {
				t.Errorf("%s: model box [%v, %v] in coordinate %d", tc.name, mlo[k], mhi[k], k)
			}
		}
		for _, r := range []float64{0, 1e-17, 0.25, 0.5, 0.999, 1} {
			x := make([]float64, len(tc.lo))
			for k := range x {
				x[k] = lerp(tc.lo[k], tc.hi[k], r)
			}
			m := u.toModelTo(nil, x)
			back := u.toUser(m, tc.lo, tc.hi)
			for k := range x {
				if m[k] < mlo[k] || m[k] > mhi[k] {
					t.Errorf("%s: x = %v maps to %v, outside the model box [%v, %v]", tc.name, x, m, mlo, mhi)
				}
				if back[k] < tc.lo[k] || back[k] > tc.hi[k] || math.Abs(back[k]-x[k]) > 4e-16*(math.Abs(x[k])+u.s[k]) {
					t.Errorf("%s: x = %v comes back as %v", tc.name, x, back)
				}
			}
		}
	}
}

// TestNormalizeExtremeBoxes: with Normalize, boxes near ±MaxFloat64 and
// sides below the normal range give points in the box and finite
// steps, as without.
func TestNormalizeExtremeBoxes(t *testing.T) {
	for _, box := range [][2][]float64{
		{{-1e308, 0, 16}, {1e308, 1e-310, 1024}},
		{{-math.MaxFloat64, 1e-5}, {math.MaxFloat64, 1e-1}},
	} {
		lo, hi := box[0], box[1]
		o, err := New(lo, hi, Config{Init: 3, Workers: 1, Protocol: Protocol{Normalize: true, RawSamples: 32, Starts: 2, ExcludeObserved: true}}, 1)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			x, err := o.Ask()
			if err != nil {
				t.Fatalf("box %v: ask %d: %v", box, i, err)
			}
			y := 0.0
			for k, v := range x {
				if v < lo[k] || v > hi[k] || math.IsNaN(v) {
					t.Fatalf("box %v: ask %d: %v outside the box", box, i, x)
				}
				y -= math.Abs((v/2-lo[k]/2)/(hi[k]/2-lo[k]/2) - 0.3)
			}
			if err := o.Tell(x, y); err != nil {
				t.Fatal(err)
			}
		}
	}
}
