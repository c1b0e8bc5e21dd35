package experiments

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// The paper's qualitative figures: Figure 1 (Example "radial": k_max and
// k_avg over planar rotations), Figure 2 (Example "Ackley": k_plus^(D) and
// k_avg on the 1-d Ackley function) and Figure 5 (the WLAN placement found
// by GP-UCB with k_plus). Each is computed through the library (kernels
// from internal/frontend as perf gram builds them, GPs from gp, the run
// from bo.Run) and drawn as PNG and SVG by Render.

// Defaults and limits of FigureOptions.
const (
	// DefaultFigureGrid is the number of grid points per axis of a heat
	// map (and of the Ackley curves).
	DefaultFigureGrid = 161
	// MaxFigureGrid caps FigureOptions.Grid (a Grid² heat map per kernel).
	MaxFigureGrid = 1001
	// DefaultRadiusMax is the largest norm of the radial kernel maps:
	// 6 lengthscales of 1/2, where k_avg's decay along the diagonal and
	// k_max's band are both visible (the box's norms reach 10√2, where
	// k_avg is ≈ 0 off the origin).
	DefaultRadiusMax = 3.0
	// RadialLengthscale is the RBF lengthscale of Figure 1 (the paper's
	// 1/2; variance 1).
	RadialLengthscale = 0.5
	// RadialAngle is the angle (radians) by which x′ is rotated away from
	// x in Figure 1's kernel maps: x = (r₁, 0), x′ = r₂·(cos θ, sin θ).
	// Invariant kernels do not see it; the base kernel would.
	RadialAngle = 2 * math.Pi / 3
	// AckleyDesignSize is |D|, the number of points of Figure 2's design.
	AckleyDesignSize = 6
	// AckleyLengthscale, AckleyNoise: Figure 2's hyperparameters, the same
	// for both kernels (variance 1; noise variance on the standardized
	// scale), so that the two covariance maps compare kernels, not fits.
	AckleyLengthscale = 3.0
	AckleyNoise       = 1e-4
	// AckleySeeds is the number of designs (seeds 0, 1, …) over which
	// Figure 2's posterior means are compared besides the one drawn.
	AckleySeeds = 20
	// ackleyStream is the PCG stream of Figure 2's design:
	// rand.New(rand.NewPCG(seed, ackleyStream)).
	ackleyStream = 0xac41e7
)

// FigureOptions configure Radial, Ackley and WLAN. The zero value is the
// default.
type FigureOptions struct {
	// Seed seeds Figure 2's design and Figure 5's GP-UCB run.
	Seed uint64
	// Grid is the number of points per axis of the heat maps and of the
	// Ackley curves (0 means DefaultFigureGrid; 2 … MaxFigureGrid).
	Grid int
	// RadiusMax is the largest norm of Figure 1's kernel maps (0 means
	// DefaultRadiusMax; finite, ≤ 1e6).
	RadiusMax float64
	// Init and Iters are Figure 5's protocol: uniform initial points and
	// GP-UCB steps (0 means bo's defaults, 5 and 50).
	Init, Iters int
	// Backend does the linear algebra; nil means linalg.Default().
	Backend linalg.Backend
	// Context, if not nil, stops Figure 5's run.
	Context context.Context
	// Progress, if not nil, receives Figure 5's progress (evaluations
	// done, total).
	Progress func(done, total int)
	// Budget is the memory budget in bytes of every request the figure
	// makes (kernel.Options.Budget, gp's and bo's Budget,
	// orbit.Enumerator.Budget and its own matrices); 0 means 8 GiB
	// (orbit.DefaultBudget), never the environment: perf passes its
	// --mem-budget.
	Budget int64
}

