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
// library accepts costs a bounded multiple of plus's: about the sum of
// the candidates' steps, since a portfolio maximizes each one's
// acquisition (measured: docs/performance.md). Only the orbit
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
// Over a continuous group k_avg has a closed form or a quadrature: this
// cost model does not count it. Over rotation2d the closed form costs
// about one base-kernel evaluation; over the scaling groups the exact
// average takes an adaptive quadrature per pair. A permanent over some
// coordinates of a larger space is counted as its 2^m, under what it
// costs at small n (measured, with both: docs/performance.md,
// BenchmarkAvgCandidateStep).
//
// With the limit of 64 (measured: AutoEnumerateLimit) every group of
// the committed studies keeps its candidates (hyperoctahedral(6) with
// RBF, the permanent, counts 64;
// hyperoctahedral(3) with Matérn-5/2, enumerated, 48; WLAN8d's 24),
// while permutation(m) and hyperoctahedral(m) with RBF leave avg out
// from m = 7, and with Matérn or another shape without the closed form
// from permutation(5) (120 elements) and hyperoctahedral(4) (384). The left-out candidates and the reason are
// Kernel.LeftOut, Trace.LeftOut and Diagnostics.LeftOut; the kernel's
// name stays the one asked for. A favoured candidate that is left out
// takes its odds with it; when no candidate is left, building the kernel
// fails (ErrBadConfig) — under Afford, which Kernel.With applies, New
// does.
//
// DecideOptions.Afford (set by Recommended, so by the front ends, for
// the lists a user names; without it, the zero value, every committed
// record keeps the rule above alone) leaves out two more:
//
//   - avg and avgnorm over the scaling groups (orbit.Segmenter:
//     scaling, scalingdir, alone or on some coordinates), whose exact
//     average takes an adaptive quadrature per pair, tens to hundreds of
//     base-kernel evaluations, more as the lengthscale shrinks;
//   - an enumerated avg or avgnorm over more than AffordEnumerateLimit
//     elements. Its acquisition's ascents differentiate |G| κ terms per
//     pair against every observation: where auto picks it, or in a
//     portfolio, which maximizes every candidate's acquisition, they
//     took the step past 4× plus's over permutation(4) (24 elements)
//     and hyperoctahedral(3) (48) with Matérn-5/2.
func affordable(name string, g orbit.Group, shape kernel.Shape, strict bool) (ok bool, reason string) {
	if name != NameAvg && name != NameAvgNorm {
		return true, ""
	}
	if strict && isScaling(g) {
		return false, fmt.Sprintf("%s: k_avg over %s takes an adaptive quadrature per pair (DecideOptions.Afford)", name, g.Name())
	}
	cost, how, enumerated := avgPairCost(g, shape)
	if cost > AutoEnumerateLimit {
		return false, fmt.Sprintf("%s: k_avg over %s with %s %s, over the limit of %d base-kernel evaluations per pair (AutoEnumerateLimit)",
			name, g.Name(), shape, how, AutoEnumerateLimit)
	}
	if strict && enumerated && cost > AffordEnumerateLimit {
		return false, fmt.Sprintf("%s: k_avg over %s with %s %s, over the limit of %d under DecideOptions.Afford (AffordEnumerateLimit)",
			name, g.Name(), shape, how, AffordEnumerateLimit)
	}
	return true, ""
}

// AffordEnumerateLimit is the largest group over which auto and a
// portfolio keep an enumerated avg or avgnorm under DecideOptions.Afford
// (see affordable): 16 keeps permutation(3) with Matérn-5/2 (6
// elements), where the list portfolio:nystrom+avg:soft+plus steps within
// the 4× bound on plus's step, and sign flips of up to four coordinates;
// it leaves out permutation(4) (24 elements) and hyperoctahedral(3)
// (48), where that list's step went past 4× plus's in a cell's median,
// and auto's in a cell where it picked avg (measured:
// docs/performance.md, "Enumerated averages over more than 16
// elements").
const AffordEnumerateLimit = 16

// AvgEnumerateLimit is the largest group over which New accepts avg or
// avgnorm named alone (Avg, AvgNorm, ParseKernel, and so every front
// end) when k_avg over it is enumerated. Which k_avg is enumerated
// (avgPairCost): over a finite group, every one but RBF's closed forms
// — signflip, permutation(m) and hyperoctahedral(m) up to
// kernel.MaxPermanentDim (the permanent), and those groups on some
// coordinates; the Matérn shapes enumerate over every finite group, and
// RBF over blockperm, cyclic, pairedperm and any group without a closed
// form. Over a continuous group k_avg is a closed form, a quadrature or
// a fixed discretization, never refused here.
//
// An enumerated k_avg costs |G| base-kernel evaluations per pair of
// points, O(|G|·d), whatever n: a Gram on n points n(n+1)/2·|G|, a fit
// about 20 of them (see Cost in the package doc), and every prediction
// of the acquisition's ascents n·|G| more with as many gradient terms —
// a step grows linearly in |G| (measured, per Gram and per step:
// docs/performance.md, "Explicit orbit averages over large groups").
// Above the limit New fails with ErrBadConfig, before anything is
// built, naming |G| and the alternatives: plus or soft (k_max, whose
// orbit distance has a closed form over sign flips, permutations and
// signed permutations: O(d log d) per pair), auto or portfolio (which
// leave avg out there; see affordable), or the RBF shape where k_avg
// over the group has a closed form.
//
// 8192 keeps every configuration of the committed studies (the largest
// enumeration: hyperoctahedral(5) with Matérn-5/2, 3840 elements, in
// lab/results/robustness) and permutation(7) (5040) with any shape; it
// refuses permutation(8) (40320) and hyperoctahedral(6) (46080) with
// Matérn, about ten times that enumeration's work, and permutation(10)
// (3628800), about a thousand times. The deciding kernels' own limits
// (AutoEnumerateLimit, AffordEnumerateLimit) are far below it, so their
// candidates are never refused by it.
const AvgEnumerateLimit = 1 << 13

