package kernel

import "math"

// Exponential integrals for the exact scaling average (scalingexact.go).
//
//	E1(x)  = ∫_x^∞ e^{−t}/t dt                  (x > 0)
//	Ein(x) = ∫_0^x (1 − e^{−t})/t dt = Σ_{k≥1} (−1)^{k+1} x^k/(k·k!)
//	E1(x)  = Ein(x) − γ − ln x                  (γ: Euler's constant)
//
// Ein is entire and increasing; E1 is positive and decreasing with a
// logarithmic singularity at 0. The averages use Ein where their argument
// is small (the logarithms of E1 cancel analytically there) and E1 where it
// is large (E1 is then tiny and Ein − ln x − γ would cancel).

//go:generate go run gen_expint.go

// eulerGamma is Euler's constant γ = 0.57721 56649 01532 86060 65120 90082….
const eulerGamma = 0.57721566490153286060651209008240243104215933593992

// einLogMin: from here on Ein(x) = ln x + γ to within a quarter ulp.
const einLogMin = 36

// einK is the number of series terms ein keeps on [0, 1]: the first
// term left out, x^k/(k·k!) at k = 19, is below 4.2e−19 (Ein(1) = 0.797).
const einK = 18

// einCoef[k−1] = (−1)^{k+1}/(k·k!), k = 1 … einK: k·k! is an integer
// exactly representable for these k, so each coefficient is the
// correctly rounded quotient.
var einCoef = func() [einK]float64 {
	var c [einK]float64
	f := int64(1) // k!
	for k := int64(1); k <= einK; k++ {
		f *= k
		v := 1 / float64(k*f)
		if k%2 == 0 {
			v = -v
		}
		c[k-1] = v
	}
	return c
}()

// ein returns Ein(x) for x ≥ 0 within a few ulps: the power series by
// Horner's rule on [0, 1] (alternating terms, decreasing from the first),
// else E1(x) + ln x + γ, three positive terms, of which E1 is below a
// quarter ulp of the sum from einLogMin on (E1(36) = 6e−18, Ein(36) = 4.2).
func ein(x float64) float64 {
	if x >= einLogMin {
		return math.Log(x) + eulerGamma
	}
	if x <= 1 {
		s := einCoef[einK-1]
		for k := einK - 2; k >= 0; k-- {
			s = s*x + einCoef[k]
		}
		return s * x
	}
	return e1(x) + math.Log(x) + eulerGamma
}

// e1 returns E1(x) for x > 0 (+Inf at 0; 0 where it underflows, x ≳ 740)
// within a few ulps (TestE1):
//   - x ≤ 1: Ein(x) − ln x − γ (E1(1) = 0.219 against Ein(1) = 0.797: the
//     subtraction loses about two bits);
//   - 1 < x < e1TableMax: e^{−x}·Σ_k a_k·(x − c)^k, the Taylor expansion of
//     e^x·E1(x) about the centre c of x's half-binade (e1Table, computed in
//     512-bit arithmetic by gen_expint.go; every term is below 2^−57 of the
//     sum beyond the degree kept);
//   - x ≥ e1TableMax: e^{−x} times the continued fraction
//     e^x·E1(x) = 1/(x+1 − 1²/(x+3 − 2²/(x+5 − …))) to depth 6, evaluated
//     from the bottom (TestE1 holds e1 within 4 ulps of an
//     arbitrary-precision reference at e1TableMax and beyond).
func e1(x float64) float64 {
	return math.Exp(-x) * e1Scaled(x)
}

// e1Scaled returns e^x·E1(x) for x > 0 (e1 without the factor e^{−x}, so
// that callers can share it; for x ≤ 1 it is e^x·(Ein(x) − ln x − γ)).
func e1Scaled(x float64) float64 {
	switch {
	case x <= 1:
		if x == 0 {
			return math.Inf(1)
		}
		return math.Exp(x) * (ein(x) - math.Log(x) - eulerGamma)
	case x < e1TableMax:
		m, e := math.Frexp(x) // x = m·2^e, m in [½, 1), e ≥ 1
		i := 2 * (e - 1)
		if m >= 0.75 {
			i++
		}
		iv := &e1Table[i]
		t := x - iv.c
		a := iv.a
		s := a[len(a)-1]
		for k := len(a) - 2; k >= 0; k-- {
			s = s*t + a[k]
		}
		return s
	default:
		return e1CF(x)
	}
}

// e1CF is e^x·E1(x) by the continued fraction to depth 6, evaluated from
// the bottom: e1Scaled from e1TableMax on, where TestE1 holds e1 within 4
// ulps; TestE1ContinuedFraction measures where below it the fraction
// reaches that accuracy (docs/performance.md, "E1's continued
// fraction").
func e1CF(x float64) float64 {
	var t float64 // the tail k²/(x + 2k + 1 − …), zero below depth 6
	for k := 6.0; k >= 1; k-- {
		t = k * k / (x + 2*k + 1 - t)
	}
	return 1 / (x + 1 - t)
}

// e1Interval is one interval of e1Table: e^x·E1(x) = Σ_k a[k]·(x − c)^k on
// [lo, hi).
type e1Interval struct {
	lo, hi, c float64
	a         []float64
}
