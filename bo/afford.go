package bo

import (
	"fmt"
	"math"
	"strings"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// Candidates that cannot be afforded. Auto and Portfolio — under every
// candidate list, the front ends' default included — leave out a
// candidate whose kernel costs more than AutoEnumerateLimit base-kernel
// evaluations per pair of points, so that a step over any group the
// library accepts costs a bounded multiple of plus's. Only the orbit
// averages (avg, avgnorm) have such a cost; the other candidates
// evaluate k_max, as plus does, or the base kernel. The cost of k_avg
// over a finite group G with base shape s, per pair (avgPairCost):
//
//   - a closed form — signflip (d + 1 exponentials), rotations, or a
//     group on some coordinates whose own k_avg has one — costs about one
//     base-kernel evaluation;
//   - the permanent closed form over permutation(m) and
//     hyperoctahedral(m) with RBF (m ≤ kernel.MaxPermanentDim), about
//     m·2^m multiply-adds with its gradient where a base-kernel
//     evaluation is about m, counts as 2^m;
//   - otherwise k_avg is enumerated: |G| evaluations (+Inf when |G| is too
//     large to count).
//
// Over a continuous group k_avg has a closed form or a quadrature and is
// never left out; this cost model does not bound it there. Over the
// scaling groups the exact average takes an adaptive quadrature per pair
// (tens to hundreds of base-kernel evaluations, more as the lengthscale
// shrinks), and a permanent over some coordinates of a larger space costs
// more than its 2^m: a portfolio or auto naming avg over them can step
// well beyond 4× plus's (measured: docs/performance.md,
// BenchmarkAvgCandidateStep). The front ends' default names no avg. With the limit of 64 (measured: AutoEnumerateLimit)
// every group of the committed studies keeps its candidates
// (hyperoctahedral(6) with RBF, the permanent, counts 64;
// hyperoctahedral(3) with Matérn-5/2, enumerated, 48; WLAN8d's 24),
// while permutation(m) and hyperoctahedral(m) with RBF leave avg out
// from m = 7, and with Matérn or another shape without the closed form
// from permutation(5) (120 elements) and hyperoctahedral(4) (384). The left-out candidates and the reason are
// Kernel.LeftOut, Trace.LeftOut and Diagnostics.LeftOut; the kernel's
// name stays the one asked for. A favoured candidate that is left out
// takes its odds with it; when no candidate is left, building the kernel
// fails (ErrBadConfig).
func affordable(name string, g orbit.Group, shape kernel.Shape) (ok bool, reason string) {
	if name != NameAvg && name != NameAvgNorm {
		return true, ""
	}
	cost, how := avgPairCost(g, shape)
	if cost <= AutoEnumerateLimit {
		return true, ""
	}
	return false, fmt.Sprintf("%s: k_avg over %s with %s %s, over the limit of %d base-kernel evaluations per pair (AutoEnumerateLimit)",
		name, g.Name(), shape, how, AutoEnumerateLimit)
}

// avgPairCost is the cost of k_avg over g with shape per pair of points,
// in base-kernel evaluations, and how it is computed (see affordable).
func avgPairCost(g orbit.Group, shape kernel.Shape) (float64, string) {
	if _, finite := g.(orbit.Finite); orbit.IsNil(g) || !finite {
		return 0, "has a closed form or a quadrature"
	}
	if _, err := kernel.NewAvg(kernel.Params{Shape: shape, Variance: 1, Lengthscale: 1}, g, kernel.Options{Method: kernel.Closed}); err != nil {
		n, err := orbit.Size(g)
		if err != nil {
			return math.Inf(1), "would be enumerated over a group too large to count"
		}
		return float64(n), fmt.Sprintf("would be enumerated: %d evaluations per pair", n)
	}
	inner := g
	if e, ok := g.(orbit.Embedded); ok {
		inner, _ = e.Inner()
	}
	if cg, ok := inner.(orbit.CoordinateGroup); ok {
		if permutes, _ := cg.CoordinateGroup(); permutes {
			m := inner.Dim()
			return math.Ldexp(1, m), fmt.Sprintf("is a permanent of order %d: 2^%d evaluations' worth per pair", m, m)
		}
	}
	return 1, "has a closed form"
}

// leaveOut removes from k's candidates those affordable refuses,
// recording them in k.leftOut, and keeps the odds on the favoured ones
// that remain.
func (k Kernel) leaveOut() (Kernel, error) {
	var kept []Kernel
	fav := k.favoured
	for i, a := range k.arms {
		ok, why := affordable(a.Name(), k.group, k.shape)
		if ok {
			kept = append(kept, a)
			continue
		}
		k.leftOut = append(k.leftOut, why)
		if k.isFavoured(i) {
			fav--
		}
	}
	if len(kept) == 0 {
		return Kernel{}, fmt.Errorf("%w: %s: no candidate can be afforded (%s)", ErrBadConfig, k.name, strings.Join(k.leftOut, "; "))
	}
	k.arms, k.favoured = kept, fav
	return k, nil
}

// LeftOut says which candidates auto or portfolio k left out because
// they cannot be afforded over its group, and why ("avg: k_avg over …"),
// in the order they were named; nil when none was (and for other
// kernels).
func (k Kernel) LeftOut() []string {
	if len(k.leftOut) == 0 {
		return nil
	}
	return append([]string(nil), k.leftOut...)
}
