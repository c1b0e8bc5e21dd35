package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Verdicts of a replicated comparison.
const (
	VerdictHolds       = "holds"            // significant on both seed sets, same direction
	VerdictMainOnly    = "main only"        // significant on the main set only
	VerdictRepOnly     = "replication only" // significant on the replication only
	VerdictReversed    = "reversed"         // significant on both, opposite directions
	VerdictNeither     = "neither"          // significant on neither
	VerdictUnavailable = "—"                // a set lacks the cells
)

// Verdict classifies a comparison measured on a main and a replication
// seed set.
func Verdict(main, rep Effect) string {
	switch {
	case math.IsNaN(main.P) || math.IsNaN(rep.P):
		return VerdictUnavailable
	case main.Significant && rep.Significant && (main.Est > 0) == (rep.Est > 0):
		return VerdictHolds
	case main.Significant && rep.Significant:
		return VerdictReversed
	case main.Significant:
		return VerdictMainOnly
	case rep.Significant:
		return VerdictRepOnly
	}
	return VerdictNeither
}

// PairComparison is kernel A against kernel B on one problem, measured
// on two disjoint seed sets: the mean paired difference A − B (lower is
// better, so a negative difference says A is better) with its interval
// at the level Holm's procedure over every pair of every problem of its
// set tested it at (see Holm).
type PairComparison struct {
	Problem     string `json:"problem"`
	A           string `json:"a"`
	B           string `json:"b"`
	Main        Effect `json:"main"`
	Replication Effect `json:"replication"`
	Verdict     string `json:"verdict"`
}

// pairFamily returns every pair (a, b) of kernels with cells on a problem,
// a before b in kernels' order, with its paired effect on per; nil
// effects are pairs without shared seeds.
func pairFamily(problems, kernels []string, per PerSeed) map[[3]string]*Effect {
	out := map[[3]string]*Effect{}
	for _, p := range problems {
		for i, a := range kernels {
			for _, b := range kernels[i+1:] {
				x, y := pairedCols(per[p][a], per[p][b])
				if len(x) == 0 {
					continue
				}
				e := pairedEffect(diff(x, y))
				out[[3]string{p, a, b}] = &e
			}
		}
	}
	fam := make([]*Effect, 0, len(out))
	for _, k := range sortedKeys(out) {
		fam = append(fam, out[k])
	}
	Holm(fam)
	return out
}

func sortedKeys(m map[[3]string]*Effect) [][3]string {
	keys := make([][3]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b [3]string) int {
		return strings.Compare(strings.Join(a[:], "\x00"), strings.Join(b[:], "\x00"))
	})
	return keys
}

// Replicate compares every pair of kernels of every problem on the main
// and the replication seed sets (each set one Holm family), oriented so
// that A is the kernel with the lower mean over the main set's seeds both
// ran (the paired mean; the replication set's when the main set has no
// shared seed).
func Replicate(problems, kernels []string, main, rep PerSeed) []PairComparison {
	fm, fr := pairFamily(problems, kernels, main), pairFamily(problems, kernels, rep)
	nan := Effect{Est: math.NaN(), SE: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), P: math.NaN(), PAdj: math.NaN()}
	var out []PairComparison
	for _, p := range problems {
		for i, a := range kernels {
			for _, b := range kernels[i+1:] {
				k := [3]string{p, a, b}
				em, er := fm[k], fr[k]
				if em == nil && er == nil {
					continue
				}
				c := PairComparison{Problem: p, A: a, B: b, Main: nan, Replication: nan}
				if em != nil {
					c.Main = *em
				}
				if er != nil {
					c.Replication = *er
				}
				if c.Main.Est > 0 || (math.IsNaN(c.Main.Est) && c.Replication.Est > 0) {
					c.A, c.B = b, a
					c.Main, c.Replication = negate(c.Main), negate(c.Replication)
				}
				c.Verdict = Verdict(c.Main, c.Replication)
				out = append(out, c)
			}
		}
	}
	return out
}

// negate is the effect of the reversed difference.
func negate(e Effect) Effect {
	e.Est, e.Lo, e.Hi = -e.Est, -e.Hi, -e.Lo
	return e
}

