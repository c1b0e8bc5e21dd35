package bo

import (
	"math"
	"slices"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestSoftEvidence: under a declared group the objective does not have (a
// shifted quadratic under sign flips) soft's fitted evidence exceeds
// plus's, its invariant part being overruled by the data; under one it has
// (an even function) it does not exceed plus's by the odds AutoOdds
// with which the portfolio favours plus. Each evidence is that of an
// optimizer of the kernel alone on the same observations.
func TestSoftEvidence(t *testing.T) {
	lo, hi := box(3, 2)
	g := must(orbit.SignFlip(3))
	shifted := func(x []float64) float64 { return -((x[0]-1)*(x[0]-1) + (x[1]+1)*(x[1]+1) + (x[2]-0.5)*(x[2]-0.5)) }
	even := func(x []float64) float64 { return -(x[0]*x[0] + 2*x[1]*x[1] + 3*x[2]*x[2]) }
	for seed := range uint64(3) {
		lml := func(name string, f func([]float64) float64) float64 {
			o := must(New(lo, hi, Config{Kernel: kernelOf(name, g, kernel.RBF), Init: 3, Protocol: Protocol{RawSamples: 64, Starts: 2}}, 5))
			autoData(t, []*Optimizer{o}, 3, 20, seed, f)
			must(o.Ask())
			return o.Diagnostics().LogMarginal
		}
		if s, p := lml(NameSoft, shifted), lml(NamePlus, shifted); !(s > p) {
			t.Errorf("seed %d, shifted: soft's evidence %v, plus's %v", seed, s, p)
		}
		if s, p := lml(NameSoft, even), lml(NamePlus, even); !(s < p+AutoOdds) {
			t.Errorf("seed %d, even: soft's evidence %v, plus's %v + odds", seed, s, p)
		}
	}
}

// TestSoftLeavesAboveTheCap: soft is exact at every n (its trace records
// no landmarks), and as a candidate of a portfolio it sits out the steps
// with more observations than Config.Landmarks — its evidence NaN, never
// the winner — and takes part below.
func TestSoftLeavesAboveTheCap(t *testing.T) {
	lo, hi := box(2, 2)
	g := must(orbit.Hyperoctahedral(2))
	f := func(x []float64) float64 { return -((x[0]-0.5)*(x[0]-0.5) + x[1]*x[1]) }
	k := must(PortfolioOf(g, kernel.RBF, NameNystrom, NameAvg, NameSoft, NamePlus))
	o := must(New(lo, hi, Config{Kernel: k, Init: 3, Landmarks: 8, Protocol: Protocol{RawSamples: 64, Starts: 2}}, 5))
	autoData(t, []*Optimizer{o}, 2, 6, 1, f)
	for n := 6; n < 11; n++ {
		x := must(o.Ask())
		ev := o.Diagnostics().Evidence
		if len(ev) != 4 {
			t.Fatalf("n = %d: evidence %v", n, ev)
		}
		if above := n > 8; above != math.IsNaN(ev[2]) {
			t.Errorf("n = %d (cap 8): soft's evidence %v", n, ev[2])
		}
		if n > 8 && o.Diagnostics().Kernel == NameSoft {
			t.Errorf("n = %d: soft won a step it sat out", n)
		}
		if slices.ContainsFunc([]float64{ev[0], ev[1], ev[3]}, math.IsNaN) {
			t.Errorf("n = %d: a capped candidate's evidence is NaN: %v", n, ev)
		}
		if err := o.Tell(x, f(x)); err != nil {
			t.Fatal(err)
		}
	}
	s := must(New(lo, hi, Config{Kernel: Soft(g, kernel.RBF), Init: 3, Landmarks: 4, Protocol: Protocol{RawSamples: 64, Starts: 2}}, 5))
	autoData(t, []*Optimizer{s}, 2, 8, 1, f)
	must(s.Ask())
	if h := s.Diagnostics().Hyper; h.Landmarks != 0 {
		t.Errorf("soft on 8 points, cap 4: %d landmarks", h.Landmarks)
	}
}

// TestFavouring: auto:o+…:f+… adds the odds AutoOdds to the evidence of
// each candidate after the colon, so the one predicting is the argmax of
// that score (ties to the earlier), and its evidence per candidate is the
// last-favoured auto's over the same candidates (the odds do not enter a
// fit). Over shifted and even objectives under sign flips, soft and plus
// favoured, the choice differs from the last-favoured rule's in at least
// one case (soft ahead of plus by less than the odds).
func TestFavouring(t *testing.T) {
	lo, hi := box(3, 2)
	g := must(orbit.SignFlip(3))
	shifted := func(x []float64) float64 { return -((x[0]-1)*(x[0]-1) + (x[1]+1)*(x[1]+1) + (x[2]-0.5)*(x[2]-0.5)) }
	even := func(x []float64) float64 { return -(x[0]*x[0] + 2*x[1]*x[1] + 3*x[2]*x[2]) }
	names := []string{NameNystrom, NameSoft, NamePlus}
	fav := must(AutoFavouring(g, kernel.RBF, names[:1], names[1:]))
	last := must(AutoOf(g, kernel.RBF, names...))
	differs := 0
	for _, f := range []func([]float64) float64{shifted, even} {
		for seed := range uint64(4) {
			of := must(New(lo, hi, Config{Kernel: fav, Init: 3, Protocol: Protocol{RawSamples: 64, Starts: 2}}, 5))
			ol := must(New(lo, hi, Config{Kernel: last, Init: 3, Protocol: Protocol{RawSamples: 64, Starts: 2}}, 5))
			autoData(t, []*Optimizer{of, ol}, 3, 6+4*int(seed), seed, f)
			must(of.Ask())
			must(ol.Ask())
			ev, evl := of.Diagnostics().Evidence, ol.Diagnostics().Evidence
			if !slices.Equal(ev, evl) {
				t.Fatalf("seed %d: evidence %v favouring soft and plus, %v favouring plus", seed, ev, evl)
			}
			best := 0
			for i := range ev {
				if ev[i]+AutoOdds*float64(min(i, 1)) > ev[best]+AutoOdds*float64(min(best, 1)) {
					best = i
				}
			}
			if got := of.Diagnostics().Kernel; got != names[best] {
				t.Errorf("seed %d: favouring soft and plus chose %s, evidence %v", seed, got, ev)
			}
			if of.Diagnostics().Kernel != ol.Diagnostics().Kernel {
				differs++
			}
		}
	}
	if differs == 0 {
		t.Error("favouring soft too never changed the choice: the test does not exercise the rule")
	}
}
