package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/symbo/symbo/bo"
)

// AblationProblems are the problems of the invariance × Nyström ablation:
// the paper's six and the off-fixed-point family.
var AblationProblems = []string{"Ackley2d", "Griewank6d", "Rastrigin5d", "Radial2d", "Scaling2d", "WLAN8d",
	"ShiftedAckley2d", "ShiftedRastrigin4d", "ShiftedGriewank6d"}

// AblationKernels are its kernels: the 2×2 invariance × Nyström (base,
// nystrom, max, plus; max only where it is PSD) beside avg and avgnorm.
var AblationKernels = []string{bo.NameBase, bo.NameNystrom, bo.NameMax, bo.NamePlus, bo.NameAvg, bo.NameAvgNorm}

// BootstrapResamples is the number of paired bootstrap resamples behind
// every interval of an Ablation; BootstrapSeed seeds them.
const (
	BootstrapResamples = 10_000
	BootstrapSeed      = 2026
)

// Interval is an estimate with a 95% paired-bootstrap percentile interval.
type Interval struct {
	Est float64 `json:"est"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
}

// Excludes0 reports whether the interval lies strictly on one side of 0.
func (iv Interval) Excludes0() bool { return iv.Lo > 0 || iv.Hi < 0 }

// Decomposition splits plus's gain over base on one problem into the part
// the Nyström extension alone achieves and the part invariance adds:
//
//	Gain       = base − plus      (mean paired difference over seeds)
//	Nystrom    = base − nystrom   (the Nyström extension, no invariance)
//	Invariance = nystrom − plus   (invariance on top of it)
//
// so Gain = Nystrom + Invariance, and the shares are Nystrom/Gain and
// Invariance/Gain (ratios of means; each resample recomputes both). Where
// max ran (it is PSD), the other path of the square: InvarianceAlone =
// base − max and NystromOnMax = max − plus. Differences are of the table
// metric (lower is better), so a positive difference is a gain.
type Decomposition struct {
	Problem         string    `json:"problem"`
	Seeds           int       `json:"seeds"`
	Gain            Interval  `json:"gain"`
	Nystrom         Interval  `json:"nystrom"`
	Invariance      Interval  `json:"invariance"`
	NystromShare    Interval  `json:"nystrom_share"`
	InvarianceShare Interval  `json:"invariance_share"`
	InvarianceAlone *Interval `json:"invariance_alone,omitempty"`
	NystromOnMax    *Interval `json:"nystrom_on_max,omitempty"`
}

// Ablation returns the decomposition of every problem of r that has base,
// nystrom and plus cells, from the seeds the three share (paired: the
// same seed gives the same initial design and noise to every kernel).
// The metric is r's (MetricOf with its CountInit).
func (r *TableResult) Ablation() []Decomposition {
	per := map[string]map[string]map[uint64]float64{} // problem → kernel → seed → metric
	for i, s := range r.Specs {
		if per[s.Problem] == nil {
			per[s.Problem] = map[string]map[uint64]float64{}
		}
		if per[s.Problem][s.Kernel] == nil {
			per[s.Problem][s.Kernel] = map[uint64]float64{}
		}
		per[s.Problem][s.Kernel][s.Seed] = MetricOf(r.Runs[i], r.countInit)
	}
	var out []Decomposition
	for _, row := range r.Rows {
		m := per[row.Problem]
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
		d := Decomposition{Problem: row.Problem, Seeds: len(seeds)}
		stats := []func(idx []int) float64{
			func(idx []int) float64 { return meanDiff(b, p, idx) },
			func(idx []int) float64 { return meanDiff(b, n, idx) },
			func(idx []int) float64 { return meanDiff(n, p, idx) },
			func(idx []int) float64 { return meanDiff(b, n, idx) / meanDiff(b, p, idx) },
			func(idx []int) float64 { return meanDiff(n, p, idx) / meanDiff(b, p, idx) },
		}
		hasMax := mx != nil && len(mx) >= len(seeds)
		var x []float64
		if hasMax {
			for _, s := range seeds {
				if _, ok := mx[s]; !ok {
					hasMax = false
				}
			}
		}
		if hasMax {
			x = col(mx)
			stats = append(stats,
				func(idx []int) float64 { return meanDiff(b, x, idx) },
				func(idx []int) float64 { return meanDiff(x, p, idx) })
		}
		iv := pairedBootstrap(len(seeds), stats, BootstrapResamples, BootstrapSeed)
		d.Gain, d.Nystrom, d.Invariance, d.NystromShare, d.InvarianceShare = iv[0], iv[1], iv[2], iv[3], iv[4]
		if hasMax {
			d.InvarianceAlone, d.NystromOnMax = &iv[5], &iv[6]
		}
		out = append(out, d)
	}
	return out
}

// meanDiff is the mean of a[i] − b[i] over the indices idx.
func meanDiff(a, b []float64, idx []int) float64 {
	var s float64
	for _, i := range idx {
		s += a[i] - b[i]
	}
	return s / float64(len(idx))
}

// pairedBootstrap estimates each statistic on the n seeds and its 95%
// percentile interval over B resamples of the seeds with replacement
// (the same resample for every statistic: paired). A resample whose
// statistic is not finite (a ratio over a zero gain) is left out of that
// statistic's interval; NaN bounds if fewer than half remain.
func pairedBootstrap(n int, stats []func(idx []int) float64, B int, seed uint64) []Interval {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	out := make([]Interval, len(stats))
	samples := make([][]float64, len(stats))
	for k, f := range stats {
		out[k].Est = f(all)
		samples[k] = make([]float64, 0, B)
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	idx := make([]int, n)
	for range B {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		for k, f := range stats {
			if v := f(idx); !math.IsNaN(v) && !math.IsInf(v, 0) {
				samples[k] = append(samples[k], v)
			}
		}
	}
	for k, s := range samples {
		if len(s) < B/2 {
			out[k].Lo, out[k].Hi = math.NaN(), math.NaN()
			continue
		}
		slices.Sort(s)
		out[k].Lo, out[k].Hi = quantile(s, 0.025), quantile(s, 0.975)
	}
	return out
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
// invariance on top, each with its 95% paired-bootstrap interval, and the
// shares of the gain; then the other path of the square where k_max is
// PSD.
func AblationMarkdown(ds []Decomposition) string {
	var b strings.Builder
	b.WriteString("| Benchmark | gain of plus over base | Nyström alone (base − nystrom) | invariance on top (nystrom − plus) | Nyström share | invariance share |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, d := range ds {
		share := func(iv Interval) string {
			if !d.Gain.Excludes0() {
				return "— (gain not significant)"
			}
			return fmtPct(iv)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", d.Problem, fmtIv(d.Gain), fmtIv(d.Nystrom), fmtIv(d.Invariance), share(d.NystromShare), share(d.InvarianceShare))
	}
	b.WriteString("\nThe other path of the square, where k_max is PSD (invariance first, then the Nyström extension):\n\n")
	b.WriteString("| Benchmark | invariance alone (base − max) | Nyström on top (max − plus) |\n|---|---|---|\n")
	for _, d := range ds {
		if d.InvarianceAlone == nil {
			fmt.Fprintf(&b, "| %s | — (k_max not PSD for this group) | — |\n", d.Problem)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", d.Problem, fmtIv(*d.InvarianceAlone), fmtIv(*d.NystromOnMax))
	}
	return b.String()
}

// fmtIv formats an interval as "est [lo, hi]", bold when it excludes 0.
func fmtIv(iv Interval) string {
	s := fmt.Sprintf("%.1f [%.1f, %.1f]", iv.Est, iv.Lo, iv.Hi)
	s = strings.ReplaceAll(s, "-", "−")
	if iv.Excludes0() {
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
