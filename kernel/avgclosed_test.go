package kernel_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// closedGroups are the groups with a closed-form k_avg for rbf, at every
// dimension whose enumeration stays cheap enough for a test.
func closedGroups(t testing.TB, short bool) []orbit.Finite {
	var gs []orbit.Finite
	maxSF, maxP, maxH := 8, 7, 5
	if !short {
		maxP, maxH = 8, 6
	}
	for d := 1; d <= maxSF; d++ {
		g, err := orbit.SignFlip(d)
		must(t, err)
		gs = append(gs, g)
	}
	for d := 1; d <= maxP; d++ {
		g, err := orbit.Permutation(d)
		must(t, err)
		gs = append(gs, g)
	}
	for d := 1; d <= maxH; d++ {
		g, err := orbit.Hyperoctahedral(d)
		must(t, err)
		gs = append(gs, g)
	}
	return gs
}

// hardPoints returns n points in [−1, 1]^d mixing uniform coordinates
// with zeros, the box boundary ±1, repeated coordinates (ties within a
// point) and coordinates copied from, or images under g of, earlier
// points (ties across points, x = g·y).
func hardPoints(g orbit.Finite, n int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 7))
	d := g.Dim()
	G := g.Order()
	x := mat.NewDense(n, d, nil)
	for i := range n {
		p := x.RawRowView(i)
		if i > 0 && r.IntN(4) == 0 {
			e := 0
			if G.IsInt64() && G.Int64() < 1<<30 {
				e = r.IntN(int(G.Int64()))
			}
			g.ActTo(p, x.RawRowView(r.IntN(i)), e)
			continue
		}
		for k := range d {
			switch c := r.IntN(8); {
			case c == 0:
				p[k] = 0
			case c == 1:
				p[k] = 1
			case c == 2:
				p[k] = -1
			case c == 3 && k > 0:
				p[k] = p[r.IntN(k)]
			case c == 4 && i > 0:
				p[k] = x.At(r.IntN(i), k)
			default:
				p[k] = 2*r.Float64() - 1
			}
		}
	}
	return x
}

// directAvg is the literal single orbit average with differences taken
// coordinate-wise (no ‖x‖² + ‖y‖² − 2⟨x, y⟩ cancellation), summed with
// Neumaier compensation: an independent reference.
func directAvg(p kernel.Params, g orbit.Finite, x, y []float64) float64 {
	G := int(g.Order().Int64())
	gy := make([]float64, len(y))
	var s, c float64
	for e := range G {
		g.ActTo(gy, y, e)
		var d2 float64
		for k := range x {
			t := x[k] - gy[k]
			d2 += t * t
		}
		v := math.Exp(-0.5 * d2 / (p.Lengthscale * p.Lengthscale))
		t := s + v
		if math.Abs(s) >= math.Abs(v) {
			c += (s - t) + v
		} else {
			c += (v - t) + s
		}
		s = t
	}
	return p.Variance * (s + c) / float64(G)
}

// relClose reports |a − b| ≤ tol·max(|a|, |b|), with an absolute floor at
// the bottom of the normal range (below it neither path has relative
// accuracy: subnormal exponentials).
func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))+1e-300
}

// TestAvgClosedMatchesEnumeration: closed = enumerate = direct average
// within 1e−12 relative, on hard inputs and lengthscales from 0.05 (entries
// of the permanent spanning hundreds of orders of magnitude) to 20.
func TestAvgClosedMatchesEnumeration(t *testing.T) {
	for _, g := range closedGroups(t, testing.Short()) {
		n := 6
		if G := g.Order().Int64(); G > 5000 {
			n = 3
		}
		for li, ell := range []float64{0.05, 0.3, 1, 20} {
			p := kernel.Params{Shape: kernel.RBF, Variance: 1.7, Lengthscale: ell}
			name := fmt.Sprintf("group=%s/ell=%g", g.Name(), ell)
			t.Run(name, func(t *testing.T) {
				closed, err := kernel.NewAvg(p, g, kernel.Options{Method: kernel.Closed})
				must(t, err)
				if closed.Method() != kernel.Closed {
					t.Fatalf("Method %v", closed.Method())
				}
				enum, err := kernel.NewAvg(p, g, kernel.Options{Method: kernel.Enumerate})
				must(t, err)
				x := hardPoints(g, n, uint64(10*li+1))
				y := hardPoints(g, n+1, uint64(10*li+2))
				y.Slice(0, 1, 0, g.Dim()).(*mat.Dense).Copy(x.Slice(1, 2, 0, g.Dim())) // an exact tie x = y
				var kc, ke mat.Dense
				must(t, closed.CrossTo(&kc, x, y))
				must(t, enum.CrossTo(&ke, x, y))
				for i := range n {
					for j := range n + 1 {
						c, e := kc.At(i, j), ke.At(i, j)
						w := directAvg(p, g, x.RawRowView(i), y.RawRowView(j))
						if !relClose(c, w, 1e-12) || !relClose(c, e, 1e-12) {
							t.Errorf("k(x%d, y%d): closed %.17g, enumerate %.17g, direct %.17g (rel %.2g)",
								i, j, c, e, w, math.Abs(c-w)/w)
						}
					}
				}
			})
		}
	}
}

