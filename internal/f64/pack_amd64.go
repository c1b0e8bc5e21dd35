//go:build amd64 && !noasm

package f64

func packPanels(dst, src []float64, ld, k, w, np int, alpha float64) {
	if (feat.avx512 || feat.avx2) && w%4 == 0 {
		for q := range np {
			packPanelAVX2(&dst[q*k*w], &src[q*w], ld, k, w, alpha)
		}
		return
	}
	packPanelsGeneric(dst, src, ld, k, w, np, alpha)
}

// packPanelAVX2 copies one panel (k rows of w, a multiple of 4, columns)
// scaled by alpha, four columns per VMULPD.
//
//go:noescape
func packPanelAVX2(dst, src *float64, ld, k, w int, alpha float64)
