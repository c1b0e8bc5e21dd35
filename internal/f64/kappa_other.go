//go:build !amd64 || noasm

package f64

func maternArgs(a, o, u2 []float64, c float64) int { return 0 }

func maternPoly(o, a []float64, q1, q2 float64) int { return 0 }
