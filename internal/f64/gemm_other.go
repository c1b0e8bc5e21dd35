//go:build !amd64 || noasm

package f64

func gemmTile() (mr, nr int) { return genericMR, genericNR }

func gemmKernel(k int, a, b, c []float64, ldc int) {
	gemmKernelGeneric(k, a, b, c, ldc, genericMR, genericNR)
}
