package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkScaling times k_avg over scaling(2, 0.1, 10) (Scaling2d's box)
// with the old default, 32 Gauss–Legendre nodes per orbit (rule=gauss32,
// Options.Quadrature = 32), the same rule at 1024 nodes (rule=gauss1024,
// the most it allows: where it converges, the accuracy the exact average
// has everywhere; op=cross and op=grad only, a Gram takes seconds), and
// the exact average (rule=exact, the default): a Gram of n = 55
// log-uniform points (op=gram; op=gram-cold builds the kernel anew each
// time), one point against them (op=cross, what the acquisition
// evaluates) and its gradient (op=grad), at lengthscales from small to
// the ~6 Scaling2d's fits settle on.
func BenchmarkScaling(b *testing.B) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	g, err := orbit.Scaling(lo, hi)
	if err != nil {
		b.Fatal(err)
	}
	x := scalingPoints(rand.New(rand.NewPCG(19, 2)), lo, hi, 55)
	q := scalingPoints(rand.New(rand.NewPCG(19, 3)), lo, hi, 1)
	for _, s := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
		for _, ell := range []float64{0.1, 1, 6} {
			for _, rule := range []string{"gauss32", "gauss1024", "exact"} {
				o := kernel.Options{}
				switch rule {
				case "gauss32":
					o.Quadrature = 32
				case "gauss1024":
					o.Quadrature = 1024
				}
				k, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}, g, o)
				if err != nil {
					b.Fatal(err)
				}
				name := fmt.Sprintf("shape=%s/ell=%g/rule=%s", s, ell, rule)
				gram := rule != "gauss1024"
				b.Run(name+"/op=gram", func(b *testing.B) {
					if !gram {
						b.Skip("a Gram at 1024 nodes takes seconds")
					}
					b.ReportAllocs()
					var dst mat.SymDense
					for b.Loop() {
						if err := k.GramTo(&dst, x); err != nil {
							b.Fatal(err)
						}
					}
				})
				// A new kernel per Gram: the exact average's per-kernel cache
				// of prepared points starts empty (what a GP fit, building a
				// kernel per lengthscale it tries, sees).
				b.Run(name+"/op=gram-cold", func(b *testing.B) {
					if !gram {
						b.Skip("a Gram at 1024 nodes takes seconds")
					}
					b.ReportAllocs()
					var dst mat.SymDense
					for b.Loop() {
						k, err := kernel.NewAvg(kernel.Params{Shape: s, Variance: 1, Lengthscale: ell}, g, o)
						if err != nil {
							b.Fatal(err)
						}
						if err := k.GramTo(&dst, x); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run(name+"/op=cross", func(b *testing.B) {
					b.ReportAllocs()
					var dst mat.Dense
					for b.Loop() {
						dst.Reset()
						if err := k.CrossTo(&dst, q, x); err != nil {
							b.Fatal(err)
						}
					}
				})
				b.Run(name+"/op=grad", func(b *testing.B) {
					b.ReportAllocs()
					var dst mat.Dense
					for b.Loop() {
						dst.Reset()
						if err := k.GradTo(&dst, q.RawRowView(0), x); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
