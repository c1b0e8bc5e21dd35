package orbit

import (
	"math/big"
	"testing"
)

// capProbe is a group with exactly the optional interfaces of a mask (its
// methods are never called): the generated table must give every valid
// capability set a type that declares exactly those interfaces, and
// onCoordsCaps must read them back.
type capProbe struct{ d int }

func (capProbe) Name() string                          { return "probe" }
func (p capProbe) Dim() int                            { return p.d }
func (capProbe) Order() *big.Int                       { return nil }
func (capProbe) ActTo(dst, x []float64, i int)         {}
func (capProbe) Inverse(i int) int                     { return i }
func (capProbe) OrbitDist2(x, y []float64) float64     { return 0 }
func (capProbe) CanonicalDim() int                     { return 1 }
func (capProbe) CanonicalTo(dst, x []float64)          {}
func (capProbe) AlignTo(dst, x, y []float64) float64   { return 0 }
func (capProbe) OrbitTo(dst, x []float64, m int)       {}
func (capProbe) Isometric()                            {}
func (capProbe) ActRangeTo(dst, x []float64, a, b int) {}

func TestOnCoordsTypes(t *testing.T) {
	n := 0
	for mask, mk := range onCoordsTypes {
		valid := mask&capFinite == 0 || mask&(capDisc|capIso) == 0
		if (mk != nil) != valid {
			t.Fatalf("mask %#b: constructor present %v, valid %v", mask, mk != nil, valid)
		}
		if mk == nil {
			continue
		}
		n++
		g := mk(&onCoords{g: capProbe{2}, d: 3, k: 2, coords: []int{0, 2}, rest: []int{1}, name: "probe@[0,2]/3"})
		has := map[int]bool{}
		_, has[capFinite] = g.(Finite)
		_, ra := g.(RangeActor)
		_, has[capDist] = g.(Distancer)
		_, has[capCanon] = g.(Canonicalizer)
		_, has[capAlign] = g.(Aligner)
		_, has[capDisc] = g.(Discretizer)
		_, has[capIso] = g.(Isometric)
		for bit, ok := range has {
			if ok != (mask&bit != 0) {
				t.Errorf("mask %#b: capability %#b declared %v", mask, bit, ok)
			}
		}
		if ra != has[capFinite] {
			t.Errorf("mask %#b: RangeActor %v, Finite %v", mask, ra, has[capFinite])
		}
		if _, ok := g.(Embedded); !ok {
			t.Errorf("mask %#b: not Embedded", mask)
		}
		switch g.(type) {
		case Circular, Segmenter, CoordinateGroup:
			t.Errorf("mask %#b: declares a whole-space capability", mask)
		}
		if got := onCoordsCaps(g); got != mask {
			t.Errorf("mask %#b: onCoordsCaps reads %#b", mask, got)
		}
	}
	if n != 40 {
		t.Errorf("%d capability sets, want 8 finite + 32 continuous", n)
	}
}
