package gp

import (
	"fmt"
	"math"

	"github.com/symbo/symbo/internal/errclass"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// ErrNoLOO: the GP has no exact factor of its covariance (a landmark GP),
// so LOOLogPredictive does not apply; the caller asked of a GP what it
// does not have (class Input).
var ErrNoLOO = errclass.New(errclass.Input, "gp: leave-one-out needs an exact GP")

// LOOLogPredictive returns the leave-one-out log predictive density of the
// standardized outputs, Σ_i log N(y_i; μ_−i, σ²_−i), where μ_−i and σ²_−i
// are the mean and variance (noise included) of y_i under the GP
// conditioned on the other outputs, at the same hyperparameters and, with
// MeanConstant, the same fitted mean m̂. With K the covariance of the
// outputs (noise and jitter included) and α = K⁻¹(y − m̂), they are
// μ_−i = y_i − α_i/[K⁻¹]_ii and σ²_−i = 1/[K⁻¹]_ii (Rasmussen and
// Williams, Gaussian Processes for Machine Learning, §5.4.2), so
//
//	log p_i = −½·log σ²_−i − α_i²/(2·[K⁻¹]_ii) − ½·log 2π.
//
// Like the log marginal likelihood it scores a model by how well it
// predicts its data, but each output from all the others rather than in
// sequence, and it is less forgiving of a covariance the data contradict.
// Landmark GPs: ErrNoLOO; a sum that is not finite (a covariance near
// the smallest float64): ErrOverflow. Cost: O(n³/3) for L⁻¹ from the Cholesky factor
// (the diagonal of K⁻¹ is the squared column norms of L⁻¹), O(n²)
// memory. Safe for concurrent use with predictions.
func (g *GP) LOOLogPredictive() (float64, error) {
	if err := g.made(); err != nil {
		return 0, err
	}
	if g.lm != nil {
		return 0, ErrNoLOO
	}
	n := g.n
	inv := blas64.General{Rows: n, Cols: n, Stride: n, Data: make([]float64, n*n)}
	for i := range n {
		inv.Data[i*n+i] = 1
	}
	blas64.Trsm(blas.Left, blas.NoTrans, 1, g.l, inv) // L⁻¹, lower triangular
	diag := make([]float64, n)
	for k := range n {
		row := inv.Data[k*n : k*n+k+1]
		for i, v := range row {
			diag[i] += v * v
		}
	}
	var s float64
	for i, c := range diag {
		a := g.alpha[i]
		q := a * a / (2 * c)
		if math.IsInf(q, 0) {
			// a² overflows where the quotient does not (a covariance
			// near the smallest float64): a·(a/c)/2, a/c being the
			// residual y_i − μ_−i. Elsewhere the first form, so
			// committed results keep their bits.
			q = a * (a / c) / 2
		}
		s += 0.5*math.Log(c) - q - 0.5*math.Log(2*math.Pi)
	}
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0, fmt.Errorf("%w: the leave-one-out log predictive density is %v (a covariance near the smallest float64)", ErrOverflow, s)
	}
	return s, nil
}
