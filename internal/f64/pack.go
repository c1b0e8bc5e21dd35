package f64

import "fmt"

// PackPanels copies np panels of a row-major matrix, each w columns wide
// and k rows deep, into the contiguous panel layout of GemmKernel, scaling
// by alpha: dst[(q·k+p)·w+j] = alpha·src[p·ld+q·w+j] for q < np, p < k,
// j < w (one rounding; exact when alpha is ±1 or a power of two). dst must
// not overlap src.
func PackPanels(dst, src []float64, ld, k, w, np int, alpha float64) {
	if k == 0 || w == 0 || np == 0 {
		return
	}
	if k < 0 || w < 0 || np < 0 || ld < np*w || len(dst) < np*k*w || len(src) < (k-1)*ld+np*w {
		panic(fmt.Sprintf("f64: PackPanels: k = %d, w = %d, np = %d, ld = %d, len(dst) = %d, len(src) = %d", k, w, np, ld, len(dst), len(src)))
	}
	packPanels(dst, src, ld, k, w, np, alpha)
}

// packPanelsGeneric is the specification of PackPanels.
func packPanelsGeneric(dst, src []float64, ld, k, w, np int, alpha float64) {
	for q := range np {
		for p := range k {
			d := dst[(q*k+p)*w : (q*k+p+1)*w]
			s := src[p*ld+q*w : p*ld+q*w+w]
			for j, v := range s {
				d[j] = alpha * v
			}
		}
	}
}
