//go:build !amd64 || noasm

package f64

func inner(x, y []float64) float64 { return innerGeneric(x, y) }

func addScaled(y []float64, alpha float64, x []float64) { addScaledGeneric(y, alpha, x) }

func addScaled4(y []float64, a *[4]float64, x0, x1, x2, x3 []float64) {
	addScaled4Generic(y, a, x0, x1, x2, x3)
}

func innerAddScaled(y []float64, alpha float64, a, x []float64) float64 {
	return innerAddScaledGeneric(y, alpha, a, x)
}

func innerAddScaledNext(y []float64, alpha float64, a, x, _ []float64) float64 {
	return innerAddScaledGeneric(y, alpha, a, x)
}
