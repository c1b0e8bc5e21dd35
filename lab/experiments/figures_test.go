package experiments

import (
	"bytes"
	"context"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/testdepth"
	"gonum.org/v1/plot"
)

// The tests below recompute the figures' values by hand (closed forms,
// numerical averages over the group, a Cholesky of the design's Gram),
// sharing nothing with the kernels they check but gonum's mat.

// rotAvgByHand is k_avg over SO(2) of a unit RBF at x = (r1, 0) and
// x′ = r2·(cos θ, sin θ): the trapezoid rule over M rotations ψ of x′ of
// exp(−‖x − R_ψ x′‖²/2ℓ²), in Cartesian coordinates (spectrally accurate
// for a smooth periodic integrand).
func rotAvgByHand(r1, r2, theta, l float64) float64 {
	const m = 4000
	var s float64
	for k := range m {
		psi := 2 * math.Pi * float64(k) / m
		dx := r1 - r2*math.Cos(theta+psi)
		dy := -r2 * math.Sin(theta+psi)
		s += math.Exp(-(dx*dx + dy*dy) / (2 * l * l))
	}
	return s / m
}

func TestRadialFigure(t *testing.T) {
	const n = 31
	fig, err := Radial(FigureOptions{Grid: n, RadiusMax: 3})
	if err != nil {
		t.Fatal(err)
	}
	l := 0.5
	if fig.Lengthscale != l || len(fig.KMax.X) != n || len(fig.KMax.Y) != n || len(fig.KMax.Z) != n || len(fig.KAvg.Z[0]) != n {
		t.Fatalf("lengthscale %v, grid %d×%d", fig.Lengthscale, len(fig.KMax.X), len(fig.KMax.Y))
	}
	if fig.KMax.X[0] != 0 || fig.KMax.X[n-1] != 3 {
		t.Errorf("norms %v … %v, want 0 … 3", fig.KMax.X[0], fig.KMax.X[n-1])
	}
	// k_max over rotations of an RBF is exp(−(‖x‖ − ‖x′‖)²/2ℓ²): every
	// grid value, x along the columns, x′ along the rows.
	for i, r2 := range fig.KMax.Y {
		for j, r1 := range fig.KMax.X {
			want := math.Exp(-(r1 - r2) * (r1 - r2) / (2 * l * l))
			if got := fig.KMax.Z[i][j]; math.Abs(got-want) > 1e-12 {
				t.Fatalf("k_max(‖x‖ = %v, ‖x′‖ = %v) = %v, want %v", r1, r2, got, want)
			}
		}
	}
	// k_avg: the diagonal (where k_max is 1 and k_avg decays) and a few
	// points off it against a numerical average over the angle.
	for _, ij := range [][2]int{{0, 0}, {5, 5}, {10, 10}, {20, 20}, {30, 30}, {3, 17}, {17, 3}, {12, 29}, {0, 30}} {
		i, j := ij[0], ij[1]
		want := rotAvgByHand(fig.KAvg.X[j], fig.KAvg.Y[i], RadialAngle, l)
		if got := fig.KAvg.Z[i][j]; math.Abs(got-want) > 1e-12 {
			t.Errorf("k_avg(‖x‖ = %v, ‖x′‖ = %v) = %v, want %v", fig.KAvg.X[j], fig.KAvg.Y[i], got, want)
		}
	}
	// On the diagonal k_avg < k_max = 1 away from the origin: the paper's
	// point about identical norms ranked dissimilar.
	if d := fig.KAvg.Z[n-1][n-1]; !(d < 0.1) {
		t.Errorf("k_avg at ‖x‖ = ‖x′‖ = 3 is %v, want < 0.1", d)
	}
	// f by hand: Rastrigin₁(‖x‖/(10√2) − 0.8) over [−10, 10]².
	if fig.F.X[0] != -10 || fig.F.X[n-1] != 10 || fig.F.Y[0] != -10 || fig.F.Y[n-1] != 10 {
		t.Errorf("box grid %v…%v × %v…%v", fig.F.X[0], fig.F.X[n-1], fig.F.Y[0], fig.F.Y[n-1])
	}
	for _, ij := range [][2]int{{0, 0}, {15, 15}, {3, 27}, {30, 8}, {15, 0}} {
		i, j := ij[0], ij[1]
		x, y := fig.F.X[j], fig.F.Y[i]
		u := math.Hypot(x, y)/(10*math.Sqrt2) - 0.8
		want := 10 + u*u - 10*math.Cos(2*math.Pi*u)
		if got := fig.F.Z[i][j]; math.Abs(got-want) > 1e-12*math.Max(1, want) {
			t.Errorf("f(%v, %v) = %v, want %v", x, y, got, want)
		}
	}
}