// ReplicationMarkdown formats the comparisons: one row per pair, the
// main and replication differences with their corrected intervals, and
// the verdict; then a count of the verdicts.
func ReplicationMarkdown(cs []PairComparison) string {
	var b strings.Builder
	b.WriteString("| Benchmark | better on main (A) | B | A − B, main | A − B, replication | verdict |\n|---|---|---|---|---|---|\n")
	count := map[string]int{}
	for _, c := range cs {
		count[c.Verdict]++
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", c.Problem, c.A, c.B, fmtEffectOrDash(c.Main), fmtEffectOrDash(c.Replication), c.Verdict)
	}
	b.WriteString("\nVerdicts: ")
	var parts []string
	for _, v := range []string{VerdictHolds, VerdictMainOnly, VerdictRepOnly, VerdictReversed, VerdictNeither, VerdictUnavailable} {
		if count[v] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", v, count[v]))
		}
	}
	b.WriteString(strings.Join(parts, ", ") + ".\n")
	return b.String()
}

func fmtEffectOrDash(e Effect) string {
	if math.IsNaN(e.Est) {
		return "—"
	}
	return fmtEffect(e)
}

// DecompositionPair is one problem's ablation on both seed sets.
type DecompositionPair struct {
	Problem           string
	Main, Replication *Decomposition
}

// ReplicateAblation pairs the ablations of the two seed sets by problem.
func ReplicateAblation(problems []string, main, rep PerSeed) []DecompositionPair {
	dm, dr := AblationOf(problems, main), AblationOf(problems, rep)
	find := func(ds []Decomposition, p string) *Decomposition {
		for i := range ds {
			if ds[i].Problem == p {
				return &ds[i]
			}
		}
		return nil
	}
	var out []DecompositionPair
	for _, p := range problems {
		m, r := find(dm, p), find(dr, p)
		if m != nil || r != nil {
			out = append(out, DecompositionPair{p, m, r})
		}
	}
	return out
}

// ReplicatedAblationMarkdown formats the ablation of both seed sets side
// by side: per problem the gain and its two parts on each set with their
// corrected intervals and the verdict, then the Nyström share on each set
// with its BCa interval and whether the two intervals overlap (a share
// replicates where both gains are significant and its intervals meet;
// where a set's share has no interval — fewer than three seeds, or too
// few finite resamples — the verdict says so).
func ReplicatedAblationMarkdown(ps []DecompositionPair) string {
	var b strings.Builder
	b.WriteString("| Benchmark | quantity | main | replication | verdict |\n|---|---|---|---|---|\n")
	for _, p := range ps {
		if p.Main == nil || p.Replication == nil {
			fmt.Fprintf(&b, "| %s | — | %s | %s | %s |\n", p.Problem, present(p.Main), present(p.Replication), VerdictUnavailable)
			continue
		}
		m, r := p.Main, p.Replication
		for _, q := range []struct {
			name string
			a, b Effect
		}{{"gain of plus over base", m.Gain, r.Gain}, {"Nyström alone (base − nystrom)", m.Nystrom, r.Nystrom}, {"invariance on top (nystrom − plus)", m.Invariance, r.Invariance}} {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.Problem, q.name, fmtEffect(q.a), fmtEffect(q.b), Verdict(q.a, q.b))
		}
		share := func(iv Interval, sig bool) string {
			if !sig {
				return "— (no significant gain)"
			}
			return fmtPct(iv)
		}
		both := m.HasGain() && r.HasGain()
		v := "— (no significant gain on both)"
		switch ms, rs := m.NystromShare, r.NystromShare; {
		case !both:
		case math.IsNaN(ms.Lo) || math.IsNaN(ms.Hi) || math.IsNaN(rs.Lo) || math.IsNaN(rs.Hi):
			v = "— (no interval on a set)"
		case ms.Hi < rs.Lo || rs.Hi < ms.Lo:
			v = "intervals disjoint"
		default:
			v = "intervals overlap"
		}
		fmt.Fprintf(&b, "| %s | Nyström share | %s | %s | %s |\n", p.Problem, share(m.NystromShare, m.HasGain()), share(r.NystromShare, r.HasGain()), v)
	}
	return b.String()
}

