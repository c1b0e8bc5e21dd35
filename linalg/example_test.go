package linalg_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg"
)

func Example() {
	b, err := linalg.ByName("gonum")
	if err != nil {
		panic(err)
	}
	a := mat.NewSymDense(2, []float64{
		2, 1,
		1, 2,
	})

	var e linalg.Eigen
	if err := b.EigenSym(&e, a); err != nil {
		panic(err)
	}
	fmt.Printf("eigenvalues %.4f\n", e.Values)

	var c linalg.Cholesky
	if err := b.Cholesky(&c, a); err != nil {
		panic(err)
	}
	x := make([]float64, 2)
	if err := c.SolveVecTo(x, []float64{3, 3}); err != nil {
		panic(err)
	}
	fmt.Printf("solution %.4f, log det %.4f\n", x, c.LogDet())
	// Output:
	// eigenvalues [1.0000 3.0000]
	// solution [1.0000 1.0000], log det 1.0986
}
