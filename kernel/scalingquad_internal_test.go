package kernel

import (
	"math"
	"testing"
)

// TestKappaDiffHugeArguments: kappaDiff and chordInt are finite, and
// right, at arguments where a Matérn-5/2 K(a) = 1 + a + a²/3 overflows
// (a ≳ 1.3e154) or a is infinite (u² overflowed): κ there is 0 in
// float64, so κ(u_hi) − κ(u_lo) is −κ(u_lo), and a chord between two
// such distances integrates to 0. Both were 0·∞ = NaN. Where the old
// form is finite the value is unchanged (e^{−a}·K(a) at a = 1, 700).
func TestKappaDiffHugeArguments(t *testing.T) {
	rs := &Matern52.spec().radial
	k := func(a float64) float64 { return math.Exp(-a) * (1 + a + a*a/3) }
	for _, c := range []struct{ alo, ahi, want float64 }{
		{3e154, 4e154, 0},
		{2e154, math.Inf(1), 0},
		{math.Inf(1), math.Inf(1), 0},
		{1, math.Inf(1), -k(1)},
		{1, 3e154, -k(1)},
		{700, 2e154, -k(700)},
	} {
		if got := kappaDiff(rs, c.alo, c.ahi); !(math.Abs(got-c.want) <= 1e-15*math.Abs(c.want)) {
			t.Errorf("kappaDiff(%g, %g) = %v, want %v", c.alo, c.ahi, got, c.want)
		}
	}
	if got := chordInt(rs, 1e308, 1.0000000000001e308, 1e-160); got != 0 {
		t.Errorf("chordInt at u² = 1e308 (a = 2.2e154), h = 1e−160: %v, want 0", got)
	}
	// Ordinary arguments: the same bits as the closed form's.
	for _, c := range [][2]float64{{1, 2}, {0.5, 700}, {3, 3.5}} {
		dl := c[1] - c[0]
		want := math.Exp(-c[0]) * (rs.kpoly(c[0])*math.Expm1(-dl) + math.Exp(-dl)*dl*rs.kdiff(c[0], c[1]))
		if got := kappaDiff(rs, c[0], c[1]); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("kappaDiff(%g, %g) = %v, want %v bit for bit", c[0], c[1], got, want)
		}
	}
}
