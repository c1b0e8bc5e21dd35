package experiments

import (
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// points returns n points in R^d (n×d, one per row) with independent
// standard normal coordinates from the stream (seed, 0). Continuous
// coordinates make ties in the orbit maxima and sorts improbable, so every
// method does its full work.
func Points(n, d int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 0))
	x := mat.NewDense(n, d, nil)
	raw := x.RawMatrix()
	for i := range n {
		row := raw.Data[i*raw.Stride : i*raw.Stride+d]
		for k := range row {
			row[k] = r.NormFloat64()
		}
	}
	return x
}

// symmetric returns an n×n symmetric matrix with standard normal entries on
// and above the diagonal, from the stream (seed, 1).
func Symmetric(n int, seed uint64) *mat.SymDense {
	r := rand.New(rand.NewPCG(seed, 1))
	a := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			a.SetSym(i, j, r.NormFloat64())
		}
	}
	return a
}

// dense returns an n×n matrix with standard normal entries from the stream
// (seed, stream).
func Dense(n int, seed, stream uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, stream))
	a := mat.NewDense(n, n, nil)
	raw := a.RawMatrix()
	for i := range n {
		for j := range n {
			raw.Data[i*raw.Stride+j] = r.NormFloat64()
		}
	}
	return a
}

// EnumGramFlops is the flop count this package credits an enumerated Gram
// of n points under a group of order g acting on R^d: n(n+1)/2 pairs
// (upper triangle with the diagonal), each 2·d·|G| flops (the d multiplies
// and d adds of ⟨x, g·y⟩ for every element). The max reduction, the
// norms and κ are not counted, so this is a lower bound on the work done.
func EnumGramFlops(n, d, g int) float64 {
	return float64(n) * float64(n+1) / 2 * 2 * float64(d) * float64(g)
}

// GemmFlops is 2n³, the flops of an n×n by n×n product.
func GemmFlops(n int) float64 {
	return 2 * float64(n) * float64(n) * float64(n)
}
