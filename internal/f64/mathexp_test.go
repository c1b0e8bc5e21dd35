package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

// mathExpArgs returns arguments over every path of math.Exp: uniform over
// [−1100, 720], dense where results turn subnormal and where they
// overflow, log-uniform magnitudes of both signs down to subnormal
// inputs, and random bit patterns (NaNs with payloads, infinities, huge
// and tiny values).
func mathExpArgs(rng *rand.Rand, n int) []float64 {
	xs := append([]float64(nil), mathExpProbes...)
	xs = append(xs, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		-2147483648*math.Ln2, -2147483649*math.Ln2, 2147483647*math.Ln2)
	for i := range n {
		var x float64
		switch i % 6 {
		case 0:
			x = -1100 + 1820*rng.Float64()
		case 1:
			x = -746 + 38*rng.Float64() // subnormal results
		case 2:
			x = 709 + rng.Float64() // overflow threshold
		case 3:
			x = math.Ldexp(1, -1074+rng.IntN(1100)) * (1 + rng.Float64())
			if rng.IntN(2) == 0 {
				x = -x
			}
		case 4:
			x = math.Float64frombits(rng.Uint64())
		default:
			x = -1 + 2*rng.Float64()
		}
		xs = append(xs, x)
	}
	return xs
}

// TestMathExpTo: the vector path equals math.Exp bit for bit (NaN
// payloads included) on four million arguments, at every length and
// offset (the tail goes through math.Exp) and in place. On a CPU with
// AVX-512, where math.Exp takes its FMA path (mathExpTakesFMAPath: not
// under GODEBUG=cpu.fma=off), the self-check must have passed: a vector
// path that failed it would be hidden behind the fallback.
func TestMathExpTo(t *testing.T) {
	if feat.avx512 && !mathExpExact && mathExpTakesFMAPath() {
		t.Fatal("AVX-512 present and math.Exp on its FMA path, but the vector math.Exp failed its self-check on the probes")
	}
	t.Logf("AVX-512 path: %v (math.Exp on its FMA path: %v)", feat.avx512 && mathExpExact, mathExpTakesFMAPath())
	rng := rand.New(rand.NewPCG(11, 12))
	n := 4_000_000
	if testing.Short() {
		n = 400_000
	}
	xs := mathExpArgs(rng, n)
	got := make([]float64, len(xs))
	MathExpTo(got, xs)
	checkExpBits(t, "MathExpTo", xs, got)
	// Every length and offset up to 3 blocks, in place.
	for off := range 8 {
		for l := 0; l <= 24; l++ {
			buf := append([]float64(nil), xs[off:off+l]...)
			MathExpTo(buf, buf)
			for i, v := range buf {
				if want := math.Exp(xs[off+i]); math.Float64bits(v) != math.Float64bits(want) {
					t.Fatalf("offset %d length %d in place: element %d = %v, want %v", off, l, i, v, want)
				}
			}
		}
	}
}

// expFMAPath is the standard library's amd64 math.Exp on its FMA path
// (exp_amd64.s, avxfma), written in Go with math.FMA, for finite x ≤
// 709.78 whose result is normal: an independent statement of what the
// assembly replays.
func expFMAPath(x float64) float64 {
	const (
		log2e = 1.4426950408889634073599246810018920
		ln2u  = 0.69314718055966295651160180568695068359375
		ln2l  = 0.28235290563031577122588448175013436025525412068e-12
	)
	n := int32(math.RoundToEven(log2e * x))
	fn := float64(n)
	r := math.FMA(-fn, ln2u, x)
	r = math.FMA(-fn, ln2l, r)
	r *= 0.0625
	p := 2.4801587301587301587e-5
	for _, c := range []float64{1.9841269841269841270e-4, 1.3888888888888888889e-3, 8.3333333333333333333e-3,
		4.1666666666666666667e-2, 1.6666666666666666667e-1, 0.5, 1.0} {
		p = math.FMA(p, r, c)
	}
	r *= p
	for range 3 {
		r *= r + 2
	}
	r = math.FMA(r+2, r, 1)
	return r * math.Float64frombits(uint64(int64(n)+0x3FF)<<52)
}

