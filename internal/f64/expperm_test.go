package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

// permBrute is perm(m) (d×d) as the sum over all permutations.
func permBrute(m []float64, d int) float64 {
	idx := make([]int, d)
	for i := range idx {
		idx[i] = i
	}
	var sum float64
	var rec func(k int)
	rec = func(k int) {
		if k == d {
			p := 1.0
			for i, j := range idx {
				p *= m[i*d+j]
			}
			sum += p
			return
		}
		for i := k; i < d; i++ {
			idx[k], idx[i] = idx[i], idx[k]
			rec(k + 1)
			idx[k], idx[i] = idx[i], idx[k]
		}
	}
	rec(0)
	return sum
}

// TestExpPermanent8 checks every path bit for bit against the generic one
// and the generic one against the permanent over all permutations of the
// matrices built with math.Exp and math.Cosh.
func TestExpPermanent8(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	for d := 1; d <= MaxExpPermDim; d++ {
		scratch := make([]float64, ExpPermScratch(d))
		for trial := range 40 {
			spread := []float64{0.3, 1, 2.5}[trial%3]
			u := make([]float64, d)
			w := make([]float64, 8*d)
			for i := range u {
				u[i] = spread * rng.Float64()
			}
			for i := range w {
				w[i] = spread * rng.Float64()
				if trial%2 == 1 {
					w[i] = -w[i]
				}
			}
			for _, cosh := range []bool{false, true} {
				var ref [8]float64
				expPermGeneric(&ref, u, w, d, false, cosh, scratch)
				for _, p := range paths() {
					restore := setFeatures(p.f)
					var got [8]float64
					ExpPermanent8(&got, u, w, cosh, scratch)
					restore()
					if got != ref {
						t.Fatalf("d=%d cosh=%v: %s gives %v, generic %v", d, cosh, p.name, got, ref)
					}
				}
				m := make([]float64, d*d)
				for p := range 8 {
					for i := range d {
						for j := range d {
							a := u[i] * w[8*j+p]
							m[i*d+j] = math.Exp(a)
							if cosh {
								m[i*d+j] = 2 * math.Cosh(a)
							}
						}
					}
					want := permBrute(m, d)
					if e := math.Abs(ref[p]-want) / want; e > 1e-13 {
						t.Errorf("d=%d cosh=%v lane %d: %v, want %v (rel %.2g)", d, cosh, p, ref[p], want, e)
					}
				}
			}
		}
	}
}

// TestExpPermanent8Clamped: arguments beyond the exponential's clamp
// (|u·w| up to 1600 against 700), where rows overflow to +Inf, products
// underflow and Inf·0 makes NaN, give the same bits on every path as the
// generic one, for both entry points.
func TestExpPermanent8Clamped(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 5))
	for d := 1; d <= MaxExpPermDim; d++ {
		scratch := make([]float64, ExpPermScratch(d))
		for range 20 {
			u := make([]float64, 8*d)
			w := make([]float64, 8*d)
			for i := range w {
				u[i] = 40 * (2*rng.Float64() - 1)
				w[i] = 40 * (2*rng.Float64() - 1)
			}
			same := func(a, b [8]float64) bool {
				for i := range a {
					if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
						return false
					}
				}
				return true
			}
			var ref, refPairs [8]float64
			expPermGeneric(&ref, u[:d], w, d, false, false, scratch)
			expPermGeneric(&refPairs, u, w, d, true, false, scratch)
			for _, p := range paths() {
				restore := setFeatures(p.f)
				var got, gotPairs [8]float64
				ExpPermanent8(&got, u[:d], w, false, scratch)
				ExpPermanent8Pairs(&gotPairs, u, w, false, scratch)
				restore()
				if !same(got, ref) || !same(gotPairs, refPairs) {
					t.Fatalf("d=%d: %s gives %v and pairs %v, generic %v and %v", d, p.name, got, gotPairs, ref, refPairs)
				}
			}
		}
	}
}

// TestExpPermanent8Pairs checks that every lane of ExpPermanent8Pairs, on
// every path, has the bits of the generic ExpPermanent8 with that lane's u
// broadcast (and the same w lane).
func TestExpPermanent8Pairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	for d := 1; d <= MaxExpPermDim; d++ {
		scratch := make([]float64, ExpPermScratch(d))
		for trial := range 30 {
			spread := []float64{0.3, 1, 2.5}[trial%3]
			u := make([]float64, 8*d)
			w := make([]float64, 8*d)
			for i := range w {
				u[i] = spread * rng.Float64()
				w[i] = spread * rng.Float64()
				if trial%2 == 1 {
					w[i] = -w[i]
				}
			}
			for _, cosh := range []bool{false, true} {
				var want [8]float64
				ub := make([]float64, d)
				for p := range 8 {
					for i := range d {
						ub[i] = u[8*i+p]
					}
					var ref [8]float64
					expPermGeneric(&ref, ub, w, d, false, cosh, scratch)
					want[p] = ref[p]
				}
				for _, p := range paths() {
					restore := setFeatures(p.f)
					var got [8]float64
					ExpPermanent8Pairs(&got, u, w, cosh, scratch)
					restore()
					if got != want {
						t.Fatalf("d=%d cosh=%v: %s gives %v, want %v", d, cosh, p.name, got, want)
					}
				}
			}
		}
	}
}

// TestExpPermExp bounds expPermExp against math.Exp in ulps over the
// clamp range.
func TestExpPermExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2))
	worst := 0.0
	for k := range 200000 {
		x := (rng.Float64()*2 - 1) * 30
		if k%4 == 0 {
			x = (rng.Float64()*2 - 1) * permExpHi
		}
		got, want := expPermExp(x), math.Exp(x)
		ulp := math.Nextafter(want, math.Inf(1)) - want
		worst = max(worst, math.Abs(got-want)/ulp)
	}
	t.Logf("max error %.2f ulp", worst)
	if worst > 4 {
		t.Errorf("expPermExp: %.2f ulp from math.Exp", worst)
	}
}
