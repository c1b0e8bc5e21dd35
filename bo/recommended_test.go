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
