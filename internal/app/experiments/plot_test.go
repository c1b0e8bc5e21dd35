package experiments

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
