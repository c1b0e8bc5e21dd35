package orbit_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/orbit"
)

// angleChord2 is the squared chord between the directions of x and y on
// the sphere of radius r, from the angle θ = atan2(‖x × y‖, x·y) between
// them (d = 3): (2r·sin(θ/2))². It shares nothing with CanonicalTo, which
// normalizes the vectors.
func angleChord2(x, y []float64, r float64) float64 {
	cx := x[1]*y[2] - x[2]*y[1]
	cy := x[2]*y[0] - x[0]*y[2]
	cz := x[0]*y[1] - x[1]*y[0]
	dot := x[0]*y[0] + x[1]*y[1] + x[2]*y[2]
	theta := math.Atan2(math.Sqrt(cx*cx+cy*cy+cz*cz), dot)
	c := 2 * r * math.Sin(theta/2)
	return c * c
}

func TestScalingDirDistance(t *testing.T) {
	lo, hi := []float64{0.1, 0.2, 0.5}, []float64{10, 4, 8}
	g := must(orbit.ScalingDir(lo, hi))
	r := math.Sqrt(10*10 + 4*4 + 8*8)
	if g.Radius() != r {
		t.Fatalf("Radius = %v, want ‖hi‖ = %v", g.Radius(), r)
	}
	if got, want := g.Name(), "scalingdir(3,[0.1 0.2 0.5],[10 4 8])"; got != want {
		t.Errorf("Name = %q, want %q", got, want)
	}
	rng := rand.New(rand.NewPCG(7, 1))
	point := func() []float64 {
		x := make([]float64, 3)
		for k := range x {
			x[k] = lo[k] * math.Pow(hi[k]/lo[k], rng.Float64())
		}
		return x
	}
	scaled := func(x []float64, c float64) []float64 {
		y := make([]float64, len(x))
		for k := range x {
			y[k] = c * x[k]
		}
		return y
	}
	for range 500 {
		x, y, z := point(), point(), point()
		d2 := g.OrbitDist2(x, y)
		want := angleChord2(x, y, r)
		if math.Abs(d2-want) > 1e-12*r*r {
			t.Fatalf("OrbitDist2(%v, %v) = %.17g, want (2r·sin(θ/2))² = %.17g", x, y, d2, want)
		}
		if g.OrbitDist2(y, x) != d2 {
			t.Fatalf("OrbitDist2 not symmetric at %v, %v", x, y)
		}
		// Invariant under x ↦ c·x for every c > 0, inside the box or not.
		for _, c := range []float64{1e-3, 0.37, 5, 1e4} {
			if e := g.OrbitDist2(scaled(x, c), y); math.Abs(e-d2) > 1e-12*r*r {
				t.Fatalf("OrbitDist2(%g·x, y) = %.17g, OrbitDist2(x, y) = %.17g", c, e, d2)
			}
		}
		// A metric on the rays: the triangle inequality.
		dxz, dzy := math.Sqrt(g.OrbitDist2(x, z)), math.Sqrt(g.OrbitDist2(z, y))
		if math.Sqrt(d2) > dxz+dzy+1e-12*r {
			t.Fatalf("triangle inequality fails: d(x,y) = %g > d(x,z) + d(z,y) = %g", math.Sqrt(d2), dxz+dzy)
		}
		// The canonical map agrees with the distance and lies on the sphere.
		fx, fy := make([]float64, 3), make([]float64, 3)
		g.CanonicalTo(fx, x)
		g.CanonicalTo(fy, y)
		var s, n float64
		for k := range fx {
			s += (fx[k] - fy[k]) * (fx[k] - fy[k])
			n += fx[k] * fx[k]
		}
		if math.Abs(s-d2) > 1e-12*r*r || math.Abs(math.Sqrt(n)-r) > 1e-13*r {
			t.Fatalf("‖φ(x) − φ(y)‖² = %g (OrbitDist2 %g), ‖φ(x)‖ = %g (r %g)", s, d2, math.Sqrt(n), r)
		}
		if g.OrbitDist2(x, scaled(x, 2.5)) > 1e-24*r*r {
			t.Fatalf("OrbitDist2(x, 2.5·x) = %g, want 0", g.OrbitDist2(x, scaled(x, 2.5)))
		}
	}
}

