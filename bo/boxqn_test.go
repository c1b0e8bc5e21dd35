package bo

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestBoxQNStaysInBox: every point the ascent evaluates and returns lies in
// the box, for starts inside, on faces and at corners, with objectives whose
// unconstrained maximum lies outside the box. For separable concave
// quadratics the box maximizer is the clamped unconstrained one, which the
// ascent must find.
func TestBoxQNStaysInBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for trial := range 300 {
		d := 1 + rng.IntN(6)
		lo, hi := make([]float64, d), make([]float64, d)
		c, w := make([]float64, d), make([]float64, d)
		for i := range d {
			lo[i] = -10 + 10*rng.Float64()
			hi[i] = lo[i] + math.Pow(10, -1+3*rng.Float64())
			// Centre anywhere, often far outside.
			c[i] = lo[i] + (hi[i]-lo[i])*(-2+5*rng.Float64())
			w[i] = math.Pow(10, -2+4*rng.Float64())
		}
		kind := trial % 3
		outside := 0
		f := func(x, g []float64) float64 {
			if g == nil { // value only
				g = make([]float64, len(x))
			}
			if !inBox(x, lo, hi) {
				outside++
			}
			v := 0.0
			for i := range x {
				r := x[i] - c[i]
				switch kind {
				case 0: // separable concave quadratic
					v -= w[i] * r * r
					g[i] = -2 * w[i] * r
				case 1: // linear ramp: maximum at a corner
					v += w[i] * r
					g[i] = w[i]
				default: // wavy, many local maxima
					v += math.Sin(3*x[i]) - 0.01*w[i]*r*r
					g[i] = 3*math.Cos(3*x[i]) - 0.02*w[i]*r
				}
			}
			return v
		}
		q := newBoxQN(lo, hi, 200)
		x0 := make([]float64, d)
		for i := range d {
			switch rng.IntN(4) {
			case 0:
				x0[i] = lo[i]
			case 1:
				x0[i] = hi[i]
			case 2:
				x0[i] = lo[i] - 5 // outside: clamped
			default:
				x0[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
			}
		}
		x := make([]float64, d)
		v := q.maximize(f, x, x0)
		if outside > 0 || !inBox(x, lo, hi) {
			t.Fatalf("trial %d: %d evaluations outside the box, result %v in [%v, %v]", trial, outside, x, lo, hi)
		}
		g := make([]float64, d)
		if v != f(x, g) {
			t.Fatalf("trial %d: returned value %v is not f(x)", trial, v)
		}
		if v < f(clampCopy(x0, lo, hi), g) {
			t.Fatalf("trial %d: ascent decreased f", trial)
		}
		if kind == 0 || kind == 1 {
			xs := make([]float64, d)
			for i := range d {
				xs[i] = math.Min(math.Max(c[i], lo[i]), hi[i])
				if kind == 1 {
					xs[i] = hi[i]
				}
			}
			fs := f(xs, g)
			if v < fs-1e-10*math.Max(1, math.Abs(fs)) {
				t.Errorf("trial %d (kind %d): f = %v, box maximum %v", trial, kind, v, fs)
			}
			// Coordinates with tiny weights are only resolved to where
			// their effect on f reaches its rounding: loose tolerance.
			for i := range d {
				want := xs[i]
				if math.Abs(x[i]-want) > 1e-4*(hi[i]-lo[i]) {
					t.Errorf("trial %d (kind %d): x[%d] = %v, want %v (box [%v, %v])", trial, kind, i, x[i], want, lo[i], hi[i])
				}
			}
		}
	}
}

func clampCopy(x, lo, hi []float64) []float64 {
	c := append([]float64(nil), x...)
	clampInto(c, lo, hi)
	return c
}

// TestBoxQNRosenbrock: a non-separable problem with an interior maximum.
func TestBoxQNRosenbrock(t *testing.T) {
	lo, hi := []float64{-2, -1}, []float64{2, 3}
	f := func(x, g []float64) float64 {
		if g == nil { // value only
			g = make([]float64, len(x))
		}
		a, b := 1-x[0], x[1]-x[0]*x[0]
		g[0] = 2*a + 400*x[0]*b
		g[1] = -200 * b
		return -(a*a + 100*b*b)
	}
	q := newBoxQN(lo, hi, 500)
	x := make([]float64, 2)
	q.maximize(f, x, []float64{-2, 3})
	if math.Abs(x[0]-1) > 1e-4 || math.Abs(x[1]-1) > 1e-4 {
		t.Errorf("Rosenbrock maximizer %v, want (1, 1)", x)
	}
	// Constrained: the box excludes (1, 1).
	lo, hi = []float64{-2, -1}, []float64{0.5, 3}
	q = newBoxQN(lo, hi, 500)
	q.maximize(f, x, []float64{-2, 3})
	// On the face x0 = 0.5 the best x1 is 0.25, and there ∂f/∂x0 > 0.
	if x[0] != 0.5 || math.Abs(x[1]-0.25) > 1e-5 {
		t.Errorf("constrained Rosenbrock maximizer %v, want (0.5, 0.25)", x)
	}
}

// TestBoxQNNonFinite: NaN values count as −∞ and never win.
func TestBoxQNNonFinite(t *testing.T) {
	lo, hi := []float64{0}, []float64{1}
	f := func(x, g []float64) float64 {
		if g == nil { // value only
			g = make([]float64, len(x))
		}
		if x[0] > 0.7 {
			return math.NaN()
		}
		g[0] = 1
		return x[0]
	}
	q := newBoxQN(lo, hi, 100)
	x := make([]float64, 1)
	v := q.maximize(f, x, []float64{0.1})
	if !(x[0] <= 0.7 && x[0] > 0.6) || v != x[0] {
		t.Errorf("x = %v, f = %v", x, v)
	}
}

// TestBestStarts checks the starts' selection against the stable sort it
// replaced: the first k indices by descending score, ties to the lower
// index, on scores with many ties and -Inf (finiteOr's image).
func TestBestStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		n := rng.IntN(80) // k beyond bestStartsInsert too
		score := make([]float64, n)
		for i := range score {
			switch rng.IntN(4) {
			case 0:
				score[i] = math.Inf(-1)
			case 1:
				score[i] = float64(rng.IntN(3)) // ties
			default:
				score[i] = rng.NormFloat64()
			}
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		sort.SliceStable(want, func(i, j int) bool { return score[want[i]] > score[want[j]] })
		k := rng.IntN(n + 2)
		got := bestStarts(score, min(k, n))
		if len(got) != min(k, n) {
			t.Fatalf("trial %d: %d starts, want %d", trial, len(got), min(k, n))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("trial %d (k=%d): start %d is %d, want %d (scores %v)", trial, k, i, got[i], want[i], score)
			}
		}
	}
}
