//go:build !amd64 || noasm

package f64

func scaledDiffSum(dst, x, orb, c []float64) bool { return false }
