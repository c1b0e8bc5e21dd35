package experiments

import (
	"bytes"
	"fmt"
	"github.com/symbo/symbo/internal/atomicfile"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/symbo/symbo/bo"
)

// Series is one curve of a panel: mean values Y at X with a standard error
// Err, drawn as a shaded band (Bars false) or error bars.
type Series struct {
	// Kernel picks the paper's style for the kernel; with Kernel "" the
	// series takes Color, an index into a qualitative palette.
	Kernel string
	Color  int
	X, Y   []float64
	Err    []float64
	Bars   bool
	Label  string // legend entry; "" means the kernel name
}

// Panel is one plot of a figure: curves (Series) or, when Strips is set,
// a strip plot of per-seed values.
type Panel struct {
	Title, XLabel, YLabel string
	Series                []Series
	LogY, LogX            bool
	Strips                []Strip
}

// Strip is one column of a strip plot: every seed's value of one kernel
// as a dot (spread sideways by a fixed pattern so that equal values stay
// visible), its median as a black bar and its mean as a hollow diamond.
type Strip struct {
	Kernel string
	Values []float64
}

// kernelStyle follows the paper's figures: base blue crosses, avg orange
// diamonds (squares here: gonum/plot has no diamond glyph), plus green
// circles; the kernels the paper does not plot take the palette's other
// colours: max red triangles, avgnorm purple rings, nystrom brown plus
// signs, soft cyan pyramids.
func kernelStyle(k string) (color.Color, draw.GlyphDrawer) {
	switch k {
	case bo.NameAvg:
		return color.RGBA{255, 127, 14, 255}, draw.SquareGlyph{}
	case bo.NamePlus:
		return color.RGBA{44, 160, 44, 255}, draw.CircleGlyph{}
	case bo.NameMax:
		return color.RGBA{214, 39, 40, 255}, draw.TriangleGlyph{}
	case bo.NameAvgNorm:
		return color.RGBA{148, 103, 189, 255}, draw.RingGlyph{}
	case bo.NameNystrom:
		return color.RGBA{140, 86, 75, 255}, draw.PlusGlyph{}
	case bo.NameSoft:
		return color.RGBA{23, 190, 207, 255}, draw.PyramidGlyph{}
	default:
		return color.RGBA{31, 119, 180, 255}, draw.CrossGlyph{}
	}
}

// paletteStyle is series i of a qualitative palette (Tableau 10), with
// glyphs cycling so that series stay distinct in grey.
func paletteStyle(i int) (color.Color, draw.GlyphDrawer) {
	cols := []color.Color{
		color.RGBA{31, 119, 180, 255}, color.RGBA{255, 127, 14, 255}, color.RGBA{44, 160, 44, 255}, color.RGBA{214, 39, 40, 255},
		color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255}, color.RGBA{227, 119, 194, 255}, color.RGBA{127, 127, 127, 255},
	}
	glyphs := []draw.GlyphDrawer{draw.CrossGlyph{}, draw.SquareGlyph{}, draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}}
	i = max(i, 0)
	return cols[i%len(cols)], glyphs[i%len(glyphs)]
}

