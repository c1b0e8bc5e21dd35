package eigsym

import (
	"math"
)

// qlMaxSweeps bounds the implicit QL sweeps per eigenvalue.
const qlMaxSweeps = 60

// steqr computes the eigenvalues and eigenvectors of the symmetric
// tridiagonal m×m matrix (d, e) by implicit QL with Wilkinson shifts (the
// method of EISPACK's tql2 and LAPACK's dsteqr): on return d holds the
// eigenvalues (unsorted) and column j of the m×m block z (row stride ldz,
// set to the identity here) a unit eigenvector for d[j]. e (length m−1) is
// destroyed. It reports false if an eigenvalue needed more than
// qlMaxSweeps sweeps.
func steqr(m int, d, e []float64, z []float64, ldz int) bool {
	for i := range m {
		row := z[i*ldz : i*ldz+m]
		clear(row)
		row[i] = 1
	}
	return ql(m, d, e, z, ldz, m, 0)
}

// ql is steqr's iteration on the rows×m block z as given: each plane
// rotation of the iteration, G acting on columns i and i+1, is applied as
// z ← z·G. With z = I (steqr) the columns end as the eigenvectors; with
// the rows of z holding vectors bᵀ (TridiagProject) they end as bᵀ·V,
// the projections of b on the eigenvectors, in O(rows) per rotation.
// An off-diagonal is also negligible when |e_i| ≤ absTol (0: only the
// relative test): the absolute test, of a block scaled to norm about 1,
// that lets a cluster of eigenvalues at 0 converge (the relative test
// asks such off-diagonals to fall below ε·|d|, itself near 0).
func ql(m int, d, e []float64, z []float64, ldz, rows int, absTol float64) bool {
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

// hypot is √(x² + y²): the plain formula when the sum of squares is safely
// within range (always, in the scaled blocks steqr sees, barring
// underflow), else math.Hypot.
func hypot(x, y float64) float64 {
	s := x*x + y*y
	if s >= tiny2 && s <= huge2 {
		return math.Sqrt(s)
	}
	return math.Hypot(x, y)
}