// The orbits, their measure and the segment distance are the scaling
// group's: only the orbit distance and the canonical map differ.
func TestScalingDirSegmentsAreScalings(t *testing.T) {
	lo, hi := []float64{0.1, 0.1}, []float64{10, 10}
	sg := must(orbit.Scaling(lo, hi))
	dg := must(orbit.ScalingDir(lo, hi))
	rng := rand.New(rand.NewPCG(3, 3))
	const m = 7
	for range 200 {
		x := []float64{0.1 * math.Pow(100, rng.Float64()), 0.1 * math.Pow(100, rng.Float64())}
		y := []float64{0.1 * math.Pow(100, rng.Float64()), 0.1 * math.Pow(100, rng.Float64())}
		a1, b1, ka1, kb1 := sg.IntervalFaces(x)
		a2, b2, ka2, kb2 := dg.IntervalFaces(x)
		if a1 != a2 || b1 != b2 || ka1 != ka2 || kb1 != kb2 {
			t.Fatalf("IntervalFaces differ at %v", x)
		}
		o1, o2 := make([]float64, 2*m), make([]float64, 2*m)
		sg.OrbitTo(o1, x, m)
		dg.OrbitTo(o2, x, m)
		if !slices.Equal(o1, o2) {
			t.Fatalf("OrbitTo differs at %v", x)
		}
		if sg.SegmentDist2(x, y) != dg.SegmentDist2(x, y) || sg.OrbitDist2(x, y) != sg.SegmentDist2(x, y) {
			t.Fatalf("SegmentDist2 differs at %v, %v", x, y)
		}
	}
	// Why the chord (ScalingDirGroup): the segment distance is about
	// 0.1·(s/s′ − 1)/√(1 + s²) between slopes s′ < s ≤ 1 (the end of the
	// flatter segment nearest the origin, (0.1/s′, 0.1), against the other
	// ray) and breaks the triangle inequality near an axis; the chord does
	// not.
	ray := func(s float64) []float64 { return []float64{10, 10 * s} } // in the box for s ≥ 0.01
	seg := func(a, b float64) float64 { return math.Sqrt(sg.OrbitDist2(ray(a), ray(b))) }
	chord := func(a, b float64) float64 { return math.Sqrt(dg.OrbitDist2(ray(a), ray(b))) }
	for _, c := range [][2]float64{{1, 1.0 / 11}, {1, 0.01}, {1.0 / 11, 0.01}, {1.0 / 20, 1.0 / 40}} {
		want := 0.1 * (c[0]/c[1] - 1) / math.Sqrt(1+c[0]*c[0])
		if got := seg(c[0], c[1]); math.Abs(got-want) > 1e-9*want {
			t.Errorf("segment distance between slopes %g and %g = %.12g, want 0.1·(s/s′ − 1)/√(1 + s²) = %.12g", c[0], c[1], got, want)
		}
	}
	if !(seg(1, 0.01) > 4*(seg(1, 1.0/11)+seg(1.0/11, 0.01))) {
		t.Errorf("segment distance: d(1, 1/100) = %g, d(1, 1/11) + d(1/11, 1/100) = %g: the triangle inequality was expected to fail by 4×",
			seg(1, 0.01), seg(1, 1.0/11)+seg(1.0/11, 0.01))
	}
	if c := chord(1, 0.01); c > chord(1, 1.0/11)+chord(1.0/11, 0.01)+1e-12 {
		t.Errorf("chord: triangle inequality fails")
	}
	if got, want := chord(1, 0.01), 2*dg.Radius()*math.Sin((math.Pi/4-math.Atan(0.01))/2); math.Abs(got-want) > 1e-12*want {
		t.Errorf("chord between the diagonal and slope 1/100 = %g, want %g", got, want)
	}
}

