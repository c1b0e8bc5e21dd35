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
