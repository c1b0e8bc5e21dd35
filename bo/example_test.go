package bo_test

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// An ask/tell loop maximizing a function invariant under sign flips.
func Example() {
	g, _ := orbit.SignFlip(2)
	lo, hi := []float64{-2, -2}, []float64{2, 2}
	f := func(x []float64) float64 {
		return -math.Pow(math.Abs(x[0])-1, 2) - math.Pow(math.Abs(x[1])-0.5, 2)
	}
	o, err := bo.New(lo, hi, bo.Config{Kernel: bo.Max(g, kernel.Matern52)}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 25 {
		x, err := o.Ask()
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := o.Tell(x, f(x)); err != nil {
			fmt.Println(err)
			return
		}
	}
	_, y, _ := o.Best()
	fmt.Println("observations:", o.N())
	fmt.Println("best within 0.05 of the maximum 0:", y > -0.05)
	// Output:
	// observations: 25
	// best within 0.05 of the maximum 0: true
}

// Max is refused for groups without a canonical map.
func ExampleNew_maxRefused() {
	g, _ := orbit.Cyclic(3)
	_, err := bo.New([]float64{0, 0, 0}, []float64{1, 1, 1}, bo.Config{Kernel: bo.Max(g, kernel.RBF)}, 1)
	fmt.Println(err)
	// Output:
	// bo: kernel max: k_max is not provably PSD for this group: cyclic(3) has no canonical map (the paper's Proposition 1 covers sign flips, permutations, signed permutations and rotations); use kernel plus, its PSD projection
}
