package bo

import (
	"errors"
	"math"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestAcquisitionDerivatives: every built-in acquisition's ∂α/∂μ and
// ∂α/∂σ match central differences, and Value is finite at σ = 0.
func TestAcquisitionDerivatives(t *testing.T) {
	ctx := AcqContext{T: 4, Beta: 2.3, Best: 0.4}
	for _, name := range AcquisitionNames() {
		a := must(ParseAcquisition(name))
		for _, p := range [][2]float64{{0.1, 0.5}, {1.3, 0.2}, {-2, 1.5}, {0.4, 1e-3}, {5, 3}} {
			mu, sd := p[0], p[1]
			_, dmu, dsd := a.Value(ctx, mu, sd)
			const h = 1e-6
			vp, _, _ := a.Value(ctx, mu+h, sd)
			vm, _, _ := a.Value(ctx, mu-h, sd)
			if fd := (vp - vm) / (2 * h); math.Abs(fd-dmu) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("%s at (%g, %g): ∂α/∂μ = %g, finite differences %g", name, mu, sd, dmu, fd)
			}
			vp, _, _ = a.Value(ctx, mu, sd+h)
			vm, _, _ = a.Value(ctx, mu, sd-h)
			if fd := (vp - vm) / (2 * h); math.Abs(fd-dsd) > 1e-6*(1+math.Abs(fd)) {
				t.Errorf("%s at (%g, %g): ∂α/∂σ = %g, finite differences %g", name, mu, sd, dsd, fd)
			}
		}
		for _, mu := range []float64{-1, 0.4, 2} {
			v, dmu, _ := a.Value(ctx, mu, 0)
			if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(dmu) {
				t.Errorf("%s at σ = 0, μ = %g: %g, %g", name, mu, v, dmu)
			}
		}
	}
	// The closed forms, independently: UCB μ + √β σ; EI by quadrature of
	// E[max(f − y⁺, 0)] over f ~ N(μ, σ²).
	if v, _, _ := (UCB{}).Value(ctx, 0.3, 0.7); math.Abs(v-(0.3+math.Sqrt(2.3)*0.7)) > 1e-15 {
		t.Errorf("UCB = %v", v)
	}
	mu, sd := 0.9, 0.6
	var q float64
	const m = 200000
	for i := range m {
		u := -10 + 20*(float64(i)+0.5)/m
		f := mu + sd*u
		q += max(f-ctx.Best, 0) * math.Exp(-u*u/2) / math.Sqrt(2*math.Pi) * 20 / m
	}
	if v, _, _ := (EI{}).Value(ctx, mu, sd); math.Abs(v-q) > 1e-8 {
		t.Errorf("EI = %v, quadrature %v", v, q)
	}
}

// TestParseAcquisition: names round-trip; an unknown name is ErrBadConfig.
func TestParseAcquisition(t *testing.T) {
	for _, n := range AcquisitionNames() {
		if a, err := ParseAcquisition(" " + n + " "); err != nil || a.Name() != n {
			t.Errorf("%q: %v, %v", n, a, err)
		}
	}
	if _, err := ParseAcquisition("pi"); !errors.Is(err, ErrBadConfig) {
		t.Errorf("unknown acquisition: %v", err)
	}
}

// meanOnly is a caller's own acquisition (a pure-exploitation posterior mean
// minus σ), to show one type is all a new acquisition needs.
type meanOnly struct{}

func (meanOnly) Name() string { return "mean" }
func (meanOnly) Value(c AcqContext, mu, sd float64) (a, dmu, dsd float64) {
	return mu, 1, 0
}

// TestCustomAcquisition: a caller's acquisition drives Ask; traces name
// it and record no β.
func TestCustomAcquisition(t *testing.T) {
	g := must(orbit.SignFlip(2))
	lo, hi := box(2, 1)
	o := must(New(lo, hi, Config{Kernel: Plus(g, kernel.RBF), Acquisition: meanOnly{}, Init: 3, Protocol: Protocol{RawSamples: 32, Starts: 2}}, 1))
	for range 5 {
		x := must(o.Ask())
		must(0, o.Tell(x, toy(x)))
	}
	if d := o.Diagnostics(); d.Phase != PhaseBO || !math.IsNaN(d.Beta) {
		t.Errorf("diagnostics %+v", d)
	}
}
