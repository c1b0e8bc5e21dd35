package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
)

// ryser is Ryser's formula in Gray-code order,
// perm(M) = (−1)^d·Σ_{S⊆[d]} (−1)^{|S|}·Π_i Σ_{j∈S} M_ij, O(2^d·d) with
// incrementally updated row sums: the alternative to permanent measured in
// TestRyserCancellation.
func ryser(m []float64, d int) float64 {
	rs := make([]float64, d)
	var total float64
	var gray uint
	for k := uint(1); k < 1<<d; k++ {
		next := k ^ (k >> 1)
		j := 0
		for (gray^next)>>j&1 == 0 {
			j++
		}
		sign := 1.0
		if next&(1<<j) == 0 {
			sign = -1
		}
		gray = next
		prod := 1.0
		for i := range d {
			rs[i] += sign * m[i*d+j]
			prod *= rs[i]
		}
		if (d-popcount(gray))%2 == 0 {
			total += prod
		} else {
			total -= prod
		}
	}
	return total
}

func popcount(x uint) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// permExpand is Σ_σ Π_i M_{i,σ(i)} over all d! permutations (Heap's
// algorithm), summed with Neumaier compensation: the reference.
func permExpand(m []float64, d int) float64 {
	a := make([]int, d)
	for i := range a {
		a[i] = i
	}
	var s, c float64
	add := func() {
		p := 1.0
		for i, j := range a {
			p *= m[i*d+j]
		}
		t := s + p
		if math.Abs(s) >= math.Abs(p) {
			c += (s - t) + p
		} else {
			c += (p - t) + s
		}
		s = t
	}
	add()
	cnt := make([]int, d)
	for i := 0; i < d; {
		if cnt[i] < i {
			if i%2 == 0 {
				a[0], a[i] = a[i], a[0]
			} else {
				a[cnt[i]], a[i] = a[i], a[cnt[i]]
			}
			add()
			cnt[i]++
			i = 0
		} else {
			cnt[i] = 0
			i++
		}
	}
	return s + c
}

// TestRyserCancellation measures the relative error of the subset
// recursion (permanent and, for d ≤ maxUnrolled, permanentUnrolled, used,
// which must give the recursion's bits)
// and of Ryser's formula against the expanded
// permanent, on the row-scaled matrices of random point pairs, d ≤ 8, for
// lengthscales making the entries span from 1 to ~1e−300. The recursion
// must stay within 1e−13; Ryser's error is logged (it grows with
// Π_i(Σ_j M_ij)/perm(M)).
func TestRyserCancellation(t *testing.T) {
	testdepth.Sequential(t) // pure arithmetic: no goroutine for -race to watch
	r := rand.New(rand.NewPCG(1, 2))
	for _, signed := range []bool{false, true} {
		for d := 2; d <= 8; d++ {
			for _, ell := range []float64{3, 1, 0.3, 0.1, 0.03} {
				e := newAvgPermEval(Params{Shape: RBF, Variance: 1, Lengthscale: ell}, d, signed)
				m := make([]float64, d*d)
				f := make([]float64, 1<<d)
				u, w := make([]float64, d), make([]float64, d)
				var worstDP, worstRyser, worstRatio float64
				under := 0
				for range 40 {
					for k := range d {
						u[k] = (2*r.Float64() - 1) / ell
						w[k] = (2*r.Float64() - 1) / ell
						if signed {
							u[k], w[k] = math.Abs(u[k]), math.Abs(w[k])
						}
					}
					e.matrix(m, u, w, make([]float64, d*d))
					ref := permExpand(m, d)
					if ref < 1e-290 {
						// k ≤ v·e^{Σm}·perm(M̃) underflows: nothing to measure.
						under++
						continue
					}
					dp := permanent(m, d, f)
					ry := ryser(m, d)
					worstDP = max(worstDP, math.Abs(dp-ref)/ref)
					if d <= maxUnrolled {
						un := permanentUnrolled(m, d)
						worstDP = max(worstDP, math.Abs(un-ref)/ref)
						if math.Float64bits(un) != math.Float64bits(dp) {
							t.Errorf("signed=%v d=%d: unrolled permanent %v, recursion %v", signed, d, un, dp)
						}
					}
					worstRyser = max(worstRyser, math.Abs(ry-ref)/ref)
					rows := 1.0
					for i := range d {
						var s float64
						for j := range d {
							s += m[i*d+j]
						}
						rows *= s
					}
					worstRatio = max(worstRatio, rows/ref)
				}
				if !(worstDP <= 1e-13) {
					t.Errorf("signed=%v d=%d ℓ=%g: subset recursion relative error %.2g", signed, d, ell, worstDP)
				}
				if d == 5 || d == 8 {
					t.Logf("signed=%v d=%d ℓ=%-4g: recursion %.1e, Ryser %.1e (max Π rowsum/perm %.1e; %d/40 underflow)",
						signed, d, ell, worstDP, worstRyser, worstRatio, under)
				}
			}
		}
	}
}

