package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveInner is an independent reference for Inner: element j into partial
// sum j mod 16 with math.FMA, then the pairwise tree written out.
func naiveInner(x, y []float64) float64 {
	var s [16]float64
	for j := range x {
		s[j%16] = math.FMA(x[j], y[j], s[j%16])
	}
	var t [8]float64
	for l := range 8 {
		t[l] = s[l] + s[l+8]
	}
	u := [4]float64{t[0] + t[4], t[1] + t[5], t[2] + t[6], t[3] + t[7]}
	return (u[0] + u[2]) + (u[1] + u[3])
}

func vecSizes() []int {
	ns := []int{}
	for n := 0; n <= 67; n++ {
		ns = append(ns, n)
	}
	return append(ns, 127, 128, 129, 255, 1000, 1031)
}

// randVec fills s with normals, occasionally of extreme magnitude or
// signed zeros (products that underflow to −0 test the partial sums'
// signs).
func randVec(r *rand.Rand, s []float64) {
	for i := range s {
		s[i] = fuzzValue(r, 1)
	}
}

func TestVecPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, guard := range []float64{math.NaN(), 1e300} {
		for _, n := range vecSizes() {
			for rep := range 3 {
				_, x := guarded(n, r.IntN(4), guard)
				_, a := guarded(n, r.IntN(4), guard)
				randVec(r, x)
				randVec(r, a)
				if rep == 2 {
					// All products underflow to −0.
					for i := range x {
						x[i], a[i] = 1e-200, -1e-200
					}
				}
				y0 := make([]float64, n)
				randVec(r, y0)
				alpha := r.NormFloat64()
				x0next := make([]float64, r.IntN(2)*(n+3)) // empty or not
				wantDot := naiveInner(a, x)
				wantY := make([]float64, n)
				for j := range n {
					wantY[j] = math.FMA(alpha, a[j], y0[j])
				}
				for _, p := range paths() {
					restore := setFeatures(p.f)
					off := r.IntN(4)
					ybuf, y := guarded(n, off, guard)
					if got := Inner(a, x); !sameBits(got, wantDot) {
						t.Fatalf("%s n=%d: Inner = %v, want %v", p.name, n, got, wantDot)
					}
					copy(y, y0)
					AddScaled(y, alpha, a)
					checkVec(t, p.name+" AddScaled", n, y, wantY, ybuf, off, guard)
					copy(y, y0)
					if got := InnerAddScaled(y, alpha, a, x); !sameBits(got, wantDot) {
						t.Fatalf("%s n=%d: InnerAddScaled = %v, want %v", p.name, n, got, wantDot)
					}
					checkVec(t, p.name+" InnerAddScaled", n, y, wantY, ybuf, off, guard)
					copy(y, y0)
					if got := InnerAddScaledNext(y, alpha, a, x, x0next); !sameBits(got, wantDot) {
						t.Fatalf("%s n=%d: InnerAddScaledNext = %v, want %v", p.name, n, got, wantDot)
					}
					checkVec(t, p.name+" InnerAddScaledNext", n, y, wantY, ybuf, off, guard)
					restore()
				}
			}
		}
	}
}

// TestAddScaled4 checks AddScaled4 on every path against four AddScaled
// calls written out with math.FMA (bit for bit), with guards around y.
func TestAddScaled4(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, guard := range []float64{math.NaN(), 1e300} {
		for _, n := range vecSizes() {
			var xs [4][]float64
			var a [4]float64
			for k := range xs {
				_, xs[k] = guarded(n, r.IntN(4), guard)
				randVec(r, xs[k])
				a[k] = r.NormFloat64()
			}
			if n%5 == 1 {
				a[2] = 0 // a zero coefficient still rounds (−0 + 0)
			}
			y0 := make([]float64, n)
			randVec(r, y0)
			want := make([]float64, n)
			for j := range n {
				v := y0[j]
				for k := range xs {
					v = math.FMA(a[k], xs[k][j], v)
				}
				want[j] = v
			}
			for _, p := range paths() {
				restore := setFeatures(p.f)
				off := r.IntN(4)
				ybuf, y := guarded(n, off, guard)
				copy(y, y0)
				AddScaled4(y, &a, xs[0], xs[1], xs[2], xs[3])
				checkVec(t, p.name+" AddScaled4", n, y, want, ybuf, off, guard)
				restore()
			}
		}
	}
}

func checkVec(t *testing.T, name string, n int, got, want, buf []float64, off int, guard float64) {
	t.Helper()
	for j := range n {
		if !sameBits(got[j], want[j]) {
			t.Fatalf("%s n=%d: y[%d] = %v, want %v", name, n, j, got[j], want[j])
		}
	}
	for i, v := range buf {
		if (i < off || i >= off+n) && !sameBits(v, guard) {
			t.Fatalf("%s n=%d: guard %d overwritten: %v", name, n, i, v)
		}
	}
}

func TestVecPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Inner":     func() { Inner(make([]float64, 3), make([]float64, 4)) },
		"AddScaled": func() { AddScaled(make([]float64, 3), 1, make([]float64, 4)) },
		"AddScaled4": func() {
			x := make([]float64, 3)
			AddScaled4(x, &[4]float64{}, x, x, make([]float64, 2), x)
		},
		"InnerAddScaled": func() { InnerAddScaled(make([]float64, 3), 1, make([]float64, 3), make([]float64, 4)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with mismatched lengths did not panic", name)
				}
			}()
			f()
		}()
	}
}

func BenchmarkInner(b *testing.B) {
	for _, n := range []int{64, 1000} {
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = float64(i), 1/float64(i+1)
		}
		for _, p := range paths() {
			b.Run("path="+p.name+"/n="+itoa(n), func(b *testing.B) {
				restore := setFeatures(p.f)
				defer restore()
				var s float64
				for b.Loop() {
					s += InnerAddScaled(y, 1e-9, x, x)
				}
				b.ReportMetric(4*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for ; n > 0; n /= 10 {
		i--
		buf[i] = byte('0' + n%10)
	}
	return string(buf[i:])
}

func TestForceLevel(t *testing.T) {
	before := Level()
	for _, p := range paths() {
		restore, ok := ForceLevel(p.name)
		if !ok {
			t.Fatalf("ForceLevel(%q) not ok on a CPU that has it", p.name)
		}
		if Level() != p.name {
			t.Errorf("ForceLevel(%q): Level() = %q", p.name, Level())
		}
		restore()
	}
	if _, ok := ForceLevel("sse9"); ok {
		t.Error("ForceLevel of an unknown level is ok")
	}
	if Level() != before {
		t.Errorf("Level() = %q after restores, want %q", Level(), before)
	}
}
