package check

import (
	"math"
	"testing"
)

type t1 struct{}

func TestIsNil(t *testing.T) {
	var p *t1
	var i any = p
	for _, c := range []struct {
		v    any
		want bool
	}{{nil, true}, {i, true}, {&t1{}, false}, {t1{}, false}, {0, false}, {[]int(nil), false}} {
		if got := IsNil(c.v); got != c.want {
			t.Errorf("IsNil(%#v) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestSameBits(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		a, b []float64
		want bool
	}{
		{nil, nil, true}, {[]float64{1, 2}, []float64{1, 2}, true}, {[]float64{nan}, []float64{nan}, true},
		{[]float64{0}, []float64{math.Copysign(0, -1)}, false}, {[]float64{1}, []float64{1, 2}, false},
		{[]float64{1, 2}, []float64{1}, false}, {[]float64{1, 2}, []float64{1, 3}, false},
	} {
		if got := SameBits(c.a, c.b); got != c.want {
			t.Errorf("SameBits(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
