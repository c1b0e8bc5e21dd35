package kernel

import (
	"math"
	"testing"
)

// TestAllFinite: allFinite agrees with a test of every value by
// math.IsNaN and math.IsInf, for every length up to 9 and every position
// of one non-finite value among finite ones of every kind (zeros of both
// signs, subnormals, ±MaxFloat64, whose product by 0 is 0).
func TestAllFinite(t *testing.T) {
	finite := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1, -2.5, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
	want := func(d []float64) bool {
		for _, v := range d {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
		return true
	}
	for n := 0; n <= 9; n++ {
		d := make([]float64, n)
		for i := range d {
			d[i] = finite[(i*7+n)%len(finite)]
		}
		if got := allFinite(d); got != want(d) || !got {
			t.Fatalf("%v: allFinite %v, want true", d, got)
		}
		for i := range d {
			for _, b := range bad {
				keep := d[i]
				d[i] = b
				if allFinite(d) {
					t.Errorf("%v: allFinite true with %v at %d", d, b, i)
				}
				d[i] = keep
			}
		}
	}
}
