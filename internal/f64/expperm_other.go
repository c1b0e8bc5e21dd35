//go:build !amd64 || noasm

package f64

func expPerm(dst *[8]float64, u, w []float64, cosh bool, scratch []float64) bool { return false }

func expPermPairs(dst *[8]float64, u, w []float64, d int, cosh bool, scratch []float64) bool {
	return false
}