func (p Panel) build() (*plot.Plot, error) {
	if p.Strips != nil {
		return p.buildStrips()
	}
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.X.Label.Text = p.XLabel
	pl.Y.Label.Text = p.YLabel
	pl.Legend.Top = true
	pl.Legend.Left = false
	pl.Legend.TextStyle.Font.Size = vg.Points(8)
	pl.Add(plotter.NewGrid())
	drawn := 0
	for _, s := range p.Series {
		s = p.plottable(s)
		if len(s.X) == 0 {
			continue
		}
		drawn++
		col, glyph := kernelStyle(s.Kernel)
		if s.Kernel == "" {
			col, glyph = paletteStyle(s.Color)
		}
		if len(s.Err) == len(s.Y) && !s.Bars {
			band := make(plotter.XYs, 0, 2*len(s.X))
			for i := range s.X {
				band = append(band, plotter.XY{X: s.X[i], Y: s.Y[i] - s.Err[i]})
			}
			for i := len(s.X) - 1; i >= 0; i-- {
				band = append(band, plotter.XY{X: s.X[i], Y: s.Y[i] + s.Err[i]})
			}
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return nil, err
			}
			r, g, b, _ := col.RGBA()
			poly.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 60}
			poly.LineStyle.Width = 0
			pl.Add(poly)
		}
		xy := make(plotter.XYs, len(s.X))
		for i := range s.X {
			xy[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
		}
		line, err := plotter.NewLine(xy)
		if err != nil {
			return nil, err
		}
		line.Color = col
		line.Width = vg.Points(1.2)
		// Glyphs on every fifth point keep dense curves readable.
		var marks plotter.XYs
		step := max(1, len(xy)/10)
		for i := 0; i < len(xy); i += step {
			marks = append(marks, xy[i])
		}
		sc, err := plotter.NewScatter(marks)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2.5), Shape: glyph}
		pl.Add(line, sc)
		if s.Bars && len(s.Err) == len(s.Y) {
			eb, err := plotter.NewYErrorBars(errPoints{xy, s.Err})
			if err != nil {
				return nil, err
			}
			eb.Color = col
			pl.Add(eb)
		}
		label := s.Label
		if label == "" {
			label = string(s.Kernel)
		}
		pl.Legend.Add(label, line, sc)
	}
	// A log axis needs positive data (gonum/plot panics otherwise): with
	// nothing left to draw the axes stay linear.
	if p.LogY && drawn > 0 {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = plot.LogTicks{Prec: 1}
	}
	if p.LogX && drawn > 0 {
		pl.X.Scale = plot.LogScale{}
		pl.X.Tick.Marker = plot.LogTicks{Prec: 1}
	}
	if !p.LogY || drawn == 0 {
		pl.Y.Tick.Marker = plainTicks{}
	}
	if !p.LogX || drawn == 0 {
		pl.X.Tick.Marker = plainTicks{}
	}
	p.placeLegend(pl)
	return pl, nil
}

// plottable returns s without the points a panel cannot draw: non-finite
// coordinates, and non-positive ones on a log axis (a timing measured as
// 0 s, a regret of exactly 0); on a log y axis an error band or bar that
// would reach 0 or below is shortened to 0.9 of the value, on both sides.
func (p Panel) plottable(s Series) Series {
	ok := func(v float64, log bool) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0) }
	out := s
	out.X, out.Y, out.Err = nil, nil, nil
	withErr := len(s.Err) == len(s.Y)
	for i := range s.X {
		if i >= len(s.Y) || !ok(s.X[i], p.LogX) || !ok(s.Y[i], p.LogY) {
			continue
		}
		out.X, out.Y = append(out.X, s.X[i]), append(out.Y, s.Y[i])
		if withErr {
			e := s.Err[i]
			if math.IsNaN(e) || math.IsInf(e, 0) {
				e = 0
			}
			if p.LogY && s.Y[i]-e <= 0 {
				e = 0.9 * s.Y[i]
			}
			out.Err = append(out.Err, e)
		}
	}
	return out
}

