package gp_test

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"gonum.org/v1/gonum/mat"
)

func ExampleFit() {
	// Eight noiseless samples of sin on [0, 3].
	n := 8
	x := mat.NewDense(n, 1, nil)
	y := make([]float64, n)
	for i := range n {
		x.Set(i, 0, 3*float64(i)/float64(n-1))
		y[i] = math.Sin(x.At(i, 0))
	}
	fam, err := gp.NewBaseFamily(kernel.Matern52, 1)
	if err != nil {
		panic(err)
	}
	g, err := gp.Fit(fam, x, y, gp.FitOptions{Seed: 1, Backend: linalg.Gonum()})
	if err != nil {
		panic(err)
	}
	var ws gp.Workspace
	dmean := make([]float64, 1)
	mean, variance, err := g.PredictGrad(&ws, []float64{1.1}, dmean, nil)
	if err != nil {
		panic(err)
	}
	fmt.Printf("mean %.3f (sin: %.3f), slope %.2f (cos: %.2f), sd < 0.01: %v\n",
		mean, math.Sin(1.1), dmean[0], math.Cos(1.1), math.Sqrt(variance) < 0.01)
	// Output:
	// mean 0.891 (sin: 0.891), slope 0.45 (cos: 0.45), sd < 0.01: true
}
