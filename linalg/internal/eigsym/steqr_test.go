package eigsym

import (
	"math"
	"math/rand/v2"
	"testing"
)

// qlColumns is ql as it applied each rotation to every row before
// computing the next (the order of EISPACK's tql2): the reference for
// rotateRows, which must leave the same bits.
func qlColumns(m int, d, e []float64, z []float64, ldz, rows int, absTol float64) bool {
	if m == 1 {
		return true
	}
	// ee[i] couples i and i+1; ee[m−1] = 0 ends the matrix.
	var buf [64]float64
	var ee []float64
	if m <= len(buf) {
		ee = buf[:m]
	} else {
		ee = make([]float64, m)
	}
	copy(ee, e[:m-1])
	ee[m-1] = 0
	for l := 0; l < m; l++ {
		for sweep := 0; ; sweep++ {
			// Find the first negligible off-diagonal from l, by dsteqr's
			// test e² ≤ ε²·|d_i·d_{i+1}| + safmin: relative to the
			// neighbours' geometric mean (graded matrices keep their small
			// eigenvalues), with an absolute floor at √safmin (the callers
			// scale blocks to norm ~1), below which a sweep could not make
			// progress.
			mm := l
			for ; mm < m-1; mm++ {
				if ee[mm]*ee[mm] <= eps*eps*math.Abs(d[mm])*math.Abs(d[mm+1])+safmin || math.Abs(ee[mm]) <= absTol {
					ee[mm] = 0
					break
				}
			}
			if mm == l {
				break
			}
			if sweep == qlMaxSweeps {
				return false
			}
			// Wilkinson shift from the leading 2×2 of the block l…mm.
			g := (d[l+1] - d[l]) / (2 * ee[l])
			r := hypot(g, 1)
			g = d[mm] - d[l] + ee[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := mm - 1
			for ; i >= l; i-- {
				f := s * ee[i]
				b := c * ee[i]
				r = hypot(f, g)
				ee[i+1] = r
				if r == 0 {
					// Underflow: deflate and restart the sweep.
					d[i+1] -= p
					ee[mm] = 0
					break
				}
				s = f / r
				c = g / r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
				// Columns i and i+1 of z: adjacent entries of every row.
				for k := range rows {
					zk := z[k*ldz+i : k*ldz+i+2]
					f := zk[1]
					zk[1] = s*zk[0] + c*f
					zk[0] = c*zk[0] - s*f
				}
			}
			if r == 0 && i >= l {
				continue
			}
			d[l] -= p
			ee[l] = g
			ee[mm] = 0
		}
	}
	return true
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
