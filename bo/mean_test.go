package bo

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/check"
)

// TestMeanRun: a run with the constant mean is deterministic for any
// GOMAXPROCS and Workers, records "mean": "constant" and differs from the
// sample mean's run, whose trace records no mean (as before the option
// existed), for every kernel family (landmarks forced for plus).
func TestMeanRun(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	kernels := []string{NameBase, NameAvg, NameAvgNorm, NameMax, NamePlus, NameNystrom}
	for _, k := range kernels {
		for _, lm := range []int{0, 6} {
			if lm > 0 && k != NamePlus {
				continue
			}
			cfg := Config{Landmarks: lm, Protocol: Protocol{RawSamples: 64, Mean: gp.MeanConstant}}
			tr := sameTraceEverywhere(t, fmt.Sprintf("%s (landmarks %d)", k, lm), p, k, cfg, 4, 5)
			if tr.Mean != "constant" {
				t.Errorf("%s: trace mean %q, want constant", k, tr.Mean)
			}
			if last := tr.Evaluations[len(tr.Evaluations)-1].Hyper; last == nil || last.PriorMean == 0 {
				t.Errorf("%s: no fitted prior mean in the trace (%+v)", k, last)
			}
			cfg.Mean = gp.MeanSample
			sm := must(runP(p, k, cfg, 4, 5))
			if sm.Mean != "" || strings.Contains(traceJSON(t, sm), `"mean"`) || strings.Contains(traceJSON(t, sm), `"prior_mean"`) {
				t.Errorf("%s: sample-mean run records mean %q", k, sm.Mean)
			}
			if traceJSON(t, sm) == traceJSON(t, tr) {
				t.Errorf("%s (landmarks %d): the constant mean changed nothing", k, lm)
			}
		}
	}
}

// TestMeanModels: with the constant mean, the canonical twin (plus and
// max over a group with a canonical map) predicts as the fitted model,
// both with a fitted m̂ ≠ 0, and the constant liar's model conditioned on
// pending points has a mean of its own; asking a batch is deterministic.
func TestMeanModels(t *testing.T) {
	for _, pc := range []struct{ p, k string }{{"Rastrigin3d", NamePlus}, {"Griewank3d", NameMax}} {
		p := must(problem.New(pc.p, 0))
		lo, hi := p.Bounds()
		cfg := Config{Kernel: kernelOf(pc.k, p.Group(), p.BaseShape()), Init: 6, Protocol: Protocol{RawSamples: 32, Starts: 2, Mean: gp.MeanConstant}}
		build := func() *Optimizer {
			o := must(New(lo, hi, cfg, 3))
			for range 8 {
				x := must(o.Ask())
				if err := o.Tell(x, must(objectiveOf(p, x))); err != nil {
					t.Fatal(err)
				}
			}
			return o
		}
		o := build()
		if _, err := o.Ask(); err != nil {
			t.Fatal(err)
		}
		if o.canon == nil || o.pred == o.model {
			t.Fatalf("%s %s: no canonical model", pc.p, pc.k)
		}
		mf, mc := o.model.(*gp.GP).PriorMean(), o.pred.(*gp.GP).PriorMean()
		if mf == 0 || math.Abs(mf-mc) > 1e-6*max(1, math.Abs(mf)) {
			t.Errorf("%s %s: fitted m̂ %v, canonical twin's %v", pc.p, pc.k, mf, mc)
		}
		x := []float64{0.3 * hi[0], 0.1 * lo[1], 0.7 * hi[2]}
		m1, v1 := must2(t)(o.model.PredictStandardized(nil, x, nil, nil))
		z := make([]float64, o.canon.cd)
		o.canon.c.CanonicalTo(z, x)
		m2, v2 := must2(t)(o.pred.PredictStandardized(nil, z, nil, nil))
		if math.Abs(m1-m2) > 1e-6 || math.Abs(v1-v2) > 1e-6 {
			t.Errorf("%s %s: model (%v, %v), canonical twin (%v, %v)", pc.p, pc.k, m1, v1, m2, v2)
		}
		batch := must(o.AskBatch(3))
		if lm := o.pred.(*gp.GP).PriorMean(); lm == mf {
			t.Errorf("%s %s: the liar's model has the fitted model's m̂ %v", pc.p, pc.k, lm)
		}
		o2 := build()
		must(o2.Ask())
		again := must(o2.AskBatch(3))
		for i := range batch {
			if !check.SameBits(batch[i], again[i]) {
				t.Fatalf("%s %s: batch point %d %v, again %v", pc.p, pc.k, i, batch[i], again[i])
			}
		}
	}
}
