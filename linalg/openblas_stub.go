//go:build !(cgo && openblas)

package linalg

import "fmt"

const openBLASCompiled = false

func openBLAS() (Backend, error) {
	return nil, fmt.Errorf("linalg: backend %q: %w: rebuild with `-tags openblas` (cgo enabled) after installing libopenblas-dev liblapacke-dev", "openblas", ErrUnavailable)
}

// OpenBLASCoreName returns the CPU core type OpenBLAS dispatched to (for
// example "Haswell"), or "" in builds without the openblas backend.
func OpenBLASCoreName() string { return "" }

// OpenBLASThreads returns the number of threads OpenBLAS runs with, or 0 in
// builds without the openblas backend.
func OpenBLASThreads() int { return 0 }
