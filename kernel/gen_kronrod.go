//go:build ignore

// gen_kronrod writes kronrod_gen.go: the (2n+1)-point Gauss–Kronrod rule
// extending the n-point Gauss–Legendre rule on [−1, 1], for adaptGK
// (gk.go). Run with go generate (the -n flag picks n; the default is the
// one gk.go uses).
//
// Everything is computed in 400-bit arithmetic (math/big):
//  1. the m-point Gauss–Legendre rule for m = 2n+2 by Newton's method on
//     P_m (P_k by the three-term recurrence), exact for degree 4n+3;
//  2. the Stieltjes polynomial E_{n+1} = P_{n+1} + Σ_{k≤n} e_k·P_k, whose
//     coefficients make ∫ P_n·E_{n+1}·P_j = 0 for j = 0 … n (a linear
//     system, its integrals by the rule of step 1: degree ≤ 3n+1);
//  3. its n+1 zeros (the Kronrod nodes, interlacing the Gauss nodes) by
//     bisection on the sign changes between the Gauss nodes, then Newton;
//  4. the weights of all 2n+1 nodes from Σ_i w_i·P_j(x_i) = 2·[j = 0],
//     j = 0 … 2n (a linear system); the rule is then exact to degree
//     3n+1, which TestGKExact checks in float64, with the Gauss weights.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math"
	"math/big"
	"os"
	"sort"
)

const prec = 400

func nf() *big.Float                 { return new(big.Float).SetPrec(prec) }
func fi(v int64) *big.Float          { return nf().SetInt64(v) }
func ff(v float64) *big.Float        { return nf().SetFloat64(v) }
func add(a, b *big.Float) *big.Float { return nf().Add(a, b) }
func sub(a, b *big.Float) *big.Float { return nf().Sub(a, b) }
func mul(a, b *big.Float) *big.Float { return nf().Mul(a, b) }
func quo(a, b *big.Float) *big.Float { return nf().Quo(a, b) }

// legendre returns P_0(x) … P_k(x).
func legendre(x *big.Float, k int) []*big.Float {
	p := make([]*big.Float, k+1)
	p[0] = fi(1)
	if k >= 1 {
		p[1] = nf().Set(x)
	}
	for j := 1; j < k; j++ {
		// (j+1)P_{j+1} = (2j+1)x·P_j − j·P_{j−1}
		t := sub(mul(mul(fi(int64(2*j+1)), x), p[j]), mul(fi(int64(j)), p[j-1]))
		p[j+1] = quo(t, fi(int64(j+1)))
	}
	return p
}

// dlegendre returns P_m(x) and P_m'(x) = m(x·P_m − P_{m−1})/(x² − 1).
func dlegendre(x *big.Float, m int) (*big.Float, *big.Float) {
	p := legendre(x, m)
	num := mul(fi(int64(m)), sub(mul(x, p[m]), p[m-1]))
	return p[m], quo(num, sub(mul(x, x), fi(1)))
}

var eps = nf().SetMantExp(big.NewFloat(1), -prec+20)

func abs(a *big.Float) *big.Float { return nf().Abs(a) }

// gauss returns the m-point Gauss–Legendre nodes (ascending) and weights.
func gauss(m int) ([]*big.Float, []*big.Float) {
	var xs, ws []*big.Float
	for i := 1; i <= m; i++ {
		// Initial guess cos(π(i − 1/4)/(m + 1/2)), from float64.
		g := math.Cos(3.141592653589793 * (float64(i) - 0.25) / (float64(m) + 0.5))
		x := ff(g)
		for it := 0; it < 100; it++ {
			p, dp := dlegendre(x, m)
			dx := quo(p, dp)
			x = sub(x, dx)
			if abs(dx).Cmp(eps) < 0 {
				break
			}
		}
		_, dp := dlegendre(x, m)
		// w = 2/((1 − x²)·P_m'(x)²)
		w := quo(fi(2), mul(sub(fi(1), mul(x, x)), mul(dp, dp)))
		xs = append(xs, x)
		ws = append(ws, w)
	}
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return xs[idx[a]].Cmp(xs[idx[b]]) < 0 })
	sx, sw := make([]*big.Float, m), make([]*big.Float, m)
	for i, j := range idx {
		sx[i], sw[i] = xs[j], ws[j]
	}
	return sx, sw
}