// TestPermMinorsUnrolled: the unrolled minors (d ≤ maxUnrolled, which
// the gradient uses) are permMinors's bit for bit, on random matrices
// whose entries span 1 to 1e−300 with zeros among them, and on matrices
// of the kernel's own (signed and unsigned) at several lengthscales.
func TestPermMinorsUnrolled(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for d := 2; d <= maxUnrolled; d++ {
		m := make([]float64, d*d)
		pm, un := make([]float64, d*d), make([]float64, d*d)
		f, b := make([]float64, 1<<d), make([]float64, 1<<d)
		check := func(what string) {
			t.Helper()
			permMinors(pm, m, d, f, b)
			for i := range un {
				un[i] = math.NaN()
			}
			permMinorsUnrolled(un, m, d)
			for i := range pm {
				if math.Float64bits(un[i]) != math.Float64bits(pm[i]) {
					t.Fatalf("d=%d %s: minor %d unrolled %v, permMinors %v", d, what, i, un[i], pm[i])
				}
			}
		}
		for range 200 {
			for i := range m {
				switch r.IntN(8) {
				case 0:
					m[i] = 0
				case 1:
					m[i] = math.Pow(10, -300*r.Float64())
				default:
					m[i] = r.Float64()
				}
			}
			check("random")
		}
		for _, signed := range []bool{false, true} {
			for _, ell := range []float64{3, 0.3, 0.03} {
				e := newAvgPermEval(Params{Shape: RBF, Variance: 1, Lengthscale: ell}, d, signed)
				u, w := make([]float64, d), make([]float64, d)
				for range 50 {
					for k := range d {
						u[k], w[k] = (2*r.Float64()-1)/ell, (2*r.Float64()-1)/ell
						if signed {
							u[k], w[k] = math.Abs(u[k]), math.Abs(w[k])
						}
					}
					e.matrix(m, u, w, make([]float64, d*d))
					check(fmt.Sprintf("signed=%v ℓ=%g", signed, ell))
				}
			}
		}
	}
}

// TestPermMinors checks the forward/backward minors against expansion.
func TestPermMinors(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for d := 1; d <= 6; d++ {
		m := make([]float64, d*d)
		for i := range m {
			m[i] = r.Float64()
		}
		pm := make([]float64, d*d)
		f, b := make([]float64, 1<<d), make([]float64, 1<<d)
		permMinors(pm, m, d, f, b)
		for i := range d {
			for j := range d {
				minor := make([]float64, 0, (d-1)*(d-1))
				for a := range d {
					for c := range d {
						if a != i && c != j {
							minor = append(minor, m[a*d+c])
						}
					}
				}
				want := 1.0
				if d > 1 {
					want = permExpand(minor, d-1)
				}
				if got := pm[i*d+j]; math.Abs(got-want) > 1e-14*want {
					t.Errorf("d=%d minor(%d,%d) = %v, want %v", d, i, j, got, want)
				}
			}
		}
	}
}

// BenchmarkPermMinors: the minors by the subset recursions (permMinors)
// against the unrolled ones the gradient uses for d ≤ maxUnrolled, on a
// kernel matrix of the RBF permanent (ℓ = 1).
func BenchmarkPermMinors(b *testing.B) {
	for d := 4; d <= maxUnrolled; d++ {
		r := rand.New(rand.NewPCG(7, uint64(d)))
		e := newAvgPermEval(Params{Shape: RBF, Variance: 1, Lengthscale: 1}, d, false)
		u, w, m := make([]float64, d), make([]float64, d), make([]float64, d*d)
		for k := range d {
			u[k], w[k] = 2*r.Float64()-1, 2*r.Float64()-1
		}
		e.matrix(m, u, w, make([]float64, d*d))
		pm := make([]float64, d*d)
		f, bb := make([]float64, 1<<d), make([]float64, 1<<d)
		b.Run(fmt.Sprintf("d=%d/recursion", d), func(b *testing.B) {
			for b.Loop() {
				permMinors(pm, m, d, f, bb)
			}
		})
		b.Run(fmt.Sprintf("d=%d/unrolled", d), func(b *testing.B) {
			for b.Loop() {
				permMinorsUnrolled(pm, m, d)
			}
		})
	}
}

// matrixScalar is matrix one exponential at a time with math.Exp (the
// loop matrix replaced): the reference matrix must equal bit for bit.
func matrixScalar(e *avgPermEval, m, u, w []float64) float64 {
	d := e.d
	var lsum float64
	for i, a := range u[:d] {
		r := m[i*d : i*d+d]
		top := math.Inf(-1)
		for j, b := range w[:d] {
			t := a - b
			l := -0.5 * t * t
			r[j] = l
			top = max(top, l)
		}
		if math.IsInf(top, -1) {
			clear(r)
			continue
		}
		lsum += top
		for j, b := range w[:d] {
			v := math.Exp(r[j] - top)
			if e.signed {
				v *= 0.5 + 0.5*math.Exp(-2*(a*b))
			}
			r[j] = v
		}
	}
	return lsum
}

// TestMatrixIsTheScalarLoop: matrix (vector exponentials) gives the
// scalar loop's bits, signed and unsigned, d = 1 … 8, over lengthscales
// from 10 to 1e−155 (rows that underflow whole, subnormal entries) and
// coordinates up to 1e160 (overflowing differences).
func TestMatrixIsTheScalarLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, signed := range []bool{false, true} {
		for d := 1; d <= 8; d++ {
			for _, ell := range []float64{10, 1, 0.1, 0.02, 1e-3, 1e-155} {
				e := newAvgPermEval(Params{Shape: RBF, Variance: 1, Lengthscale: ell}, d, signed)
				u, w := make([]float64, d), make([]float64, d)
				got, want := make([]float64, d*d), make([]float64, d*d)
				for k := range 60 {
					for i := range d {
						u[i], w[i] = (2*r.Float64()-1)/ell, (2*r.Float64()-1)/ell
						if k%5 == 0 {
							u[i] *= 1e160 * ell
						}
						if signed {
							u[i], w[i] = math.Abs(u[i]), math.Abs(w[i])
						}
					}
					lg := e.matrix(got, u, w, make([]float64, d*d))
					lw := matrixScalar(e, want, u, w)
					if math.Float64bits(lg) != math.Float64bits(lw) {
						t.Fatalf("signed=%v d=%d ℓ=%g: Σm %v, scalar loop %v", signed, d, ell, lg, lw)
					}
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("signed=%v d=%d ℓ=%g: entry %d = %v, scalar loop %v", signed, d, ell, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}
