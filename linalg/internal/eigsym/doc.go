// Package eigsym computes the eigenvalues and eigenvectors of a real
// symmetric matrix in pure Go (work in progress; see Eigen).
package eigsym
