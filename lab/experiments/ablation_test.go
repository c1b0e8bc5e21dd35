package experiments

import (
	"math"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
)

// fakeTable builds a TableResult whose runs have the given final
// cumulative regrets: vals[kernel][seed].
func fakeTable(problem string, vals map[string][]float64) *TableResult {
	r := &TableResult{Rows: []Row{{Problem: problem, Cells: map[string]*Cell{}}}}
	for k, v := range vals {
		for s, x := range v {
			opt := 0.0
			r.Specs = append(r.Specs, RunSpec{Index: len(r.Specs), Problem: problem, Kernel: k, Seed: uint64(s)})
			r.Runs = append(r.Runs, &bo.Trace{Optimum: &opt, CumulativeRegret: []float64{x / 2, x}})
		}
	}
	return r
}

// TestAblationEstimates: the point estimates are the mean paired
// differences and their ratios, computed here by hand; the shares add up
// to one; the intervals contain the estimates.
func TestAblationEstimates(t *testing.T) {
	base := []float64{100, 120, 90, 110}
	nys := []float64{70, 100, 60, 90}
	plus := []float64{40, 60, 50, 50}
	mx := []float64{80, 70, 70, 60}
	ds := fakeTable("P", map[string][]float64{bo.NameBase: base, bo.NameNystrom: nys, bo.NamePlus: plus, bo.NameMax: mx}).Ablation()
	if len(ds) != 1 {
		t.Fatalf("%d decompositions", len(ds))
	}
	d := ds[0]
	// base − plus: 60, 60, 40, 60 → 55; base − nystrom: 30, 20, 30, 20 → 25;
	// nystrom − plus: 30, 40, 10, 40 → 30; base − max: 20, 50, 20, 50 → 35;
	// max − plus: 40, 10, 20, 10 → 20.
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"gain", d.Gain.Est, 55}, {"nystrom", d.Nystrom.Est, 25}, {"invariance", d.Invariance.Est, 30},
		{"nystrom share", d.NystromShare.Est, 25.0 / 55}, {"invariance share", d.InvarianceShare.Est, 30.0 / 55},
		{"invariance alone", d.InvarianceAlone.Est, 35}, {"nystrom on max", d.NystromOnMax.Est, 20},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	for _, e := range []Effect{d.Gain, d.Nystrom, d.Invariance, *d.InvarianceAlone, *d.NystromOnMax} {
		if !(e.Lo <= e.Est && e.Est <= e.Hi) || e.Level < 0.95 {
			t.Errorf("interval %+v does not contain its estimate or is below 95%%", e)
		}
		if e.Significant != (e.Lo > 0 || e.Hi < 0) {
			t.Errorf("significance %v disagrees with the interval %+v", e.Significant, e)
		}
	}
	for _, iv := range []Interval{d.NystromShare, d.InvarianceShare} {
		if d.Gain.Significant && !(iv.Lo <= iv.Est && iv.Est <= iv.Hi) {
			t.Errorf("share interval %+v does not contain its estimate", iv)
		}
	}
	// Five differences in the family: the gain (60, 60, 40, 60: mean 55,
	// s.d. 10, s.e. 5, t = 11 on 3 degrees of freedom, p = 0.0016) is the
	// smallest p-value, so Holm tests it at 0.05/5: its interval is the
	// t interval at level 0.99 (t quantile 0.995 on 3 df = 5.8409).
	if math.Abs(d.Gain.Level-0.99) > 1e-12 || math.Abs(d.Gain.Lo-(55-5.840909*5)) > 1e-4 || !d.Gain.Significant {
		t.Errorf("gain %+v, want the 99%% t interval 55 ± 29.20 and significant", d.Gain)
	}
	// Deterministic.
	again := fakeTable("P", map[string][]float64{bo.NameBase: base, bo.NameNystrom: nys, bo.NamePlus: plus, bo.NameMax: mx}).Ablation()
	a := again[0]
	if a.Gain != d.Gain || a.NystromShare != d.NystromShare || *a.InvarianceAlone != *d.InvarianceAlone {
		t.Errorf("not deterministic: %+v vs %+v", again[0], d)
	}
}

// TestAblationConstant: constant paired differences give degenerate
// intervals at the constant; a zero gain makes the shares undefined.
func TestAblationConstant(t *testing.T) {
	ds := fakeTable("P", map[string][]float64{
		bo.NameBase: {10, 20, 30}, bo.NameNystrom: {7, 17, 27}, bo.NamePlus: {5, 15, 25},
	}).Ablation()
	d := ds[0]
	for _, c := range []struct {
		e    Effect
		want float64
	}{{d.Gain, 5}, {d.Nystrom, 3}, {d.Invariance, 2}} {
		if c.e.Est != c.want || c.e.Lo != c.want || c.e.Hi != c.want || !c.e.Significant {
			t.Errorf("constant difference %v: got %+v", c.want, c.e)
		}
	}
	if d.InvarianceAlone != nil {
		t.Errorf("no max cells, yet an invariance-alone interval %+v", d.InvarianceAlone)
	}
	ds = fakeTable("Q", map[string][]float64{
		bo.NameBase: {10, 20}, bo.NameNystrom: {12, 18}, bo.NamePlus: {10, 20},
	}).Ablation()
	if !math.IsNaN(ds[0].NystromShare.Lo) || ds[0].Gain.Significant {
		t.Errorf("zero gain: %+v", ds[0])
	}
	if md := AblationMarkdown(ds, MaxIsPSD); !strings.Contains(md, "no significant gain") {
		t.Errorf("markdown does not flag the zero gain:\n%s", md)
	}
}

// TestAblationNegativeGain: where plus is significantly worse than base
// the shares are not given (a share of a loss means nothing).
func TestAblationNegativeGain(t *testing.T) {
	ds := fakeTable("P", map[string][]float64{
		bo.NameBase: {10, 11, 12, 10}, bo.NameNystrom: {9, 10, 10, 9}, bo.NamePlus: {30, 32, 31, 33},
	}).Ablation()
	d := ds[0]
	if !d.Gain.Significant || d.Gain.Est >= 0 || d.HasGain() || !math.IsNaN(d.NystromShare.Lo) {
		t.Errorf("negative gain: %+v", d)
	}
	if md := AblationMarkdown(ds, MaxIsPSD); !strings.Contains(md, "no significant gain") {
		t.Errorf("markdown gives shares of a loss:\n%s", md)
	}
}

// TestAblationMaxReason: a problem without max cells says why, per
// problem: k_max not PSD for Scaling2d's group, max not run for
// Ackley2d's (where it is).
func TestAblationMaxReason(t *testing.T) {
	md := AblationMarkdown([]Decomposition{{Problem: "Scaling2d"}, {Problem: "Ackley2d"}}, MaxIsPSD)
	for _, want := range []string{"| Scaling2d | — (k_max not PSD for this group) | — |", "| Ackley2d | — (max not run) | — |"} {
		if !strings.Contains(md, want) {
			t.Errorf("no %q in\n%s", want, md)
		}
	}
}
