package linalg

import (
	"fmt"
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

// backendNames lists every backend name ByName knows, in a fixed order.
var backendNames = []string{"gonum", "openblas"}

// ByName returns the backend called name: "gonum" or "openblas".
//
// Asking for "openblas" in a build without it returns an error wrapping
// ErrUnavailable that says how to rebuild. An unknown name is an error that
// lists the valid ones.
func ByName(name string) (Backend, error) {
	switch name {
	case "gonum":
		return Gonum(), nil
	case "openblas":
		return openBLAS()
	default:
		return nil, fmt.Errorf("linalg: unknown backend %q (valid: %s)", name, strings.Join(backendNames, ", "))
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
