package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestPackPanelsPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, w := range []int{1, 3, 4, 8, 12, 16, 24} {
		for _, k := range []int{1, 2, 7, 33} {
			for _, np := range []int{1, 2, 5} {
				for _, alpha := range []float64{1, -1, 0.3} {
					ld := np*w + r.IntN(3)
					src := make([]float64, (k-1)*ld+np*w)
					randVec(r, src)
					want := make([]float64, np*k*w)
					for q := range np {
						for p := range k {
							for j := range w {
								want[(q*k+p)*w+j] = alpha * src[p*ld+q*w+j]
							}
						}
					}
					for _, p := range paths() {
						restore := setFeatures(p.f)
						off := r.IntN(4)
						buf, dst := guarded(np*k*w, off, math.NaN())
						PackPanels(dst, src, ld, k, w, np, alpha)
						restore()
						checkVec(t, p.name+" PackPanels", len(dst), dst, want, buf, off, math.NaN())
					}
				}
			}
		}
	}
}