// buildStrips draws a strip plot: one column per kernel, named on the x
// axis, on a log y axis when every value is positive and they span more
// than two decades.
func (p Panel) buildStrips() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = p.Title
	pl.Y.Label.Text = p.YLabel
	pl.Add(plotter.NewGrid())
	names := make([]string, len(p.Strips))
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, st := range p.Strips {
		for _, v := range st.Values {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	logY := lo > 0 && hi/lo > 100
	for i, st := range p.Strips {
		names[i] = st.Kernel
		if len(st.Values) == 0 {
			continue
		}
		col, glyph := kernelStyle(st.Kernel)
		xy := make(plotter.XYs, len(st.Values))
		for j, v := range st.Values {
			// A fixed sideways pattern (golden-ratio sequence in ±0.3).
			off := math.Mod(float64(j)*0.6180339887498949, 1)*0.6 - 0.3
			xy[j] = plotter.XY{X: float64(i) + off, Y: v}
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(2), Shape: glyph}
		med := median(st.Values)
		bar, err := plotter.NewLine(plotter.XYs{{X: float64(i) - 0.4, Y: med}, {X: float64(i) + 0.4, Y: med}})
		if err != nil {
			return nil, err
		}
		bar.Width, bar.Color = vg.Points(1.6), color.Black
		var mean float64
		for _, v := range st.Values {
			mean += v
		}
		mean /= float64(len(st.Values))
		mk, err := plotter.NewScatter(plotter.XYs{{X: float64(i), Y: mean}})
		if err != nil {
			return nil, err
		}
		mk.GlyphStyle = draw.GlyphStyle{Color: color.Black, Radius: vg.Points(3.5), Shape: draw.RingGlyph{}}
		pl.Add(sc, bar, mk)
	}
	if len(names) == 0 {
		// A row none of whose cells ran (all skipped): an empty panel
		// saying so; NominalX panics without a name.
		names = []string{"not run"}
	}
	pl.NominalX(names...)
	pl.X.Min, pl.X.Max = -0.6, float64(len(names))-0.4
	if logY {
		pl.Y.Scale = plot.LogScale{}
		pl.Y.Tick.Marker = sparseLogTicks{}
	} else {
		pl.Y.Tick.Marker = plainTicks{}
	}
	return pl, nil
}

// plainTicks are gonum/plot's default ticks on a linear axis labelled in
// the shortest decimal form of the value at ten significant digits:
// "12500", "0.25", not the default's fixed "12500.00"; an empty range
// (every value equal) gets ticks around its value, a non-finite one none.
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	if !(hi > lo) {
		// A panel whose values are all equal (one seed, one value):
		// DefaultTicks panics on an empty range, so ticks span one unit
		// of the value's magnitude either side of it.
		w := max(math.Abs(lo), 1) / 2
		lo, hi = lo-w, hi+w
	}
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ts {
		if t.Label != "" {
			v, _ := strconv.ParseFloat(strconv.FormatFloat(t.Value, 'g', 10, 64), 64)
			ts[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
			if a := math.Abs(v); a >= 1e7 || (a > 0 && a < 1e-4) {
				ts[i].Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
		}
	}
	return ts
}

// sparseLogTicks labels at most about six powers of ten, evenly spaced in
// decades, on a log axis of any span.
type sparseLogTicks struct{}

func (sparseLogTicks) Ticks(lo, hi float64) []plot.Tick {
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	step := math.Max(1, math.Ceil((b-a)/6))
	var out []plot.Tick
	for e := math.Ceil(a/step) * step; e <= b; e += step {
		v := math.Pow(10, e)
		if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
			out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
		}
	}
	return out
}

// placeLegend puts the legend in the top corner (left or right) whose
// data, over the width the legend takes, reach less high, and raises the
// y axis until the legend (one 8 pt line per series) clears every curve
// and band under it.
func (p Panel) placeLegend(pl *plot.Plot) {
	n := 0
	var textW vg.Length
	for _, s := range p.Series {
		if len(s.X) > 0 {
			n++
			label := s.Label
			if label == "" {
				label = s.Kernel
			}
			textW = max(textW, pl.Legend.TextStyle.Width(label))
		}
	}
	if n == 0 || !(pl.Y.Max > pl.Y.Min) || !(pl.X.Max > pl.X.Min) {
		return
	}
	ty, fromY := func(v float64) float64 { return v }, func(v float64) float64 { return v }
	if p.LogY {
		if pl.Y.Min <= 0 {
			return
		}
		ty, fromY = math.Log10, func(v float64) float64 { return math.Pow(10, v) }
	}
	tx := func(v float64) float64 { return v }
	if p.LogX && pl.X.Min > 0 {
		tx = math.Log10
	}
	// The legend's share of the data width: its text, the thumbnail and
	// padding over a panel's plotting width (3.2 in less the y axis).
	wfrac := min(1, float64((textW+vg.Points(28))/(2.55*vg.Inch)))
	x0, x1 := tx(pl.X.Min), tx(pl.X.Max)
	top := [2]float64{math.Inf(-1), math.Inf(-1)} // under a left, a right legend
	for _, s := range p.Series {
		for i := range s.X {
			y := s.Y[i]
			if len(s.Err) == len(s.Y) {
				y += s.Err[i]
			}
			if y = ty(y); math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			at := (tx(s.X[i]) - x0) / (x1 - x0)
			if at <= wfrac {
				top[0] = max(top[0], y)
			}
			if at >= 1-wfrac {
				top[1] = max(top[1], y)
			}
		}
	}
	side := 1 // right, gonum/plot's default
	if top[0] < top[1] {
		side = 0
	}
	pl.Legend.Left = side == 0
	if !pl.Legend.Left {
		// gonum/plot puts the right legend's glyphs on the data area's
		// edge, half of them over the frame.
		pl.Legend.XOffs = -vg.Points(4)
	}
	frac := min(0.6, 0.07*float64(n)+0.05)
	lo, hi := ty(pl.Y.Min), ty(pl.Y.Max)
	if need := (top[side] - frac*lo) / (1 - frac); need > hi {
		pl.Y.Max = fromY(need)
	}
}

// errPoints adapts points and symmetric errors to plotter.YErrorBars.
type errPoints struct {
	plotter.XYs
	err []float64
}

func (e errPoints) YError(i int) (float64, float64) { return e.err[i], e.err[i] }

// WriteFigure draws the panels on a grid of cols columns and writes
// base.png and base.svg into dir, returning their paths; a symbolic link
// at either path is replaced, never written through (atomicfile.WriteIn). Each panel is
// 3.2 × 2.6 inches. Caption lines, if any, are printed above the grid
// (what the curves and bands are, how many seeds, which way is better).
func WriteFigure(dir, base string, panels []Panel, cols int, caption ...string) ([]string, error) {
	if len(panels) == 0 || cols < 1 {
		return nil, fmt.Errorf("%w: a figure needs panels and columns", ErrBadOptions)
	}
	rows := (len(panels) + cols - 1) / cols
	cols = min(cols, len(panels))
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	for i, p := range panels {
		pl, err := p.build()
		if err != nil {
			return nil, fmt.Errorf("experiments: plot %q: %w", p.Title, err)
		}
		// The titles are drawn just above their data areas below:
		// gonum's own title sits at the top of the canvas plot.Align
		// gives the plot, which varies with the axes, so titles of one
		// row floated at different heights. A blank title keeps its room
		// in every panel alike.
		pl.Title.Text = " "
		plots[i/cols][i%cols] = pl
	}
	titleStyle := plot.New().Title.TextStyle
	titleStyle.XAlign, titleStyle.YAlign = draw.XCenter, draw.YBottom
	capStyle := plot.New().Title.TextStyle
	capStyle.Font.Size = vg.Points(9)
	capStyle.XAlign, capStyle.YAlign = draw.XCenter, draw.YTop
	line := capStyle.FontExtents().Height * 1.25
	w := vg.Length(cols) * 3.2 * vg.Inch
	caption = wrapCaption(caption, capStyle, w-4*vg.Millimeter)
	capH := vg.Length(len(caption)) * line
	h := vg.Length(rows)*2.6*vg.Inch + capH
	drawOn := func(c vg.CanvasSizer) {
		dc := draw.New(c)
		for i, txt := range caption {
			dc.FillText(capStyle, vg.Point{X: w / 2, Y: h - vg.Millimeter - vg.Length(i)*line}, txt)
		}
		t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
			PadTop: vg.Millimeter*2 + capH, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		cs := plot.Align(plots, t, dc)
		for i := range plots {
			for j := range plots[i] {
				if plots[i][j] != nil {
					plots[i][j].Draw(cs[i][j])
					da := plots[i][j].DataCanvas(cs[i][j])
					dc.FillText(titleStyle, vg.Point{X: (da.Min.X + da.Max.X) / 2, Y: da.Max.Y + vg.Points(5)}, panels[i*cols+j].Title)
				}
			}
		}
	}
	png := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))
	drawOn(png)
	svg := vgsvg.New(w, h)
	drawOn(svg)
	var paths []string
	for _, out := range []struct {
		ext string
		w   io.WriterTo
	}{{".png", vgimg.PngCanvas{Canvas: png}}, {".svg", svg}} {
		var buf bytes.Buffer
		if _, err := out.w.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("experiments: plot %s: %w", base+out.ext, err)
		}
		path := filepath.Join(dir, base+out.ext)
		if err := atomicfile.WriteIn(dir, base+out.ext, buf.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("experiments: %w", err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// wrapCaption breaks each caption line between words so that no line is
// wider than width in style (a single word wider than width keeps its
// own line).
func wrapCaption(lines []string, style text.Style, width vg.Length) []string {
	var out []string
	for _, l := range lines {
		words := strings.Fields(l)
		cur := ""
		for _, w := range words {
			next := w
			if cur != "" {
				next = cur + " " + w
			}
			if cur != "" && style.Width(next) > width {
				out = append(out, cur)
				next = w
			}
			cur = next
		}
		if cur != "" {
			out = append(out, cur)
		}
	}
	return out
}

// Caption states what the table's figure shows: the curves, the bands,
// the seeds and the direction.
func (r *TableResult) Caption() []string {
	return []string{fmt.Sprintf("Cumulative regret of GP-UCB over the BO iterations (negated best reward where f* is unknown): mean ± s.e. (bands) over %s; lower is better.", r.Settings.SeedsPhrase())}
}

// Panels returns Figure 3 of the paper from a table: one panel per
// benchmark, the mean cumulative regret (negated best reward for WLAN)
// against the iteration with a standard-error band per kernel.
func (r *TableResult) Panels() []Panel {
	var out []Panel
	for _, row := range r.Rows {
		p := Panel{Title: row.Problem + " (|G| = " + row.Order + ")", XLabel: "iteration", YLabel: "cumulative regret"}
		if !row.known {
			p.YLabel = "negated best reward"
		}
		for _, k := range r.Kernels {
			if row.Cells[k] == nil {
				continue
			}
			mean, se := r.Curves(row.Problem, k)
			x := make([]float64, len(mean))
			for i := range x {
				x[i] = float64(i + 1)
			}
			p.Series = append(p.Series, Series{Kernel: k, X: x, Y: mean, Err: se})
		}
		out = append(out, p)
	}
	return out
}

// StripCaption states what the strip figure shows.
func (r *TableResult) StripCaption() []string {
	return []string{fmt.Sprintf("Final cumulative regret of every run (negated best reward where f* is unknown), one dot per seed over %s; black bar: median, ring: mean; lower is better.", r.Settings.SeedsPhrase())}
}

// StripPanels returns one strip plot per benchmark: every seed's metric
// per kernel, so that a skewed or bimodal cell shows what its mean hides.
func (r *TableResult) StripPanels() []Panel {
	per := r.perSeed()
	var out []Panel
	for _, row := range r.Rows {
		p := Panel{Title: row.Problem, YLabel: "cumulative regret", Strips: []Strip{}}
		if !row.known {
			p.YLabel = "negated best reward"
		}
		for _, k := range r.Kernels {
			vals := per[row.Problem][k]
			if len(vals) == 0 {
				continue
			}
			seeds := make([]uint64, 0, len(vals))
			for s := range vals {
				seeds = append(seeds, s)
			}
			slices.Sort(seeds)
			st := Strip{Kernel: k}
			for _, s := range seeds {
				st.Values = append(st.Values, vals[s])
			}
			p.Strips = append(p.Strips, st)
		}
		out = append(out, p)
	}
	return out
}