// mathExpTakesFMAPath reports whether math.Exp takes its FMA path here
// (it does on a CPU with AVX and FMA unless GODEBUG turns them off): its
// bits equal expFMAPath's on 1000 random arguments, some of which the
// other path rounds otherwise.
func mathExpTakesFMAPath() bool {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 1000 {
		x := -700 + 1400*rng.Float64()
		if math.Float64bits(math.Exp(x)) != math.Float64bits(expFMAPath(x)) {
			return false
		}
	}
	return true
}

// BenchmarkMathExpTo: 36 exponentials (one 6×6 permanent matrix) by
// MathExpTo against math.Exp in a loop.
func BenchmarkMathExpTo(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	x := make([]float64, 36)
	for i := range x {
		x[i] = -4 * rng.Float64()
	}
	dst := make([]float64, len(x))
	b.Run("math.Exp", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				dst[i] = math.Exp(v)
			}
		}
	})
	b.Run("MathExpTo", func(b *testing.B) {
		for b.Loop() {
			MathExpTo(dst, x)
		}
	})
}

// TestMathExpToPaths: every available path (generic, avx2, avx512)
// gives math.Exp's bits at every length 0…67 and a few large ones, at
// unaligned offsets of dst and x, with NaN guard elements around dst
// that must stay as they were (no write past the slice) — the package's
// required SIMD test, which TestMathExpTo (one path, no guards) and
// TestMathExpAVX2 (one length) did not make for MathExpTo. A vector
// path is taken only where the load-time self-check passed
// (mathExpExact); elsewhere every path is math.Exp's loop.
func TestMathExpToPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	xs := mathExpArgs(rng, 4096)
	guard := math.Float64frombits(0x7ff8dead0000beef)
	const g = 3
	lengths := make([]int, 0, 72)
	for n := range 68 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 255, 256, 257, 1021)
	for _, p := range paths() {
		restore := setFeatures(p.f)
		for _, n := range lengths {
			for off := range 4 {
				x := xs[off+n : off+2*n] // another offset than dst's
				buf := make([]float64, n+2*g+off)
				for i := range buf {
					buf[i] = guard
				}
				dst := buf[g+off : g+off+n]
				MathExpTo(dst, x)
				for i, v := range dst {
					if want := math.Exp(x[i]); math.Float64bits(v) != math.Float64bits(want) {
						restore()
						t.Fatalf("%s: n %d offset %d: element %d = %v (%#x), math.Exp(%v) = %v (%#x)", p.name, n, off, i, v, math.Float64bits(v), x[i], want, math.Float64bits(want))
					}
				}
				for i, v := range buf {
					if (i < g+off || i >= g+off+n) && math.Float64bits(v) != math.Float64bits(guard) {
						restore()
						t.Fatalf("%s: n %d offset %d: guard element %d of %d overwritten with %v", p.name, n, off, i, len(buf), v)
					}
				}
			}
		}
		restore()
	}
}

// checkExpBits fails t, naming the first five, where got[i] is not
// math.Exp(xs[i]) bit for bit (name: the function that computed got).
func checkExpBits(t *testing.T, name string, xs, got []float64) {
	t.Helper()
	bad := 0
	for i, x := range xs {
		if want := math.Exp(x); math.Float64bits(got[i]) != math.Float64bits(want) {
			if bad++; bad <= 5 {
				t.Errorf("%s(%v = %#x) = %v (%#x), math.Exp %v (%#x)", name, x, math.Float64bits(x), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
			}
		}
	}
	if bad > 0 {
		t.Fatalf("%d of %d differ", bad, len(xs))
	}
}
