package f64

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// paths returns the feature sets this CPU (and build) can run, generic
// first.
func paths() []struct {
	name string
	f    features
} {
	ps := []struct {
		name string
		f    features
	}{{"generic", features{}}}
	hw := detect()
	if hw.avx2 {
		ps = append(ps, struct {
			name string
			f    features
		}{"avx2", features{avx2: true}})
	}
	if hw.avx512 {
		ps = append(ps, struct {
			name string
			f    features
		}{"avx512", features{avx2: true, avx512: true}})
	}
	return ps
}

// naiveMaxDot is an independent reference: row-major orbit, the same
// summation order (s = x₀o₀, s += x_k·o_k).
func naiveMaxDot(x []float64, orbRows []float64, G, d int) float64 {
	b := math.Inf(-1)
	for g := range G {
		o := orbRows[g*d : g*d+d]
		s := x[0] * o[0]
		for k := 1; k < d; k++ {
			s += float64(x[k] * o[k])
		}
		b = max(b, s)
	}
	return b
}

// guarded returns a slice of length n at offset off inside a buffer
// filled with guard.
func guarded(n, off int, guard float64) (buf, s []float64) {
	buf = make([]float64, n+off+5)
	for i := range buf {
		buf[i] = guard
	}
	return buf, buf[off : off+n]
}

func TestMaxDotPaths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	Gs := []int{}
	for G := 1; G <= 67; G++ {
		Gs = append(Gs, G)
	}
	Gs = append(Gs, 96, 257, 3840)
	ds := []int{1, 2, 3, 5, 8, 17}
	ns := []int{0, 1, 3, 4, 5, 7, 8, 9, 13, 64, 67}
	if testing.Short() {
		Gs = []int{1, 7, 8, 9, 31, 32, 33, 40, 63, 64, 65, 67, 257}
	}
	for _, guard := range []float64{math.NaN(), 1e300} {
		for _, d := range ds {
			for _, G := range Gs {
				for _, n := range ns {
					if G > 300 && n > 9 {
						continue
					}
					xs := d + r.IntN(3)
					offx, offo, offb := r.IntN(4), r.IntN(4), r.IntN(4)
					_, x := guarded(max(n*xs, 1), offx, guard)
					for i := range n {
						for k := range d {
							x[i*xs+k] = r.NormFloat64()
						}
					}
					orbRows := make([]float64, G*d)
					for i := range orbRows {
						orbRows[i] = r.NormFloat64()
					}
					if G > 2 && r.IntN(2) == 0 {
						copy(orbRows[d:2*d], orbRows[:d]) // ties
					}
					_, orb := guarded(PackedLen(G, d), offo, guard)
					Pack(orb, orbRows, G, d)
					want := make([]float64, n)
					for i := range n {
						want[i] = naiveMaxDot(x[i*xs:i*xs+d], orbRows, G, d)
					}
					for _, p := range paths() {
						restore := setFeatures(p.f)
						bbuf, best := guarded(n, offb, guard)
						MaxDot(best, x, xs, d, orb)
						restore()
						for i := range n {
							if best[i] != want[i] {
								t.Fatalf("%s d=%d G=%d n=%d row %d: %v, want %v", p.name, d, G, n, i, best[i], want[i])
							}
						}
						for i, v := range bbuf {
							if (i < offb || i >= offb+n) && !(v == guard || math.IsNaN(v) && math.IsNaN(guard)) {
								t.Fatalf("%s d=%d G=%d n=%d: guard %d overwritten: %v", p.name, d, G, n, i, v)
							}
						}
					}
				}
			}
		}
	}
}

func TestDotMatchesPack(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, G := range []int{1, 8, 33, 70} {
		d := 3
		rows := make([]float64, G*d)
		for i := range rows {
			rows[i] = r.NormFloat64()
		}
		orb := make([]float64, PackedLen(G, d))
		Pack(orb, rows, G, d)
		x := []float64{0.3, -1.2, 2.5}
		for g := range len(orb) / d {
			src := min(g, G-1)
			if got, want := Dot(x, orb, g), naiveMaxDot(x, rows[src*d:src*d+d], 1, d); got != want {
				t.Fatalf("G=%d g=%d: %v, want %v", G, g, got, want)
			}
		}
	}
}

func TestLevel(t *testing.T) {
	hw := detect()
	for _, tc := range []struct {
		env  string
		want string
	}{{"generic", "generic"}, {"avx2", "avx2"}, {"", ""}, {"bogus", ""}} {
		restore := setFeatures(capFeatures(hw, tc.env))
		got := Level()
		restore()
		want := tc.want
		if want == "" || (want == "avx2" && !hw.avx2) {
			restore := setFeatures(hw)
			want = Level()
			restore()
		}
		if got != want {
			t.Errorf("SYMBO_SIMD=%q: Level() = %q, want %q", tc.env, got, want)
		}
	}
}

func BenchmarkMaxDot(b *testing.B) {
	for _, p := range paths() {
		for _, sz := range []struct{ d, G int }{{5, 3840}, {3, 48}, {8, 256}} {
			b.Run(fmt.Sprintf("path=%s/d=%d/G=%d", p.name, sz.d, sz.G), func(b *testing.B) {
				r := rand.New(rand.NewPCG(5, 6))
				n, d, G := 256, sz.d, sz.G
				x := make([]float64, n*(d+1))
				for i := range x {
					x[i] = r.NormFloat64()
				}
				rows := make([]float64, G*d)
				for i := range rows {
					rows[i] = r.NormFloat64()
				}
				orb := make([]float64, PackedLen(G, d))
				Pack(orb, rows, G, d)
				best := make([]float64, n)
				restore := setFeatures(p.f)
				defer restore()
				for b.Loop() {
					MaxDot(best, x, d+1, d, orb)
				}
				flops := 2 * float64(d) * float64(G) * float64(n) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
