package experiments

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
)

// AblationProblems are the problems of the invariance × Nyström ablation:
// the paper's six and the off-fixed-point family.
var AblationProblems = []string{"Ackley2d", "Griewank6d", "Rastrigin5d", "Radial2d", "Scaling2d", "WLAN8d",
	"ShiftedAckley2d", "ShiftedRastrigin4d", "ShiftedGriewank6d"}

// AblationKernels are its kernels: the 2×2 invariance × Nyström (base,
// nystrom, max, plus; max only where it is PSD) beside avg and avgnorm.
var AblationKernels = []string{bo.NameBase, bo.NameNystrom, bo.NameMax, bo.NamePlus, bo.NameAvg, bo.NameAvgNorm}

// BootstrapResamples is the number of paired bootstrap resamples behind
// the BCa interval of every share of an Ablation; BootstrapSeed seeds them.
const (
	BootstrapResamples = 10_000
	BootstrapSeed      = 2026
)

// Interval is an estimate with an interval (a share's BCa interval).
type Interval struct {
	Est float64 `json:"est"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
}

// Decomposition splits plus's gain over base on one problem into the part
// the Nyström extension alone achieves and the part invariance adds:
//
//	Gain       = base − plus      (mean paired difference over seeds)
//	Nystrom    = base − nystrom   (the Nyström extension, no invariance)
//	Invariance = nystrom − plus   (invariance on top of it)
//
// so Gain = Nystrom + Invariance, and the shares are Nystrom/Gain and
// Invariance/Gain (ratios of means). Where max ran (it is PSD), the other
// path of the square: InvarianceAlone = base − max and NystromOnMax =
// max − plus. Differences are of the table metric (lower is better), so a
// positive difference is a gain.
//
// The differences are paired t comparisons (Effect), decided by Holm
// over every difference of the ablation (one family: every interval the
// ablation's tables bold), each interval at the level Holm tested it at
// (not simultaneous; see Holm); the shares are reported where the gain is
// significantly positive (HasGain), each with a BCa interval at the
// Bonferroni level over those problems (1 − Alpha/m for m such problems),
// and NaN bounds elsewhere.
type Decomposition struct {
	Problem         string   `json:"problem"`
	Seeds           int      `json:"seeds"`
	Gain            Effect   `json:"gain"`
	Nystrom         Effect   `json:"nystrom"`
	Invariance      Effect   `json:"invariance"`
	NystromShare    Interval `json:"nystrom_share"`
	InvarianceShare Interval `json:"invariance_share"`
	ShareLevel      float64  `json:"share_level,omitempty"`
	InvarianceAlone *Effect  `json:"invariance_alone,omitempty"`
	NystromOnMax    *Effect  `json:"nystrom_on_max,omitempty"`
}

// HasGain reports whether plus is significantly better than base (the
// shares of a gain are defined only then).
func (d Decomposition) HasGain() bool { return d.Gain.Significant && d.Gain.Est > 0 }

// Ablation returns the decomposition of every problem of r that has base,
// nystrom and plus cells, from the seeds the three share (paired: the
// same seed gives the same initial design and noise to every kernel).
// The metric is r's (MetricOf with its CountInit).
func (r *TableResult) Ablation() []Decomposition {
	problems := make([]string, len(r.Rows))
	for i, row := range r.Rows {
		problems[i] = row.Problem
	}
	return AblationOf(problems, r.perSeed())
}

// PerSeed is the metric of every run of a table: problem → kernel →
// seed → metric.
type PerSeed = map[string]map[string]map[uint64]float64

// AblationOf is Ablation over per-seed metrics, for the problems in
// order.
func AblationOf(problems []string, per PerSeed) []Decomposition {
	var out []Decomposition
	var cols [][3][]float64 // base, nystrom, plus per decomposition
	for _, problem := range problems {
		m := per[problem]
		base, nys, plus, mx := m[bo.NameBase], m[bo.NameNystrom], m[bo.NamePlus], m[bo.NameMax]
		if base == nil || nys == nil || plus == nil {
			continue
		}
		var seeds []uint64
		for s := range base {
			if _, ok := nys[s]; !ok {
				continue
			}
			if _, ok := plus[s]; ok {
				seeds = append(seeds, s)
			}
		}
		slices.Sort(seeds)
		if len(seeds) == 0 {
			continue
		}
		col := func(k map[uint64]float64) []float64 {
			v := make([]float64, len(seeds))
			for i, s := range seeds {
				v[i] = k[s]
			}
			return v
		}
		b, n, p := col(base), col(nys), col(plus)
		d := Decomposition{Problem: problem, Seeds: len(seeds)}
		d.Gain, d.Nystrom, d.Invariance = pairedEffect(diff(b, p)), pairedEffect(diff(b, n)), pairedEffect(diff(n, p))
		if mx != nil && allIn(mx, seeds) {
			x := col(mx)
			alone, onMax := pairedEffect(diff(b, x)), pairedEffect(diff(x, p))
			d.InvarianceAlone, d.NystromOnMax = &alone, &onMax
		}
		out = append(out, d)
		cols = append(cols, [3][]float64{b, n, p})
	}
	var family []*Effect
	for i := range out {
		d := &out[i]
		family = append(family, &d.Gain, &d.Nystrom, &d.Invariance)
		if d.InvarianceAlone != nil {
			family = append(family, d.InvarianceAlone, d.NystromOnMax)
		}
	}
	Holm(family)
	m := 0
	for _, d := range out {
		if d.HasGain() {
			m++
		}
	}
	for i := range out {
		d := &out[i]
		d.NystromShare = Interval{Est: d.Nystrom.Est / d.Gain.Est, Lo: math.NaN(), Hi: math.NaN()}
		d.InvarianceShare = Interval{Est: d.Invariance.Est / d.Gain.Est, Lo: math.NaN(), Hi: math.NaN()}
		if !d.HasGain() {
			continue
		}
		d.ShareLevel = 1 - Alpha/float64(m)
		b, n, p := cols[i][0], cols[i][1], cols[i][2]
		d.NystromShare = bca(len(b), func(idx []int) float64 { return meanDiff(b, n, idx) / meanDiff(b, p, idx) }, d.ShareLevel, BootstrapResamples, BootstrapSeed)
		d.InvarianceShare = bca(len(b), func(idx []int) float64 { return meanDiff(n, p, idx) / meanDiff(b, p, idx) }, d.ShareLevel, BootstrapResamples, BootstrapSeed)
	}
	return out
}

// diff is a − b elementwise.
func diff(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}

// allIn reports whether m has every seed.
func allIn(m map[uint64]float64, seeds []uint64) bool {
	for _, s := range seeds {
		if _, ok := m[s]; !ok {
			return false
		}
	}
	return true
}

// meanDiff is the mean of a[i] − b[i] over the indices idx.
func meanDiff(a, b []float64, idx []int) float64 {
	var s float64
	for _, i := range idx {
		s += a[i] - b[i]
	}
	return s / float64(len(idx))
}

// quantile is the linear-interpolation quantile q of the sorted s.
func quantile(s []float64, q float64) float64 {
	h := q * float64(len(s)-1)
	i := int(math.Floor(h))
	if i+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[i] + (h-float64(i))*(s[i+1]-s[i])
}

// AblationMarkdown formats the decompositions: per problem, plus's gain
// over base and its split into the Nyström extension alone and the
// invariance on top, each with its Holm-corrected t interval (bold where
// Holm rejects a zero difference), and the shares of the gain with their
// BCa intervals; then the other path of the square where k_max is PSD.
// A problem without max cells says why: k_max is not PSD for its group
// (maxPSD false, e.g. MaxIsPSD), or max was not run (left out of the
// kernels, skipped, or short of the seeds the others share).
func AblationMarkdown(ds []Decomposition, maxPSD func(problem string) bool) string {
	var b strings.Builder
	b.WriteString("| Benchmark | seeds | gain of plus over base | Nyström alone (base − nystrom) | invariance on top (nystrom − plus) | Nyström share | invariance share |\n")
	b.WriteString("|---|---|---|---|---|---|---|\n")
	for _, d := range ds {
		share := func(iv Interval) string {
			if !d.HasGain() {
				return "— (no significant gain)"
			}
			return fmtPct(iv)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %s |\n", d.Problem, d.Seeds, fmtEffect(d.Gain), fmtEffect(d.Nystrom), fmtEffect(d.Invariance), share(d.NystromShare), share(d.InvarianceShare))
	}
	b.WriteString("\nThe other path of the square, where k_max is PSD (invariance first, then the Nyström extension):\n\n")
	b.WriteString("| Benchmark | invariance alone (base − max) | Nyström on top (max − plus) |\n|---|---|---|\n")
	for _, d := range ds {
		if d.InvarianceAlone == nil {
			why := "k_max not PSD for this group"
			if maxPSD(d.Problem) {
				why = "max not run"
			}
			fmt.Fprintf(&b, "| %s | — (%s) | — |\n", d.Problem, why)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", d.Problem, fmtEffect(*d.InvarianceAlone), fmtEffect(*d.NystromOnMax))
	}
	return b.String()
}

// fmtEffect formats an effect as "est [lo, hi]", bold when significant
// (its corrected interval then excludes 0).
func fmtEffect(e Effect) string {
	s := fmt.Sprintf("%.1f [%.1f, %.1f]", e.Est, e.Lo, e.Hi)
	s = strings.ReplaceAll(s, "-", "−")
	if e.Significant {
		return "**" + s + "**"
	}
	return s
}

func fmtPct(iv Interval) string {
	if math.IsNaN(iv.Lo) {
		return fmt.Sprintf("%.0f%%", 100*iv.Est)
	}
	return strings.ReplaceAll(fmt.Sprintf("%.0f%% [%.0f%%, %.0f%%]", 100*iv.Est, 100*iv.Lo, 100*iv.Hi), "-", "−")
}

// MaxIsPSD reports whether bo accepts k_max on the problem named name
// (false for a name problem.New refuses).
func MaxIsPSD(name string) bool {
	p, err := problem.New(name, 0)
	if err != nil {
		return false
	}
	ok, err := supportsKernel(p, bo.NameMax)
	return err == nil && ok
}
