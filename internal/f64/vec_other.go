//go:build !amd64 || noasm

package f64

func inner(x, y []float64) float64 { return innerGeneric(x, y) }

func addScaled(y []float64, alpha float64, x []float64) { addScaledGeneric(y, alpha, x) }

func innerAddScaled(y []float64, alpha float64, a, x []float64) float64 {
	return innerAddScaledGeneric(y, alpha, a, x)
}

func innerAddScaledNext(y []float64, alpha float64, a, x, _ []float64) float64 {
	return innerAddScaledGeneric(y, alpha, a, x)
}
