package kernel_test

import (
	"fmt"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

func ExampleNewMax() {
	g, _ := orbit.Hyperoctahedral(2)
	k, _ := kernel.NewMax(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}, g, kernel.Options{})
	x := mat.NewDense(1, 2, []float64{1, 2})
	y := mat.NewDense(2, 2, []float64{
		-2, 1, // a signed permutation of x: same orbit
		0, 3, // sort(|y|) = (0, 3), orbit distance² = 1 + 1 = 2
	})
	var c mat.Dense
	if err := k.CrossTo(&c, x, y); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%v: %.4f %.4f\n", k.Method(), c.At(0, 0), c.At(0, 1)) // exp(−2/2) = 0.3679
	// Output: closed: 1.0000 0.3679
}
