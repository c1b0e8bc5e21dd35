package bo

import (
	"errors"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestConfigBudget: Config.Budget reaches the optimizer's GPs: a budget
// too small for the GP of the told points makes Ask fail with
// orbit.ErrOverBudget, while the same study with the default budget (0,
// whatever SYMBO_MEMORY_BUDGET says) proposes a point and one with a
// budget that holds it proposes the same bits. A negative budget is
// ErrBadConfig.
func TestConfigBudget(t *testing.T) {
	t.Setenv("SYMBO_MEMORY_BUDGET", "1KiB")
	g := must(orbit.Hyperoctahedral(2))
	lo, hi := box(2, 1)
	for _, k := range []Kernel{Base(kernel.RBF), Plus(g, kernel.RBF), Avg(g, kernel.RBF)} {
		ask := func(b int64) ([]float64, error) {
			o, err := New(lo, hi, Config{Kernel: k, Init: 3, Budget: b, Workers: 1, Protocol: Protocol{RawSamples: 16, Starts: 2}}, 1)
			if err != nil {
				return nil, err
			}
			for _, p := range [][]float64{{0.1, 0.2}, {-0.5, 0.3}, {0.7, -0.9}, {0.2, 0.8}} {
				if err := o.Tell(p, p[0]-p[1]*p[1]); err != nil {
					return nil, err
				}
			}
			return o.Ask()
		}
		if _, err := ask(256); !errors.Is(err, orbit.ErrOverBudget) {
			t.Errorf("%s, budget 256 B: %v, want orbit.ErrOverBudget", k.Name(), err)
		}
		ref, err := ask(0)
		if err != nil {
			t.Errorf("%s, default budget: %v", k.Name(), err)
			continue
		}
		got, err := ask(1 << 20)
		if err != nil || got[0] != ref[0] || got[1] != ref[1] {
			t.Errorf("%s, budget 1 MiB: %v, %v; default budget: %v", k.Name(), got, err, ref)
		}
	}
	if _, err := New(lo, hi, Config{Budget: -1}, 1); !errors.Is(err, ErrBadConfig) {
		t.Errorf("negative Budget: %v, want ErrBadConfig", err)
	}
}
