//go:build !amd64 || noasm

package f64

func mathExpTo(dst, x []float64) int { return 0 }
