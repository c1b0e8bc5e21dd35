package bo_test

import (
	"errors"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestRecommended: the recommended configuration is the portfolio over
// the group with BoTorch's priors, a constant mean, anchored candidate
// fits, the probe window and normalized inputs — none of them the zero
// Config's — and a nil group is bad input.
func TestRecommended(t *testing.T) {
	g, err := orbit.Hyperoctahedral(3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := bo.Recommended(g, kernel.Matern52)
	if err != nil {
		t.Fatal(err)
	}
	if c.Kernel.Name() != bo.RecommendedKernel || c.Kernel.Group() != g || c.Prior != gp.PriorBoTorch || c.Mean != gp.MeanConstant ||
		c.Kernel.Options().CandidateFit != bo.CandidateFitAnchored || c.Kernel.Options().ProbeWindow != bo.DefaultProbeWindow || c.Kernel.Options().Probe != bo.ProbeEarned ||
		!c.ExcludeObserved || !c.Normalize || !c.ARD {
		t.Errorf("Recommended: kernel %s over %v, prior %v, mean %v, candidate fit %v, probe window %d",
			c.Kernel.Name(), c.Kernel.Group(), c.Prior, c.Mean, c.Kernel.Options().CandidateFit, c.Kernel.Options().ProbeWindow)
	}
	want, _ := bo.ParseKernel(bo.RecommendedKernel, g, kernel.Matern52)
	if got := c.Kernel.Candidates(); len(got) != 3 || len(got) != len(want.Candidates()) {
		t.Errorf("candidates %v, want %v", got, want.Candidates())
	}
	if _, err := bo.New([]float64{-1, -1, -1}, []float64{1, 1, 1}, c, 1); err != nil {
		t.Errorf("New(Recommended): %v", err)
	}
	if _, err := bo.Recommended(nil, kernel.RBF); !errors.Is(err, bo.ErrBadConfig) {
		t.Errorf("nil group: %v, want ErrBadConfig", err)
	}
	var typedNil *orbit.SignFlipGroup
	if _, err := bo.Recommended(typedNil, kernel.RBF); !errors.Is(err, bo.ErrBadConfig) {
		t.Errorf("typed nil group: %v, want ErrBadConfig", err)
	}
}

// TestParseRecommended: ParseRecommended is ParseKernel's kernel with
// Recommended's deciding options (Recommended's own kernel is
// ParseRecommended(RecommendedKernel)); a list the rule against
// quadrature empties is refused there, not at New.
func TestParseRecommended(t *testing.T) {
	g, err := orbit.Hyperoctahedral(3)
	if err != nil {
		t.Fatal(err)
	}
	c, err := bo.Recommended(g, kernel.RBF)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{bo.RecommendedKernel, "portfolio:nystrom+avg:soft+plus", "auto", "plus"} {
		k, err := bo.ParseRecommended(name, g, kernel.RBF)
		if err != nil {
			t.Fatal(err)
		}
		p, err := bo.ParseKernel(name, g, kernel.RBF)
		if err != nil {
			t.Fatal(err)
		}
		if k.Name() != p.Name() || k.Options() != c.Kernel.Options() || p.Options() != (bo.DecideOptions{}) {
			t.Errorf("%s: ParseRecommended %s with %+v, ParseKernel %s with %+v; Recommended's options %+v", name, k.Name(), k.Options(), p.Name(), p.Options(), c.Kernel.Options())
		}
	}
	s, err := orbit.Scaling([]float64{0.1, 0.1}, []float64{10, 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bo.ParseRecommended("portfolio:avg+avgnorm", s, kernel.RBF); !errors.Is(err, bo.ErrBadConfig) {
		t.Errorf("portfolio of avg and avgnorm over scaling(2): err = %v, want ErrBadConfig", err)
	}
	if _, err := bo.ParseRecommended("nosuch", g, kernel.RBF); !errors.Is(err, bo.ErrUnknownKernel) {
		t.Errorf("unknown kernel: err = %v, want ErrUnknownKernel", err)
	}
}

// TestRecommendedBadShape: a shape outside kernel.Shapes() is refused
// where it is given — by Recommended, ParseRecommended and ParseKernel,
// with ErrBadConfig — not later by New.
func TestRecommendedBadShape(t *testing.T) {
	g, err := orbit.Hyperoctahedral(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, shape := range []kernel.Shape{-1, kernel.Shape(len(kernel.Shapes())), 99} {
		if _, err := bo.Recommended(g, shape); !errors.Is(err, bo.ErrBadConfig) {
			t.Errorf("Recommended(%v): err = %v, want ErrBadConfig", shape, err)
		}
		for _, name := range []string{bo.RecommendedKernel, "plus", "base", "nystrom", "auto:nystrom+plus"} {
			if _, err := bo.ParseRecommended(name, g, shape); !errors.Is(err, bo.ErrBadConfig) {
				t.Errorf("ParseRecommended(%s, %v): err = %v, want ErrBadConfig", name, shape, err)
			}
			if _, err := bo.ParseKernel(name, g, shape); !errors.Is(err, bo.ErrBadConfig) {
				t.Errorf("ParseKernel(%s, %v): err = %v, want ErrBadConfig", name, shape, err)
			}
		}
	}
}
