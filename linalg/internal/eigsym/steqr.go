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
	return qlWith(m, d, e, z, ldz, rows, absTol, rotateRows)
}

// rotator applies a sweep's rotations G_{hi−1}, …, G_lo to z (rotateRows;
// the tests compare it with one rotation at a time).
type rotator func(z []float64, ldz, rows, lo, hi int, cs, sn []float64)

// qlWith is ql with the sweeps' rotations applied by rotate.
func qlWith(m int, d, e []float64, z []float64, ldz, rows int, absTol float64, rotate rotator) bool {
	if m == 1 {
		return true
	}
	// ee[i] couples i and i+1; ee[m−1] = 0 ends the matrix.
	// cs and sn hold a sweep's rotations until they are applied to z.
	var buf [3 * 64]float64
	var ee, cs, sn []float64
	if m <= 64 {
		ee, cs, sn = buf[:m], buf[64:64+m], buf[128:128+m]
	} else {
		w := make([]float64, 3*m)
		ee, cs, sn = w[:m], w[m:2*m], w[2*m:]
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
				cs[i], sn[i] = c, s
			}
			rotate(z, ldz, rows, i+1, mm, cs, sn)
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

// rotateRows applies a sweep's rotations G_{hi−1}, …, G_lo — G_i acting
// on columns i and i+1 as z ← z·G_i with cosine cs[i] and sine sn[i], in
// that order — to the rows×m block z. Each row takes the whole sequence
// in turn (LAPACK's dlasr, for row-major storage): the row stays in
// cache and column i+1's value after G_{i+1} is carried in a register.
// Every entry sees the same operations in the same order as one rotation
// at a time over all rows, so the bits are those of that order.
func rotateRows(z []float64, ldz, rows, lo, hi int, cs, sn []float64) {
	if hi <= lo {
		return
	}
	cs, sn = cs[lo:hi], sn[lo:hi]
	n := hi - lo // each row's slice has n + 1 entries
	k := 0
	// Four rows at a time: four independent carries hide the latency of
	// each row's chain.
	for ; k+4 <= rows; k += 4 {
		z0 := z[k*ldz+lo : k*ldz+hi+1]
		z1 := z[(k+1)*ldz+lo : (k+1)*ldz+hi+1]
		z2 := z[(k+2)*ldz+lo : (k+2)*ldz+hi+1]
		z3 := z[(k+3)*ldz+lo : (k+3)*ldz+hi+1]
		c0, c1, c2, c3 := z0[n], z1[n], z2[n], z3[n]
		for j := n - 1; j >= 0; j-- {
			c, s := cs[j], sn[j]
			a0, a1, a2, a3 := z0[j], z1[j], z2[j], z3[j]
			z0[j+1] = s*a0 + c*c0
			z1[j+1] = s*a1 + c*c1
			z2[j+1] = s*a2 + c*c2
			z3[j+1] = s*a3 + c*c3
			c0 = c*a0 - s*c0
			c1 = c*a1 - s*c1
			c2 = c*a2 - s*c2
			c3 = c*a3 - s*c3
		}
		z0[0], z1[0], z2[0], z3[0] = c0, c1, c2, c3
	}
	for ; k < rows; k++ {
		zr := z[k*ldz+lo : k*ldz+hi+1]
		carry := zr[n]
		for j := n - 1; j >= 0; j-- {
			c, s, zj := cs[j], sn[j], zr[j]
			zr[j+1] = s*zj + c*carry
			carry = c*zj - s*carry
		}
		zr[0] = carry
	}
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
