package kernel_test

import (
	"fmt"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkEnumGram times enumerated Gram assembly over hyperoctahedral(5)
// (matern52): avg (one κ per element, f64.SumKappa) and max (MaxDot, where
// orbit preparation is a large share).
func BenchmarkEnumGram(b *testing.B) {
	g, err := orbit.Hyperoctahedral(5)
	if err != nil {
		b.Fatal(err)
	}
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	for _, c := range []struct {
		kind string
		n    int
	}{{"avg", 55}, {"avg", 200}, {"max", 1000}} {
		x := kerneltest.Points(g, c.n, 1)
		var k kernel.Kernel
		if c.kind == "avg" {
			k, err = kernel.NewAvg(p, g, kernel.Options{Method: kernel.Enumerate})
		} else {
			k, err = kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate})
		}
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("kernel=%s/n=%d", c.kind, c.n), func(b *testing.B) {
			var dst mat.SymDense
			for b.Loop() {
				if err := kernel.Gram(k, &dst, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEnumAvgGroups times the Gram of an enumerated k_avg
// (Matérn-5/2, which has no closed form over any finite group) on n
// points over groups of growing order |G| up to bo.AvgEnumerateLimit
// (8192, signflip(13)), and its gradient row (GradTo of one point
// against the n): the cost per pair, reported as ns/pair and
// ns/pair-element (÷|G|), is what bo's limit on explicit avg is drawn
// from (docs/performance.md, "Explicit orbit averages over large
// groups"). Run it on one core: -cpu 1.
func BenchmarkEnumAvgGroups(b *testing.B) {
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	for _, c := range []struct {
		name string
		d    int
	}{{"hyperoctahedral", 3}, {"hyperoctahedral", 4}, {"hyperoctahedral", 5}, {"permutation", 5}, {"permutation", 7}, {"signflip", 13}} {
		g, err := orbit.Parse(orbit.Spec{Name: c.name, D: c.d})
		if err != nil {
			b.Fatal(err)
		}
		G, err := orbit.Size(g)
		if err != nil {
			b.Fatal(err)
		}
		k, err := kernel.NewAvg(p, g, kernel.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		const n = 20
		x := kerneltest.Points(g, n, 1)
		pairs := float64(n * (n + 1) / 2)
		b.Run(fmt.Sprintf("op=gram/group=%s%d/G=%d/n=%d", c.name, c.d, G, n), func(b *testing.B) {
			var dst mat.SymDense
			for b.Loop() {
				if err := k.GramTo(&dst, x); err != nil {
					b.Fatal(err)
				}
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / pairs
			b.ReportMetric(ns, "ns/pair")
			b.ReportMetric(ns/float64(G), "ns/pair-element")
		})
		b.Run(fmt.Sprintf("op=grad/group=%s%d/G=%d/n=%d", c.name, c.d, G, n), func(b *testing.B) {
			var dst mat.Dense
			for b.Loop() {
				if err := k.GradTo(&dst, x.RawRowView(0), x); err != nil {
					b.Fatal(err)
				}
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / n
			b.ReportMetric(ns, "ns/pair")
			b.ReportMetric(ns/float64(G), "ns/pair-element")
		})
	}
}
