package kernel_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// FuzzClosedVsEnumerate is the differential target of the orbit kernels:
// for points of any magnitude (mixed 1e-300…1e150 scales, subnormals,
// zeros) and lengthscales across the allowed range, closed forms,
// enumeration and the direct-difference reference (refOrbit) agree within
// 1e-11·v, or every path refuses the input with an error; never a NaN with
// a nil error.
func FuzzClosedVsEnumerate(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(0), 0.0, 0.0)
	f.Add(uint64(2), uint8(1), uint8(3), 8.0, 0.5)
	f.Add(uint64(3), uint8(2), uint8(1), 150.0, -140.0)
	f.Add(uint64(4), uint8(3), uint8(2), -300.0, 100.0)
	f.Add(uint64(5), uint8(4), uint8(0), 7.0, 0.0)
	groups := []func() orbit.Group{
		func() orbit.Group { g, _ := orbit.Hyperoctahedral(3); return g },
		func() orbit.Group { g, _ := orbit.SignFlip(4); return g },
		func() orbit.Group { g, _ := orbit.Permutation(4); return g },
		func() orbit.Group { g, _ := orbit.Cyclic(5); return g },
		func() orbit.Group { g, _ := orbit.Hyperoctahedral(2); return g },
	}
	shapes := []kernel.Shape{kernel.RBF, kernel.Matern12, kernel.Matern32, kernel.Matern52}
	f.Fuzz(func(t *testing.T, seed uint64, gi, si uint8, logScale, logEll float64) {
		if math.IsNaN(logScale) || math.IsNaN(logEll) || math.Abs(logScale) > 320 || math.Abs(logEll) > 160 {
			return
		}
		g := groups[int(gi)%len(groups)]().(orbit.Finite)
		s := shapes[int(si)%len(shapes)]
		l := math.Pow(10, logEll)
		p := kernel.Params{Shape: s, Variance: 1.5, Lengthscale: l}
		if p.Validate() != nil {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		d := g.Dim()
		x, y := make([]float64, d), make([]float64, d)
		scale := math.Pow(10, logScale)
		for k := range d {
			x[k] = rng.NormFloat64() * scale
			y[k] = x[k] + rng.NormFloat64()*scale*math.Pow(10, -float64(rng.IntN(12)))
			if rng.IntN(4) == 0 {
				y[k] = -y[k]
			}
			if rng.IntN(6) == 0 {
				x[k] = math.Float64frombits(rng.Uint64() & 0x000fffffffffffff)
			}
		}
		wantAvg, wantMax := refOrbit(s, p.Variance, l, g, x, y)
		type ctor func(kernel.Params, orbit.Group, kernel.Options) (kernel.Kernel, error)
		newAvg := func(p kernel.Params, g orbit.Group, o kernel.Options) (kernel.Kernel, error) {
			return kernel.NewAvg(p, g, o)
		}
		newMax := func(p kernel.Params, g orbit.Group, o kernel.Options) (kernel.Kernel, error) {
			return kernel.NewMax(p, g, o)
		}
		for _, c := range []struct {
			name string
			mk   ctor
			want float64
		}{{"avg", newAvg, wantAvg}, {"max", newMax, wantMax}} {
			for _, m := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
				k, err := c.mk(p, g, kernel.Options{Method: m})
				if err != nil {
					t.Fatal(err)
				}
				var got float64
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s %s %v: panic %v", g.Name(), c.name, m, r)
						}
					}()
					got, err = crossOne(k, x, y)
				}()
				if err != nil {
					if !errors.Is(err, kernel.ErrBadPoints) {
						t.Fatalf("%s %s %v: error %v", g.Name(), c.name, m, err)
					}
					continue
				}
				if math.IsNaN(got) || math.IsNaN(c.want) {
					t.Fatalf("%s %s %v ℓ=%g: k(%v, %v) = %g, reference %g", g.Name(), c.name, m, l, x, y, got, c.want)
				}
				tol := 1e-11
				if c.name == "avg" && m == kernel.Auto && s == kernel.RBF {
					// The closed k_avg scales the points by 1/ℓ before
					// differencing: error ≲ 2ε·max|x|/ℓ (package doc).
					var mx float64
					for k := range x {
						mx = max(mx, math.Abs(x[k]), math.Abs(y[k]))
					}
					tol += 16 * 0x1p-53 * mx / l
				}
				if math.Abs(got-c.want) > tol*p.Variance {
					t.Fatalf("%s %v %s %v ℓ=%g: k(%v, %v) = %.17g, reference %.17g", g.Name(), s, c.name, m, l, x, y, got, c.want)
				}
			}
		}
	})
}
