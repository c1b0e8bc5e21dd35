package gp

import (
	"fmt"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// BenchmarkLandmarkSpectrum is one evaluation of the landmark likelihood's
// spectrum at one lengthscale on likelihoodCap(256) = 1024 inputs (what a
// capped fit does about 20 times): k_plus over hyperoctahedral(5), and
// nystrom (the trivial group).
func BenchmarkLandmarkSpectrum(b *testing.B) {
	x, y := benchData(1024)
	for _, c := range []lmCase{
		{"hyperoctahedral", kernel.RBF, mustG(orbit.Hyperoctahedral(5))},
		{"trivial", kernel.RBF, mustG(orbit.Trivial(5))},
	} {
		lb := lmBind(b, lmFamily(b, c, 256), x)
		for _, l := range []float64{0.5, 2, 8} {
			b.Run(fmt.Sprintf("%s/l=%g", c.name, l), func(b *testing.B) {
				var s lowRankSpec
				for b.Loop() {
					if err := lb.lowRankSpectrumTo(&s, y, l, true); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkLandmarkFit is a cold fit (profile likelihood, constant mean,
// the default landmark rule) of the landmark k_plus on n = 3000 inputs.
func BenchmarkLandmarkFit(b *testing.B) {
	x, y := benchData(3000)
	for _, c := range []lmCase{
		{"hyperoctahedral", kernel.RBF, mustG(orbit.Hyperoctahedral(5))},
		{"trivial", kernel.RBF, mustG(orbit.Trivial(5))},
	} {
		f := lmFamily(b, c, 256)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Fit(f, x, y, FitOptions{Backend: linalg.Gonum(), Mean: MeanConstant}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
