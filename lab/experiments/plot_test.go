package experiments

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/symbo/symbo/bo"
)

// TestLegendClearsData: the legend goes to the corner where the data are
// lower over its width, and the y axis is raised until the legend's
// share of the height (0.07 per line + 0.05) clears them there.
func TestLegendClearsData(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	falling := make([]float64, len(x))
	rising := make([]float64, len(x))
	for i := range x {
		falling[i] = 100 - 10*float64(i)
		rising[i] = 10 + 10*float64(i)
	}
	for _, tc := range []struct {
		name     string
		y        []float64
		logY     bool
		wantLeft bool
	}{
		{"falling", falling, false, false},
		{"rising", rising, false, true},
		{"rising log", rising, true, true},
	} {
		p := Panel{Title: tc.name, LogY: tc.logY, Series: []Series{
			{Kernel: "base", X: x, Y: tc.y},
			{Kernel: "plus", X: x, Y: tc.y},
		}}
		pl, err := p.build()
		if err != nil {
			t.Fatal(err)
		}
		if pl.Legend.Left != tc.wantLeft {
			t.Errorf("%s: legend left = %v, want %v", tc.name, pl.Legend.Left, tc.wantLeft)
		}
		f := func(v float64) float64 { return v }
		if tc.logY {
			f = math.Log10
		}
		frac := 0.07*2 + 0.05
		lo, hi := f(pl.Y.Min), f(pl.Y.Max)
		// The highest point under the legend: the first point for a
		// falling curve (legend right: the last points), and so on.
		under := tc.y[len(tc.y)-1]
		if tc.wantLeft {
			under = tc.y[0]
		}
		if bottom := hi - frac*(hi-lo); f(under) > bottom+1e-9 {
			t.Errorf("%s: data at %g above the legend's bottom %g", tc.name, under, bottom)
		}
		if f(max(tc.y[0], tc.y[len(tc.y)-1])) > hi {
			t.Errorf("%s: axis top %g below the data", tc.name, pl.Y.Max)
		}
	}
}

// TestFigureCaption: a caption is drawn into the SVG above the panels.
func TestFigureCaption(t *testing.T) {
	dir := t.TempDir()
	p := Panel{Title: "t", Series: []Series{{Kernel: "avgnorm", X: []float64{1, 2}, Y: []float64{1, 2}}}}
	paths, err := WriteFigure(dir, "f", []Panel{p}, 1, "mean ± s.e. over 3 seeds; lower is better")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 2 || filepath.Ext(paths[1]) != ".svg" {
		t.Fatalf("paths %v", paths)
	}
	svg, err := os.ReadFile(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "over 3 seeds; lower is better") {
		t.Error("the caption is not in the SVG")
	}
}

// TestKernelStylesDistinct: every kernel a table can hold has its own
// colour.
func TestKernelStylesDistinct(t *testing.T) {
	seen := map[[4]uint32]string{}
	for _, k := range []string{"base", "avg", "avgnorm", "plus", "max", "nystrom"} {
		c, _ := kernelStyle(k)
		r, g, b, a := c.RGBA()
		key := [4]uint32{r, g, b, a}
		if other, ok := seen[key]; ok {
			t.Errorf("%s and %s share a colour", k, other)
		}
		seen[key] = k
	}
}

// TestWrapCaption: a caption wider than a one-panel figure is broken
// between words into lines that fit, keeping every word in order.
func TestWrapCaption(t *testing.T) {
	st := plot.New().Title.TextStyle
	st.Font.Size = vg.Points(9)
	long := "Cumulative regret of GP-UCB over the BO iterations (negated best reward where f* is unknown): mean ± s.e. (bands) over 30 seeds (0…29); lower is better."
	w := 3.2*vg.Inch - 4*vg.Millimeter
	lines := wrapCaption([]string{long, "short"}, st, w)
	if len(lines) < 3 || lines[len(lines)-1] != "short" {
		t.Fatalf("lines %q", lines)
	}
	for _, l := range lines {
		if st.Width(l) > w {
			t.Errorf("line %q is %v wide, more than %v", l, st.Width(l), w)
		}
	}
	if got := strings.Join(lines[:len(lines)-1], " "); got != long {
		t.Errorf("words changed: %q", got)
	}
}