func TestScalingDirEdges(t *testing.T) {
	g := must(orbit.ScalingDir([]float64{0.1, 0.1}, []float64{10, 10}))
	r := g.Radius()
	dst := make([]float64, 2)
	for _, tc := range []struct {
		x    []float64
		want []float64
	}{
		{[]float64{0, 0}, []float64{0, 0}},
		{[]float64{1e300, 1e300}, []float64{r / math.Sqrt2, r / math.Sqrt2}},
		{[]float64{1e-310, 1e-310}, []float64{r / math.Sqrt2, r / math.Sqrt2}},
		{[]float64{3, 0}, []float64{r, 0}},
		{[]float64{-3, 4}, []float64{-0.6 * r, 0.8 * r}},
	} {
		g.CanonicalTo(dst, tc.x)
		for k := range dst {
			if math.Abs(dst[k]-tc.want[k]) > 1e-14*r {
				t.Errorf("CanonicalTo(%v) = %v, want %v", tc.x, dst, tc.want)
				break
			}
		}
	}
	g.CanonicalTo(dst, []float64{math.Inf(1), 1})
	if !math.IsNaN(dst[0]) || !math.IsNaN(dst[1]) {
		t.Errorf("CanonicalTo(+Inf, 1) = %v, want NaN", dst)
	}
	if d := g.OrbitDist2([]float64{1, 1}, []float64{0, 0}); math.Abs(d-r*r) > 1e-12*r*r {
		t.Errorf("OrbitDist2(x, 0) = %g, want r² = %g (φ(0) = 0)", d, r*r)
	}
	for _, s := range []orbit.Spec{
		{Name: "scalingdir", D: 2, Lo: []float64{0}, Hi: []float64{10}},
		{Name: "scalingdir", D: 2, Lo: []float64{1}, Hi: []float64{math.Inf(1)}},
		{Name: "scalingdir", D: 2, Lo: []float64{1, 2, 3}, Hi: []float64{10}},
	} {
		if _, err := orbit.Parse(s); !errors.Is(err, orbit.ErrInvalid) || !strings.Contains(err.Error(), "scalingdir") {
			t.Errorf("Parse(%+v): err = %v, want ErrInvalid naming scalingdir", s, err)
		}
	}
	p, err := orbit.Parse(orbit.Spec{Name: "ScalingDir", D: 2, Lo: []float64{0.1}, Hi: []float64{10}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(orbit.Canonicalizer); !ok || p.Name() != "scalingdir(2,0.1,10)" || p.Order() != nil {
		t.Errorf("Parse(scalingdir) = %s (canonical map %v, order %v)", p.Name(), ok, p.Order())
	}
	if _, ok := p.(orbit.Segmenter); !ok {
		t.Errorf("scalingdir is not a Segmenter: k_avg would not integrate over its segments")
	}
	if orbit.IsIsometric(p) {
		t.Errorf("scalingdir declared isometric")
	}
}

// TakesBox names exactly the groups Parse cannot build without a box.
func TestTakesBox(t *testing.T) {
	for _, n := range orbit.Names() {
		if n == "matrices" || n == "blockperm" {
			continue // they need other fields (a file, a block size)
		}
		_, err := orbit.Parse(orbit.Spec{Name: n, D: 2})
		if got, want := orbit.TakesBox(n), err != nil; got != want {
			t.Errorf("TakesBox(%q) = %v, but Parse without a box: err = %v", n, got, err)
		}
		if orbit.TakesBox(n) {
			if _, err := orbit.Parse(orbit.Spec{Name: n, D: 2, Lo: []float64{1}, Hi: []float64{2}}); err != nil {
				t.Errorf("Parse(%q) with a box: %v", n, err)
			}
		}
	}
	if !orbit.TakesBox(" ScalingDir ") || orbit.TakesBox("rotation2d") {
		t.Errorf("TakesBox: case or spaces not as Parse reads names")
	}
}

// TestScalingDistTinyPoints: points far below the box whose orbits meet
// another's are at distance 0 (‖x‖² = 1e-340 underflowed to a subnormal
// and the distance came out 0.01, 0.05, 1e-12); the ratios are now
// taken on points scaled by powers of two where the squares could
// underflow or overflow (in-range points keep the plain sums, bit for
// bit). A pair that does not meet keeps a positive distance.
func TestScalingDistTinyPoints(t *testing.T) {
	g1, err := orbit.Scaling([]float64{0.1}, []float64{10})
	if err != nil {
		t.Fatal(err)
	}
	g2, err := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		g    *orbit.ScalingGroup
		x, y []float64
	}{
		{g1, []float64{1e-170}, []float64{1}},
		{g1, []float64{1e-160}, []float64{1}},
		{g1, []float64{1}, []float64{1e-200}},
		{g2, []float64{1e-200, 2e-200}, []float64{1, 2}},
		{g2, []float64{3, 6}, []float64{1e-300, 2e-300}},
	} {
		if d := c.g.OrbitDist2(c.x, c.y); d > 1e-28 {
			t.Errorf("%s: OrbitDist2(%v, %v) = %v, want 0 (the orbits meet)", c.g.Name(), c.x, c.y, d)
		}
	}
	// Orbits that do not meet: directions (1, 2) and (2, 1), the second
	// far below the box; the nearest points are the low ends' scalings.
	x, y := []float64{1, 2}, []float64{2e-200, 1e-200}
	if d := g2.OrbitDist2(x, y); !(d > 1e-4) || math.IsInf(d, 0) {
		t.Errorf("OrbitDist2(%v, %v) = %v, want a positive distance", x, y, d)
	}
}

// TestScalingSubnormalPoint: a point of subnormal coordinates, outside the
// box, whose scalings into the box overflow float64 (lo/x = +Inf), stays
// in its own orbit: C(x) = {1}, OrbitTo's nodes are x itself, and the
// orbit average over it is finite (it was +Inf nodes, and k_avg's error
// blamed the points' range).
func TestScalingSubnormalPoint(t *testing.T) {
	g, err := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range [][]float64{{5e-324, 5e-324}, {1e-310, 2e-320}, {5e-324, 1}} {
		if a, b := g.Interval(x); a != 1 || b != 1 {
			t.Errorf("Interval(%v) = [%v, %v], want [1, 1]", x, a, b)
		}
		dst := make([]float64, 3*2)
		g.OrbitTo(dst, x, 3)
		for j := range 3 {
			if dst[2*j] != x[0] || dst[2*j+1] != x[1] {
				t.Errorf("OrbitTo(%v) node %d = %v, want x", x, j, dst[2*j:2*j+2])
			}
		}
		if d := g.OrbitDist2(x, []float64{1, 1}); math.IsNaN(d) || math.IsInf(d, 0) {
			t.Errorf("OrbitDist2(%v, (1, 1)) = %v, want finite", x, d)
		}
	}
}
