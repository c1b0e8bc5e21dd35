package f64

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// ulpErr returns |got − want| in units of the spacing of floats at want
// (the smallest subnormal at 0).
func ulpErr(got, want float64) float64 {
	if got == want {
		return 0
	}
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return math.Inf(1)
	}
	u := math.Nextafter(want, math.Inf(1)) - want
	return math.Abs(got-want) / u
}

// expArgs returns test arguments: uniform over the whole range, dense
// near 0, the subnormal range, near overflow and special values.
func expArgs(n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 0.5 * math.Ln2, -0.5 * math.Ln2,
		709.78, 709.782712893384, 709.79, 710, 711, 1e300, math.Inf(1),
		-708.39, -708.4, -744.44, -745.13, -745.1332191019411, -745.14, -746, -800, -1e300, math.Inf(-1),
		-math.MaxFloat64, math.MaxFloat64, math.SmallestNonzeroFloat64}
	for range n {
		xs = append(xs, -746+1456*rng.Float64(), 4*rng.Float64()-2, -708-38*rng.Float64(),
			-30*rng.Float64(), 700+10*rng.Float64())
	}
	return xs
}

// TestExpUlp checks Exp against math.Exp: at most ExpMaxUlp ulp (in units
// of math.Exp's result) for every argument, exact special values.
func TestExpUlp(t *testing.T) {
	n := 200000
	if testing.Short() {
		n = 20000
	}
	worst, at, worstNeg := 0.0, 0.0, 0.0
	for _, x := range expArgs(n) {
		got, want := Exp(x), math.Exp(x)
		if x > 709 && x <= 709.782712893384 {
			// math.Exp's amd64 assembly overflows early here; check
			// against e^(x/2)² instead (a few ulp).
			h := math.Exp(x / 2)
			if r := h * (h / got); math.IsInf(got, 0) || math.Abs(r-1) > 1e-15 {
				t.Errorf("Exp(%v) = %v, e^(x/2)² = %v·%v", x, got, h, h)
			}
			continue
		}
		e := ulpErr(got, want)
		if e > worst {
			worst, at = e, x
		}
		if x <= 0 && e > worstNeg {
			worstNeg = e
		}
	}
	t.Logf("max error %.3g ulp at x = %v; %.3g ulp for x ≤ 0", worst, at, worstNeg)
	if worst > ExpMaxUlp {
		t.Errorf("Exp: error %.3g ulp at x = %v (Exp %v, math.Exp %v), bound %d", worst, at, Exp(at), math.Exp(at), ExpMaxUlp)
	}
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {math.Inf(-1), 0}, {-1e300, 0}, {-746, 0},
		{math.Inf(1), math.Inf(1)}, {710, math.Inf(1)}, {1e300, math.Inf(1)},
	} {
		if got := Exp(c.x); got != c.want || math.Signbit(got) {
			t.Errorf("Exp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(Exp(math.NaN())) {
		t.Errorf("Exp(NaN) = %v", Exp(math.NaN()))
	}
}

// TestExpToPaths checks that every path gives Exp's bits (NaN for NaN),
// for lengths covering the vector bodies and the tails.
func TestExpToPaths(t *testing.T) {
	xs := append(expArgs(500), math.NaN(), -math.NaN())
	for _, p := range paths() {
		restore := setFeatures(p.f)
		for _, n := range []int{0, 1, 3, 4, 7, 8, 9, 17, 31, 32, 33, 40, 63, 72, 200, len(xs)} {
			dst := make([]float64, n)
			ExpTo(dst, xs[:n])
			for i, v := range dst {
				want := Exp(xs[i])
				if math.Float64bits(v) != math.Float64bits(want) && !(math.IsNaN(v) && math.IsNaN(want)) {
					t.Fatalf("%s: ExpTo[%d] (x = %v) = %v, Exp %v", p.name, i, xs[i], v, want)
				}
			}
		}
		// In place.
		buf := append([]float64(nil), xs[:16]...)
		ExpTo(buf, buf)
		for i, v := range buf {
			if want := Exp(xs[i]); math.Float64bits(v) != math.Float64bits(want) {
				t.Fatalf("%s: in-place ExpTo[%d] = %v, want %v", p.name, i, v, want)
			}
		}
		restore()
	}
}

// kappaRef is κ(u) with math.Exp, as package kernel defines it.
func kappaRef(s Shape, u float64) float64 {
	switch s {
	case RBF:
		return math.Exp(-0.5 * u * u)
	case Matern12:
		return math.Exp(-u)
	case Matern32:
		a := sqrt3 * u
		return (1 + a) * math.Exp(-a)
	}
	a := sqrt5 * u
	return (1 + a + a*a/3) * math.Exp(-a)
}

// TestSumKappa checks SumKappa on every path against the generic path
// and the specification's terms (kappaTerm, lane g mod 8: bit for bit)
// and against an independent row-major sum with math.Exp
// (relative 1e-13), for orbit sizes covering wide, narrow and padded
// blocks.
func TestSumKappa(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{1, 2, 5, 9} {
		for _, G := range []int{1, 3, 6, 8, 13, 30, 32, 40, 57, 64, 71, 100, 520} {
			rows := make([]float64, G*d)
			for i := range rows {
				rows[i] = 2*rng.Float64() - 1
			}
			orb := make([]float64, PackedLen(G, d))
			Pack(orb, rows, G, d)
			x := make([]float64, d)
			for k := range x {
				x[k] = 2*rng.Float64() - 1
			}
			var nx, ny float64
			for k := range d {
				nx += x[k] * x[k]
				ny += rows[k] * rows[k] // all rows share y's norm in a real orbit; here use row 0's
			}
			nxy := nx + ny
			for _, s := range []Shape{RBF, Matern12, Matern32, Matern52} {
				inv2 := 1 / 0.49
				var want float64
				for g := range G {
					var dot float64
					for k := range d {
						dot += x[k] * rows[g*d+k]
					}
					want += kappaRef(s, math.Sqrt(max(nxy-2*dot, 0)*inv2))
				}
				// The specification's bits: kappaTerm per element, lane
				// g mod 8, the lanes reduced as documented.
				var c, q1, q2 float64
				if s != RBF {
					c, q1, q2 = maternParams(s)
				}
				var lanes [8]float64
				for g := range G {
					lanes[g%8] += kappaTerm(Dot(x, orb, g), nxy, inv2, s == RBF, c, q1, q2)
				}
				spec := ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) + ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]))
				var ref float64
				for i, p := range paths() {
					restore := setFeatures(p.f)
					got := SumKappa(x, nxy, orb, G, s, inv2)
					restore()
					if math.Float64bits(got) != math.Float64bits(spec) {
						t.Errorf("d=%d G=%d shape %d: %s gives %v, the specification's terms %v", d, G, s, p.name, got, spec)
					}
					if i == 0 {
						ref = got
						if math.Abs(got-want) > 1e-13*math.Abs(want) {
							t.Errorf("d=%d G=%d %d: SumKappa = %v, reference %v", d, G, s, got, want)
						}
					} else if math.Float64bits(got) != math.Float64bits(ref) {
						t.Errorf("d=%d G=%d shape %d: %s gives %v, generic %v", d, G, s, p.name, got, ref)
					}
				}
			}
		}
	}
}

