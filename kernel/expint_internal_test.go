package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/internal/testdepth"
)

// The references here are arbitrary-precision (math/big) sums: for x < 40
// the power series Ein(x) − ln x − γ, with ln by the atanh series and γ
// from its first 80 decimals (the cancellation costs at most 18 of them);
// for x ≥ 40 the continued fraction e^x·E1(x) = 1/(x+1 − 1²/(x+3 − …)),
// deepened until it stops changing at 2^−120 (expint.go stops at depth 6
// and uses it only from 64 on). TestE1Reference checks that the two agree
// where both apply.

const eulerGammaDigits = "0.57721566490153286060651209008240243104215933593992359880576723488486772677766467"

func bigPrec(x float64) uint { return uint(192 + 3*x) }

func bf(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

// bigEin returns Ein(x) = Σ_{k≥1} (−1)^{k+1} x^k/(k·k!) at precision prec.
func bigEin(x float64, prec uint) *big.Float {
	bx := bf(prec).SetFloat64(x)
	term := bf(prec).SetInt64(1) // x^k/k!
	sum := bf(prec)
	eps := bf(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for k := 1; ; k++ {
		term.Mul(term, bx)
		term.Quo(term, bf(prec).SetInt64(int64(k)))
		t := bf(prec).Quo(term, bf(prec).SetInt64(int64(k)))
		if k%2 == 0 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if k > int(2*x)+10 && t.Cmp(eps) < 0 {
			return sum
		}
	}
}

// bigAtanh returns atanh(z) = Σ z^{2k+1}/(2k+1) for |z| ≤ 1/3.
func bigAtanh(z *big.Float, prec uint) *big.Float {
	z2 := bf(prec).Mul(z, z)
	p := bf(prec).Set(z)
	sum := bf(prec).Set(z)
	eps := bf(prec).SetMantExp(big.NewFloat(1), -int(prec)-8)
	for k := 1; k < 100000; k++ {
		p.Mul(p, z2)
		t := bf(prec).Quo(p, bf(prec).SetInt64(int64(2*k+1)))
		sum.Add(sum, t)
		if bf(prec).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum
}

// bigLog returns ln x for x > 0: x = m·2^e with m in [½, 1), ln m =
// 2·atanh((m−1)/(m+1)), ln 2 = 2·atanh(1/3).
func bigLog(x float64, prec uint) *big.Float {
	m := bf(prec)
	e := bf(prec).SetFloat64(x).MantExp(m)
	one := bf(prec).SetInt64(1)
	lm := bigAtanh(bf(prec).Quo(bf(prec).Sub(m, one), bf(prec).Add(m, one)), prec)
	lm.Mul(lm, bf(prec).SetInt64(2))
	l2 := bigAtanh(bf(prec).Quo(one, bf(prec).SetInt64(3)), prec)
	l2.Mul(l2, bf(prec).SetInt64(2*int64(e)))
	return lm.Add(lm, l2)
}

// bigE1 returns E1(x) rounded to float64.
func bigE1(x float64) float64 {
	if x >= 40 {
		return bigE1CF(x)
	}
	return bigE1Series(x)
}

func bigE1Series(x float64) float64 {
	prec := bigPrec(x)
	g, _, err := big.ParseFloat(eulerGammaDigits, 10, prec, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	s := bigEin(x, prec)
	s.Sub(s, g)
	s.Sub(s, bigLog(x, prec))
	f, _ := s.Float64()
	return f
}

// bigE1CF is e^{−x} times the continued fraction at depth n, for n =
// 16, 32, … until two depths agree to 2^−120.
func bigE1CF(x float64) float64 {
	const prec = 256
	bx := bf(prec).SetFloat64(x)
	cf := func(n int) *big.Float {
		t := bf(prec)
		for k := n; k >= 1; k-- {
			kk := bf(prec).SetInt64(int64(k))
			den := bf(prec).Add(bx, bf(prec).SetInt64(int64(2*k+1)))
			den.Sub(den, t)
			t = bf(prec).Quo(bf(prec).Mul(kk, kk), den)
		}
		den := bf(prec).Add(bx, bf(prec).SetInt64(1))
		den.Sub(den, t)
		return bf(prec).Quo(bf(prec).SetInt64(1), den)
	}
	prev := cf(8)
	for n := 16; ; n *= 2 {
		cur := cf(n)
		d := bf(prec).Sub(cur, prev)
		d.Quo(d, cur)
		if d.Abs(d).Cmp(bf(prec).SetMantExp(big.NewFloat(1), -120)) < 0 {
			r := bf(prec).Mul(cur, bigExpNeg(x))
			f, _ := r.Float64()
			return f
		}
		prev = cur
	}
}

// bigExpNeg returns e^{−x} = 1/Σ x^k/k! at 256 bits.
func bigExpNeg(x float64) *big.Float {
	const prec = 256
	bx := bf(prec).SetFloat64(x)
	term := bf(prec).SetInt64(1)
	sum := bf(prec).SetInt64(1)
	eps := bf(prec).SetMantExp(big.NewFloat(1), -260)
	for k := 1; ; k++ {
		term.Mul(term, bx)
		term.Quo(term, bf(prec).SetInt64(int64(k)))
		sum.Add(sum, term)
		if k > int(3*x)+20 && bf(prec).Quo(term, sum).Cmp(eps) < 0 {
			break
		}
	}
	return bf(prec).Quo(bf(prec).SetInt64(1), sum)
}

func bigEinF(x float64) float64 {
	f, _ := bigEin(x, bigPrec(x)).Float64()
	return f
}

func ulps(got, want float64) float64 {
	if got == want {
		return 0
	}
	return math.Abs(got-want) / (math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want))
}

// TestE1 compares e1 and ein with the arbitrary-precision references at
// the ends and middles of every range of e1 and at log-uniform random
// arguments from 1e−9 to 745 (and a few below).
func TestE1(t *testing.T) {
	xs := []float64{1e-300, 1e-20, 1e-8, 1e-3, 0.1, 0.5, 0.9, 1, 10, 700, 740}
	for _, iv := range e1Table {
		xs = append(xs, iv.lo, math.Nextafter(iv.lo, 0), iv.c, math.Nextafter(iv.hi, 0))
	}
	xs = append(xs, e1TableMax, 100, 300)
	rng := rand.New(rand.NewPCG(1, 1))
	n := 400
	if testing.Short() {
		n = 100
	}
	for range n {
		xs = append(xs, math.Exp(rng.Float64()*(math.Log(740)+20)-20))
	}
	var worstE1, worstEin float64
	for _, x := range xs {
		w := bigE1(x)
		u := ulps(e1(x), w)
		worstE1 = math.Max(worstE1, u)
		if u > 4 {
			t.Errorf("e1(%v) = %.17g, want %.17g (%.0f ulps)", x, e1(x), w, u)
		}
		if x < 600 {
			we := bigEinF(x)
			u = ulps(ein(x), we)
			worstEin = math.Max(worstEin, u)
			if u > 4 {
				t.Errorf("ein(%v) = %.17g, want %.17g (%.0f ulps)", x, ein(x), we, u)
			}
		}
	}
	t.Logf("worst: e1 %.1f ulps, ein %.1f ulps over %d arguments", worstE1, worstEin, len(xs))
	// A published value (E1(1) to 20 digits) as a check of the reference.
	if w := bigE1(1); w != 0.21938393439552027368 {
		t.Errorf("reference E1(1) = %.20g", w)
	}
}

// TestE1ContinuedFraction measures e^{−x}·e1CF(x) (the depth-6
// continued fraction e1 takes from e1TableMax on) against the
// arbitrary-precision E1 on 30 ≤ x < 128, 64 arguments per unit (8 with
// -short), and logs the worst error in ulps over each band, for
// docs/performance.md, "E1's continued fraction"; from e1TableMax on it
// must stay within TestE1's 4 ulps.
func TestE1ContinuedFraction(t *testing.T) {
	testdepth.Sequential(t) // pure arithmetic: no goroutine for -race to watch
	bands := []float64{30, 40, 50, 56, e1TableMax, 96, 128}
	step := 1.0 / 64
	if testing.Short() {
		step = 1.0 / 8
	}
	for b := 0; b+1 < len(bands); b++ {
		var worst float64
		for x := bands[b]; x < bands[b+1]; x += step {
			u := ulps(math.Exp(-x)*e1CF(x), bigE1(x))
			worst = math.Max(worst, u)
			if x >= e1TableMax && u > 4 {
				t.Errorf("x = %v: continued fraction %.0f ulps from E1", x, u)
			}
		}
		t.Logf("x in [%v, %v): worst %.1f ulps", bands[b], bands[b+1], worst)
	}
}

// TestE1Reference: the series and continued-fraction references agree
// where both are accurate.
func TestE1Reference(t *testing.T) {
	for _, x := range []float64{5, 12.5, 30, 39.9, 45, 60} {
		a, b := bigE1Series(x), bigE1CF(x)
		if ulps(a, b) > 1 {
			t.Errorf("E1(%v): series %.17g, continued fraction %.17g", x, a, b)
		}
	}
}
