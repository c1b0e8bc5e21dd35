package experiments

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

func hyperoctahedral(t *testing.T, d int) orbit.Group {
	t.Helper()
	g, err := orbit.Hyperoctahedral(d)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// independentSpectrum returns the eigenvalues of K/n, descending, for the
// RBF Gram built here from its formula exp(−‖x−y‖²/(2ℓ²)) and
// decomposed by gonum's LAPACK port (mat.EigenSym: Dsyev, tridiagonal
// QR), which shares no code with the backends' eigsym.
func independentSpectrum(t *testing.T, x [][]float64, ell float64) []float64 {
	t.Helper()
	n := len(x)
	k := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			var r2 float64
			for c := range x[i] {
				r2 += (x[i][c] - x[j][c]) * (x[i][c] - x[j][c])
			}
			k.SetSym(i, j, math.Exp(-r2/(2*ell*ell)))
		}
	}
	var es mat.EigenSym
	if !es.Factorize(k, false) {
		t.Fatal("mat.EigenSym failed")
	}
	v := es.Values(nil)
	for i := range v {
		v[i] /= float64(n)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(v)))
	return v
}

// TestSpectrumBaseIndependent: the base spectra on S and on S' equal the
// eigenvalues computed here from scratch — points from the documented
// streams (seed, 2d) and (seed, 2d+1), S' through sort(|x|) written out,
// the Gram from the RBF formula, gonum's Dsyev — down to the floor.
func TestSpectrumBaseIndependent(t *testing.T) {
	const n, d, seed, ell = 40, 2, 7, 0.5
	res, err := Spectrum(SpectrumOptions{Groups: []orbit.Group{hyperoctahedral(t, d)}, Shapes: []kernel.Shape{kernel.RBF},
		N: n, Lengthscale: ell, Seed: seed, FitLo: 2, FitHi: 8})
	if err != nil {
		t.Fatal(err)
	}
	draw := func(stream uint64, reduce bool) [][]float64 {
		r := rand.New(rand.NewPCG(seed, stream))
		var x [][]float64
		for range n {
			p := []float64{-1 + 2*r.Float64(), -1 + 2*r.Float64()}
			if reduce {
				p[0], p[1] = math.Abs(p[0]), math.Abs(p[1])
				if p[0] > p[1] {
					p[0], p[1] = p[1], p[0]
				}
			}
			x = append(x, p)
		}
		return x
	}
	for _, tc := range []struct {
		kind string
		x    [][]float64
	}{{SpectrumBase, draw(2*d, false)}, {SpectrumReduced, draw(2*d+1, true)}} {
		s := res.Spectra[0].series(tc.kind)
		want := independentSpectrum(t, tc.x, ell)
		if s.Drawn < 5 || s.Drawn > n {
			t.Fatalf("%s: %d eigenvalues drawn", tc.kind, s.Drawn)
		}
		tol := 1e-13 * want[0]
		for i, v := range s.Eigenvalues {
			if math.Abs(v-want[i]) > tol {
				t.Errorf("%s: λ_%d = %v, independently %v", tc.kind, i+1, v, want[i])
			}
		}
		// Every eigenvalue left out is at the floor or below it.
		for i := s.Drawn; i < n; i++ {
			if want[i] > s.Floor+tol {
				t.Errorf("%s: λ_%d = %v left out above the floor %v", tc.kind, i+1, want[i], s.Floor)
			}
		}
	}
}