func (o FigureOptions) withDefaults() (FigureOptions, error) {
	if o.Grid == 0 {
		o.Grid = DefaultFigureGrid
	}
	if o.Grid < 2 || o.Grid > MaxFigureGrid {
		return o, fmt.Errorf("%w: grid %d outside [2, %d]", ErrBadOptions, o.Grid, MaxFigureGrid)
	}
	if o.RadiusMax == 0 {
		o.RadiusMax = DefaultRadiusMax
	}
	if !(o.RadiusMax > 0 && o.RadiusMax <= 1e6) {
		return o, fmt.Errorf("%w: radius max %v outside (0, 1e6]", ErrBadOptions, o.RadiusMax)
	}
	if o.Init == 0 {
		o.Init = bo.DefaultInit
	}
	if o.Iters == 0 {
		o.Iters = bo.DefaultIters
	}
	if o.Init < 1 || o.Iters < 1 || o.Init > bo.MaxEvaluations-o.Iters {
		return o, fmt.Errorf("%w: init %d and iters %d (want ≥ 1 each, at most %d in all)", ErrBadOptions, o.Init, o.Iters, bo.MaxEvaluations)
	}
	if o.Backend == nil {
		b, err := linalg.Default()
		if err != nil {
			return o, fmt.Errorf("experiments: %w", err)
		}
		o.Backend = b
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return o, nil
}

// HeatGrid is a function sampled on a rectangular grid:
// Z[i][j] = z(X[j], Y[i]) (row i is the i-th Y).
type HeatGrid struct {
	X, Y []float64
	Z    [][]float64
}

// heatXYZ adapts a HeatGrid to plotter.GridXYZ.
type heatXYZ struct{ g HeatGrid }

func (h heatXYZ) Dims() (c, r int)   { return len(h.g.X), len(h.g.Y) }
func (h heatXYZ) Z(c, r int) float64 { return h.g.Z[r][c] }
func (h heatXYZ) X(c int) float64    { return h.g.X[c] }
func (h heatXYZ) Y(r int) float64    { return h.g.Y[r] }

// span returns the smallest and largest Z.
func (g HeatGrid) span() (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, row := range g.Z {
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	return lo, hi
}

// linspace returns n ≥ 2 points from a to b, both included.
func linspace(a, b float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(n-1)
	}
	out[n-1] = b
	return out
}

// RadialFigure is Figure 1: the Radial2d objective over its box and the
// rotation-invariant kernels k_max and k_avg of an RBF base kernel
// (lengthscale RadialLengthscale, variance 1) over rotation2d, as
// functions of the norms: KMax.Z[i][j] = k_max(x, x′) with
// x = (KMax.X[j], 0) and x′ = KMax.Y[i]·(cos θ, sin θ), θ = RadialAngle
// (KAvg likewise).
type RadialFigure struct {
	Problem     string
	Group       string
	Lengthscale float64
	Angle       float64
	F           HeatGrid // f(x₁, x₂) over the box: Z[i][j] = f(X[j], Y[i])
	KMax, KAvg  HeatGrid
}

// Radial computes Figure 1 with opts' Grid and RadiusMax.
func Radial(opts FigureOptions) (*RadialFigure, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	p, err := problem.New("radial", 2)
	if err != nil {
		return nil, fmt.Errorf("experiments: radial figure: %w", err)
	}
	lo, hi := p.Bounds()
	fig := &RadialFigure{Problem: p.Name(), Group: p.Group().Name(), Lengthscale: RadialLengthscale, Angle: RadialAngle}
	fig.F = HeatGrid{X: linspace(lo[0], hi[0], o.Grid), Y: linspace(lo[1], hi[1], o.Grid)}
	fig.F.Z = make([][]float64, o.Grid)
	for i, y := range fig.F.Y {
		fig.F.Z[i] = make([]float64, o.Grid)
		for j, x := range fig.F.X {
			if fig.F.Z[i][j], err = p.Evaluate([]float64{x, y}); err != nil {
				return nil, fmt.Errorf("experiments: radial figure: %w", err)
			}
		}
	}
	r := linspace(0, o.RadiusMax, o.Grid)
	xs := mat.NewDense(o.Grid, 2, nil)  // x = (r, 0)
	xps := mat.NewDense(o.Grid, 2, nil) // x′ = r·(cos θ, sin θ)
	c, s := math.Cos(RadialAngle), math.Sin(RadialAngle)
	for i, v := range r {
		xs.Set(i, 0, v)
		xps.Set(i, 0, v*c)
		xps.Set(i, 1, v*s)
	}
	par := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: RadialLengthscale}
	for _, kc := range []struct {
		name string
		dst  *HeatGrid
	}{{"max", &fig.KMax}, {"avg", &fig.KAvg}} {
		k, err := frontend.NewKernel(kc.name, par, p.Group(), kernel.Auto, nil, o.Backend, o.Budget)
		if err != nil {
			return nil, fmt.Errorf("experiments: radial figure: k_%s: %w", kc.name, err)
		}
		var out mat.Dense
		if err := k.CrossTo(&out, xps, xs); err != nil { // row i: x′_i, column j: x_j
			return nil, fmt.Errorf("experiments: radial figure: k_%s: %w", kc.name, err)
		}
		*kc.dst = HeatGrid{X: slices.Clone(r), Y: slices.Clone(r), Z: rowsOf(&out)}
	}
	return fig, nil
}

func rowsOf(m *mat.Dense) [][]float64 {
	n, _ := m.Dims()
	out := make([][]float64, n)
	for i := range out {
		out[i] = slices.Clone(m.RawRowView(i))
	}
	return out
}

