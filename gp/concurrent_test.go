package gp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/parallel"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// TestConcurrentPredict: a GP of every kind — exact over the base, avg
// (enumerated: a shared kernel.Prepared whose orbits the first gradient
// computes), max and plus kernels, plus's feature form (built once on
// first prediction), a mix of two plus families, a landmark k_plus and a
// landmark (DTC) base GP, with and without ResidualVariance and a
// constant mean — fresh, then predicted by many goroutines at once, each
// with its own Workspace (Predict, PredictGrad, PredictStandardized),
// gives the bits of serial predictions on another GP built the same way
// (run it with -race: the package doc says a GP is safe for concurrent
// use).
func TestConcurrentPredict(t *testing.T) {
	// The parallel paths, whatever the sizes.
	restore := parallel.SetSerialThreshold(1)
	defer restore()
	const d = 3
	rng := rand.New(rand.NewPCG(31, 7))
	x, y := sample(rng, 14, d)
	q := randMat(rng, 6, d, -2, 2)
	fams := concurrentFamilies(d)
	h := Hyper{Variance: 1.1, Lengthscale: 0.9, Noise: 1e-3}
	predictAll := func(g *GP, ws *Workspace, i int) ([]float64, error) {
		xi := q.RawRowView(i)
		m, v, err := g.Predict(ws, xi)
		if err != nil {
			return nil, err
		}
		dm, dv := make([]float64, d), make([]float64, d)
		m2, v2, err := g.PredictGrad(ws, xi, dm, dv)
		if err != nil {
			return nil, err
		}
		sm, sv := make([]float64, d), make([]float64, d)
		m3, v3, err := g.PredictStandardized(ws, xi, sm, sv)
		if err != nil {
			return nil, err
		}
		out := append([]float64{m, v, m2, v2, m3, v3}, dm...)
		out = append(out, dv...)
		out = append(out, sm...)
		return append(out, sv...), nil
	}
	const goroutines = 8
	for _, f := range fams {
		for _, opts := range []Options{{Backend: linalg.Gonum()}, {Backend: linalg.Gonum(), ResidualVariance: true, Mean: MeanConstant}} {
			t.Run(fmt.Sprintf("%s/resid=%v", f.name, opts.ResidualVariance), func(t *testing.T) {
				n, _ := q.Dims()
				want := make([][]float64, n)
				for i := range n {
					g := mustG(New(f.fam(), x, y, h, opts))
					var err error
					if want[i], err = predictAll(g, nil, i); err != nil {
						t.Fatal(err)
					}
				}
				g := mustG(New(f.fam(), x, y, h, opts))
				errs := make([]error, goroutines)
				var wg sync.WaitGroup
				for w := range goroutines {
					wg.Go(func() {
						var ws Workspace
						for it := range 4 {
							i := (w + it) % n
							got, err := predictAll(g, &ws, i)
							if err != nil {
								errs[w] = err
								return
							}
							for j := range got {
								if math.Float64bits(got[j]) != math.Float64bits(want[i][j]) {
									errs[w] = fmt.Errorf("goroutine %d, point %d, value %d: %v, serial %v", w, i, j, got[j], want[i][j])
									return
								}
							}
						}
					})
				}
				wg.Wait()
				for _, err := range errs {
					if err != nil {
						t.Error(err)
					}
				}
			})
		}
	}
}

type namedFamily struct {
	name string
	fam  func() Family
}

