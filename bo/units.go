package bo

import (
	"math"

	"github.com/symbo/symbo/orbit"
)

// units is the map between the user's coordinates x and the model's u
// (Config.Normalize): u_k = (x_k − c_k)/s_k, chosen from the box and the
// kernel's group (orbit.CoordinateMaps) so that the group commutes with
// it and acts on u as on x. A class of coordinates the group mixes shares
// one map: for a class that may shift, the centre and half-width of the
// union of its sides (the class's sides map into [−1, 1]); for a class
// that may only scale, centre 0 and the largest |bound| of its sides (the
// sides map into [−1, 1] about the group's fixed point 0); for a class
// that allows no map, the identity. A class whose scale would not be a
// normal number (sides below about 1e-307, where dividing by it loses
// bits) keeps the identity too.
//
// The model's box is the image of the user's: [(lo − c)/s, (hi − c)/s],
// computed by the same formula as every point, so that the image of a
// point of the box lies in it (both operations round monotonically).
type units struct {
	c, s []float64
}

// newUnits returns the map for the box [lo, hi] under g (nil: every
// coordinate its own class, any affine map).
func newUnits(lo, hi []float64, g orbit.Group) *units {
	d := len(lo)
	var maps []orbit.CoordMap
	if g == nil {
		maps = make([]orbit.CoordMap, d)
		for k := range maps {
			maps[k] = orbit.CoordMap{Class: k, Free: orbit.FreeAffine}
		}
	} else {
		maps = orbit.CoordinateMaps(g)
	}
	classes := 0
	for _, m := range maps {
		classes = max(classes, m.Class+1)
	}
	// Per class: the union of its sides, and the largest |bound|.
	clo, chi, top := make([]float64, classes), make([]float64, classes), make([]float64, classes)
	for j := range classes {
		clo[j], chi[j] = math.Inf(1), math.Inf(-1)
	}
	for k, m := range maps {
		j := m.Class
		clo[j], chi[j] = min(clo[j], lo[k]), max(chi[j], hi[k])
		top[j] = max(top[j], math.Abs(lo[k]), math.Abs(hi[k]))
	}
	cc, cs := make([]float64, classes), make([]float64, classes)
	for j := range classes {
		cc[j], cs[j] = 0, 1
	}
	for _, m := range maps {
		j := m.Class
		var c, s float64
		switch m.Free {
		case orbit.FreeAffine:
			// Halves first: no overflow on a box near ±MaxFloat64.
			c, s = clo[j]/2+chi[j]/2, chi[j]/2-clo[j]/2
		case orbit.FreeScale:
			c, s = 0, top[j]
		default:
			continue
		}
		if s >= 0x1p-1022 && !math.IsInf(s, 0) && !math.IsInf(c, 0) {
			cc[j], cs[j] = c, s
		}
	}
	u := &units{c: make([]float64, d), s: make([]float64, d)}
	for k, m := range maps {
		u.c[k], u.s[k] = cc[m.Class], cs[m.Class]
	}
	return u
}

// toModelTo writes u = (x − c)/s into dst (resized) and returns it.
func (m *units) toModelTo(dst, x []float64) []float64 {
	dst = append(dst[:0], x...)
	for k, v := range dst {
		dst[k] = (v - m.c[k]) / m.s[k]
	}
	return dst
}

// toUser returns x = c + s·u clamped into the box [lo, hi] (a fresh
// slice).
func (m *units) toUser(u, lo, hi []float64) []float64 {
	x := make([]float64, len(u))
	for k, v := range u {
		x[k] = m.c[k] + m.s[k]*v
	}
	clampInto(x, lo, hi)
	return x
}