// AckleyFigure is Figure 2: the 1-d Ackley function on [−16, 16]
// (invariant under the sign flip x ↦ −x), the GP posterior means of
// k_plus^(D) and k_avg (base BaseShape, hyperparameters Hyper for both)
// given the design D (f observed without noise), and the two covariances
// over the box × box: KPlus.Z[i][j] = k_plus^(D)(X[j], Y[i]), KAvg likewise.
type AckleyFigure struct {
	Problem   string
	Group     string
	BaseShape string
	Hyper     gp.Hyper
	Design    []float64 // D
	Values    []float64 // f(D)
	X         []float64 // the curves' grid
	F         []float64 // f(X)
	MeanPlus  []float64 // posterior means at X
	MeanAvg   []float64
	// RMSEPlus and RMSEAvg are the root-mean-square errors of the
	// posterior means against f over X.
	RMSEPlus, RMSEAvg float64
	// PlusRank is the rank of k_plus^(D) (the positive eigenvalues kept
	// of k_max(D, D)); Clipped the number dropped.
	PlusRank, Clipped int
	KPlus, KAvg       HeatGrid
	// Seeds compares the two posterior means (the same hyperparameters,
	// grid X) on the designs of seeds 0 … AckleySeeds−1: their RMSEs by
	// seed and the number of seeds where k_plus^(D)'s is lower.
	Seeds struct {
		RMSEPlus, RMSEAvg []float64
		PlusBetter        int
	}
}

// AckleyDesign returns Figure 2's design: AckleyDesignSize points drawn
// uniformly in [lo, hi] from rand.New(rand.NewPCG(seed, ackleyStream)).
func AckleyDesign(seed uint64, lo, hi float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, ackleyStream))
	d := make([]float64, AckleyDesignSize)
	for i := range d {
		d[i] = lo + (hi-lo)*rng.Float64()
	}
	return d
}

// Ackley computes Figure 2 with opts' Seed (the design) and Grid, and
// the comparison of the posterior means over the designs of seeds
// 0 … AckleySeeds−1.
func Ackley(opts FigureOptions) (*AckleyFigure, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	a, err := newAckleySetup(o.Backend, o.Budget)
	if err != nil {
		return nil, err
	}
	fig := &AckleyFigure{Problem: a.p.Name(), Group: a.g.Name(), BaseShape: a.shape.String(), Hyper: a.hyper}
	lo, hi := a.p.Bounds()
	fig.X = linspace(lo[0], hi[0], o.Grid)
	if fig.F, err = a.values(fig.X); err != nil {
		return nil, err
	}
	fig.Design = AckleyDesign(o.Seed, lo[0], hi[0])
	if fig.Values, err = a.values(fig.Design); err != nil {
		return nil, err
	}
	posts, err := a.posteriors(fig.Design, fig.Values)
	if err != nil {
		return nil, err
	}
	grid := mat.NewDense(len(fig.X), 1, slices.Clone(fig.X))
	for i, fc := range []struct {
		mean *[]float64
		rmse *float64
		heat *HeatGrid
	}{{&fig.MeanPlus, &fig.RMSEPlus, &fig.KPlus}, {&fig.MeanAvg, &fig.RMSEAvg, &fig.KAvg}} {
		if *fc.mean, *fc.rmse, err = a.means(posts[i], fig.X, fig.F); err != nil {
			return nil, err
		}
		// The posterior's own kernel, v·k with v = 1: k_plus with D as its
		// design, k_avg.
		k := posts[i].Kernel()
		if pk, ok := k.(*kernel.Plus); ok {
			fig.PlusRank = pk.Rank()
			fig.Clipped = len(fig.Design) - pk.Rank()
		}
		var out mat.Dense
		if err := k.CrossTo(&out, grid, grid); err != nil {
			return nil, fmt.Errorf("experiments: ackley figure: k_%s: %w", a.names[i], err)
		}
		*fc.heat = HeatGrid{X: slices.Clone(fig.X), Y: slices.Clone(fig.X), Z: rowsOf(&out)}
	}
	for seed := range uint64(AckleySeeds) {
		d := AckleyDesign(seed, lo[0], hi[0])
		v, err := a.values(d)
		if err != nil {
			return nil, err
		}
		posts, err := a.posteriors(d, v)
		if err != nil {
			return nil, err
		}
		var rmse [2]float64
		for i := range posts {
			if _, rmse[i], err = a.means(posts[i], fig.X, fig.F); err != nil {
				return nil, err
			}
		}
		fig.Seeds.RMSEPlus = append(fig.Seeds.RMSEPlus, rmse[0])
		fig.Seeds.RMSEAvg = append(fig.Seeds.RMSEAvg, rmse[1])
		if rmse[0] < rmse[1] {
			fig.Seeds.PlusBetter++
		}
	}
	return fig, nil
}

// ackleySetup holds what Figure 2's posteriors share.
type ackleySetup struct {
	p     *problem.Problem
	g     orbit.Group
	shape kernel.Shape
	hyper gp.Hyper
	fams  [2]gp.Family // plus, avg
	names [2]string
	be    linalg.Backend
	// budget is the posteriors' memory budget (FigureOptions.Budget).
	budget int64
}

