package eigsym

import (
	"math"
	"math/rand/v2"
	"testing"
)

// rotateColumns applies a sweep's rotations one at a time, each to every
// row before the next (G_{hi−1} first, the order of EISPACK's tql2 and of
// ql before rotateRows): the reference whose bits rotateRows must keep.
func rotateColumns(z []float64, ldz, rows, lo, hi int, cs, sn []float64) {
	for i := hi - 1; i >= lo; i-- {
		c, s := cs[i], sn[i]
		for k := range rows {
			zk := z[k*ldz+i : k*ldz+i+2]
			f := zk[1]
			zk[1] = s*zk[0] + c*f
			zk[0] = c*zk[0] - s*f
		}
	}
}

// qlColumns is ql with rotateColumns.
func qlColumns(m int, d, e []float64, z []float64, ldz, rows int, absTol float64) bool {
	return qlWith(m, d, e, z, ldz, rows, absTol, rotateColumns)
}

// TestQLRowOrderBits: ql's row-at-a-time application of a sweep's
// rotations gives the same bits as one rotation at a time, on identity
// blocks (steqr) and on projections (rows ≠ m, TridiagProject's use), for
// random, graded and clustered tridiagonals, including a row stride
// larger than the block.
func TestQLRowOrderBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for trial := range 300 {
		m := 2 + r.IntN(40)
		rows := m
		if trial%3 == 1 {
			rows = 1 + r.IntN(4)
		}
		ldz := m + r.IntN(5)
		d := make([]float64, m)
		e := make([]float64, m)
		for i := range m {
			switch trial % 4 {
			case 0:
				d[i], e[i] = r.NormFloat64(), r.NormFloat64()
			case 1: // graded
				d[i], e[i] = math.Ldexp(r.Float64()+0.5, -2*i), math.Ldexp(r.Float64(), -2*i-1)
			case 2: // a cluster at 0
				d[i], e[i] = 1e-14*r.NormFloat64(), 1e-9*r.NormFloat64()
			default: // repeated values
				d[i], e[i] = float64(r.IntN(3)), 0.5
			}
		}
		z := make([]float64, rows*ldz)
		for i := range z {
			z[i] = r.NormFloat64()
		}
		if rows == m {
			for i := range rows {
				clear(z[i*ldz : i*ldz+m])
				z[i*ldz+i] = 1
			}
		}
		d2, e2, z2 := append([]float64(nil), d...), append([]float64(nil), e...), append([]float64(nil), z...)
		tol := 0.0
		if trial%2 == 1 {
			tol = eps
		}
		ok1 := ql(m, d, e, z, ldz, rows, tol)
		ok2 := qlColumns(m, d2, e2, z2, ldz, rows, tol)
		if ok1 != ok2 {
			t.Fatalf("trial %d: converged %v against %v", trial, ok1, ok2)
		}
		for i := range d {
			if math.Float64bits(d[i]) != math.Float64bits(d2[i]) {
				t.Fatalf("trial %d: d[%d] = %v against %v", trial, i, d[i], d2[i])
			}
		}
		for i := range z {
			if math.Float64bits(z[i]) != math.Float64bits(z2[i]) {
				t.Fatalf("trial %d (m %d, rows %d): z[%d] = %v against %v", trial, m, rows, i, z[i], z2[i])
			}
		}
	}
}
