package bo

import (
	"testing"

	"github.com/symbo/symbo/bo/problem"
)

// probeCount runs Recommended's protocol, the portfolio with avg
// (portfolio:nystrom+avg:soft+plus), with the probe rule r on the
// problem for 5 + 6 evaluations at each seed and returns how many BO
// steps its fixed-point probe decided.
func probeCount(t *testing.T, name string, r ProbeRule, seeds int) int {
	t.Helper()
	p := must(problem.New(name, 0))
	lo, hi := p.Bounds()
	n := 0
	for seed := range uint64(seeds) {
		cfg := must(Recommended(p.Group(), p.BaseShape()))
		// Recommended's kernel has no avg (no probe): the portfolio with avg.
		cfg.Kernel = must(ParseKernel("portfolio:nystrom+avg:soft+plus", p.Group(), p.BaseShape())).With(cfg.Kernel.Options())
		dec := cfg.Kernel.Options()
		dec.Probe = r
		cfg.Kernel = cfg.Kernel.With(dec)
		cfg.Minimize, cfg.RawSamples, cfg.Starts, cfg.Workers = !p.Maximize(), 128, 3, 1
		o := must(New(lo, hi, cfg, seed))
		for range 11 {
			x := must(o.Ask())
			if o.Diagnostics().Probe {
				n++
			}
			if err := o.Tell(x, must(objectiveOf(p, x))); err != nil {
				t.Fatal(err)
			}
		}
	}
	return n
}

// TestProbeRules: off never probes; earned probes at most as often as
// always where the optimum is off the fixed points (ShiftedRastrigin4d),
// where always probes.
func TestProbeRules(t *testing.T) {
	seeds := 4
	if testing.Short() {
		seeds = 2
	}
	if n := probeCount(t, "ShiftedRastrigin4d", ProbeOff, seeds); n != 0 {
		t.Errorf("ShiftedRastrigin4d, probe off: %d probes", n)
	}
	always, earned := probeCount(t, "ShiftedRastrigin4d", ProbeAlways, seeds), probeCount(t, "ShiftedRastrigin4d", ProbeEarned, seeds)
	if always == 0 {
		t.Fatalf("ShiftedRastrigin4d, probe always: no probe in %d seeds: the comparison cannot fail", seeds)
	}
	if earned > always {
		t.Errorf("ShiftedRastrigin4d: earned probed %d times, always %d", earned, always)
	}
	t.Logf("ShiftedRastrigin4d: always %d probes, earned %d", always, earned)
}

func TestParseProbeRule(t *testing.T) {
	for _, r := range []ProbeRule{ProbeAlways, ProbeEarned, ProbeOff} {
		if got, err := ParseProbeRule(" " + r.String() + " "); err != nil || got != r {
			t.Errorf("ParseProbeRule(%q) = %v, %v", r.String(), got, err)
		}
	}
	if _, err := ParseProbeRule("sometimes"); err == nil {
		t.Error("ParseProbeRule(sometimes): no error")
	}
	if err := (DecideOptions{Probe: ProbeOff + 1}).check(); err == nil {
		t.Error("an unknown probe rule passes check")
	}
}
