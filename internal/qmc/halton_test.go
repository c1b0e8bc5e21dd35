package qmc

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestStratification checks the defining property of the digit-permuted
// radical inverse: b^m consecutive points aligned on a multiple of b^m put
// exactly one coordinate in each interval of width b^−m.
func TestStratification(t *testing.T) {
	h, err := NewHalton(6, 7)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, h.Dim())
	for j, b := range h.base {
		for _, m := range []int{1, 2, 3} {
			nb := 1
			for range m {
				nb *= int(b)
			}
			if nb > 20000 {
				continue
			}
			for _, start := range []int{0, nb, 5 * nb} {
				seen := make([]bool, nb)
				for i := start; i < start+nb; i++ {
					h.PointTo(x, uint64(i))
					if x[j] < 0 || x[j] >= 1 {
						t.Fatalf("x[%d] = %v outside [0,1)", j, x[j])
					}
					c := int(x[j] * float64(nb))
					if seen[c] {
						t.Fatalf("dim %d base %d m %d start %d: cell %d hit twice", j, b, m, start, c)
					}
					seen[c] = true
				}
			}
		}
	}
}

// l2Star2 is Warnock's closed form of the squared L2 star discrepancy.
func l2Star2(pts [][]float64) float64 {
	n := float64(len(pts))
	d := len(pts[0])
	s1 := 0.0
	for _, p := range pts {
		prod := 1.0
		for _, v := range p {
			prod *= (1 - v*v) / 2
		}
		s1 += prod
	}
	s2 := 0.0
	for _, p := range pts {
		for _, q := range pts {
			prod := 1.0
			for k := range d {
				prod *= 1 - math.Max(p[k], q[k])
			}
			s2 += prod
		}
	}
	return math.Pow(3, -float64(d)) - 2/n*s1 + s2/(n*n)
}

// TestDiscrepancy compares the L2 star discrepancy of 512 scrambled Halton
// points with its expectation for i.i.d. uniform points,
// (2^−d − 3^−d)/n: quasi-random points must do much better.
func TestDiscrepancy(t *testing.T) {
	const n = 512
	for _, d := range []int{2, 5, 10} {
		for seed := range uint64(3) {
			h, err := NewHalton(d, seed)
			if err != nil {
				t.Fatal(err)
			}
			pts := make([][]float64, n)
			for i := range pts {
				pts[i] = make([]float64, d)
				h.PointTo(pts[i], uint64(i))
			}
			got := l2Star2(pts)
			mc := (math.Pow(2, -float64(d)) - math.Pow(3, -float64(d))) / n
			// Measured ratios: ≈0.01 (d=2), 0.2 (d=5), 0.6 (d=10; the
			// L2 star discrepancy of 512 points in 10-d is dominated by
			// the volume term).
			limit := map[int]float64{2: 0.1, 5: 0.35, 10: 0.8}[d]
			if got > limit*mc {
				t.Errorf("d=%d seed=%d: D2² = %.3g, MC expectation %.3g", d, seed, got, mc)
			}
			// Sanity check of the estimator: random points are near mc.
			if seed == 0 {
				rng := rand.New(rand.NewPCG(99, uint64(d)))
				for i := range pts {
					for k := range pts[i] {
						pts[i][k] = rng.Float64()
					}
				}
				if r := l2Star2(pts); r < 0.3*mc || r > 3*mc {
					t.Errorf("d=%d: random points D2² = %.3g, expectation %.3g", d, r, mc)
				}
			}
		}
	}
}

// TestUniformMean: averaged over scramblings, point i is uniform, so the mean
// of a coordinate over seeds is 1/2 (checks that no point, e.g. the first,
// sits at a fixed place such as 0 or the centre).
func TestUniformMean(t *testing.T) {
	const seeds = 2000
	x := make([]float64, 3)
	for _, i := range []uint64{0, 1, 2} {
		sum := make([]float64, 3)
		for s := range uint64(seeds) {
			h, _ := NewHalton(3, s)
			h.PointTo(x, i)
			for k := range x {
				sum[k] += x[k]
			}
		}
		for k := range sum {
			m := sum[k] / seeds
			// sd of the mean: sqrt(1/12/2000) ≈ 0.0065
			if math.Abs(m-0.5) > 0.03 {
				t.Errorf("point %d coord %d: mean over seeds %v", i, k, m)
			}
		}
	}
}