func newAckleySetup(be linalg.Backend, b int64) (*ackleySetup, error) {
	p, err := problem.New("ackley", 1)
	if err != nil {
		return nil, fmt.Errorf("experiments: ackley figure: %w", err)
	}
	g, err := orbit.SignFlip(1)
	if err != nil {
		return nil, fmt.Errorf("experiments: ackley figure: %w", err)
	}
	a := &ackleySetup{p: p, g: g, shape: p.BaseShape(), be: be, budget: b, names: [2]string{"plus", "avg"},
		hyper: gp.Hyper{Variance: 1, Lengthscale: AckleyLengthscale, Noise: AckleyNoise}}
	if a.fams[0], err = gp.NewPlusFamily(a.shape, g, kernel.Options{Budget: b}, kernel.PlusOptions{Backend: be}); err != nil {
		return nil, fmt.Errorf("experiments: ackley figure: %w", err)
	}
	if a.fams[1], err = gp.NewAvgFamily(a.shape, g, kernel.Options{Budget: b}); err != nil {
		return nil, fmt.Errorf("experiments: ackley figure: %w", err)
	}
	return a, nil
}

// values returns f at the points xs.
func (a *ackleySetup) values(xs []float64) ([]float64, error) {
	out := make([]float64, len(xs))
	for i, x := range xs {
		v, err := a.p.Evaluate([]float64{x})
		if err != nil {
			return nil, fmt.Errorf("experiments: ackley figure: %w", err)
		}
		out[i] = v
	}
	return out, nil
}

// posteriors returns the GPs of k_plus^(D) and k_avg given f(D) = y at
// the fixed hyperparameters.
func (a *ackleySetup) posteriors(d, y []float64) ([2]*gp.GP, error) {
	var out [2]*gp.GP
	x := mat.NewDense(len(d), 1, slices.Clone(d))
	for i, fam := range a.fams {
		post, err := gp.New(fam, x, y, a.hyper, gp.Options{Backend: a.be, Budget: a.budget})
		if err != nil {
			return out, fmt.Errorf("experiments: ackley figure: k_%s posterior: %w", a.names[i], err)
		}
		out[i] = post
	}
	return out, nil
}

// means returns post's mean at xs and its root-mean-square error against
// f = f(xs).
func (a *ackleySetup) means(post *gp.GP, xs, f []float64) ([]float64, float64, error) {
	var ws gp.Workspace
	var ss float64
	out := make([]float64, len(xs))
	for i, x := range xs {
		m, _, err := post.Predict(&ws, []float64{x})
		if err != nil {
			return nil, 0, fmt.Errorf("experiments: ackley figure: posterior mean: %w", err)
		}
		out[i] = m
		ss += (m - f[i]) * (m - f[i])
	}
	return out, math.Sqrt(ss / float64(len(xs))), nil
}

// WLANFigure is Figure 5: the WLAN8d users and the best placement of the
// access points found by one GP-UCB run with k_plus (bo.Run, the paper's
// protocol as perf bo runs it), with each user's serving AP and
// throughput.
type WLANFigure struct {
	Problem     string
	Kernel      string
	Seed        uint64
	Init, Iters int
	Users       [][2]float64
	// X is the best evaluated point (the largest noiseless f; the first
	// of equals), laid out x₁…x_m, y₁…y_m; APs the same as m positions.
	X   []float64
	APs [][2]float64
	// Best is X's index among the run's evaluations, Value = f(X) in Mbps
	// (the run's BestF).
	Best  int
	Value float64
	// Serving[j] is user j's AP (the closest), Mbps[j] its throughput;
	// Σ Mbps = Value up to rounding. APUsers[i] counts AP i's users.
	Serving []int
	Mbps    []float64
	APUsers []int
}

// WLAN runs Figure 5's GP-UCB (k_plus over pairedperm(4), base Matérn-3/2,
// opts' Seed, Init and Iters; noise as perf bo's default) on WLAN8d.
func WLAN(opts FigureOptions) (*WLANFigure, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	p, err := problem.New("wlan", 8)
	if err != nil {
		return nil, fmt.Errorf("experiments: wlan figure: %w", err)
	}
	cfg := bo.Config{Kernel: bo.Plus(p.Group(), p.BaseShape()), Minimize: !p.Maximize(), Init: o.Init, Backend: o.Backend, Budget: o.Budget}
	total, done := o.Init+o.Iters, 0
	tr, err := bo.Run(o.Context, p, cfg, o.Seed, bo.RunOptions{Iters: o.Iters, OnEvaluation: func(bo.Evaluation) error {
		done++
		if o.Progress != nil {
			o.Progress(done, total)
		}
		return nil
	}})
	if err != nil {
		return nil, fmt.Errorf("experiments: wlan figure: %w", err)
	}
	best := 0
	for i, e := range tr.Evaluations {
		if e.F > tr.Evaluations[best].F {
			best = i
		}
	}
	x := slices.Clone(tr.Evaluations[best].X)
	serving, mbps, err := p.UserThroughputs(x)
	if err != nil {
		return nil, fmt.Errorf("experiments: wlan figure: %w", err)
	}
	m := p.Dim() / 2
	fig := &WLANFigure{Problem: p.Name(), Kernel: tr.Kernel, Seed: o.Seed, Init: o.Init, Iters: o.Iters,
		Users: p.Users(), X: x, Best: best, Value: tr.Evaluations[best].F, Serving: serving, Mbps: mbps, APUsers: make([]int, m)}
	for i := range m {
		fig.APs = append(fig.APs, [2]float64{x[i], x[m+i]})
	}
	for _, a := range serving {
		fig.APUsers[a]++
	}
	return fig, nil
}