// solve solves a·z = b (n×n) by Gaussian elimination with partial
// pivoting.
func solve(a [][]*big.Float, b []*big.Float) []*big.Float {
	n := len(b)
	for c := range n {
		p := c
		for r := c + 1; r < n; r++ {
			if abs(a[r][c]).Cmp(abs(a[p][c])) > 0 {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		if a[c][c].Sign() == 0 {
			log.Fatal("singular system")
		}
		for r := c + 1; r < n; r++ {
			f := quo(a[r][c], a[c][c])
			for k := c; k < n; k++ {
				a[r][k] = sub(a[r][k], mul(f, a[c][k]))
			}
			b[r] = sub(b[r], mul(f, b[c]))
		}
	}
	z := make([]*big.Float, n)
	for r := n - 1; r >= 0; r-- {
		s := nf().Set(b[r])
		for k := r + 1; k < n; k++ {
			s = sub(s, mul(a[r][k], z[k]))
		}
		z[r] = quo(s, a[r][r])
	}
	return z
}

func main() {
	n := flag.Int("n", 15, "Gauss points; the Kronrod rule has 2n+1")
	flag.Parse()
	N := *n
	// 1. An exact rule for the integrals of step 2.
	qx, qw := gauss(2*N + 2)
	// 2. Stieltjes polynomial coefficients e_0 … e_n (e_{n+1} = 1).
	a := make([][]*big.Float, N+1)
	b := make([]*big.Float, N+1)
	for j := range N + 1 {
		a[j] = make([]*big.Float, N+1)
		for k := range N + 1 {
			a[j][k] = nf()
		}
		b[j] = nf()
	}
	for i := range qx {
		p := legendre(qx[i], N+1)
		for j := range N + 1 {
			wpj := mul(mul(qw[i], p[N]), p[j])
			for k := range N + 1 {
				a[j][k] = add(a[j][k], mul(wpj, p[k]))
			}
			b[j] = sub(b[j], mul(wpj, p[N+1]))
		}
	}
	e := solve(a, b)
	stieltjes := func(x *big.Float) *big.Float {
		p := legendre(x, N+1)
		s := nf().Set(p[N+1])
		for k := range N + 1 {
			s = add(s, mul(e[k], p[k]))
		}
		return s
	}
	// 3. Zeros of E_{n+1} between −1, the Gauss nodes and 1.
	gx, gw := gauss(N)
	brackets := []*big.Float{fi(-1)}
	brackets = append(brackets, gx...)
	brackets = append(brackets, fi(1))
	var kx []*big.Float
	for i := 0; i+1 < len(brackets); i++ {
		lo, hi := brackets[i], brackets[i+1]
		flo := stieltjes(lo)
		if flo.Sign()*stieltjes(hi).Sign() >= 0 {
			log.Fatalf("no sign change in gap %d", i)
		}
		for it := 0; it < prec; it++ {
			mid := quo(add(lo, hi), fi(2))
			fm := stieltjes(mid)
			if fm.Sign() == flo.Sign() {
				lo, flo = mid, fm
			} else {
				hi = mid
			}
		}
		kx = append(kx, quo(add(lo, hi), fi(2)))
	}
	// 4. Weights of all nodes.
	xs := append(append([]*big.Float(nil), gx...), kx...)
	sort.Slice(xs, func(i, j int) bool { return xs[i].Cmp(xs[j]) < 0 })
	M := len(xs) // 2n+1
	A := make([][]*big.Float, M)
	B := make([]*big.Float, M)
	cols := make([][]*big.Float, M)
	for i, x := range xs {
		cols[i] = legendre(x, M-1)
	}
	for j := range M {
		A[j] = make([]*big.Float, M)
		for i := range M {
			A[j][i] = cols[i][j]
		}
		B[j] = fi(0)
	}
	B[0] = fi(2)
	W := solve(A, B)
	// Output: the non-negative half, descending from the end, as gk.go
	// lays it out: x[i] for i < n, the centre last.
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by gen_kronrod.go; DO NOT EDIT.\n\npackage kernel\n\n")
	fmt.Fprintf(&buf, "// gkN is the number of Gauss points; the Kronrod rule has 2·gkN+1.\nconst gkN = %d\n\n", N)
	fmt.Fprintf(&buf, "// gkX[i], i < gkN, are the positive Kronrod abscissae on [−1, 1] in\n// decreasing order (±gkX[i]), gkX[gkN] = 0; the odd-indexed ones are the\n// Gauss abscissae when gkN is even, the even-indexed ones when it is odd.\n")
	half := xs[N:] // ascending from 0
	fmt.Fprintf(&buf, "var gkX = [gkN + 1]float64{\n")
	for i := len(half) - 1; i >= 0; i-- {
		v, _ := half[i].Float64()
		fmt.Fprintf(&buf, "\t%v,\n", v)
	}
	fmt.Fprintf(&buf, "}\n\n// gkWK are the Kronrod weights of ±gkX[i].\nvar gkWK = [gkN + 1]float64{\n")
	hw := W[N:]
	for i := len(hw) - 1; i >= 0; i-- {
		v, _ := hw[i].Float64()
		fmt.Fprintf(&buf, "\t%v,\n", v)
	}
	fmt.Fprintf(&buf, "}\n\n// gkWG are the Gauss weights of ±gkX[i] (0 at Kronrod-only nodes).\nvar gkWG = [gkN + 1]float64{\n")
	for i := len(half) - 1; i >= 0; i-- {
		w := 0.0
		for j := range gx {
			if gx[j].Cmp(half[i]) == 0 {
				w, _ = gw[j].Float64()
			}
		}
		fmt.Fprintf(&buf, "\t%v,\n", w)
	}
	fmt.Fprintf(&buf, "}\n")
	src, err := format.Source(buf.Bytes())
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("kronrod_gen.go", src, 0o644); err != nil {
		log.Fatal(err)
	}
}
