package linalg

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/symbo/symbo/internal/errclass"
)

// Environment variables read by this package.
const (
	// EnvBackend selects the backend returned by Default: "gonum" (the
	// default when unset or empty) or "openblas".
	EnvBackend = "SYMBO_BACKEND"

	// EnvOpenBLASThreads sets the number of threads OpenBLAS uses (default
	// 1). It is read once, the first time the openblas backend is requested.
	EnvOpenBLASThreads = "SYMBO_OPENBLAS_THREADS"
)

// ErrNotFinite is returned (wrapped) by EigenSym and Cholesky when the input
// matrix has a NaN or infinite entry.
var ErrNotFinite = errclass.New(errclass.Input, "linalg: matrix has a non-finite entry")

// ErrOverflow is returned (wrapped) by EigenSym and EigenSymProject when a
// finite matrix's eigenvalue or eigenvector does not fit in a float64 (its
// entries are too large: the largest eigenvalue can reach n times the
// largest entry).
var ErrOverflow = errclass.New(errclass.Input, "linalg: eigendecomposition overflows float64")

// checkSpectrum returns an error wrapping ErrOverflow when an eigenvalue,
// or an entry of the n×c matrix vecs (row stride ld; nil for none), is
// not finite. It costs n + n·c comparisons against the solver's O(n³).
func checkSpectrum(name string, values []float64, vecs []float64, n, c, ld int) error {
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("linalg: %s (n = %d): eigenvalue %d is %v: %w", name, n, i, v, ErrOverflow)
		}
	}
	if vecs == nil {
		return nil
	}
	for i := range n {
		for j, v := range vecs[i*ld : i*ld+c] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("linalg: %s (n = %d): vector entry (%d, %d) is %v: %w", name, n, i, j, v, ErrOverflow)
			}
		}
	}
	return nil
}

// ErrShape is returned (wrapped) by EigenSym, Cholesky and EigenSymProject
// for an empty matrix, and by EigenSymProject when b's row count is not a's
// order: an input error.
var ErrShape = errclass.New(errclass.Input, "linalg: matrix shapes do not agree")

// ErrNilArgument is returned (wrapped) by EigenSym, Cholesky,
// EigenSymProject and the Cholesky solves for a nil dst, backend, receiver
// or right-hand side: an input error (the caller's to fix), where these
// were runtime nil-pointer panics.
var ErrNilArgument = errclass.New(errclass.Input, "linalg: nil argument")

// ErrNotFactored is returned (wrapped) by the Cholesky solves on a
// Cholesky that holds no factorization (the zero value, or the dst of a
// failed Cholesky): an input error, as using it is the caller's mistake.
var ErrNotFactored = errclass.New(errclass.Input, "linalg: Cholesky holds no factorization")

// ErrBadBackend is returned (wrapped) by ByName and Default for a name
// that is no backend, and by ByName("openblas") for an invalid
// SYMBO_OPENBLAS_THREADS: an input error, as a bad flag is.
var ErrBadBackend = errclass.New(errclass.Input, "linalg: invalid backend setting")

// backendNames lists every backend name ByName knows, in a fixed order.
var backendNames = []string{"gonum", "openblas"}

// ByName returns the backend called name: "gonum" or "openblas".
//
// Asking for "openblas" in a build without it returns an error wrapping
// ErrUnavailable that says how to rebuild. An unknown name is an error
// wrapping ErrBadBackend that lists the valid ones.
func ByName(name string) (Backend, error) {
	switch name {
	case "gonum":
		return Gonum(), nil
	case "openblas":
		return openBLAS()
	default:
		return nil, fmt.Errorf("%w: unknown backend %q (valid: %s)", ErrBadBackend, name, strings.Join(backendNames, ", "))
	}
}

// Default returns the backend named by the environment variable
// SYMBO_BACKEND, or gonum when it is unset or empty. An invalid or
// unavailable name is an error.
func Default() (Backend, error) {
	name := os.Getenv(EnvBackend)
	if name == "" {
		return Gonum(), nil
	}
	b, err := ByName(name)
	if err != nil {
		return nil, fmt.Errorf("linalg: %s=%q: %w", EnvBackend, name, err)
	}
	return b, nil
}

// Available returns the names of the backends compiled into this build,
// "gonum" first.
func Available() []string {
	names := []string{"gonum"}
	if openBLASCompiled {
		names = append(names, "openblas")
	}
	return names
}
