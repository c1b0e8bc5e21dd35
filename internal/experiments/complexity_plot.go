package experiments

import (
	"io"

	"errors"
	"fmt"
	"github.com/symbo/symbo/internal/atomicfile"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WritePlots draws the measured times of r on log-log axes, one line per
// series, into dir (created if missing): complexity-n.{png,svg} (against
// n), complexity-group.{png,svg} (against |G|) and complexity-m.{png,svg}
// (against the number of landmarks m). The legend gives each
// series' measured slope and the predicted one. It returns the paths
// written.
func (r ComplexityResult) WritePlots(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("experiments: complexity plot: %w", err)
	}
	var paths []string
	for _, against := range []string{"n", "|G|", "m"} {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("time per quantity against %s (%s, backend %s)", against, r.Group, r.Backend)
		switch against {
		case "|G|":
			p.Title.Text = fmt.Sprintf("time against |G| (n = %d, backend %s)", r.GroupN, r.Backend)
		case "m":
			p.Title.Text = fmt.Sprintf("landmark GP against m (n = %d·m, %s, backend %s)", LandmarkNPerM, r.Group, r.Backend)
		}
		p.X.Label.Text = against
		p.Y.Label.Text = "seconds"
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: 1}, plot.LogTicks{Prec: 1}
		p.Legend.Top = true
		p.Legend.Left = true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		i := 0
		for _, s := range r.Series {
			if s.Against != against || len(s.X) == 0 {
				continue
			}
			xy := make(plotter.XYs, len(s.X))
			for k := range s.X {
				xy[k].X, xy[k].Y = s.X[k], s.Seconds[k]
			}
			line, pts, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, fmt.Errorf("experiments: complexity plot: %w", err)
			}
			line.Color = plotutil.Color(i)
			line.Dashes = plotutil.Dashes(i / 7)
			pts.Color = plotutil.Color(i)
			pts.Shape = plotutil.Shape(i)
			p.Add(line, pts)
			name := s.Quantity
			for _, part := range []string{s.Kernel, s.Method, s.Family} {
				if part != "" {
					name += " " + part
				}
			}
			if s.Slope != nil {
				name += fmt.Sprintf(": slope %.2f (pred. %g)", *s.Slope, s.Predicted)
			}
			p.Legend.Add(name, line, pts)
			i++
		}
		if i == 0 {
			continue
		}
		// Leave room above the data for the legend (one 10 pt line per
		// series) so that it covers no line.
		if p.Y.Min > 0 && p.Y.Max > p.Y.Min {
			frac := min(0.6, float64(i)*10/(7*72-80))
			dec := math.Log10(p.Y.Max / p.Y.Min)
			p.Y.Max *= math.Pow(10, dec*frac/(1-frac))
		}
		base := "complexity-n"
		switch against {
		case "|G|":
			base = "complexity-group"
		case "m":
			base = "complexity-m"
		}
		for _, ext := range []string{"png", "svg"} {
			path := filepath.Join(dir, base+"."+ext)
			wt, err := p.WriterTo(9*vg.Inch, 7*vg.Inch, ext)
			if err != nil {
				return nil, fmt.Errorf("experiments: complexity plot: %w", err)
			}
			if err := atomicfile.WriteFunc(path, 0o644, false, func(w io.Writer) error { _, err := wt.WriteTo(w); return err }); err != nil {
				return nil, fmt.Errorf("experiments: complexity plot: %w", err)
			}
			paths = append(paths, path)
		}
	}
	if len(paths) == 0 {
		return nil, errors.New("experiments: complexity plot: nothing measured")
	}
	return paths, nil
}