// Rendered is a figure drawn as PNG and SVG files' contents.
type Rendered struct{ PNG, SVG []byte }

// Figure sizes and resolution.
const (
	figureDPI   = 150
	panelWidth  = 4.0 * vg.Inch
	panelHeight = 3.5 * vg.Inch
	barWidth    = 0.75 * vg.Inch // a colour bar with its tick labels
)

// render draws fn on a w×h canvas into a PNG and an SVG.
func render(w, h vg.Length, fn func(draw.Canvas)) (Rendered, error) {
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(figureDPI))
	fn(draw.New(img))
	svg := vgsvg.New(w, h)
	fn(draw.New(svg))
	var out Rendered
	for _, r := range []struct {
		dst *[]byte
		w   io.WriterTo
	}{{&out.PNG, vgimg.PngCanvas{Canvas: img}}, {&out.SVG, svg}} {
		var buf bytes.Buffer
		if _, err := r.w.WriteTo(&buf); err != nil {
			return Rendered{}, fmt.Errorf("experiments: figure: %w", err)
		}
		*r.dst = buf.Bytes()
	}
	return out, nil
}

// columns splits c into n equal columns, left to right.
func columns(c draw.Canvas, n int) []draw.Canvas {
	w := (c.Max.X - c.Min.X) / vg.Length(n)
	out := make([]draw.Canvas, n)
	for i := range out {
		out[i] = c
		out[i].Min.X = c.Min.X + vg.Length(i)*w
		out[i].Max.X = out[i].Min.X + w
	}
	return out
}

// pad shrinks c by m on every side.
func pad(c draw.Canvas, m vg.Length) draw.Canvas {
	return draw.Crop(c, m, -m, m, -m)
}

// colorMap returns the heat maps' sequential map over [lo, hi].
func colorMap(lo, hi float64) palette.ColorMap {
	cm := moreland.ExtendedBlackBody()
	if !(hi > lo) {
		hi = lo + 1
	}
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm
}

// heatPanel draws g as a heat map with title and axis labels on c, with
// a vertical colour bar of the range [lo, hi] on its right, and the
// extra plotters over the map.
func heatPanel(c draw.Canvas, title, xLabel, yLabel string, g HeatGrid, lo, hi float64, extra ...plot.Plotter) {
	cm := colorMap(lo, hi)
	hm := plotter.NewHeatMap(heatXYZ{g}, cm.Palette(256))
	hm.Min, hm.Max = cm.Min(), cm.Max()
	hm.Rasterized = true
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.X.Padding, p.Y.Padding = 0, 0
	p.Add(hm)
	p.Add(extra...)
	main := draw.Crop(c, 0, -barWidth, 0, 0)
	p.Draw(main)
	// The colour bar spans exactly the map's data area: measure the bar
	// plot's own margins and grow its canvas by them.
	dc := p.DataCanvas(main)
	bar := plot.New()
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
	bar.HideX()
	bar.Y.Padding = 0
	bc := c
	bc.Min.X = main.Max.X + 0.1*vg.Inch
	bc.Min.Y, bc.Max.Y = dc.Min.Y, dc.Max.Y
	inner := bar.DataCanvas(bc)
	bc.Min.Y -= inner.Min.Y - bc.Min.Y
	bc.Max.Y += bc.Max.Y - inner.Max.Y
	bc.Max.X -= 0.05 * vg.Inch
	bar.Draw(bc)
}

// Render draws Figure 1: f over the box, then k_max and k_avg over the
// norms, one colour scale [0, 1] for both kernels.
func (f *RadialFigure) Render() (Rendered, error) {
	flo, fhi := f.F.span()
	klo, khi := 0.0, 1.0
	for _, g := range []HeatGrid{f.KMax, f.KAvg} {
		lo, hi := g.span()
		klo, khi = math.Min(klo, lo), math.Max(khi, hi)
	}
	return render(3*panelWidth, panelHeight, func(c draw.Canvas) {
		cols := columns(pad(c, 0.05*vg.Inch), 3)
		heatPanel(cols[0], fmt.Sprintf("%s: f(x) over its box", f.Problem), "x₁", "x₂", f.F, flo, fhi)
		heatPanel(cols[1], fmt.Sprintf("k_max (RBF, ℓ = %g)", f.Lengthscale), "‖x‖", "‖x′‖", f.KMax, klo, khi)
		heatPanel(cols[2], fmt.Sprintf("k_avg (RBF, ℓ = %g)", f.Lengthscale), "‖x‖", "‖x′‖", f.KAvg, klo, khi)
	})
}

