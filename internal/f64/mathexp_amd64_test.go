//go:build amd64 && !noasm

package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMathExpAVX2: the four-lane kernel equals math.Exp bit for bit on
// the arguments of TestMathExpTo (NaN payloads included), in place too,
// wherever the CPU has AVX2 and FMA and math.Exp takes its FMA path —
// also on a CPU with AVX-512, whose MathExpTo runs the eight-lane kernel
// instead. On such a CPU without AVX-512 the self-check must have passed.
func TestMathExpAVX2(t *testing.T) {
	if !detect().avx2 || !mathExpTakesFMAPath() {
		t.Skip("no AVX2 and FMA, or math.Exp not on its FMA path")
	}
	if !feat.avx512 && feat.avx2 && !mathExpExact {
		t.Fatal("AVX2 path in use and math.Exp on its FMA path, but the vector math.Exp failed its self-check on the probes")
	}
	rng := rand.New(rand.NewPCG(13, 14))
	n := 4_000_000
	if testing.Short() {
		n = 400_000
	}
	xs := mathExpArgs(rng, n)
	xs = xs[:len(xs)&^3]
	got := make([]float64, len(xs))
	mathExpAVX2(&got[0], &xs[0], len(xs), &mathExpConst[0])
	checkExpBits(t, "mathExpAVX2", xs, got)
	buf := append([]float64(nil), xs[:64]...)
	mathExpAVX2(&buf[0], &buf[0], len(buf), &mathExpConst[0])
	for i, v := range buf {
		if want := math.Exp(xs[i]); math.Float64bits(v) != math.Float64bits(want) {
			t.Fatalf("in place: element %d = %v, want %v", i, v, want)
		}
	}
}