// TestSpectrumTraceAndPSD: the eigenvalues of K/n sum to tr(K)/n (1 for
// the unit-variance base kernel and for k_max, less for k_avg); k_avg's
// Gram is PSD up to rounding; k_plus's spectrum is that of the Gram of
// kernel.NewPlus on its own design (non-negative, the same values above
// the floor).
func TestSpectrumTraceAndPSD(t *testing.T) {
	const n = 60
	be := linalg.Gonum()
	for _, shape := range []kernel.Shape{kernel.RBF, kernel.Matern52} {
		g := hyperoctahedral(t, 2)
		p := kernel.Params{Shape: shape, Variance: 1, Lengthscale: 0.5}
		x := SpectrumPoints(n, 2, 3, nil)
		var gram mat.SymDense
		var eig linalg.Eigen
		for _, kind := range []string{SpectrumBase, SpectrumAvg, SpectrumPlus} {
			s, err := spectrumOf(be, &gram, &eig, kind, p, g, x, 0)
			if err != nil {
				t.Fatal(err)
			}
			if kind != SpectrumAvg && s.Trace != 1 {
				t.Errorf("%v %s: trace %v, want 1", shape, kind, s.Trace)
			}
			if kind == SpectrumAvg && !(s.Trace > 0.2 && s.Trace < 0.9) {
				t.Errorf("%v avg: trace %v, want mean k_avg(x, x) in (0.2, 0.9)", shape, s.Trace)
			}
			tol := 1e-13
			if kind == SpectrumPlus {
				tol += float64(s.Clipped) * s.Floor // what the projection dropped
			}
			if math.Abs(s.Sum-s.Trace) > tol {
				t.Errorf("%v %s: eigenvalues sum to %v, trace %v", shape, kind, s.Sum, s.Trace)
			}
			if s.Drawn+s.Clipped > n || s.Drawn < 2 {
				t.Errorf("%v %s: %d drawn, %d clipped of %d", shape, kind, s.Drawn, s.Clipped, n)
			}
			if !slices.IsSortedFunc(s.Eigenvalues, func(a, b float64) int { return -cmpFloat(a, b) }) {
				t.Errorf("%v %s: eigenvalues not descending", shape, kind)
			}
			if kind == SpectrumAvg {
				// eig still holds k_avg's full spectrum, ascending.
				if eig.Values[0] < -s.Floor*n {
					t.Errorf("%v avg: smallest eigenvalue of K %v, below −n·2⁻⁵²·λ_max", shape, eig.Values[0])
				}
			}
			if kind != SpectrumPlus {
				continue
			}
			mx, err := kernel.NewMax(p, g, kernel.Options{})
			if err != nil {
				t.Fatal(err)
			}
			kp, err := kernel.NewPlus(mx, x, kernel.PlusOptions{Backend: be})
			if err != nil {
				t.Fatal(err)
			}
			var kg mat.SymDense
			if err := kp.GramTo(&kg, x); err != nil {
				t.Fatal(err)
			}
			var es mat.EigenSym
			if !es.Factorize(&kg, false) {
				t.Fatal("mat.EigenSym failed")
			}
			want := es.Values(nil)
			sort.Sort(sort.Reverse(sort.Float64Slice(want)))
			scale := want[0]
			for i := range want {
				v := want[i] / n
				if v < -1e-13*scale {
					t.Errorf("%v: k_plus Gram eigenvalue %v < 0", shape, v)
				}
				got := 0.0
				if i < s.Drawn {
					got = s.Eigenvalues[i]
				}
				// The library's cut-off, n·2⁻⁵²·λ_max, computed here.
				if floor := n * 0x1p-52 * scale / n; math.Abs(got-v) > 1e-12*scale/n+floor {
					t.Errorf("%v plus: λ_%d = %v, k_plus Gram's %v", shape, i+1, got, v)
				}
			}
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestSpectrumDeterministic: the same bits twice, with GOMAXPROCS 1 and 4.
func TestSpectrumDeterministic(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 140
	}
	o := SpectrumOptions{Groups: []orbit.Group{hyperoctahedral(t, 3)}, N: n, Seed: 11, Backend: linalg.Gonum()}
	runWith := func(procs int) *SpectrumResult {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := Spectrum(o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := runWith(1), runWith(4)
	if len(a.Spectra) != 2 || len(b.Spectra) != 2 {
		t.Fatalf("%d and %d panels, want 2 (RBF, Matérn-5/2)", len(a.Spectra), len(b.Spectra))
	}
	for i := range a.Spectra {
		pa, pb := a.Spectra[i], b.Spectra[i]
		if pa.FitLo != pb.FitLo || pa.FitHi != pb.FitHi {
			t.Errorf("panel %d: fit ranges differ", i)
		}
		for j := range pa.Series {
			sa, sb := pa.Series[j], pb.Series[j]
			if !slices.EqualFunc(sa.Eigenvalues, sb.Eigenvalues, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
				t.Errorf("panel %d %s: eigenvalues differ between GOMAXPROCS 1 and 4", i, sa.Kernel)
			}
			if (sa.Slope == nil) != (sb.Slope == nil) || sa.Slope != nil && *sa.Slope != *sb.Slope || sa.Sum != sb.Sum {
				t.Errorf("panel %d %s: slope or sum differ", i, sa.Kernel)
			}
		}
	}
}

// TestSpectrumClaims: on a small sample the paper's observations hold —
// k_plus on S and k_b on S' have close slopes, and k_avg's decays at
// least as fast as k_plus's — and every panel has four fitted slopes.
func TestSpectrumClaims(t *testing.T) {
	testdepth.Once(t)
	res, err := Spectrum(SpectrumOptions{Groups: []orbit.Group{hyperoctahedral(t, 2)}, N: 400, Backend: linalg.Gonum()})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Spectra {
		if p.FitLo != 2 || p.FitHi < 10 || p.FitHi > 40 {
			t.Errorf("%s: fit range %d…%d", p.Base, p.FitLo, p.FitHi)
		}
		for _, s := range p.Series {
			if s.Slope == nil || !(*s.Slope < 0) {
				t.Fatalf("%s %s: slope %v", p.Base, s.Kernel, s.Slope)
			}
		}
		plus, red, avg := *p.series(SpectrumPlus).Slope, *p.series(SpectrumReduced).Slope, *p.series(SpectrumAvg).Slope
		if math.Abs(plus-red) > 0.15*math.Abs(red) {
			t.Errorf("%s: plus slope %.2f, base on S' %.2f", p.Base, plus, red)
		}
		if avg > plus+0.05 {
			t.Errorf("%s: avg slope %.2f shallower than plus %.2f", p.Base, avg, plus)
		}
		if p.AvgAbovePlus != 0 || p.Compared < 10 {
			t.Errorf("%s: λ_i(avg) > λ_i(plus) at %d of %d indices", p.Base, p.AvgAbovePlus, p.Compared)
		}
		if r := p.PlusOverReduced; len(r) != 2 || !(r[0] > 0.5 && r[0] <= r[1] && r[1] < 2) {
			t.Errorf("%s: λ_i(plus)/λ_i(base on S') over the fit range: %v", p.Base, r)
		}
	}
	panels := res.Panels()
	if len(panels) != 2 || res.Cols() != 2 || !panels[0].LogX || len(panels[0].Series) != 4 {
		t.Fatalf("figure: %d panels, %d columns", len(panels), res.Cols())
	}
	for _, s := range panels[1].Series {
		if len(s.X) < 10 || s.X[0] != 1 {
			t.Errorf("%s: %d points from %v", s.Label, len(s.X), s.X)
		}
		for _, y := range s.Y {
			if math.IsNaN(y) || math.IsInf(y, 0) {
				t.Errorf("%s: point %v", s.Label, y)
			}
		}
	}
}

func TestSpectrumPoints(t *testing.T) {
	g := hyperoctahedral(t, 3)
	x := SpectrumPoints(500, 3, 1, nil)
	xr := SpectrumPoints(500, 3, 1, g.(orbit.Canonicalizer))
	var phi [3]float64
	same := 0
	for i := range 500 {
		for _, v := range x.RawRowView(i) {
			if !(v >= -1 && v <= 1) {
				t.Fatalf("point %d of S: %v", i, x.RawRowView(i))
			}
		}
		r := xr.RawRowView(i)
		if !(0 <= r[0] && r[0] <= r[1] && r[1] <= r[2] && r[2] <= 1) {
			t.Fatalf("point %d of S' outside 0 ≤ x_1 ≤ x_2 ≤ x_3 ≤ 1: %v", i, r)
		}
		g.(orbit.Canonicalizer).CanonicalTo(phi[:], x.RawRowView(i))
		if slices.Equal(phi[:], r) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d points of S' are φ of S's: the samples must be independent", same)
	}
}

func TestSpectrumGrid(t *testing.T) {
	for _, tc := range [][2]int{{1, 1}, {1, 2}, {2, 8}, {1, 3000}, {7, 300}} {
		g := spectrumGrid(tc[0], tc[1])
		if g[0] != tc[0] || g[len(g)-1] != tc[1] || !slices.IsSorted(g) {
			t.Errorf("grid %v: %v", tc, g)
		}
		for i := 1; i < len(g); i++ {
			if g[i] <= g[i-1] {
				t.Errorf("grid %v not strictly increasing: %v", tc, g)
			}
		}
	}
	if g := spectrumGrid(1, 20); !slices.Equal(g, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}) {
		t.Errorf("grid 1…20 skips integers: %v", g)
	}
	if g := spectrumGrid(1, 3000); len(g) < 100 || len(g) > 160 {
		t.Errorf("grid 1…3000 has %d points, want about 40 a decade", len(g))
	}
}

func TestSpectrumBadOptions(t *testing.T) {
	cyc, err := orbit.Parse(orbit.Spec{Name: "cyclic", D: 3})
	if err != nil {
		t.Fatal(err)
	}
	g := hyperoctahedral(t, 1)
	for name, o := range map[string]SpectrumOptions{
		"n = 1":           {N: 1},
		"n over the cap":  {N: MaxSpectrumN + 1},
		"cyclic group":    {Groups: []orbit.Group{cyc}, N: 10},
		"nil group":       {Groups: []orbit.Group{nil}, N: 10},
		"no groups":       {Groups: []orbit.Group{}, N: 10},
		"lengthscale < 0": {Groups: []orbit.Group{g}, N: 10, Lengthscale: -1},
		"fit hi > n":      {Groups: []orbit.Group{g}, N: 10, FitHi: 11},
		"fit lo ≥ hi":     {Groups: []orbit.Group{g}, N: 10, FitLo: 5, FitHi: 5},
	} {
		if _, err := Spectrum(o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%s: err %v, want ErrBadOptions", name, err)
		}
	}
	if _, err := Spectrum(SpectrumOptions{Groups: []orbit.Group{g}, N: 300, Budget: 1 << 20}); !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("300×300 in 1 MiB: err %v, want ErrOverBudget", err)
	}
	if err := CheckSpectrumMemory(300, 3, 0); err != nil {
		t.Errorf("300×300 with the default budget: %v", err)
	}
}

// TestSpectrumPointSetsBudget: the point sets of S and S' count against
// the budget, before they are drawn — at d = orbit.MaxDim (group none)
// 100 points are 105 MB where the Grams are 240 KB. Before, only the
// Grams were checked: the points were allocated over the budget (here
// the canceled context then stopped the study), and perf spectrum --group
// none --d 65536 --n 10000 under the default 8 GiB crashed out of memory.
func TestSpectrumPointSetsBudget(t *testing.T) {
	g, err := orbit.Parse(orbit.Spec{Name: "none", D: orbit.MaxDim})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Spectrum(SpectrumOptions{Groups: []orbit.Group{g}, Shapes: []kernel.Shape{kernel.RBF}, N: 100, Budget: 50 << 20, Context: ctx})
	if !errors.Is(err, orbit.ErrOverBudget) {
		t.Errorf("100 points in dimension %d in 50 MiB: err %v, want ErrOverBudget", orbit.MaxDim, err)
	}
	if got, want := SpectrumBytes(100, orbit.MaxDim), 24*100*100+16*100*float64(orbit.MaxDim); got != want {
		t.Errorf("SpectrumBytes(100, %d) = %g, want %g", orbit.MaxDim, got, want)
	}
}
