package main

import (
	"math"
	"sort"
)

// jacobiEig diagonalizes the symmetric n×n matrix a (row-major, not
// modified) with the cyclic Jacobi method (Rutishauser's rotation formulas).
// It returns the eigenvalues in ascending order and the eigenvectors as the
// columns of v (row-major n×n), and the number of sweeps used.
// Sweeps continue until the off-diagonal Frobenius norm is below
// 1e-17·‖A‖_F, or no rotation changes anything.
func jacobiEig(a []float64, n int) (w []float64, v []float64, sweeps int) {
	A := append([]float64(nil), a...)
	V := make([]float64, n*n)
	for i := 0; i < n; i++ {
		V[i*n+i] = 1
	}
	fro := 0.0
	for _, x := range A {
		fro += x * x
	}
	fro = math.Sqrt(fro)
	for sweeps = 0; sweeps < 100; sweeps++ {
		off := 0.0
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				off += 2 * A[p*n+q] * A[p*n+q]
			}
		}
		if math.Sqrt(off) <= 1e-17*fro {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				apq := A[p*n+q]
				if apq == 0 {
					continue
				}
				app, aqq := A[p*n+p], A[q*n+q]
				theta := (aqq - app) / (2 * apq)
				var t float64
				if math.IsInf(theta*theta, 0) {
					t = 1 / (2 * theta)
				} else {
					t = math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				// A ← Jᵀ A J with J the rotation in the (p, q) plane.
				for k := 0; k < n; k++ {
					akp, akq := A[k*n+p], A[k*n+q]
					A[k*n+p] = c*akp - s*akq
					A[k*n+q] = s*akp + c*akq
				}
				for k := 0; k < n; k++ {
					apk, aqk := A[p*n+k], A[q*n+k]
					A[p*n+k] = c*apk - s*aqk
					A[q*n+k] = s*apk + c*aqk
				}
				A[p*n+q], A[q*n+p] = 0, 0
				for k := 0; k < n; k++ {
					vkp, vkq := V[k*n+p], V[k*n+q]
					V[k*n+p] = c*vkp - s*vkq
					V[k*n+q] = s*vkp + c*vkq
				}
			}
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return A[idx[i]*n+idx[i]] < A[idx[j]*n+idx[j]] })
	w = make([]float64, n)
	v = make([]float64, n*n)
	for j, i := range idx {
		w[j] = A[i*n+i]
		for k := 0; k < n; k++ {
			v[k*n+j] = V[k*n+i]
		}
	}
	return w, v, sweeps
}

// eigResidual returns max_ij |(A V − V Λ)_ij| and max_ij |(VᵀV − I)_ij|.
func eigResidual(a []float64, n int, w, v []float64) (res, orth float64) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += a[i*n+k] * v[k*n+j]
			}
			res = math.Max(res, math.Abs(s-v[i*n+j]*w[j]))
			o := 0.0
			for k := 0; k < n; k++ {
				o += v[k*n+i] * v[k*n+j]
			}
			if i == j {
				o--
			}
			orth = math.Max(orth, math.Abs(o))
		}
	}
	return res, orth
}

// sum adds with Neumaier's compensated summation.
type sum struct{ s, c float64 }

func (a *sum) add(x float64) {
	t := a.s + x
	if math.Abs(a.s) >= math.Abs(x) {
		a.c += (a.s - t) + x
	} else {
		a.c += (x - t) + a.s
	}
	a.s = t
}

func (a *sum) value() float64 { return a.s + a.c }