// matern52 is κ(r/ℓ) of a unit Matérn-5/2, by hand.
func matern52(r, l float64) float64 {
	u := math.Sqrt(5) * math.Abs(r) / l
	return (1 + u + u*u/3) * math.Exp(-u)
}

func TestAckleyFigure(t *testing.T) {
	const n = 41
	fig, err := Ackley(FigureOptions{Grid: n, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	l := AckleyLengthscale
	if fig.Hyper.Lengthscale != l || fig.Hyper.Variance != 1 || fig.BaseShape != "matern52" || len(fig.Design) != AckleyDesignSize {
		t.Fatalf("settings %+v, base %s, |D| = %d", fig.Hyper, fig.BaseShape, len(fig.Design))
	}
	if !reflect.DeepEqual(fig.Design, AckleyDesign(3, -16, 16)) {
		t.Errorf("design %v is not AckleyDesign(3)", fig.Design)
	}
	d := fig.Design
	// k_avg over sign flips: ½(κ(|x − y|) + κ(|x + y|)), at every grid
	// point.
	for i, y := range fig.KAvg.Y {
		for j, x := range fig.KAvg.X {
			want := (matern52(x-y, l) + matern52(x+y, l)) / 2
			if got := fig.KAvg.Z[i][j]; math.Abs(got-want) > 1e-12 {
				t.Fatalf("k_avg(%v, %v) = %v, want %v", x, y, got, want)
			}
		}
	}
	// k_plus^(D)(x, y) = a(x)ᵀ·K⁻¹·a(y) with a(x)_k = κ(||x| − |d_k||)
	// and K = k_max(D, D) (positive definite here: nothing is clipped).
	if fig.Clipped != 0 || fig.PlusRank != len(d) {
		t.Fatalf("rank %d, clipped %d; want %d, 0", fig.PlusRank, fig.Clipped, len(d))
	}
	kmax := func(x, y float64) float64 { return matern52(math.Abs(x)-math.Abs(y), l) }
	var chol mat.Cholesky
	gram := mat.NewSymDense(len(d), nil)
	for a := range d {
		for b := a; b < len(d); b++ {
			gram.SetSym(a, b, kmax(d[a], d[b]))
		}
	}
	if !chol.Factorize(gram) {
		t.Fatal("k_max(D, D) is not positive definite")
	}
	col := func(x float64) *mat.VecDense {
		v := mat.NewVecDense(len(d), nil)
		for k := range d {
			v.SetVec(k, kmax(x, d[k]))
		}
		return v
	}
	kplus := func(x, y float64) float64 {
		var s mat.VecDense
		if err := chol.SolveVecTo(&s, col(y)); err != nil {
			t.Fatal(err)
		}
		return mat.Dot(col(x), &s)
	}
	for _, ij := range [][2]int{{0, 0}, {20, 20}, {5, 33}, {33, 5}, {40, 0}, {12, 28}, {7, 7}} {
		i, j := ij[0], ij[1]
		x, y := fig.KPlus.X[j], fig.KPlus.Y[i]
		if got, want := fig.KPlus.Z[i][j], kplus(x, y); math.Abs(got-want) > 1e-9 {
			t.Errorf("k_plus(%v, %v) = %v, want %v", x, y, got, want)
		}
	}
	// Both maps are invariant under x ↦ −x (the grid is symmetric).
	for i := range n {
		for j := range n {
			for _, g := range []HeatGrid{fig.KPlus, fig.KAvg} {
				if a, b := g.Z[i][j], g.Z[i][n-1-j]; math.Abs(a-b) > 1e-9 {
					t.Fatalf("k(%v, %v) = %v but k(%v, %v) = %v", g.X[j], g.Y[i], a, -g.X[j], g.Y[i], b)
				}
			}
		}
	}
	// Posterior means by hand: y standardized by its mean and population
	// standard deviation, m(x) = μ + s·k(x, D)·(K + σ²I)⁻¹·y_s.
	mu := meanOf(fig.Values)
	var ss float64
	for _, v := range fig.Values {
		ss += (v - mu) * (v - mu)
	}
	sd := math.Sqrt(ss / float64(len(d)))
	ys := mat.NewVecDense(len(d), nil)
	for k, v := range fig.Values {
		ys.SetVec(k, (v-mu)/sd)
	}
	for _, kc := range []struct {
		name string
		k    func(x, y float64) float64
		mean []float64
	}{{"plus", kplus, fig.MeanPlus}, {"avg", func(x, y float64) float64 { return (matern52(x-y, l) + matern52(x+y, l)) / 2 }, fig.MeanAvg}} {
		kd := mat.NewSymDense(len(d), nil)
		for a := range d {
			for b := a; b < len(d); b++ {
				v := kc.k(d[a], d[b])
				if a == b {
					v += AckleyNoise
				}
				kd.SetSym(a, b, v)
			}
		}
		var c mat.Cholesky
		if !c.Factorize(kd) {
			t.Fatalf("%s: K + σ²I not positive definite", kc.name)
		}
		var alpha mat.VecDense
		if err := c.SolveVecTo(&alpha, ys); err != nil {
			t.Fatal(err)
		}
		for _, j := range []int{0, 9, 20, 31, 40} {
			x := fig.X[j]
			var s float64
			for k := range d {
				s += kc.k(x, d[k]) * alpha.AtVec(k)
			}
			if want := mu + sd*s; math.Abs(kc.mean[j]-want) > 1e-8*math.Max(1, math.Abs(want)) {
				t.Errorf("%s: posterior mean at %v = %v, want %v", kc.name, x, kc.mean[j], want)
			}
		}
	}
	if len(fig.Seeds.RMSEPlus) != AckleySeeds || len(fig.Seeds.RMSEAvg) != AckleySeeds {
		t.Fatalf("seed comparison over %d/%d seeds, want %d", len(fig.Seeds.RMSEPlus), len(fig.Seeds.RMSEAvg), AckleySeeds)
	}
	better := 0
	for s := range AckleySeeds {
		if fig.Seeds.RMSEPlus[s] < fig.Seeds.RMSEAvg[s] {
			better++
		}
	}
	if better != fig.Seeds.PlusBetter {
		t.Errorf("PlusBetter = %d, the RMSEs say %d", fig.Seeds.PlusBetter, better)
	}
	// Seed 3's design is among them, with the figure's RMSEs.
	if fig.Seeds.RMSEPlus[3] != fig.RMSEPlus || fig.Seeds.RMSEAvg[3] != fig.RMSEAvg {
		t.Errorf("seed 3: RMSE %v/%v in the sweep, %v/%v drawn", fig.Seeds.RMSEPlus[3], fig.Seeds.RMSEAvg[3], fig.RMSEPlus, fig.RMSEAvg)
	}
}

func TestWLANFigure(t *testing.T) {
	iters := 3
	if !testing.Short() {
		iters = 0 // the default protocol, 50 iterations
	}
	opts := FigureOptions{Seed: 1, Iters: iters}
	fig, err := WLAN(opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := problem.New("WLAN8d", 0)
	if err != nil {
		t.Fatal(err)
	}
	f, err := p.Evaluate(fig.X)
	if err != nil {
		t.Fatal(err)
	}
	if f != fig.Value {
		t.Errorf("Value = %v, f(X) = %v", fig.Value, f)
	}
	var sum float64
	for _, v := range fig.Mbps {
		if !(v >= 0) {
			t.Errorf("negative throughput %v", v)
		}
		sum += v
	}
	if math.Abs(sum-fig.Value) > 1e-12*fig.Value {
		t.Errorf("Σ per-user throughputs = %v, objective %v", sum, fig.Value)
	}
	if len(fig.Users) != 16 || len(fig.APs) != 4 || len(fig.Serving) != 16 || len(fig.APUsers) != 4 {
		t.Fatalf("%d users, %d APs, %d associations, %d counts", len(fig.Users), len(fig.APs), len(fig.Serving), len(fig.APUsers))
	}
	count := make([]int, 4)
	for j, u := range fig.Users {
		// The serving AP is the closest one, by hand.
		best := 0
		for i, a := range fig.APs {
			if math.Hypot(u[0]-a[0], u[1]-a[1]) < math.Hypot(u[0]-fig.APs[best][0], u[1]-fig.APs[best][1]) {
				best = i
			}
		}
		if fig.Serving[j] != best {
			t.Errorf("user %d served by AP %d, the closest is %d", j, fig.Serving[j], best)
		}
		count[fig.Serving[j]]++
	}
	if !reflect.DeepEqual(count, fig.APUsers) {
		t.Errorf("APUsers = %v, associations say %v", fig.APUsers, count)
	}
	for i, a := range fig.APs {
		if a[0] != fig.X[i] || a[1] != fig.X[4+i] {
			t.Errorf("AP %d at %v, X = %v", i, a, fig.X)
		}
	}
	// The best evaluation of the run perf bo makes with these settings
	// (k_plus, the problem's base kernel, maximizing, default protocol).
	tr, err := bo.Run(context.Background(), p, bo.Config{Kernel: bo.Plus(p.Group(), p.BaseShape())}, opts.Seed, bo.RunOptions{Iters: iters})
	if err != nil {
		t.Fatal(err)
	}
	if fig.Value != tr.BestF || !reflect.DeepEqual(fig.X, tr.Evaluations[fig.Best].X) {
		t.Errorf("figure's best f %v (evaluation %d), the run's BestF %v", fig.Value, fig.Best, tr.BestF)
	}
	// Deterministic: the same bits again.
	again, err := WLAN(opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fig, again) {
		t.Errorf("two runs differ:\n%+v\n%+v", fig, again)
	}
}

func TestFigureRender(t *testing.T) {
	testdepth.Once(t)
	r, err := Radial(FigureOptions{Grid: 9})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Ackley(FigureOptions{Grid: 9})
	if err != nil {
		t.Fatal(err)
	}
	w, err := WLAN(FigureOptions{Iters: 1})
	if err != nil {
		t.Fatal(err)
	}
	for name, render := range map[string]func() (Rendered, error){"radial": r.Render, "ackley": a.Render, "wlan": w.Render} {
		out, err := render()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.HasPrefix(out.PNG, []byte("\x89PNG\r\n\x1a\n")) || !bytes.Contains(out.SVG[:min(len(out.SVG), 512)], []byte("<svg")) {
			t.Errorf("%s: not a PNG and an SVG (%d and %d bytes)", name, len(out.PNG), len(out.SVG))
		}
	}
	md := FiguresMarkdown("perf figure --out x", r, a, w)
	for _, s := range []string{"perf figure --out x", "radial.png", "ackley.png", "wlan.png", "| 16 |"} {
		if !strings.Contains(md, s) {
			t.Errorf("figures.md lacks %q", s)
		}
	}
	if md := FiguresMarkdown("c", r, nil, nil); strings.Contains(md, "wlan") || strings.Contains(md, "ackley") {
		t.Errorf("figures.md describes figures not drawn:\n%s", md)
	}
}

func TestFigureOptions(t *testing.T) {
	for _, o := range []FigureOptions{
		{Grid: 1}, {Grid: -3}, {Grid: MaxFigureGrid + 1}, {RadiusMax: -1}, {RadiusMax: math.NaN()},
		{RadiusMax: math.Inf(1)}, {Init: -1}, {Iters: -2},
	} {
		if _, err := Radial(o); !errors.Is(err, ErrBadOptions) {
			t.Errorf("%+v: error %v, want ErrBadOptions", o, err)
		}
	}
}

// TestPlainTicks: linear axes label their major ticks at gonum's default
// values in the shortest decimal form of each ("12500", "0.25"), where
// gonum's default printed a fixed precision ("12500.00"; it does on
// some of these ranges, so the test tells the two apart).
func TestPlainTicks(t *testing.T) {
	padded := 0
	for _, r := range [][2]float64{{0, 13000}, {300, 12600}, {0, 1}, {0.1, 0.9}, {-23.2, -22.5}, {1e-6, 9e-6}, {2e7, 9e7}, {-1, 1}} {
		def := plot.DefaultTicks{}.Ticks(r[0], r[1])
		got := plainTicks{}.Ticks(r[0], r[1])
		if len(got) != len(def) {
			t.Fatalf("%v: %d ticks, default %d", r, len(got), len(def))
		}
		for i, tk := range got {
			if tk.Value != def[i].Value || (tk.Label == "") != (def[i].Label == "") {
				t.Errorf("%v: tick %d is %+v, default %+v", r, i, tk, def[i])
			}
			if tk.Label == "" {
				continue
			}
			if v, err := strconv.ParseFloat(tk.Label, 64); err != nil || math.Abs(v-tk.Value) > 1e-9*math.Abs(tk.Value) {
				t.Errorf("%v: label %q for %v", r, tk.Label, tk.Value)
			}
			if m, _, _ := strings.Cut(tk.Label, "e"); strings.Contains(m, ".") && strings.HasSuffix(m, "0") {
				t.Errorf("%v: label %q has trailing zeros", r, tk.Label)
			}
			if strings.Contains(def[i].Label, ".") && strings.HasSuffix(def[i].Label, "0") {
				padded++
			}
		}
	}
	if padded == 0 {
		t.Error("gonum's default padded no label on these ranges: the test cannot tell the markers apart")
	}
}

// TestPlainTicksEmptyRange: a panel whose values are all equal (a table
// of one seed) gets labelled ticks around the value instead of gonum's
// "illegal range" panic, and a non-finite range none.
func TestPlainTicksEmptyRange(t *testing.T) {
	for _, v := range []float64{0, 3, -250, 1e-9} {
		ts := plainTicks{}.Ticks(v, v)
		labelled := 0
		for _, tk := range ts {
			if tk.Label != "" {
				labelled++
			}
		}
		if labelled < 2 || ts[0].Value > v || ts[len(ts)-1].Value < v {
			t.Errorf("range [%v, %v]: ticks %+v", v, v, ts)
		}
	}
	if ts := (plainTicks{}).Ticks(math.NaN(), 1); ts != nil {
		t.Errorf("NaN range: ticks %+v", ts)
	}
}
