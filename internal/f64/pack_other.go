//go:build !amd64 || noasm

package f64

func packPanels(dst, src []float64, ld, k, w, np int, alpha float64) {
	packPanelsGeneric(dst, src, ld, k, w, np, alpha)
}