// concurrentFamilies is a family of every kind on R^d (fresh values).
func concurrentFamilies(d int) []namedFamily {
	be := linalg.Gonum()
	h3 := mustG(orbit.Hyperoctahedral(d))
	p3 := mustG(orbit.Permutation(d))
	po := kernel.PlusOptions{Backend: be}
	plus := func() Family { return mustG(NewPlusFamily(kernel.Matern52, p3, kernel.Options{}, po)) }
	return []namedFamily{
		{"base", func() Family { return mustG(NewBaseFamily(kernel.Matern52, d)) }},
		{"avg/enumerate", func() Family {
			return mustG(NewAvgFamily(kernel.Matern52, h3, kernel.Options{Method: kernel.Enumerate, Workers: 2}))
		}},
		{"avg/closed", func() Family { return mustG(NewAvgFamily(kernel.Matern52, h3, kernel.Options{})) }},
		{"avg/normalized", func() Family { return mustG(NewAvgFamily(kernel.Matern52, h3, kernel.Options{Normalize: true})) }},
		{"max", func() Family { return mustG(NewMaxFamily(kernel.Matern52, h3, kernel.Options{})) }},
		{"plus", plus},
		{"mix", func() Family {
			triv := mustG(NewPlusFamily(kernel.Matern52, mustG(orbit.Trivial(d)), kernel.Options{}, po))
			return mustG(NewMixFamily(plus(), triv, 0.2))
		}},
		{"landmark-plus", func() Family {
			return mustG(NewLandmarkPlusFamily(kernel.Matern52, p3, kernel.Options{}, po, 6))
		}},
		{"landmark-base", func() Family {
			return mustG(NewLandmarkFamily(mustG(NewBaseFamily(kernel.Matern52, d)), 6, LandmarkOptions{Backend: be}))
		}},
	}
}

// TestConcurrentBounds: the package doc says Families and Bounds of this
// package are safe for concurrent use: one Bound of every kind (the
// landmark ones with their pooled scratch and cached columns), its CorrTo
// with the derivative called by many goroutines at once at several
// lengthscales, and Fit on one family from several goroutines, give the
// bits of serial calls (run it with -race).
func TestConcurrentBounds(t *testing.T) {
	const d = 3
	rng := rand.New(rand.NewPCG(32, 7))
	x, y := sample(rng, 14, d)
	ls := []float64{0.4, 0.9, 1.7}
	const goroutines = 6
	for _, f := range concurrentFamilies(d) {
		t.Run(f.name, func(t *testing.T) {
			corr := func(b Bound, l float64) ([]float64, error) {
				var c, dl mat.SymDense
				err := b.CorrTo(&c, &dl, l)
				if errors.Is(err, ErrNoDerivative) {
					err = nil
				}
				if err != nil {
					return nil, err
				}
				out := append([]float64(nil), c.RawSymmetric().Data...)
				if !dl.IsEmpty() {
					out = append(out, dl.RawSymmetric().Data...)
				}
				return out, nil
			}
			want := make([][]float64, len(ls))
			for i, l := range ls {
				var err error
				if want[i], err = corr(mustG(f.fam().Bind(x)), l); err != nil {
					t.Fatal(err)
				}
			}
			fit := func(fam Family) (Hyper, float64, error) {
				g, err := Fit(fam, x, y, FitOptions{Backend: linalg.Gonum()})
				if err != nil {
					return Hyper{}, 0, err
				}
				return g.Hyper(), g.LogMarginal(), nil
			}
			wantH, wantL, err := fit(f.fam())
			if err != nil {
				t.Fatal(err)
			}
			fam := f.fam()
			b := mustG(fam.Bind(x))
			errs := make([]error, goroutines)
			var wg sync.WaitGroup
			for w := range goroutines {
				wg.Go(func() {
					for it := range len(ls) {
						i := (w + it) % len(ls)
						got, err := corr(b, ls[i])
						if err == nil && !check.SameBits(got, want[i]) {
							err = fmt.Errorf("goroutine %d: CorrTo at ℓ = %v: not the serial bits", w, ls[i])
						}
						if err != nil {
							errs[w] = err
							return
						}
					}
					if w%2 == 0 {
						h, l, err := fit(fam)
						if err == nil && (h != wantH || math.Float64bits(l) != math.Float64bits(wantL)) {
							err = fmt.Errorf("goroutine %d: Fit %+v %v, serial %+v %v", w, h, l, wantH, wantL)
						}
						if err != nil {
							errs[w] = err
						}
					}
				})
			}
			wg.Wait()
			for _, err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
}