// The kernels' colours and glyphs in Figure 2, as in the paper's caption
// (k_plus orange diamonds, drawn as squares: gonum/plot has no diamond;
// k_avg green circles).
var (
	plusColor = color.RGBA{255, 127, 14, 255}
	avgColor  = color.RGBA{44, 160, 44, 255}
)

// Figure 5's colours, as in the paper: blue users, red access points.
var (
	userColor = color.RGBA{31, 119, 180, 255}
	apColor   = color.RGBA{214, 39, 40, 255}
)

// Render draws Figure 2: f with the two posterior means and D, then the
// covariances of k_plus^(D) and k_avg on one colour scale.
func (f *AckleyFigure) Render() (Rendered, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Ackley, d = 1: posterior means from |D| = %d", len(f.Design))
	p.X.Label.Text, p.Y.Label.Text = "x", "f(x)"
	if err := f.addCurves(p); err != nil {
		return Rendered{}, err
	}
	klo, khi := math.Inf(1), math.Inf(-1)
	for _, g := range []HeatGrid{f.KPlus, f.KAvg} {
		lo, hi := g.span()
		klo, khi = math.Min(klo, lo), math.Max(khi, hi)
	}
	return render(3*panelWidth, panelHeight, func(c draw.Canvas) {
		cols := columns(pad(c, 0.05*vg.Inch), 3)
		// Leave the line plot the heat maps' colour-bar margin, so that the
		// three panels' data areas line up.
		p.Draw(draw.Crop(cols[0], 0, -0.3*vg.Inch, 0, 0))
		heatPanel(cols[1], fmt.Sprintf("k_plus^(D) (%s, ℓ = %g)", f.BaseShape, f.Hyper.Lengthscale), "x", "y", f.KPlus, klo, khi, f.designMarks()...)
		heatPanel(cols[2], fmt.Sprintf("k_avg (%s, ℓ = %g)", f.BaseShape, f.Hyper.Lengthscale), "x", "y", f.KAvg, klo, khi, f.designMarks()...)
	})
}

