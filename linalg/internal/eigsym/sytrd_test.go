package eigsym

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randSym returns a random symmetric n×n matrix, full storage.
func randSym(r *rand.Rand, n int) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			v := r.NormFloat64()
			a[i*n+j], a[j*n+i] = v, v
		}
	}
	return a
}

// formQ builds Q = H_0⋯H_{n−2} from sytrd's output, naively.
func formQ(n int, a []float64, lda int, tau []float64) []float64 {
	q := make([]float64, n*n)
	for i := range n {
		q[i*n+i] = 1
	}
	// Q = H_0 (H_1 (… H_{n−2})): apply from the last, on the left.
	for i := n - 2; i >= 0; i-- {
		u := make([]float64, n)
		u[i+1] = 1
		for j := i + 2; j < n; j++ {
			u[j] = a[i*lda+j]
		}
		for c := range n {
			var s float64
			for r := range n {
				s += u[r] * q[r*n+c]
			}
			s *= tau[i]
			for r := range n {
				q[r*n+c] -= s * u[r]
			}
		}
	}
	return q
}

func frobNorm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

func TestSytrd(t *testing.T) {
	sizes := []int{1, 2, 3, 5, 31, 32, 33, 34, 64, 65, 97}
	if !testing.Short() {
		sizes = append(sizes, 130, 300)
	}
	for _, n := range sizes {
		for _, w := range []int{1, 4} {
			t.Run(fmt.Sprintf("n=%d/w=%d", n, w), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(n), 3))
				full := randSym(r, n)
				a := append([]float64(nil), full...)
				d, e, tau := make([]float64, n), make([]float64, max(n-1, 0)), make([]float64, max(n-1, 0))
				var ws workspace
				sytrd(n, a, n, d, e, tau, &ws, w)
				q := formQ(n, a, n, tau)
				// ‖QᵀAQ − T‖ and ‖QᵀQ − I‖.
				aq := make([]float64, n*n)
				for i := range n {
					for j := range n {
						var s float64
						for k := range n {
							s += full[i*n+k] * q[k*n+j]
						}
						aq[i*n+j] = s
					}
				}
				res := make([]float64, n*n)
				orth := make([]float64, n*n)
				for i := range n {
					for j := range n {
						var s, o float64
						for k := range n {
							s += q[k*n+i] * aq[k*n+j]
							o += q[k*n+i] * q[k*n+j]
						}
						switch {
						case i == j:
							s -= d[i]
							o -= 1
						case j == i+1:
							s -= e[i]
						case i == j+1:
							s -= e[j]
						}
						res[i*n+j], orth[i*n+j] = s, o
					}
				}
				norm := frobNorm(full)
				if rr := frobNorm(res); rr > 1e-13*norm*float64(n) {
					t.Errorf("‖QᵀAQ − T‖ = %g (‖A‖ = %g)", rr, norm)
				}
				if o := frobNorm(orth); o > 1e-13*float64(n) {
					t.Errorf("‖QᵀQ − I‖ = %g", o)
				}
			})
		}
	}
}

func TestSytrdDeterministic(t *testing.T) {
	n := 300
	r := rand.New(rand.NewPCG(9, 9))
	full := randSym(r, n)
	var ref []float64
	for _, lvl := range simdLevels() {
		for _, w := range []int{1, 2, 5} {
			restore, _ := forceLevel(lvl)
			a := append([]float64(nil), full...)
			d, e, tau := make([]float64, n), make([]float64, n-1), make([]float64, n-1)
			var ws workspace
			sytrd(n, a, n, d, e, tau, &ws, w)
			restore()
			got := append(append(append([]float64(nil), d...), e...), tau...)
			for i := range n {
				got = append(got, a[i*n+i:(i+1)*n]...)
			}
			if ref == nil {
				ref = got
				continue
			}
			for i := range ref {
				if math.Float64bits(ref[i]) != math.Float64bits(got[i]) {
					t.Fatalf("%s w=%d: output %d differs: %v vs %v", lvl, w, i, got[i], ref[i])
				}
			}
		}
	}
}
