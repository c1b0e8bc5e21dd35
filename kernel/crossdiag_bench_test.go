package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkCrossDiagPrepared times what a GP predicting with k_avg asks
// of the kernel at each point: CrossDiagPreparedTo of one x against m
// prepared points (the row and k(x, x)), for RBF's permanents —
// permutation(6), hyperoctahedral(3) and permutation(4) on 4 of 10
// coordinates — at m = 10, 12 and 30, points uniform in [−1, 1]^d,
// ℓ = 0.7. The figures are in docs/performance.md, "Deciding kernels
// over groups within the limit".
//
//	go test -run XXX -bench CrossDiagPrepared -cpu 1 ./kernel
func BenchmarkCrossDiagPrepared(b *testing.B) {
	mk := func(g orbit.Group, err error) orbit.Group {
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	for _, c := range []struct {
		name string
		g    orbit.Group
	}{
		{"permutation6", mk(orbit.Permutation(6))},
		{"hyperoctahedral3", mk(orbit.Hyperoctahedral(3))},
		{"permutation4-of-10", mk(orbit.OnCoords(mk(orbit.Permutation(4)), 10, []int{1, 3, 5, 7}))},
	} {
		for _, m := range []int{10, 12, 30} {
			b.Run(fmt.Sprintf("group=%s/m=%d", c.name, m), func(b *testing.B) {
				a, err := kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 0.7}, c.g, kernel.Options{})
				if err != nil {
					b.Fatal(err)
				}
				d := c.g.Dim()
				rng := rand.New(rand.NewPCG(1, uint64(m)))
				pt := func(n int) *mat.Dense {
					x := mat.NewDense(n, d, nil)
					for i := range n {
						for j := range d {
							x.Set(i, j, 2*rng.Float64()-1)
						}
					}
					return x
				}
				pr, err := a.Prepare(pt(m))
				if err != nil {
					b.Fatal(err)
				}
				x := pt(1)
				var dst mat.Dense
				diag := make([]float64, 1)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := a.CrossDiagPreparedTo(&dst, diag, x, pr); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