// designMarks marks the design's points on the axes of a covariance map:
// ticks at (d, lo) and (lo, d) so that the Nyström rows and columns can
// be read.
func (f *AckleyFigure) designMarks() []plot.Plotter {
	lo := f.X[0]
	xy := make(plotter.XYs, 0, 2*len(f.Design))
	for _, d := range f.Design {
		xy = append(xy, plotter.XY{X: d, Y: lo}, plotter.XY{X: lo, Y: d})
	}
	s, err := plotter.NewScatter(xy)
	if err != nil {
		return nil
	}
	s.GlyphStyle = draw.GlyphStyle{Color: color.White, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
	return []plot.Plotter{s}
}

func (f *AckleyFigure) addCurves(p *plot.Plot) error {
	xy := func(y []float64) plotter.XYs {
		out := make(plotter.XYs, len(y))
		for i := range y {
			out[i] = plotter.XY{X: f.X[i], Y: y[i]}
		}
		return out
	}
	// Glyphs every len/16 points on the posterior means, as in the paper.
	every := func(y []float64, off int) plotter.XYs {
		step := max(1, len(y)/16)
		var out plotter.XYs
		for i := off % step; i < len(y); i += step {
			out = append(out, plotter.XY{X: f.X[i], Y: y[i]})
		}
		return out
	}
	fl, err := plotter.NewLine(xy(f.F))
	if err != nil {
		return fmt.Errorf("experiments: ackley figure: %w", err)
	}
	fl.Color, fl.Width = color.Gray{90}, vg.Points(1)
	p.Add(fl)
	p.Legend.Add("f", fl)
	for _, s := range []struct {
		name  string
		y     []float64
		rmse  float64
		col   color.Color
		glyph draw.GlyphDrawer
		off   int
	}{{"k_plus^(D)", f.MeanPlus, f.RMSEPlus, plusColor, draw.SquareGlyph{}, 0}, {"k_avg", f.MeanAvg, f.RMSEAvg, avgColor, draw.CircleGlyph{}, 5}} {
		l, err := plotter.NewLine(xy(s.y))
		if err != nil {
			return fmt.Errorf("experiments: ackley figure: %w", err)
		}
		l.Color, l.Width = s.col, vg.Points(1.5)
		pts, err := plotter.NewScatter(every(s.y, s.off))
		if err != nil {
			return fmt.Errorf("experiments: ackley figure: %w", err)
		}
		pts.GlyphStyle = draw.GlyphStyle{Color: s.col, Radius: vg.Points(2.5), Shape: s.glyph}
		p.Add(l, pts)
		p.Legend.Add(fmt.Sprintf("mean, %s (RMSE %.2g)", s.name, s.rmse), l, pts)
	}
	dxy := make(plotter.XYs, len(f.Design))
	for i := range f.Design {
		dxy[i] = plotter.XY{X: f.Design[i], Y: f.Values[i]}
	}
	d, err := plotter.NewScatter(dxy)
	if err != nil {
		return fmt.Errorf("experiments: ackley figure: %w", err)
	}
	d.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
	p.Add(d)
	p.Legend.Add("D", d)
	p.Legend.TextStyle.Font.Size = vg.Points(8)
	p.Legend.Top = false
	p.Legend.Left = false
	p.X.Min, p.X.Max = f.X[0], f.X[len(f.X)-1]
	return nil
}

// Render draws Figure 5: users (blue circles) with their throughput,
// the access points (red triangles) with their user counts, and each
// user's association as a thin line.
func (f *WLANFigure) Render() (Rendered, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: best AP placement of GP-UCB with k_%s (seed %d, %d evaluations)", f.Problem, f.Kernel, f.Seed, f.Init+f.Iters)
	p.X.Label.Text, p.Y.Label.Text = "x (m)", "y (m)"
	p.X.Min, p.X.Max = -problem.WLANHalfWidth, problem.WLANHalfWidth
	p.Y.Min, p.Y.Max = -problem.WLANHalfWidth, problem.WLANHalfWidth
	p.Add(plotter.NewGrid())
	for j, u := range f.Users {
		a := f.APs[f.Serving[j]]
		l, err := plotter.NewLine(plotter.XYs{{X: u[0], Y: u[1]}, {X: a[0], Y: a[1]}})
		if err != nil {
			return Rendered{}, fmt.Errorf("experiments: wlan figure: %w", err)
		}
		l.Color, l.Width = color.Gray{150}, vg.Points(0.6)
		p.Add(l)
	}
	users := make(plotter.XYs, len(f.Users))
	for j, u := range f.Users {
		users[j] = plotter.XY{X: u[0], Y: u[1]}
	}
	us, err := plotter.NewScatter(users)
	if err != nil {
		return Rendered{}, fmt.Errorf("experiments: wlan figure: %w", err)
	}
	us.GlyphStyle = draw.GlyphStyle{Color: userColor, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
	aps := make(plotter.XYs, len(f.APs))
	for i, a := range f.APs {
		aps[i] = plotter.XY{X: a[0], Y: a[1]}
	}
	as, err := plotter.NewScatter(aps)
	if err != nil {
		return Rendered{}, fmt.Errorf("experiments: wlan figure: %w", err)
	}
	as.GlyphStyle = draw.GlyphStyle{Color: apColor, Radius: vg.Points(6), Shape: draw.PyramidGlyph{}}
	p.Add(us, as)
	ul := make([]string, len(f.Users))
	for j := range f.Users {
		ul[j] = fmt.Sprintf("%.1f", f.Mbps[j])
	}
	al := make([]string, len(f.APs))
	counts := make([]string, len(f.APs))
	for i := range f.APs {
		al[i] = strconv.Itoa(i + 1)
		counts[i] = strconv.Itoa(f.APUsers[i])
	}
	// Users' throughputs above right of their circles, the APs' numbers
	// below right of their triangles (short, so that they collide less).
	for _, lb := range []struct {
		xy     plotter.XYs
		text   []string
		color  color.Color
		size   vg.Length
		dx, dy vg.Length
	}{{users, ul, userColor, vg.Points(8), vg.Points(5), vg.Points(4)}, {aps, al, apColor, vg.Points(10), vg.Points(5), -vg.Points(14)}} {
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: lb.xy, Labels: lb.text})
		if err != nil {
			return Rendered{}, fmt.Errorf("experiments: wlan figure: %w", err)
		}
		for i := range lab.TextStyle {
			lab.TextStyle[i].Color = lb.color
			lab.TextStyle[i].Font.Size = lb.size
		}
		lab.Offset = vg.Point{X: lb.dx, Y: lb.dy}
		p.Add(lab)
	}
	p.Title.Text += fmt.Sprintf("\ntotal %.1f Mbps; users served by AP 1–%d: %s", f.Value, len(f.APs), strings.Join(counts, ", "))
	p.Legend.Add("user, its throughput (Mbps)", us)
	p.Legend.Add("access point, its number", as)
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	// Room above the area for the legend.
	p.Y.Max = problem.WLANHalfWidth + 20
	return render(6*vg.Inch, 6*vg.Inch, func(c draw.Canvas) { p.Draw(pad(c, 0.05*vg.Inch)) })
}

