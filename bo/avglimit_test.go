package bo

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestAvgEnumerateLimit: avg and avgnorm named alone are refused by New
// with ErrBadConfig (an input error), naming the group, its cost per pair
// and AvgEnumerateLimit, where k_avg would be enumerated over more than
// AvgEnumerateLimit elements — permutation(10) with Matérn-5/2 (3628800
// elements, tens of minutes a step by extrapolation, which New used to
// accept), permutation(8) (40320), signflip(14) (16384, just above) — and
// accepted at the limit
// (signflip(13) with Matérn-5/2, 8192 elements, which then takes a
// step) and wherever k_avg has a closed form however large the group
// (RBF's permanent over permutation(10)). Deciding kernels over the
// refused groups still build: they leave avg out.
func TestAvgEnumerateLimit(t *testing.T) {
	cases := []struct {
		g      orbit.Group
		shape  kernel.Shape
		refuse bool
		rbfAlt bool // the message suggests the RBF shape
	}{
		{must(orbit.Permutation(10)), kernel.Matern52, true, true},
		{must(orbit.Permutation(8)), kernel.Matern32, true, true},
		{must(orbit.Hyperoctahedral(6)), kernel.Matern12, true, true},
		{must(orbit.SignFlip(14)), kernel.Matern52, true, true},
		{must(orbit.SignFlip(13)), kernel.Matern52, false, false},
		{must(orbit.Permutation(7)), kernel.Matern52, false, false},
		{must(orbit.Permutation(10)), kernel.RBF, false, false},
	}
	for _, c := range cases {
		d := c.g.Dim()
		lo, hi := box(d, 1)
		size := must(orbit.Size(c.g))
		if c.shape != kernel.RBF && (size > 8192) != c.refuse {
			t.Fatalf("%s: %d elements, limit %d: pick another case", c.g.Name(), size, 8192)
		}
		for _, name := range []string{NameAvg, NameAvgNorm} {
			k, err := ParseKernel(name, c.g, c.shape)
			if err != nil {
				t.Fatalf("ParseKernel(%s): %v", name, err)
			}
			_, err = New(lo, hi, Config{Kernel: k, Workers: 1}, 1)
			if !c.refuse {
				if err != nil {
					t.Errorf("%s over %s with %v (%d elements): %v", name, c.g.Name(), c.shape, size, err)
				}
				continue
			}
			msg := fmt.Sprint(err)
			if !errors.Is(err, ErrBadConfig) || errclass.Of(err) != errclass.Input || strings.Contains(msg, "\n") {
				t.Errorf("%s over %s with %v: %v, want ErrBadConfig on one line", name, c.g.Name(), c.shape, err)
				continue
			}
			for _, want := range []string{"kernel " + name, c.g.Name(), fmt.Sprintf("%d base-kernel evaluations per pair", size), "AvgEnumerateLimit", "plus", "portfolio"} {
				if !strings.Contains(msg, want) {
					t.Errorf("%s over %s with %v: %q does not name %q", name, c.g.Name(), c.shape, msg, want)
				}
			}
			if strings.Contains(msg, "base shape rbf") != c.rbfAlt {
				t.Errorf("%s over %s with %v: %q suggests rbf: %v, want %v", name, c.g.Name(), c.shape, msg, !c.rbfAlt, c.rbfAlt)
			}
		}
		if c.refuse {
			for _, name := range []string{NameAuto, NamePortfolio} {
				k := must(ParseKernel(name, c.g, c.shape))
				if _, err := New(lo, hi, Config{Kernel: k, Workers: 1}, 1); err != nil {
					t.Errorf("%s over %s with %v: %v", name, c.g.Name(), c.shape, err)
				}
			}
		}
	}
	// At the limit the kernel is not only built but steps.
	g := must(orbit.SignFlip(13))
	lo, hi := box(13, 1)
	o, err := New(lo, hi, Config{Kernel: Avg(g, kernel.Matern52), Init: 2, Workers: 1, Protocol: Protocol{RawSamples: 16, Starts: 1}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		x := make([]float64, 13)
		for j := range x {
			x[j] = float64((i+1)*(j+2)%7)/7 - 0.4
		}
		if err := o.Tell(x, x[0]-x[1]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := o.Ask(); err != nil {
		t.Errorf("avg over signflip(13) with Matérn-5/2, a step: %v", err)
	}
}

// TestAvgEnumerateLimitTooLargeToCount: a group too large to count
// (hyperoctahedral(20), 2^20·20! elements) with no closed form for the
// shape is refused the same way, by ErrBadConfig naming the limit.
func TestAvgEnumerateLimitTooLargeToCount(t *testing.T) {
	g := must(orbit.Hyperoctahedral(20))
	lo, hi := box(20, 1)
	_, err := New(lo, hi, Config{Kernel: Avg(g, kernel.Matern52), Workers: 1}, 1)
	if !errors.Is(err, ErrBadConfig) || !strings.Contains(fmt.Sprint(err), "AvgEnumerateLimit") {
		t.Errorf("avg over %s with Matérn-5/2: %v, want ErrBadConfig naming AvgEnumerateLimit", g.Name(), err)
	}
}

// TestAvgEnumerateLimitKeepsCommittedStudies: avg and avgnorm build on
// every problem of the committed records that ran them (lab/results,
// docs/results) whose k_avg is enumerated — the largest,
// hyperoctahedral(5) with Matérn-5/2 (Ackley5d, 3840 elements,
// lab/results/robustness) — or a large permanent (order 12), so those
// configurations keep running as recorded.
func TestAvgEnumerateLimitKeepsCommittedStudies(t *testing.T) {
	for _, name := range []string{
		// enumerated
		"Ackley1d", "Ackley2d", "Ackley3d", "Ackley4d", "Ackley5d", "CentredAckley2d", "ShiftedAckley2d", "ShiftedAckley3d",
		"WLAN8d", "WLANOther8d", "Targets4x2d", "Cluster3x2d", "Blocks2x3d", "PhaseRing6d", "Fleet8d",
		// permanents and closed forms
		"OffGriewank12d", "ShiftedAckley12dPerm", "OffLevy10dPerm", "BumpsPerm10d", "OffZakharov8dHyper", "Griewank6d:hyperoctahedral",
		"ShiftedAckley2d:rotation2d", "Scaling2d", "Griewank6d",
	} {
		p, err := problem.New(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := p.Bounds()
		for _, k := range []string{NameAvg, NameAvgNorm} {
			kern := must(ParseKernel(k, p.Group(), p.BaseShape()))
			if _, err := New(lo, hi, Config{Kernel: kern, Workers: 1}, 1); err != nil {
				t.Errorf("%s on %s (%s, %v): %v", k, name, p.Group().Name(), p.BaseShape(), err)
			}
		}
	}
}

// TestAvgEnumerateLimitBadShape: a shape outside kernel's table is
// refused for what it is (kernel.ErrInvalid, "unknown shape"), over a
// group above AvgEnumerateLimit as below it. checkAvgEnumeration ran
// first and, finding no closed form for the unknown shape, refused it as
// an enumeration over the limit, advising "base shape rbf".
func TestAvgEnumerateLimitBadShape(t *testing.T) {
	for _, n := range []int{4, 8} {
		g := must(orbit.Permutation(n))
		lo, hi := box(n, 1)
		for _, k := range []Kernel{Avg(g, kernel.Shape(99)), AvgNorm(g, kernel.Shape(99))} {
			_, err := New(lo, hi, Config{Kernel: k, Workers: 1}, 1)
			if !errors.Is(err, kernel.ErrInvalid) || errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "unknown shape") {
				t.Errorf("%s over permutation(%d), Shape(99): %v, want kernel.ErrInvalid naming the unknown shape", k.Name(), n, err)
			}
		}
	}
}
