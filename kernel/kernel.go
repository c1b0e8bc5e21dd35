package kernel

import (
	"gonum.org/v1/gonum/mat"
)

// Kernel is a covariance function on R^d. Points are rows: x is n×d.
// Methods validate user data (shapes, NaN/Inf) and return errors; they
// panic only on a dst of the wrong non-zero size (a programmer bug).
// An empty dst (the zero value) is resized. Implementations must be safe
// for concurrent use, as this package's are: package gp calls a GP's
// kernel from every goroutine that predicts with it (bo's acquisition, on
// Config.Workers goroutines).
type Kernel interface {
	// Dim is d.
	Dim() int
	// CrossTo fills dst (n×m) with k(x_i, y_j) for x n×d and y m×d.
	CrossTo(dst *mat.Dense, x, y *mat.Dense) error
	// DiagTo writes k(x_i, x_i) into dst (length n, resized if nil).
	DiagTo(dst []float64, x *mat.Dense) ([]float64, error)
}

// Gramer is implemented by kernels with a faster symmetric assembly than
// CrossTo(x, x); use the package function Gram, which falls back.
type Gramer interface {
	// GramTo fills dst (n×n) with k(x_i, x_j), computing n(n+1)/2 entries.
	GramTo(dst *mat.SymDense, x *mat.Dense) error
}

// Gradienter is implemented by kernels differentiable in their first
// argument (almost everywhere for Max and Plus over finite groups).
type Gradienter interface {
	// GradTo writes ∂k(x, y_j)/∂x into row j of dst (m×d) for x of
	// length d and y m×d.
	GradTo(dst *mat.Dense, x []float64, y *mat.Dense) error
}
