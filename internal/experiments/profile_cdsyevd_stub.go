//go:build !(cgo && openblas)

package experiments

import (
	"time"

	"gonum.org/v1/gonum/mat"
)

const haveCDsyevd = false

func cDsyevd(*mat.SymDense, time.Duration, int) (float64, int, error) {
	return 0, 0, ErrNoCDsyevd
}