// TestStripFigure: the strip panels hold every seed's metric per kernel
// in seed order, and the figure renders (a log axis over twelve decades
// labels at most about six of them).
func TestStripFigure(t *testing.T) {
	r := seededTable(Settings{Init: 5, Iters: 50, Seeds: 4}, []string{bo.NameBase, bo.NamePlus}, []string{"Ackley2d"},
		map[string]map[string][]float64{"Ackley2d": {bo.NameBase: {300, 200, 250, 400}, bo.NamePlus: {1e-12, 90, 5, 120}}})
	ps := r.StripPanels()
	if len(ps) != 1 || len(ps[0].Strips) != 2 || !slices.Equal(ps[0].Strips[1].Values, []float64{1e-12, 90, 5, 120}) {
		t.Fatalf("panels %+v", ps)
	}
	if ticks := (sparseLogTicks{}).Ticks(1e-12, 400); len(ticks) > 7 || len(ticks) < 3 {
		t.Errorf("%d ticks over 1e-12…400", len(ticks))
	}
	if _, err := WriteFigure(t.TempDir(), "strips", ps, 3, r.StripCaption()...); err != nil {
		t.Fatal(err)
	}
}

// TestFiguresRowNotRun: a table row none of whose cells ran (every one
// skipped: perf table --skip, or a refused cell skipped) draws an empty
// strip panel labelled "not run" and an empty regret panel; the strip
// figure panicked inside gonum/plot (NominalX without a name) after the
// runs, so perf table wrote neither table.md nor the figures.
func TestFiguresRowNotRun(t *testing.T) {
	r := seededTable(Settings{Init: 5, Iters: 50, Seeds: 2}, []string{bo.NameAvg}, []string{"Ackley2d", "Radial2d"},
		map[string]map[string][]float64{"Ackley2d": {bo.NameAvg: {300, 200}}})
	ps := r.StripPanels()
	if len(ps) != 2 || len(ps[1].Strips) != 0 {
		t.Fatalf("panels %+v", ps)
	}
	dir := t.TempDir()
	if _, err := WriteFigure(dir, "strips", ps, 3, r.StripCaption()...); err != nil {
		t.Error(err)
	}
	if _, err := WriteFigure(dir, "regret", r.Panels(), 3, r.Caption()...); err != nil {
		t.Error(err)
	}
}

// TestLogAxisNonPositive: a log axis with zero, negative and non-finite
// values (a timing measured as 0 s under load panicked gonum/plot in perf
// complexity) draws the positive points, and a panel left with none
// falls back to linear axes — no panic, both files written.
func TestLogAxisNonPositive(t *testing.T) {
	dir := t.TempDir()
	panels := []Panel{
		{Title: "mixed", LogX: true, LogY: true, Series: []Series{
			{X: []float64{0, 1, 2, 4}, Y: []float64{1e-3, 0, 2e-3, math.NaN()}, Err: []float64{1e-4, 0, 5e-3, 0}, Label: "a"},
			{X: []float64{1, 2}, Y: []float64{-1, 3e-3}, Label: "b"},
		}},
		{Title: "nothing positive", LogY: true, Series: []Series{{X: []float64{1, 2}, Y: []float64{0, -2}, Label: "c"}}},
	}
	files, err := WriteFigure(dir, "logaxis", panels, 2, "caption")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	s := Panel{LogY: true}.plottable(panels[0].Series[0])
	if len(s.X) != 2 || s.X[0] != 0 || s.Y[1] != 2e-3 || math.Abs(s.Err[1]-1.8e-3) > 1e-15 {
		t.Errorf("log-y plottable: %+v", s)
	}
}