// FiguresMarkdown describes the figures computed (nil ones are left out)
// and the command that made them.
func FiguresMarkdown(command string, r *RadialFigure, a *AckleyFigure, w *WLANFigure) string {
	var b strings.Builder
	b.WriteString("# The paper's qualitative figures\n\n")
	fmt.Fprintf(&b, "Made by:\n\n```sh\n%s\n```\n\n", command)
	if r != nil {
		fmt.Fprintf(&b, "## radial.png — Figure 1 (Example \"radial\")\n\n")
		fmt.Fprintf(&b, "- left: %s's f over its box [%g, %g]², %d×%d grid;\n", r.Problem, r.F.X[0], r.F.X[len(r.F.X)-1], len(r.F.X), len(r.F.Y))
		fmt.Fprintf(&b, "- center/right: k_max and k_avg over %s from an RBF base kernel (variance 1, ℓ = %g), computed by the library's kernels (perf gram's constructors, method auto), at x = (‖x‖, 0) and x′ = ‖x′‖·(cos θ, sin θ) with θ = 2π/3, norms 0…%g on a %d×%d grid; one colour scale for both.\n\n",
			r.Group, r.Lengthscale, r.KMax.X[len(r.KMax.X)-1], len(r.KMax.X), len(r.KMax.Y))
	}
	if a != nil {
		fmt.Fprintf(&b, "## ackley.png — Figure 2 (Example \"Ackley\")\n\n")
		fmt.Fprintf(&b, "- f: %s on [%g, %g], group %s; base kernel %s;\n", a.Problem, a.X[0], a.X[len(a.X)-1], a.Group, a.BaseShape)
		fmt.Fprintf(&b, "- D: %d points drawn uniformly from the seed: %s; f(D) observed without noise; black crosses on the left, white crosses on the covariance maps' axes;\n", len(a.Design), floatList(a.Design, "%.4g"))
		fmt.Fprintf(&b, "- hyperparameters fixed, the same for both kernels (not fitted): variance %g, lengthscale %g, noise variance %g (standardized scale); posterior means by gp.New and GP.Predict;\n",
			a.Hyper.Variance, a.Hyper.Lengthscale, a.Hyper.Noise)
		fmt.Fprintf(&b, "- k_plus^(D) keeps %d of the %d eigenvalues of k_max(D, D) (%d clipped)", a.PlusRank, len(a.Design), a.Clipped)
		if a.Clipped == 0 {
			b.WriteString(": in d = 1, k_max(x, y) = k_b(|x|, |y|) is PSD (the canonical map |x|), so k_plus^(D) is k_max Nyström-extended from D")
		}
		b.WriteString(";\n")
		fmt.Fprintf(&b, "- RMSE of the posterior mean against f over the %d-point grid: k_plus^(D) %.3g, k_avg %.3g;\n", len(a.X), a.RMSEPlus, a.RMSEAvg)
		fmt.Fprintf(&b, "- over the designs of seeds 0–%d (same hyperparameters): k_plus^(D)'s RMSE is lower for %d of %d seeds; mean RMSE k_plus^(D) %.3g, k_avg %.3g.\n\n",
			len(a.Seeds.RMSEPlus)-1, a.Seeds.PlusBetter, len(a.Seeds.RMSEPlus), meanOf(a.Seeds.RMSEPlus), meanOf(a.Seeds.RMSEAvg))
	}
	if w != nil {
		fmt.Fprintf(&b, "## wlan.png — Figure 5\n\n")
		fmt.Fprintf(&b, "- %s with the default 16 users, one GP-UCB run with k_%s (bo.Run, perf bo's defaults: %d init + %d iterations, seed %d, noise 2%% of f's variance over the box);\n",
			w.Problem, w.Kernel, w.Init, w.Iters, w.Seed)
		fmt.Fprintf(&b, "- best placement: evaluation %d, total throughput %.4f Mbps (noiseless f);\n", w.Best+1, w.Value)
		for i, a := range w.APs {
			fmt.Fprintf(&b, "- AP%d at (%.2f, %.2f): %d users\n", i+1, a[0], a[1], w.APUsers[i])
		}
		b.WriteString("\n| user | x | y | AP | Mbps |\n|---:|---:|---:|---:|---:|\n")
		for j, u := range w.Users {
			fmt.Fprintf(&b, "| %d | %.2f | %.2f | %d | %.3f |\n", j+1, u[0], u[1], w.Serving[j]+1, w.Mbps[j])
		}
		b.WriteString("\n")
	}
	return b.String()
}

func floatList(v []float64, format string) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf(format, x)
	}
	return strings.Join(parts, ", ")
}

// meanOf is the mean of v, summed in index order.
func meanOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}