// TestAvgClosedGrad: analytic gradients of the closed forms match the
// enumerated ones (mean of element gradients) and central differences.
func TestAvgClosedGrad(t *testing.T) {
	for _, g := range closedGroups(t, true) {
		if g.Dim() > 5 {
			continue
		}
		p := kernel.Params{Shape: kernel.RBF, Variance: 1.3, Lengthscale: 0.7}
		closed, err := kernel.NewAvg(p, g, kernel.Options{})
		must(t, err)
		enum, err := kernel.NewAvg(p, g, kernel.Options{Method: kernel.Enumerate})
		must(t, err)
		x := hardPoints(g, 4, 3)
		y := hardPoints(g, 5, 4)
		d := g.Dim()
		for i := range 4 {
			xi := x.RawRowView(i)
			var gc, ge mat.Dense
			must(t, closed.GradTo(&gc, xi, y))
			must(t, enum.GradTo(&ge, xi, y))
			xp := mat.NewDense(1, d, nil)
			var kp, km mat.Dense
			for k := range d {
				h := 1e-5
				copy(xp.RawRowView(0), xi)
				xp.Set(0, k, xi[k]+h)
				must(t, closed.CrossTo(&kp, xp, y))
				xp.Set(0, k, xi[k]-h)
				must(t, closed.CrossTo(&km, xp, y))
				for j := range 5 {
					fd := (kp.At(0, j) - km.At(0, j)) / (2 * h)
					c, e := gc.At(j, k), ge.At(j, k)
					if math.Abs(c-e) > 1e-12*p.Variance || math.Abs(c-fd) > 1e-7*p.Variance {
						t.Errorf("%s ∂k(x%d, y%d)/∂x_%d: closed %v, enumerate %v, central difference %v",
							g.Name(), i, j, k, c, e, fd)
					}
				}
			}
		}
	}
}

func TestAvgClosedMethods(t *testing.T) {
	rbf := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	m32 := kernel.Params{Shape: kernel.Matern32, Variance: 1, Lengthscale: 1}
	sf, _ := orbit.SignFlip(4)
	pm, _ := orbit.Permutation(4)
	ho, _ := orbit.Hyperoctahedral(4)
	cy, _ := orbit.Cyclic(4)
	for _, g := range []orbit.Group{sf, pm, ho} {
		for _, c := range []struct {
			m    kernel.Method
			want kernel.Method
		}{{kernel.Auto, kernel.Closed}, {kernel.Closed, kernel.Closed}, {kernel.Enumerate, kernel.Enumerate}} {
			k, err := kernel.NewAvg(rbf, g, kernel.Options{Method: c.m})
			if err != nil || k.Method() != c.want {
				t.Errorf("rbf avg over %s, method %s: %v, %v; want %s", g.Name(), c.m, k, err, c.want)
			}
		}
		if _, err := kernel.NewAvg(m32, g, kernel.Options{Method: kernel.Closed}); !errors.Is(err, kernel.ErrNoClosedForm) {
			t.Errorf("closed matern32 avg over %s: %v", g.Name(), err)
		}
	}
	if _, err := kernel.NewAvg(rbf, cy, kernel.Options{Method: kernel.Closed}); !errors.Is(err, kernel.ErrNoClosedForm) {
		t.Errorf("closed avg over cyclic: %v", err)
	}
	// Beyond MaxPermanentDim there is no closed form (and no enumeration).
	big, _ := orbit.Permutation(kernel.MaxPermanentDim + 1)
	if _, err := kernel.NewAvg(rbf, big, kernel.Options{Method: kernel.Closed}); !errors.Is(err, kernel.ErrNoClosedForm) {
		t.Errorf("closed avg over %s: %v", big.Name(), err)
	}
	// Far beyond enumeration, the closed forms still work.
	for _, mk := range []func(int) (orbit.Group, error){
		func(d int) (orbit.Group, error) { return orbit.SignFlip(d) },
		func(d int) (orbit.Group, error) { return orbit.Hyperoctahedral(d) },
	} {
		g, err := mk(12)
		must(t, err)
		if g.Name() == "signflip(12)" {
			g, err = mk(200)
			must(t, err)
		}
		k, err := kernel.NewAvg(rbf, g, kernel.Options{})
		must(t, err)
		x := kerneltest.Points(g, 2, 1)
		var gm mat.SymDense
		must(t, k.GramTo(&gm, x))
		if v := gm.At(0, 0); !(v > 0 && v <= 1) {
			t.Errorf("%s: k(x, x) = %v", g.Name(), v)
		}
	}
}

// BenchmarkAvgClosed compares closed and enumerated k_avg Gram assembly
// (rbf).
func BenchmarkAvgClosed(b *testing.B) {
	sf, _ := orbit.SignFlip(6)
	ho, _ := orbit.Hyperoctahedral(5)
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	for _, g := range []orbit.Finite{sf, ho} {
		for _, n := range []int{55, 500} {
			x := kerneltest.Points(g, n, 1)
			for _, m := range []kernel.Method{kernel.Enumerate, kernel.Closed} {
				k, err := kernel.NewAvg(p, g, kernel.Options{Method: m})
				if err != nil {
					b.Fatal(err)
				}
				b.Run(fmt.Sprintf("group=%s/method=%s/n=%d", g.Name(), m, n), func(b *testing.B) {
					b.ReportAllocs()
					var dst mat.SymDense
					for b.Loop() {
						if err := k.GramTo(&dst, x); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
