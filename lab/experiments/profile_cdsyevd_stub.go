//go:build !(cgo && openblas)

package experiments

import "gonum.org/v1/gonum/mat"

const haveCDsyevd = false

func cDsyevd(*mat.SymDense) func() error {
	return func() error { return ErrNoCDsyevd }
}
