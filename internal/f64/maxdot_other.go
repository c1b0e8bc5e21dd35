//go:build !amd64 || noasm

package f64

func maxDot(best, x []float64, xs, d int, orb []float64) {
	maxDotGeneric(best, x, xs, d, orb)
}
