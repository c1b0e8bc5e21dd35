package orbit_test

import (
	"fmt"

	"github.com/symbo/symbo/orbit"
)

func ExampleParse() {
	g, err := orbit.Parse(orbit.Spec{Name: "hyperoctahedral", D: 3})
	if err != nil {
		panic(err)
	}
	n, _ := orbit.Size(g)
	x, y := []float64{1, -2, 3}, []float64{-3, 1, 2.5}
	fmt.Println(g.Name(), n, g.(orbit.Distancer).OrbitDist2(x, y))
	_, err = orbit.Size(must(orbit.Hyperoctahedral(20)))
	fmt.Println(err)
	// Output:
	// hyperoctahedral(3) 48 0.25
	// orbit: group too large: hyperoctahedral(20) has 2.6e+24 elements
}

func ExampleEnumerator_Orbits() {
	g, _ := orbit.SignFlip(2)
	x := []float64{1, 2} // one point
	orb, err := orbit.Enumerator{}.Orbits(nil, g, x, 1)
	if err != nil {
		panic(err)
	}
	for j := 0; j < 4; j++ {
		fmt.Println(orb[2*j : 2*j+2])
	}
	_, err = orbit.Enumerator{Budget: 1 << 20}.Orbits(nil, must(orbit.Hyperoctahedral(6)), make([]float64, 600), 100)
	fmt.Println(err)
	// Output:
	// [1 2]
	// [-1 2]
	// [1 -2]
	// [-1 -2]
	// orbit: over memory budget: the orbits of 100 points under hyperoctahedral(6) (46080 elements, d = 6) need 211 MiB (2.2e+08 bytes), budget 1 MiB (1e+06 bytes)
}
