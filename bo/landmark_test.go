package bo

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/orbit"
)

// TestLandmarksDefaultKeepsBits: up to DefaultLandmarks observations the
// default, "never" (−1) and any cap at least the run's length give the
// paper's k_plus run bit for bit (the design is every observation).
func TestLandmarksDefaultKeepsBits(t *testing.T) {
	for _, k := range []string{NamePlus, NameBase, NameAvg} {
		t.Run(k, func(t *testing.T) { landmarksKeepBits(t, k) })
	}
}

func landmarksKeepBits(t *testing.T, k string) {
	p := must(problem.New("Rastrigin3d", 0))
	var ref *Trace
	for _, lm := range []int{0, -1, 9, 1000} {
		tr := must(runP(p, k, Config{Landmarks: lm, Protocol: Protocol{RawSamples: 64, Starts: 3}}, 4, 5))
		for i, e := range tr.Evaluations {
			if e.Hyper != nil && e.Hyper.Landmarks != 0 {
				t.Fatalf("Landmarks %d: evaluation %d used %d landmarks", lm, i, e.Hyper.Landmarks)
			}
		}
		want := lm
		if lm == 0 {
			want = DefaultLandmarks
		}
		if tr.Landmarks != want {
			t.Errorf("Landmarks %d: trace records %d", lm, tr.Landmarks)
		}
		if ref == nil {
			ref = tr
			continue
		}
		for i, e := range tr.Evaluations {
			if !check.SameBits(e.X, ref.Evaluations[i].X) || math.Float64bits(e.F) != math.Float64bits(ref.Evaluations[i].F) {
				t.Fatalf("Landmarks %d: evaluation %d differs: %v, default %v", lm, i, e.X, ref.Evaluations[i].X)
			}
		}
	}
}

// TestLandmarkRunDeterministic: with landmarks in use (a cap below the
// observations) a run of every kernel is the same bits for any GOMAXPROCS
// and Workers, records the landmarks of every fit beyond the cap (none
// for soft, which the cap does not apply to, and whose trace says so), and
// stays in the box.
func TestLandmarkRunDeterministic(t *testing.T) {
	for _, k := range KernelNames() {
		p := must(problem.New("Rastrigin3d", 0))
		tr := sameTraceEverywhere(t, k, p, k, Config{Landmarks: 6, Protocol: Protocol{RawSamples: 64, Starts: 3}}, 6, 2)
		lo, hi := p.Bounds()
		for i, e := range tr.Evaluations {
			if !inBox(e.X, lo, hi) {
				t.Fatalf("%s: evaluation %d outside the box", k, i)
			}
			if e.Phase != PhaseBO {
				continue
			}
			n := i // observations when it was asked
			capped := k != NameSoft
			if capped != (tr.Landmarks == 6) {
				t.Errorf("%s: trace records Landmarks %d", k, tr.Landmarks)
			}
			if lmk := e.Hyper.Landmarks; (capped && n > 6) != (lmk > 0) || lmk > 6 {
				t.Errorf("%s: evaluation %d (n = %d): %d landmarks", k, i, n, lmk)
			}
		}
	}
}

// TestLandmarkBatchAndRestore: pending points beyond the cap (the
// constant liar conditions a landmark GP in the original coordinates)
// keep batches off each other's orbits, and an optimizer restored from a
// history with pending points proposes the same bits.
func TestLandmarkBatchAndRestore(t *testing.T) {
	p := must(problem.New("Rastrigin3d", 0))
	lo, hi := p.Bounds()
	g := p.Group()
	cfg := Config{Kernel: kernelOf(NamePlus, g, p.BaseShape()), Minimize: true, Init: 5, Landmarks: 4, Protocol: Protocol{RawSamples: 64, Starts: 3}}
	build := func() *Optimizer {
		o := must(New(lo, hi, cfg, 7))
		for range 8 {
			x := must(o.Ask())
			must(0, o.Tell(x, must(p.Evaluate(x))))
		}
		return o
	}
	a := build()
	batch := must(a.AskBatch(4))
	checkOffOrbits(t, "landmark batch", g, lo, hi, batch)
	checkRestoreWithPending(t, lo, hi, cfg, 7, build, batch[2])
}

// TestLandmarkInvariance: the acquisition of a landmark GP of every
// invariant kernel is invariant under the group, with and without pending
// points.
func TestLandmarkInvariance(t *testing.T) {
	for _, k := range []string{NamePlus, NameAvg, NameAvgNorm, NameMax} {
		t.Run(k, func(t *testing.T) { landmarkInvariance(t, k) })
	}
}

func landmarkInvariance(t *testing.T, k string) {
	p := must(problem.New("Ackley2d", 0))
	lo, hi := p.Bounds()
	g := p.Group().(orbit.Finite)
	ng := must(orbit.Size(g))
	o := must(New(lo, hi, Config{Kernel: kernelOf(k, g, p.BaseShape()), Init: 6, Landmarks: 5, Protocol: Protocol{RawSamples: 32, Starts: 2}}, 4))
	for range 9 {
		x := must(o.Ask())
		must(0, o.Tell(x, must(objectiveOf(p, x))))
	}
	for _, pending := range []bool{false, true} {
		if pending {
			must(o.Ask())
		}
		must(0, o.fit())
		if o.pred == nil || o.model.(interface{ Landmarks() int }).Landmarks() == 0 {
			t.Fatal("no landmark model")
		}
		a := o.newAcq()
		s := newAcqScratch(p.Dim(), nil)
		rng := rand.New(rand.NewPCG(8, 8))
		x, gx := make([]float64, p.Dim()), make([]float64, p.Dim())
		for range 5 {
			for i := range x {
				x[i] = lo[i] + (hi[i]-lo[i])*rng.Float64()
			}
			ax := must(a.eval(s, x, nil))
			for j := range ng {
				g.ActTo(gx, x, j)
				if agx := must(a.eval(s, gx, nil)); math.Abs(agx-ax) > 1e-8*math.Max(1, math.Abs(ax)) {
					t.Errorf("pending %v: α(g%d·x) = %v, α(x) = %v", pending, j, agx, ax)
				}
			}
		}
	}
}
