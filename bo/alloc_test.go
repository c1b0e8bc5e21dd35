package bo

import (
	"testing"

	"github.com/symbo/symbo/bo/problem"
)

// TestAcquisitionAllocs: after warm-up, an acquisition evaluation (with and
// without gradient) and a whole bounded quasi-Newton ascent allocate
// nothing, for every kernel (STYLE.md), k_plus with landmarks included.
func TestAcquisitionAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	for _, pn := range []string{"Ackley2d", "Rastrigin5d"} {
		p := must(problem.New(pn, 0))
		lo, hi := p.Bounds()
		for _, k := range []string{NameBase, NameAvg, NameMax, NamePlus, NamePlus + "/landmarks"} {
			t.Run(pn+"/"+string(k), func(t *testing.T) {
				cfg := Config{Workers: 1}
				if k == NamePlus+"/landmarks" {
					k, cfg.Landmarks = NamePlus, 5 // 9 observations: 5 landmarks
				}
				cfg.Kernel = kernelOf(k, p.Group(), p.BaseShape())
				o := must(New(lo, hi, cfg, 3))
				for range 9 {
					x := must(o.Ask())
					if err := o.Tell(x, must(objectiveOf(p, x))); err != nil {
						t.Fatal(err)
					}
				}
				if err := o.fit(); err != nil {
					t.Fatal(err)
				}
				if lm := o.model.(interface{ Landmarks() int }).Landmarks(); (cfg.Landmarks > 0) != (lm > 0) {
					t.Fatalf("Landmarks %d: the model has %d landmarks", cfg.Landmarks, lm)
				}
				a := o.newAcq()
				o.ensureWorkers()
				s, q := o.ws[0], o.qn[0]
				x := append([]float64(nil), o.xs[0]...)
				x[0] = 0.3*lo[0] + 0.7*hi[0]
				g := make([]float64, len(x))
				if _, err := a.eval(s, x, g); err != nil {
					t.Fatal(err)
				}
				if n := testing.AllocsPerRun(20, func() { a.eval(s, x, nil) }); n != 0 {
					t.Errorf("eval allocates %v", n)
				}
				if n := testing.AllocsPerRun(20, func() { a.eval(s, x, g) }); n != 0 {
					t.Errorf("eval with gradient allocates %v", n)
				}
				f := func(x, grad []float64) float64 { v, _ := a.eval(s, x, grad); return v }
				dst := make([]float64, len(x))
				q.maximize(f, dst, x)
				if n := testing.AllocsPerRun(5, func() { q.maximize(f, dst, x) }); n != 0 {
					t.Errorf("ascent allocates %v", n)
				}
			})
		}
	}
}
