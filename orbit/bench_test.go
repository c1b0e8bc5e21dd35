package orbit_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/orbit"
)

func BenchmarkActTo(b *testing.B) {
	for _, g := range []orbit.Finite{must(orbit.Hyperoctahedral(5)), must(orbit.Hyperoctahedral(8)),
		must(orbit.Permutation(10)), must(orbit.PairedPerm(4))} {
		b.Run("group="+g.Name(), func(b *testing.B) {
			d, G := g.Dim(), min(must(orbit.Size(g)), 1<<20)
			x, dst := make([]float64, d), make([]float64, d)
			for k := range x {
				x[k] = float64(k)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				g.ActTo(dst, x, i)
				if i++; i == G {
					i = 0
				}
			}
		})
	}
}

func BenchmarkOrbitDist2(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, g := range []orbit.Group{must(orbit.Hyperoctahedral(5)), must(orbit.PairedPerm(4)),
		must(orbit.BlockPerm(10, 2)), must(orbit.Scaling([]float64{0.1}, []float64{10}))} {
		ds := g.(orbit.Distancer)
		b.Run("group="+g.Name(), func(b *testing.B) {
			d := g.Dim()
			x, y := make([]float64, d), make([]float64, d)
			for k := range x {
				x[k], y[k] = 0.1+rng.Float64(), 0.1+rng.Float64()
			}
			b.ReportAllocs()
			for b.Loop() {
				ds.OrbitDist2(x, y)
			}
		})
	}
}

func BenchmarkOrbits(b *testing.B) {
	g := must(orbit.Hyperoctahedral(5))
	for _, n := range []int{55, 200} {
		x := make([]float64, n*5)
		for k := range x {
			x[k] = float64(k % 7)
		}
		var dst []float64
		b.Run(fmt.Sprintf("group=%s/n=%d", g.Name(), n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n * 3840 * 5 * 8))
			for b.Loop() {
				dst, _ = orbit.Enumerator{}.Orbits(dst, g, x, n)
			}
		})
	}
}
