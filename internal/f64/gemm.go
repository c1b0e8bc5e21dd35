package f64

import (
	"fmt"
	"math"
)

// GemmTile returns the register tile of GemmKernel on the path in use: mr
// rows by nr columns (AVX-512 8×24, AVX2 4×12, generic 4×4). Packed panels
// for GemmKernel must be laid out for this shape, so a caller asks for it
// on every product rather than caching it.
func GemmTile() (mr, nr int) { return gemmTile() }

// GemmKernel adds k rank-one products of packed panels to the mr×nr tile
// of c, (mr, nr) = GemmTile(): with c row-major (row stride ldc ≥ nr),
// a[p·mr+i] entry p of row i and b[p·nr+j] entry p of column j,
//
//	c[i·ldc+j] = fma(a[p·mr+i], b[p·nr+j], c[i·ldc+j])  for p = 0, 1, …, k−1
//
// in that order, each a fused multiply-add (one rounding, math.FMA). Each
// entry of c is thus one chain of fused multiply-adds that no tile shape,
// blocking of k (a caller may split k into pieces and call again) or path
// changes: every path gives the same bits. a must not overlap c.
func GemmKernel(k int, a, b, c []float64, ldc int) {
	mr, nr := gemmTile()
	if k < 0 || len(a) < k*mr || len(b) < k*nr || ldc < nr || len(c) < (mr-1)*ldc+nr {
		panic(fmt.Sprintf("f64: GemmKernel: k = %d, len(a) = %d, len(b) = %d, len(c) = %d, ldc = %d for a %d×%d tile", k, len(a), len(b), len(c), ldc, mr, nr))
	}
	if k == 0 {
		return
	}
	gemmKernel(k, a, b, c, ldc)
}

// Tile of the generic kernel.
const (
	genericMR = 4
	genericNR = 4
)

// gemmKernelGeneric is the specification of GemmKernel for an mr×nr tile.
// Four columns at a time keep four independent chains in registers; the
// operations on each entry are those of the specification.
func gemmKernelGeneric(k int, a, b, c []float64, ldc, mr, nr int) {
	a, b = a[:k*mr], b[:k*nr]
	for i := range mr {
		row := c[i*ldc : i*ldc+nr]
		j := 0
		for ; j+4 <= nr; j += 4 {
			s0, s1, s2, s3 := row[j], row[j+1], row[j+2], row[j+3]
			for p := range k {
				x := a[p*mr+i]
				bp := b[p*nr+j : p*nr+j+4]
				s0 = math.FMA(x, bp[0], s0)
				s1 = math.FMA(x, bp[1], s1)
				s2 = math.FMA(x, bp[2], s2)
				s3 = math.FMA(x, bp[3], s3)
			}
			row[j], row[j+1], row[j+2], row[j+3] = s0, s1, s2, s3
		}
		for ; j < nr; j++ {
			s := row[j]
			for p := range k {
				s = math.FMA(a[p*mr+i], b[p*nr+j], s)
			}
			row[j] = s
		}
	}
}