// checkAvgEnumeration refuses (ErrBadConfig) k_avg over g with shape
// when it would be enumerated over more than AvgEnumerateLimit elements
// (see AvgEnumerateLimit). A shape outside kernel's table is left to the
// family, whose error names it (avgPairCost would count it as
// enumerated, for want of a closed form).
func checkAvgEnumeration(g orbit.Group, shape kernel.Shape) error {
	if (kernel.Params{Shape: shape, Variance: 1, Lengthscale: 1}).Validate() != nil {
		return nil
	}
	cost, how, enumerated := avgPairCost(g, shape)
	if !enumerated || cost <= AvgEnumerateLimit {
		return nil
	}
	alt := "plus or soft, or auto or portfolio (which leave avg out here)"
	if shape != kernel.RBF {
		if _, _, e := avgPairCost(g, kernel.RBF); !e {
			alt += ", or base shape rbf, over which k_avg has a closed form"
		}
	}
	what := how
	if !math.IsInf(cost, 1) {
		what = fmt.Sprintf("would be enumerated: %.0f base-kernel evaluations per pair of points, n(n+1)/2·%.0f per Gram on n points", cost, cost)
	}
	return fmt.Errorf("%w: k_avg over %s with %s %s, over the limit of %d elements (AvgEnumerateLimit); use %s",
		ErrBadConfig, g.Name(), shape, what, AvgEnumerateLimit, alt)
}

// avgPairCost is the cost of k_avg over g with shape per pair of points,
// in base-kernel evaluations, how it is computed (see affordable), and
// whether it is enumerated.
func avgPairCost(g orbit.Group, shape kernel.Shape) (cost float64, how string, enumerated bool) {
	if _, finite := g.(orbit.Finite); orbit.IsNil(g) || !finite {
		return 0, "has a closed form or a quadrature", false
	}
	if _, err := kernel.NewAvg(kernel.Params{Shape: shape, Variance: 1, Lengthscale: 1}, g, kernel.Options{Method: kernel.Closed}); err != nil {
		n, err := orbit.Size(g)
		if err != nil {
			return math.Inf(1), "would be enumerated over a group too large to count", true
		}
		return float64(n), fmt.Sprintf("would be enumerated: %d evaluations per pair", n), true
	}
	inner := g
	if e, ok := g.(orbit.Embedded); ok {
		inner, _ = e.Inner()
	}
	if cg, ok := inner.(orbit.CoordinateGroup); ok {
		if permutes, _ := cg.CoordinateGroup(); permutes {
			m := inner.Dim()
			return math.Ldexp(1, m), fmt.Sprintf("is a permanent of order %d: 2^%d evaluations' worth per pair", m, m), false
		}
	}
	return 1, "has a closed form", false
}

// isScaling reports whether g is a scaling group, alone or on some
// coordinates: k_avg over it is the exact average by quadrature.
func isScaling(g orbit.Group) bool {
	if e, ok := g.(orbit.Embedded); ok {
		g, _ = e.Inner()
	}
	_, ok := g.(orbit.Segmenter)
	return ok
}

// leaveOut records k's candidates as named and removes those affordable
// refuses (under k.decide), recording them in k.leftOut, keeping the odds
// on the favoured ones that remain.
func (k Kernel) leaveOut() (Kernel, error) {
	k.named, k.namedFavoured = k.arms, k.favoured
	var err error
	k.arms, k.favoured, k.leftOut, err = afford(k.name, k.named, k.namedFavoured, k.group, k.shape, k.decide.Afford)
	if err != nil {
		return Kernel{}, err
	}
	return k, nil
}

// afford returns the candidates of named (the last favoured of them
// favoured) that affordable keeps, how many of those are favoured, and
// the reasons of those it leaves out; an error when none is left.
func afford(name string, named []Kernel, favoured int, g orbit.Group, shape kernel.Shape, strict bool) (kept []Kernel, fav int, leftOut []string, err error) {
	fav = favoured
	for i, a := range named {
		ok, why := affordable(a.Name(), g, shape, strict)
		if ok {
			kept = append(kept, a)
			continue
		}
		leftOut = append(leftOut, why)
		if i >= len(named)-favoured {
			fav--
		}
	}
	if len(kept) == 0 {
		return named, favoured, leftOut, fmt.Errorf("%w: %s: no candidate can be afforded (%s)", ErrBadConfig, name, strings.Join(leftOut, "; "))
	}
	return kept, fav, leftOut, nil
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