// gaussLegendre returns the n-point Gauss–Legendre nodes and weights on
// [−1, 1], computed by Newton's method on the three-term recurrence.
func gaussLegendre(n int) (x, w []float64) {
	x = make([]float64, n)
	w = make([]float64, n)
	for i := 0; i < n; i++ {
		z := math.Cos(math.Pi * (float64(i) + 0.75) / (float64(n) + 0.5))
		var dp float64
		for it := 0; it < 100; it++ {
			p0, p1 := 1.0, z
			for k := 2; k <= n; k++ {
				p0, p1 = p1, (float64(2*k-1)*z*p1-float64(k-1)*p0)/float64(k)
			}
			dp = float64(n) * (z*p1 - p0) / (z*z - 1)
			dz := p1 / dp
			z -= dz
			if math.Abs(dz) < 1e-16 {
				break
			}
		}
		p0, p1 := 1.0, z
		for k := 2; k <= n; k++ {
			p0, p1 = p1, (float64(2*k-1)*z*p1-float64(k-1)*p0)/float64(k)
		}
		dp = float64(n) * (z*p1 - p0) / (z*z - 1)
		x[i] = z
		w[i] = 2 / ((1 - z*z) * dp * dp)
	}
	return x, w
}

// integrate returns ∫_a^b f over the pieces [bp_0, bp_1], [bp_1, bp_2], …
// (breakpoints ascending, bp_0 = a, last = b), each split into panels
// panels with the Gauss–Legendre rule (gx, gw).
func integrate(f func(float64) float64, bp []float64, panels int, gx, gw []float64) float64 {
	var acc sum
	for k := 0; k+1 < len(bp); k++ {
		a, b := bp[k], bp[k+1]
		if b <= a {
			continue
		}
		h := (b - a) / float64(panels)
		for p := 0; p < panels; p++ {
			lo := a + float64(p)*h
			hi := lo + h
			if p == panels-1 {
				hi = b
			}
			mid, half := (lo+hi)/2, (hi-lo)/2
			for i := range gx {
				acc.add(gw[i] * half * f(mid+half*gx[i]))
			}
		}
	}
	return acc.value()
}

// adaptive returns ∫ f over [a, b] by adaptive Gauss–Legendre (rule gx,
// gw): 16 equal panels to start, each panel split in half until the two
// halves agree with the whole to within tol·(panel length)/(b − a) (so the
// total error estimate stays below tol) or to rounding level, down to
// depth 20.
func adaptive(f func(float64) float64, a, b, tol float64, gx, gw []float64) float64 {
	gl := func(lo, hi float64) float64 {
		mid, half := (lo+hi)/2, (hi-lo)/2
		var s sum
		for i := range gx {
			s.add(gw[i] * half * f(mid+half*gx[i]))
		}
		return s.value()
	}
	perLen := tol / (b - a)
	var rec func(lo, hi, whole float64, depth int) float64
	rec = func(lo, hi, whole float64, depth int) float64 {
		m := (lo + hi) / 2
		l, r := gl(lo, m), gl(m, hi)
		diff := math.Abs(l + r - whole)
		if diff <= perLen*(hi-lo) || diff <= 1e-15*(math.Abs(l)+math.Abs(r)) || depth >= 20 || m <= lo || m >= hi {
			return l + r
		}
		return rec(lo, m, l, depth+1) + rec(m, hi, r, depth+1)
	}
	const start = 16
	var acc sum
	h := (b - a) / start
	for p := 0; p < start; p++ {
		lo, hi := a+float64(p)*h, a+float64(p+1)*h
		if p == start-1 {
			hi = b
		}
		acc.add(rec(lo, hi, gl(lo, hi), 0))
	}
	return acc.value()
}

// goldenMin minimizes a unimodal f on [a, b] by golden-section search and
// returns the best point it evaluated (endpoints included) and its value.
func goldenMin(f func(float64) float64, a, b float64) (float64, float64) {
	bx, bv := a, f(a)
	try := func(x, v float64) {
		if v < bv {
			bx, bv = x, v
		}
	}
	try(b, f(b))
	if b <= a {
		return bx, bv
	}
	r := (math.Sqrt(5) - 1) / 2
	c := b - r*(b-a)
	d := a + r*(b-a)
	fc, fd := f(c), f(d)
	for it := 0; it < 200; it++ {
		try(c, fc)
		try(d, fd)
		if b-a <= 2e-16*math.Max(1, math.Max(math.Abs(a), math.Abs(b))) {
			break
		}
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - r*(b-a)
			fc = f(c)
		} else {
			a, c, fc = c, d, fd
			d = a + r*(b-a)
			fd = f(d)
		}
	}
	try(c, fc)
	try(d, fd)
	return bx, bv
}