func BenchmarkExpTo(b *testing.B) {
	xs := expArgs(1000)[:4096]
	dst := make([]float64, len(xs))
	for _, p := range paths() {
		b.Run(p.name, func(b *testing.B) {
			restore := setFeatures(p.f)
			defer restore()
			for b.Loop() {
				ExpTo(dst, xs)
			}
		})
	}
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				dst[i] = math.Exp(x)
			}
		}
	})
}

// TestKappaTo checks KappaTo on every path against the scalar term of
// SumKappa (bit for bit: the same specification) and against κ with
// math.Exp (relative 1e-14: the reference squares a rounded square root), for lengths covering the
// vector remainders and more than one chunk, in place too.
func TestKappaTo(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	u2 := []float64{0, 1e-300, 1e-20, 1, 2, 1490, 1500, 2e6, 5e-324, 0.3}
	for range 150 {
		u2 = append(u2, 10*rng.Float64(), 100*rng.Float64()*rng.Float64())
	}
	for _, s := range []Shape{RBF, Matern12, Matern32, Matern52} {
		var c, q1, q2 float64
		if s != RBF {
			c, q1, q2 = maternParams(s)
		}
		for _, p := range paths() {
			restore := setFeatures(p.f)
			for _, n := range []int{0, 1, 3, 7, 9, 64, 65, len(u2)} {
				dst := make([]float64, n)
				KappaTo(dst, u2[:n], s)
				in := append([]float64(nil), u2[:n]...)
				KappaTo(in, in, s)
				for i, v := range dst {
					want := kappaTerm(0, u2[i], 1, s == RBF, c, q1, q2)
					if math.Float64bits(v) != math.Float64bits(want) || math.Float64bits(in[i]) != math.Float64bits(want) {
						t.Fatalf("%s shape %d: KappaTo[%d] (u² = %v) = %v (in place %v), term %v", p.name, s, i, u2[i], v, in[i], want)
					}
					if ref := kappaRef(s, math.Sqrt(u2[i])); math.Abs(v-ref) > 1e-14*ref+1e-300 {
						t.Fatalf("shape %d: KappaTo(%v) = %v, math.Exp reference %v", s, u2[i], v, ref)
					}
				}
			}
			restore()
		}
	}
	// Where the exponential underflows and the polynomial overflows (u²
	// near the largest float, +Inf), κ is 0 on every path, as the
	// generic loop's guard says (the scalar term gives NaN there).
	ext := []float64{1.7e308, math.MaxFloat64, math.Inf(1), 1e6, 0, 1, 2, 3, 4}
	for _, s := range []Shape{RBF, Matern12, Matern32, Matern52} {
		for _, p := range paths() {
			restore := setFeatures(p.f)
			dst := make([]float64, len(ext))
			KappaTo(dst, ext, s)
			restore()
			for i, v := range dst[:3] {
				if math.Float64bits(v) != 0 {
					t.Fatalf("%s shape %d: KappaTo(%v) = %v, want +0", p.name, s, ext[i], v)
				}
			}
		}
	}
	// Outside the domain (NaN, negative u²) the Matérn arguments and
	// polynomial give the Go loop's bits on the AVX-512 path too, the
	// NaN's sign and payload included: compared with the AVX2 path, whose
	// exponentials are the same assembly's and whose arguments and
	// polynomial are the Go loop. (The generic exponential's NaN payloads
	// differ from the assembly's, outside the domain either way.)
	bad := []float64{math.NaN(), -1, math.Inf(-1), -5e-324, math.Float64frombits(0x7ff8000000000001), 1, 2, 3}
	for _, s := range []Shape{Matern12, Matern32, Matern52} {
		out := map[string][]float64{}
		for _, p := range paths() {
			restore := setFeatures(p.f)
			dst := make([]float64, len(bad))
			KappaTo(dst, bad, s)
			restore()
			out[p.name] = dst
		}
		a, b := out["avx2"], out["avx512"]
		if a == nil || b == nil {
			continue
		}
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("shape %d: KappaTo(%v) = %#x on avx512, %#x on avx2", s, bad[i], math.Float64bits(b[i]), math.Float64bits(a[i]))
			}
		}
	}
}

// BenchmarkKappaTo times κ for 48 values (an enumerated orbit of
// hyperoctahedral(3)) on every path, each Matérn profile and RBF.
//
//	go test -run '^$' -bench KappaTo -cpu 1 ./internal/f64/
func BenchmarkKappaTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 3))
	u2 := make([]float64, 48)
	for i := range u2 {
		u2[i] = 10 * rng.Float64()
	}
	dst := make([]float64, len(u2))
	for _, s := range []Shape{RBF, Matern52} {
		for _, p := range paths() {
			b.Run(fmt.Sprintf("shape=%d/%s", s, p.name), func(b *testing.B) {
				restore := setFeatures(p.f)
				defer restore()
				for b.Loop() {
					KappaTo(dst, u2, s)
				}
			})
		}
	}
}
