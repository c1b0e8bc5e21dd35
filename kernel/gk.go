package kernel

import "math"

// Adaptive Gauss–Kronrod quadrature for vector-valued integrands, used
// by the exact scaling average (scalingquad.go): the (2·gkN+1)-point
// Kronrod extension of the gkN-point Gauss–Legendre rule, its constants
// computed in 400-bit arithmetic by gen_kronrod.go (kronrod_gen.go) and
// checked by TestGKExact (the Kronrod rule integrates polynomials of
// degree ≤ 3·gkN+1 exactly, the Gauss rule those of degree ≤ 2·gkN−1).
// gkN = 15 (31 points): at the relative tolerance 1e−13 the error
// estimate needs the Gauss rule itself accurate to ~1e−11, which the
// 15-point rule reaches on panels several times longer than the 7-point
// rule of the common 15-point pair, for fewer evaluations in all
// (counted on the scaling average's integrands: docs/performance.md,
// "The Gauss–Kronrod rule: 31 points against 15").

//go:generate go run gen_kronrod.go -n 15

// gkMaxPanels is the most panels adaptGK keeps; it stops refining there
// (not expected on the kernels' integrands, but no test checks it).
const gkMaxPanels = 80

// gkScratch is the scratch length adaptGK needs for m components.
func gkScratch(m int) int { return gkMaxPanels*(3+m) + gkNodes*m }

// adaptGK integrates f (m components; f(t, out) writes the integrand at t
// into out[:m]) over [bp[0], bp[len(bp)−1]], starting from the panels
// between consecutive break points, and writes the integrals into
// dst[:m]. It bisects the panel of largest error estimate until the
// estimated errors, summed over panels and components, fall below
// rtol·Σ_components |∫f| (or atol), each panel's estimate being the
// Kronrod–Gauss difference scaled as in QUADPACK:
// σ·min(1, (200·|K − G|/σ)^{3/2}) with σ = ∫|f − mean| by the Kronrod
// rule, and at least 50ε·∫|f|. The panels are summed in index order, so
// the result is a deterministic function of the inputs. It returns the
// number of integrand evaluations.
func adaptGK(dst []float64, m int, f func(t float64, out []float64), bp []float64, rtol, atol float64, ws []float64) int {
	// ws layout: panels (a, b, err, value[m]) × gkMaxPanels, then
	// gkPanel's gkNodes·m floats.
	ps := 3 + m
	pan := ws[:gkMaxPanels*ps]
	rest := ws[gkMaxPanels*ps:]
	np := 0
	evals := 0
	for i := 0; i+1 < len(bp); i++ {
		if !(bp[i+1] > bp[i]) {
			continue
		}
		p := pan[np*ps : (np+1)*ps]
		p[0], p[1] = bp[i], bp[i+1]
		p[2] = gkPanel(p[3:], m, f, p[0], p[1], rest)
		evals += gkNodes
		np++
	}
	for {
		var err, tot float64
		worst := -1
		for i := range np {
			p := pan[i*ps : (i+1)*ps]
			err += p[2]
			if worst < 0 || p[2] > pan[worst*ps+2] {
				worst = i
			}
		}
		for c := range m {
			var s float64
			for i := range np {
				s += pan[i*ps+3+c]
			}
			tot += math.Abs(s)
		}
		// A NaN panel (an integrand that is not finite) ends the
		// refinement: its error estimate compares with nothing, so the
		// loop would split the same unsplittable panel forever. The NaN
		// is the result, which the kernel reports as an error.
		if err <= max(rtol*tot, atol) || np == gkMaxPanels || worst < 0 || math.IsNaN(err) || math.IsNaN(tot) {
			break
		}
		w := pan[worst*ps : (worst+1)*ps]
		a, b := w[0], w[1]
		mid := 0.5 * (a + b)
		if !(mid > a && mid < b) { // the panel cannot be split further
			w[2] = 0
			continue
		}
		n := pan[np*ps : (np+1)*ps]
		w[1] = mid
		w[2] = gkPanel(w[3:], m, f, a, mid, rest)
		n[0], n[1] = mid, b
		n[2] = gkPanel(n[3:], m, f, mid, b, rest)
		evals += 2 * gkNodes
		np++
	}
	for c := range m {
		var s float64
		for i := range np {
			s += pan[i*ps+3+c]
		}
		dst[c] = s
	}
	return evals
}

// gkPanel writes the Kronrod integrals of the m components over [a, b]
// into val and returns the panel's error estimate, summed over the
// components. ws holds gkNodes·m floats (the node values).
func gkPanel(val []float64, m int, f func(t float64, out []float64), a, b float64, ws []float64) float64 {
	c, h := 0.5*(a+b), 0.5*(b-a)
	// Node values: row 0 the centre, rows 2i+1, 2i+2 at c ∓ h·gkX[i].
	f(c, ws[:m])
	for i := range gkN {
		x := h * gkX[i]
		f(c-x, ws[(2*i+1)*m:(2*i+2)*m])
		f(c+x, ws[(2*i+2)*m:(2*i+3)*m])
	}
	var e float64
	for j := range m {
		v0 := ws[j]
		k, g, ab := gkWK[gkN]*v0, gkWG[gkN]*v0, gkWK[gkN]*math.Abs(v0)
		for i := range gkN {
			v1, v2 := ws[(2*i+1)*m+j], ws[(2*i+2)*m+j]
			k += gkWK[i] * (v1 + v2)
			g += gkWG[i] * (v1 + v2)
			ab += gkWK[i] * (math.Abs(v1) + math.Abs(v2))
		}
		mean := 0.5 * k
		asc := gkWK[gkN] * math.Abs(v0-mean)
		for i := range gkN {
			asc += gkWK[i] * (math.Abs(ws[(2*i+1)*m+j]-mean) + math.Abs(ws[(2*i+2)*m+j]-mean))
		}
		val[j] = k * h
		e += gkErr(math.Abs((k-g)*h), asc*h, ab*h)
	}
	return e
}

// gkNodes is the number of nodes of the Kronrod rule.
const gkNodes = 2*gkN + 1

// gkErr is QUADPACK's estimate from |K − G|, σ and ∫|f|.
func gkErr(diff, asc, abs float64) float64 {
	e := diff
	if asc != 0 && e != 0 {
		e = asc * math.Min(1, math.Pow(200*e/asc, 1.5))
	}
	if abs > math.SmallestNonzeroFloat64/(50*0x1p-52) {
		e = math.Max(50*0x1p-52*abs, e)
	}
	return e
}