func TestDeterminism(t *testing.T) {
	a, _ := NewHalton(4, 42)
	b, _ := NewHalton(4, 42)
	c, _ := NewHalton(4, 43)
	x, y, z := make([]float64, 4), make([]float64, 4), make([]float64, 4)
	differ := false
	for i := range uint64(100) {
		a.PointTo(x, i)
		b.PointTo(y, i)
		c.PointTo(z, i)
		for k := range x {
			if math.Float64bits(x[k]) != math.Float64bits(y[k]) {
				t.Fatalf("same seed differs at point %d", i)
			}
			if x[k] != z[k] {
				differ = true
			}
		}
	}
	if !differ {
		t.Error("different seeds gave the same points")
	}
}

func TestErrors(t *testing.T) {
	for _, d := range []int{0, -1, MaxDim + 1} {
		if _, err := NewHalton(d, 1); err == nil {
			t.Errorf("d=%d: no error", d)
		}
	}
	h, _ := NewHalton(2, 1)
	defer func() {
		if recover() == nil {
			t.Error("wrong-length dst did not panic")
		}
	}()
	h.PointTo(make([]float64, 3), 0)
}

func TestPrimes(t *testing.T) {
	want := []uint64{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}
	got := primes(10)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("primes = %v", got)
		}
	}
	if p := primes(1000)[999]; p != 7919 {
		t.Errorf("1000th prime %d", p)
	}
}

func BenchmarkPointTo(b *testing.B) {
	h, _ := NewHalton(5, 1)
	x := make([]float64, 5)
	b.ReportAllocs()
	i := uint64(0)
	for b.Loop() {
		h.PointTo(x, i)
		i++
	}
}

// TestPointBits: PointTo, which starts from the precomputed share of an
// index's high zero digits, gives the bits of the radical inverse computed
// over every digit position (the direct definition, written out here), at
// small indices (few digits), large ones (all of them) and zero.
func TestPointBits(t *testing.T) {
	h, err := NewHalton(12, 99)
	if err != nil {
		t.Fatal(err)
	}
	direct := func(dst []float64, i uint64) {
		for j, b := range h.base {
			k := h.digits[j]
			dig := make([]uint64, k)
			n := i
			for q := range k {
				dig[q] = n % b
				n /= b
			}
			v := 0.0
			for q := k - 1; q >= 0; q-- {
				v = (v + float64(h.perm[j][q*int(b)+int(dig[q])])) / float64(b)
			}
			if v >= 1 {
				v = math.Nextafter(1, 0)
			}
			dst[j] = v
		}
	}
	got, want := make([]float64, 12), make([]float64, 12)
	idx := []uint64{0, 1, 2, 3, 511, 512, 1 << 20, 1<<63 + 12345, math.MaxUint64}
	for i := range uint64(3000) {
		idx = append(idx, i*7919+i*i)
	}
	for _, i := range idx {
		h.PointTo(got, i)
		direct(want, i)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Fatalf("index %d coordinate %d: %v, direct %v", i, j, got[j], want[j])
			}
		}
	}
}

// TestTableBytesSum: TableBytes, read from tables built once, gives the
// bits of its definition summed afresh (dimension by dimension, the
// largest base's scratch added), for every d, and allocates nothing (it
// computed the first d primes on every call, once per BO step).
func TestTableBytesSum(t *testing.T) {
	for d := 1; d <= MaxDim; d++ {
		var n, scratch float64
		for _, b := range primes(d) {
			k := float64(digitsOf(b))
			n += k*float64(b)*2 + (k+1)*8 + 3*8 + 96
			scratch = max(scratch, float64(b)*8)
		}
		if got, want := TableBytes(d), (n+scratch)*9/8; math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("TableBytes(%d) = %v, want %v", d, got, want)
		}
	}
	if a := testing.AllocsPerRun(10, func() { TableBytes(300) }); a != 0 {
		t.Errorf("TableBytes(300) allocates %v times", a)
	}
}

// TestTableBytes: TableBytes(d) covers what NewHalton(d, ·) allocates
// (measured by the runtime's allocation counter) within a quarter more.
func TestTableBytes(t *testing.T) {
	for _, d := range []int{1, 10, 100, 300} {
		// The fewest bytes of five builds: the counter is the process's,
		// and another goroutine's allocation (the runtime's, the testing
		// package's) only adds to it.
		got := math.Inf(1)
		for range 5 {
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			h, err := NewHalton(d, 7)
			runtime.ReadMemStats(&m1)
			if err != nil {
				t.Fatal(err)
			}
			got = min(got, float64(m1.TotalAlloc-m0.TotalAlloc))
			runtime.KeepAlive(h)
		}
		want := TableBytes(d)
		if got > want || want > 1.25*got+4096 {
			t.Errorf("d = %d: NewHalton allocated %.0f bytes, TableBytes %.0f", d, got, want)
		}
	}
	if TableBytes(0) != 0 || TableBytes(MaxDim+1) != 0 {
		t.Error("TableBytes outside [1, MaxDim] is not 0")
	}
}
