package bo_test

import (
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// hetero is a heterogeneous 6-d problem with box sides of different scales
// (to minimize, f* = 0): four identical components in [0, 1] that the
// group permutes (coordinates 0–3: the sorted components against the
// targets 0.1, 0.4, 0.6, 0.9), a learning rate in [1e-5, 1e-1] that
// matters (coordinate 4, best at 0.03) and a width in [16, 1024] the
// objective nearly ignores (coordinate 5).
var (
	heteroLo = []float64{0, 0, 0, 0, 1e-5, 16}
	heteroHi = []float64{1, 1, 1, 1, 1e-1, 1024}
)

func hetero(x []float64) float64 {
	s := slices.Clone(x[:4])
	slices.Sort(s)
	v := 0.0
	for i, t := range []float64{0.1, 0.4, 0.6, 0.9} {
		v += (s[i] - t) * (s[i] - t)
	}
	lr := (x[4] - 0.03) / 0.07
	w := (x[5] - 500) / 500
	return v + lr*lr + 1e-3*w*w
}

// TestHeterogeneousMeasure measures Config.Normalize on hetero: 10 seeds,
// 5 initial points and 40 BO steps, the cumulative regret of the BO
// steps (Σ f(x_t) − f*), for the front ends' default (Recommended) and
// plus (Recommended's settings), each on raw coordinates, with Normalize,
// and with Normalize and ARD, and
// random search for scale. It is
// a measurement, not a check: it runs only with SYMBO_MEASURE=1 (several
// minutes) and logs mean ± standard error.
func TestHeterogeneousMeasure(t *testing.T) {
	if os.Getenv("SYMBO_MEASURE") != "1" || testing.Short() {
		t.Skip("a measurement: set SYMBO_MEASURE=1")
	}
	perm, err := orbit.Permutation(4)
	if err != nil {
		t.Fatal(err)
	}
	g, err := orbit.OnCoords(perm, 6, []int{0, 1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	const seeds, init, steps = 10, 5, 40
	// Random search over the same steps, for scale.
	var random []float64
	for seed := range uint64(seeds) {
		rng := rand.New(rand.NewPCG(seed, 99))
		cum := 0.0
		for range steps {
			x := make([]float64, len(heteroLo))
			for k := range x {
				x[k] = heteroLo[k] + rng.Float64()*(heteroHi[k]-heteroLo[k])
			}
			cum += hetero(x)
		}
		random = append(random, cum)
	}
	mean, se := meanSE(random)
	t.Logf("random search              cumulative regret %7.3f ± %.3f", mean, se)
	for _, kn := range heteroKernels() {
		for _, mode := range heteroModes() {
			norm := mode.norm
			cfg, err := bo.Recommended(g, kernel.Matern52)
			if err != nil {
				t.Fatal(err)
			}
			if kn != "" {
				if cfg.Kernel, err = bo.ParseKernel(kn, g, kernel.Matern52); err != nil {
					t.Fatal(err)
				}
			}
			cfg.Minimize, cfg.Normalize, cfg.ARD, cfg.Init = true, norm, mode.ard, init
			var regrets []float64
			repeats := 0
			for seed := range uint64(seeds) {
				o, err := bo.New(heteroLo, heteroHi, cfg, seed)
				if err != nil {
					t.Fatal(err)
				}
				cum := 0.0
				var seen [][]float64
				for i := range init + steps {
					x, err := o.Ask()
					if err != nil {
						t.Fatalf("seed %d ask %d: %v", seed, i, err)
					}
					if slices.ContainsFunc(seen, func(p []float64) bool { return slices.Equal(p, x) }) {
						repeats++
					}
					seen = append(seen, x)
					f := hetero(x)
					if i >= init {
						cum += f
					}
					if err := o.Tell(x, f); err != nil {
						t.Fatal(err)
					}
				}
				regrets = append(regrets, cum)
			}
			mean, se := meanSE(regrets)
			name := kn
			if name == "" {
				name = "default"
			}
			t.Logf("%-8s normalize=%-5v ard=%-5v cumulative regret %7.3f ± %.3f (per seed %.2f; %d exact repeats)", name, norm, mode.ard, mean, se, regrets, repeats)
		}
	}
}

// meanSE returns the mean of xs and its standard error.
func meanSE(xs []float64) (mean, se float64) {
	for _, v := range xs {
		mean += v
	}
	mean /= float64(len(xs))
	var ss float64
	for _, v := range xs {
		ss += (v - mean) * (v - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1) / float64(len(xs)))
}

// heteroModes are TestHeterogeneousMeasure's settings: raw coordinates,
// Normalize, Normalize and ARD (SYMBO_MEASURE_MODES=ard: the last only).
func heteroModes() []struct{ norm, ard bool } {
	if os.Getenv("SYMBO_MEASURE_MODES") == "ard" {
		return []struct{ norm, ard bool }{{true, true}}
	}
	return []struct{ norm, ard bool }{{false, false}, {true, false}, {true, true}}
}

// heteroKernels: the default and plus (SYMBO_MEASURE_MODES=ard: the
// default only).
func heteroKernels() []string {
	if os.Getenv("SYMBO_MEASURE_MODES") == "ard" {
		return []string{""}
	}
	return []string{"", bo.NamePlus}
}
