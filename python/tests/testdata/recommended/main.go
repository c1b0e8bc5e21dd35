// Command recommended prints, as JSON lines, the points a Go program
// with bo.Recommended proposes for the study of test_recommended.py:
// hyperoctahedral(3) on [−2, 2]³, RBF, minimizing, seed 4, each point
// told f(x) = Σ (sort|x| − (0.5, 1, 1.5))². The Python test proposes the
// same study through symbo.Optimizer with no settings and compares bits.
package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

func f(x []float64) float64 {
	a := make([]float64, len(x))
	for i, v := range x {
		a[i] = math.Abs(v)
	}
	slices.Sort(a)
	s := 0.0
	for i, v := range a {
		d := v - 0.5*float64(i+1)
		s += d * d
	}
	return s
}

func main() {
	g, err := orbit.Hyperoctahedral(3)
	if err == nil {
		var cfg bo.Config
		if cfg, err = bo.Recommended(g, kernel.RBF); err == nil {
			cfg.Minimize = true
			var o *bo.Optimizer
			if o, err = bo.New([]float64{-2, -2, -2}, []float64{2, 2, 2}, cfg, 4); err == nil {
				enc := json.NewEncoder(os.Stdout)
				for range 9 {
					var x []float64
					if x, err = o.Ask(); err != nil {
						break
					}
					// Each coordinate's bits, so that JSON's decimal
					// form cannot round them.
					bits := make([]string, len(x))
					for i, v := range x {
						bits[i] = fmt.Sprintf("%016x", math.Float64bits(v))
					}
					enc.Encode(bits)
					if err = o.Tell(x, f(x)); err != nil {
						break
					}
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "recommended:", err)
		os.Exit(1)
	}
}
