package problem

import "math"

// Constants of the synthetic benchmarks (the paper's Appendix C).
const (
	ackleyA = 20
	ackleyB = 0.2
	ackleyC = 2 * math.Pi

	radialA = 10 * math.Sqrt2
	radialB = 0.8
	// radialScale multiplies the Rastrigin argument of RadialScaled: the
	// authors normalize inputs and scale Rastrigin's by 5.12.
	radialScale = 5.12
)

// ackley is −a·exp(−b·√(Σx²/d)) − exp(Σcos(c·x)/d) + a + e, evaluated as
// a·(1 − exp(−b·r)) + (e − exp(m)), which is algebraically equal and
// exactly 0 at the origin.
func ackley(x []float64) float64 {
	var s2, sc float64
	for _, v := range x {
		s2 += v * v
		sc += math.Cos(ackleyC * v)
	}
	n := float64(len(x))
	r := math.Sqrt(s2 / n)
	return ackleyA*(1-math.Exp(-ackleyB*r)) + (math.E - math.Exp(sc/n))
}

// griewank is Σ x_i²/4000 − Π cos(x_i/√i) + 1, with i = 1…d.
func griewank(x []float64) float64 {
	var s float64
	prod := 1.0
	for i, v := range x {
		s += v * v / 4000
		prod *= math.Cos(v / math.Sqrt(float64(i+1)))
	}
	return s + (1 - prod)
}

// rastrigin is 10d + Σ (x_i² − 10·cos(2π·x_i)), evaluated as
// Σ (x_i² + 10·(1 − cos(2π·x_i))).
func rastrigin(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v*v + 10*(1-math.Cos(2*math.Pi*v))
	}
	return s
}

// radial is the one-dimensional Rastrigin of ‖x‖/a − b.
func radial(x []float64) float64 {
	t := math.Hypot(x[0], x[1])/radialA - radialB
	return t*t + 10*(1-math.Cos(2*math.Pi*t))
}

// radialScaled is the one-dimensional Rastrigin of s·(‖x‖/a − b), s = 5.12.
func radialScaled(x []float64) float64 {
	t := radialScale * (math.Hypot(x[0], x[1])/radialA - radialB)
	return t*t + 10*(1-math.Cos(2*math.Pi*t))
}

// scaling is (x₁/x₂ − 1)².
func scaling(x []float64) float64 {
	r := x[0]/x[1] - 1
	return r * r
}
