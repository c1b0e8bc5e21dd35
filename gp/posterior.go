package gp

// Posterior is a fitted GP as an acquisition function uses it: predictions
// on the standardized output scale (a positive affine image of y, on which
// nothing overflows) into caller scratch, the map of y onto that scale,
// and the hyperparameters. *GP implements it; bo's acquisition uses
// nothing else of a GP.
type Posterior interface {
	// PredictStandardized returns the posterior mean and latent variance
	// (clamped at 0) of the standardized outputs at x (length d) and, when
	// dmean or dvar is not nil (length d), writes their gradients in x.
	// ws is the caller's scratch (one per goroutine; nil allocates a
	// temporary one); after warm-up a prediction allocates nothing beyond
	// what the kernel does.
	PredictStandardized(ws *Workspace, x, dmean, dvar []float64) (mean, variance float64, err error)
	// Standardize maps an output y onto the standardized scale.
	Standardize(y float64) float64
	// Hyper returns the hyperparameters (standardized scale).
	Hyper() Hyper
}

var _ Posterior = (*GP)(nil)
