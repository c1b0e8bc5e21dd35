package experiments

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// WritePlots draws the measured times of r on log-log axes into dir
// (created if missing): complexity-n.{png,svg} (against n),
// complexity-group.{png,svg} (against |G|) and complexity-m.{png,svg}
// (against the number of landmarks m). Each figure has one panel per
// quantity (Gram, eigendecomposition, per-query value, BO iteration,
// landmark GP, orbit enumeration) so that no panel carries more than a
// handful of series; each legend entry gives the series' measured
// log-log slope and, in parentheses, the predicted one. It returns the
// paths written.
func (r ComplexityResult) WritePlots(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("experiments: complexity plot: %w", err)
	}
	var paths []string
	for _, against := range []string{"n", "|G|", "m"} {
		var order []string
		byPanel := map[string]*Panel{}
		for _, s := range r.Series {
			if s.Against != against || len(s.X) == 0 {
				continue
			}
			key := s.Quantity
			if key == "psd-projection" {
				key = "eigen" // few series each: one panel
			}
			p := byPanel[key]
			if p == nil {
				title := key
				if key == "eigen" {
					title = "eigen, psd-projection"
				}
				p = &Panel{Title: title, XLabel: against, YLabel: "seconds", LogX: true, LogY: true}
				byPanel[key] = p
				order = append(order, key)
			}
			var name []string
			if key != s.Quantity {
				name = append(name, s.Quantity)
			}
			for _, part := range []string{s.Kernel, s.Method, s.Family} {
				if part != "" {
					name = append(name, strings.Replace(part, "enumerate", "enum", 1))
				}
			}
			label := strings.Join(name, " ")
			if label == "" {
				label = s.Quantity
			}
			if s.Slope != nil {
				label += fmt.Sprintf(": %.2f (%g)", *s.Slope, s.Predicted)
			}
			p.Series = append(p.Series, Series{Color: len(p.Series), X: s.X, Y: s.Seconds, Label: label})
		}
		if len(order) == 0 {
			continue
		}
		panels := make([]Panel, len(order))
		for i, k := range order {
			panels[i] = *byPanel[k]
		}
		base, caption := "complexity-n", fmt.Sprintf("Median seconds against n (%s, backend %s), log-log; legend: measured slope (predicted exponent).", r.Group, r.Backend)
		switch against {
		case "|G|":
			base, caption = "complexity-group", fmt.Sprintf("Median seconds against |G| (n = %d, backend %s), log-log; legend: measured slope (predicted exponent).", r.GroupN, r.Backend)
		case "m":
			base, caption = "complexity-m", fmt.Sprintf("Landmark GP: median seconds against the landmarks m at n = %d·m (%s, backend %s), log-log; legend: measured slope (predicted exponent).", LandmarkNPerM, r.Group, r.Backend)
		}
		ps, err := WriteFigure(dir, base, panels, min(3, len(panels)), caption)
		if err != nil {
			return nil, fmt.Errorf("experiments: complexity plot: %w", err)
		}
		paths = append(paths, ps...)
	}
	if len(paths) == 0 {
		return nil, errors.New("experiments: complexity plot: nothing measured")
	}
	return paths, nil
}
