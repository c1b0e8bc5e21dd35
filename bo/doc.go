// Package bo will implement the ask/tell Bayesian optimizer (GP-UCB and EI,
// the acquisition optimizer) and the experiment driver Run. The paper's
// benchmark problems live in the subpackage bo/problem.
//
// Not implemented yet beyond bo/problem: the optimizer is the subject of
// issue 3.
package bo
