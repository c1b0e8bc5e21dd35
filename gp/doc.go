// Package gp will implement exact Gaussian-process regression on
// standardized outputs with Gaussian noise: the log marginal likelihood and
// its gradient, multi-start hyperparameter fitting, and prediction (mean,
// variance and their gradients in x).
//
// Not implemented yet: this package is the subject of issue 3 and holds no
// code so far.
package gp