func present(d *Decomposition) string {
	if d == nil {
		return "not run"
	}
	return fmt.Sprintf("%d seeds", d.Seeds)
}

// CoverageRow is the simulated coverage of the interval rules for one
// paired comparison, population the pooled per-seed differences.
type CoverageRow struct {
	Problem, Comparison string
	Pop                 int         // seeds pooled
	Skew                float64     // sample skewness of the differences
	Coverage            [][]float64 // per n, per CoverageMethods
}

// CoverageMinSeeds is the fewest pooled seeds a comparison of
// CoverageStudy needs (fewer make no population to sample from).
const CoverageMinSeeds = 10

// CoverageComparisons counts the comparisons CoverageStudy measures: the
// ablation's three differences on every problem with at least
// CoverageMinSeeds pooled seeds.
func CoverageComparisons(problems []string, per PerSeed) int {
	n := 0
	for _, p := range problems {
		for _, c := range coverageComparisons {
			if x, _ := pairedCols(per[p][c[0]], per[p][c[1]]); len(x) >= CoverageMinSeeds {
				n++
			}
		}
	}
	return n
}

// coverageComparisons are the ablation's three differences.
var coverageComparisons = [][2]string{{"base", "plus"}, {"base", "nystrom"}, {"nystrom", "plus"}}

// CoverageStudy measures, for the ablation's three differences on every
// problem (base − plus, base − nystrom, nystrom − plus) with at least
// CoverageMinSeeds pooled seeds (the others are left out), how often each
// rule of CoverageMethods covers the population mean at each sample size
// in ns with intervals of the given level, the population being the
// per-seed differences of per (reps simulated samples of B bootstrap
// resamples each; deterministic).
func CoverageStudy(problems []string, per PerSeed, ns []int, reps, B int, level float64) []CoverageRow {
	var out []CoverageRow
	for pi, p := range problems {
		for ci, c := range coverageComparisons {
			x, y := pairedCols(per[p][c[0]], per[p][c[1]])
			if len(x) < CoverageMinSeeds {
				continue
			}
			d := diff(x, y)
			row := CoverageRow{Problem: p, Comparison: c[0] + " − " + c[1], Pop: len(d), Skew: skewness(d)}
			for _, n := range ns {
				row.Coverage = append(row.Coverage, Coverage(d, n, reps, B, level, uint64(1000*pi+10*ci+n)))
			}
			out = append(out, row)
		}
	}
	return out
}

// skewness is the sample skewness g1 of v.
func skewness(v []float64) float64 {
	s := Summarize(v)
	var m2, m3 float64
	for _, x := range v {
		d := x - s.Mean
		m2 += d * d
		m3 += d * d * d
	}
	n := float64(len(v))
	m2, m3 = m2/n, m3/n
	if m2 == 0 {
		return 0
	}
	return m3 / math.Pow(m2, 1.5)
}

// CoverageMarkdown formats a coverage study: per comparison the pooled
// seeds, the skewness and each rule's coverage at each n, then per rule
// and n the mean and the lowest coverage over the comparisons.
func CoverageMarkdown(rows []CoverageRow, ns []int) string {
	var b strings.Builder
	b.WriteString("| Benchmark | difference | seeds pooled | skewness |")
	for _, n := range ns {
		for _, m := range CoverageMethods {
			fmt.Fprintf(&b, " %s, n = %d |", m, n)
		}
	}
	b.WriteString("\n|---|---|---|---|" + strings.Repeat("---|", len(ns)*len(CoverageMethods)) + "\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %d | %.2f |", r.Problem, r.Comparison, r.Pop, r.Skew)
		for _, c := range r.Coverage {
			for _, v := range c {
				fmt.Fprintf(&b, " %.3f |", v)
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n| rule | n | mean coverage | lowest coverage |\n|---|---|---|---|\n")
	for mi, m := range CoverageMethods {
		for ni, n := range ns {
			var sum float64
			low := math.Inf(1)
			for _, r := range rows {
				sum += r.Coverage[ni][mi]
				low = min(low, r.Coverage[ni][mi])
			}
			fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f |\n", m, n, sum/float64(max(1, len(rows))), low)
		}
	}
	return b.String()
}
