package problem_test

import (
	"fmt"

	"github.com/symbo/symbo/bo/problem"
)

func Example() {
	p, err := problem.New("Ackley2d", 0) // or New("ackley", 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	lo, hi := p.Bounds()
	fstar, _ := p.Optimum()
	fmt.Println(p.Name(), p.Dim(), lo, hi, p.Group().Name(), p.BaseShape())
	v, _ := p.Evaluate([]float64{1, 1}) // the paper's minimization form
	fmt.Printf("f(1,1) = %.4f, minimize %v, optimum %v at %v\n", v, !p.Maximize(), fstar, p.Optimizers()[0])
	_, err = p.Evaluate([]float64{20, 0})
	fmt.Println(err)
	// Output:
	// Ackley2d 2 [-16 -16] [16 16] hyperoctahedral(2) matern52
	// f(1,1) = 3.6254, minimize true, optimum 0 at [0 0]
	// problem: point outside the box: Ackley2d: x[0] = 20 is outside [-16, 16]
}

func ExampleNewWLAN() {
	// One access point at the origin serving one user 10 m away:
	// γ = 10^(−46.67/10)·10^(−3) / 10^(−8.5) = 10^0.833.
	p, err := problem.NewWLAN([][2]float64{{10, 0}}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := p.Evaluate([]float64{0, 0})
	fmt.Printf("%s: %.4f Mbps\n", p.Name(), v)
	// Output:
	// WLAN2d: 2.9649 Mbps
}
