package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/orbit"
)

// prepYRef is the specification of enumEval.prepY: one ActTo per element,
// packed by f64.Pack.
func prepYRef(e *enumEval, y []float64) []float64 {
	d, G := e.d, e.G
	orb := make([]float64, G*d)
	for i := range G {
		e.g.ActTo(orb[i*d:(i+1)*d], y, i)
	}
	out := make([]float64, f64.PackedLen(G, d)+1)
	f64.Pack(out[:len(out)-1], orb, G, d)
	out[len(out)-1] = dot(y, y)
	return out
}

func prepGroups(t testing.TB) []orbit.Finite {
	var gs []orbit.Finite
	add := func(g orbit.Finite, err error) {
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	add(orbit.Trivial(3))
	add(orbit.SignFlip(1))
	add(orbit.SignFlip(6))
	add(orbit.Permutation(3))
	add(orbit.Permutation(4))
	add(orbit.Hyperoctahedral(3))
	add(orbit.Permutation(5))
	add(orbit.Hyperoctahedral(2))
	add(orbit.Hyperoctahedral(5))
	add(orbit.BlockPerm(3, 2))
	add(orbit.PairedPerm(4))
	add(orbit.Cyclic(5))
	add(orbit.Cyclic(37))
	add(orbit.NewMatrices(2, [][]float64{{0, -1, 1, 0}}))
	return gs
}

// TestPrepYMatchesActTo checks the blockwise enumeration bit for bit
// against ActTo and f64.Pack, on each of its paths: the lane-major
// PackedActor, RangeActor with the in-place transposition, and ActTo.
func TestPrepYMatchesActTo(t *testing.T) {
	for _, g := range prepGroups(t) {
		d := g.Dim()
		G, err := orbit.Size(g)
		if err != nil {
			t.Fatal(err)
		}
		ra, _ := g.(orbit.RangeActor)
		pa, _ := g.(orbit.PackedActor)
		for _, e := range []*enumEval{
			{d: d, G: G, g: g, ra: ra, pa: pa},
			{d: d, G: G, g: g, ra: ra},
			{d: d, G: G, g: g},
		} {
			rng := rand.New(rand.NewPCG(3, uint64(d)))
			y := make([]float64, d)
			for k := range d {
				y[k] = rng.NormFloat64()
			}
			want := prepYRef(e, y)
			got := make([]float64, e.yLen())
			for k := range got {
				got[k] = math.NaN()
			}
			e.prepY(got, y)
			for k, v := range want {
				if math.Float64bits(v) != math.Float64bits(got[k]) {
					t.Fatalf("%s (packed %t, range %t): prepY[%d] = %v, want %v", g.Name(), e.pa != nil, e.ra != nil, k, got[k], v)
				}
			}
		}
	}
}

// BenchmarkPrepY compares prepY's lane-major path (PackedActor), its
// blockwise path (RangeActor and a transposition) and one ActTo +
// PackPoint per element (the first implementation) for hyperoctahedral(5).
func BenchmarkPrepY(b *testing.B) {
	g, err := orbit.Hyperoctahedral(5)
	if err != nil {
		b.Fatal(err)
	}
	G, _ := orbit.Size(g)
	e := &enumEval{d: 5, G: G, g: g, ra: g}
	y := []float64{0.3, -0.1, 0.7, 0.2, -0.9}
	dst := make([]float64, e.yLen())
	b.Run("packed", func(b *testing.B) {
		ep := *e
		ep.pa = g
		for b.Loop() {
			ep.prepY(dst, y)
		}
	})
	b.Run("range", func(b *testing.B) {
		for b.Loop() {
			e.prepY(dst, y)
		}
	})
	b.Run("actto", func(b *testing.B) {
		pl := f64.PackedLen(G, 5)
		tmp := make([]float64, 5)
		for b.Loop() {
			for i := range G {
				g.ActTo(tmp, y, i)
				f64.PackPoint(dst[:pl], tmp, i, pl/5)
			}
			dst[pl] = dot(y, y)
		}
	})
}
