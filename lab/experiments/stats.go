package experiments

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// Statistics of the result tables. Every comparison in a table is paired:
// the same seed gives every kernel the same initial design and noise, so
// a comparison is the mean of the per-seed differences. Its interval is
// the Student t interval of that mean: exact for normal differences; on
// the committed per-seed differences a nominal 95% interval covers 0.90
// to 0.92 on average at 10 to 30 seeds, and as little as 0.65 to 0.70
// where one seed of fifty dominates the variance, and the intervals at
// Holm's levels (up to 1 − 0.05/41) fall further short of theirs (see
// Coverage and lab/results/statistics.md). Its test is the paired t test,
// and a family of comparisons that a table marks is corrected by Holm's
// step-down procedure (Holm 1979), which controls the family-wise error
// rate of the marks under any dependence between the comparisons —
// comparisons within a row share the runs of its best kernel, so the
// independence or positive dependence Benjamini–Hochberg needs is not
// given, and a reader bets on each marked claim, not on a proportion of
// them. Ratios of means (the ablation's shares) get a BCa bootstrap
// interval (Efron 1987) over paired resamples of the seeds.

// Alpha is the family-wise error rate of every corrected family.
const Alpha = 0.05

// Effect is a paired comparison: the mean difference Est over the seeds
// with its standard error SE, its interval [Lo, Hi] at confidence Level, the two-sided p-value P of
// the paired t test of a zero mean, and PAdj, P adjusted by Holm within
// the family the comparison was marked in. Significant is PAdj < Alpha,
// which holds exactly when [Lo, Hi] excludes 0 (see Holm).
type Effect struct {
	Est         float64 `json:"est"`
	Lo          float64 `json:"lo"`
	Hi          float64 `json:"hi"`
	Level       float64 `json:"level"`
	SE          float64 `json:"se"`
	P           float64 `json:"p"`
	PAdj        float64 `json:"p_adj"`
	N           int     `json:"n"`
	Significant bool    `json:"significant"`
}

// pairedT returns the mean of d, its standard error and the two-sided
// p-value of the t test of a zero mean (n − 1 degrees of freedom). With
// no spread the p-value is 0 for a nonzero mean and 1 for a zero one;
// with fewer than two values it is NaN.
func pairedT(d []float64) (mean, se, p float64) {
	s := Summarize(d)
	switch {
	case s.N < 2:
		return s.Mean, math.NaN(), math.NaN()
	case s.SE == 0 && s.Mean == 0:
		return s.Mean, 0, 1
	case s.SE == 0:
		return s.Mean, 0, 0
	}
	t := math.Abs(s.Mean / s.SE)
	st := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(s.N - 1)}
	return s.Mean, s.SE, 2 * st.Survival(t)
}

// tQuantile is the q quantile of Student's t with nu degrees of freedom.
func tQuantile(q float64, nu int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(nu)}.Quantile(q)
}

// pairedEffect is the paired comparison of the differences d with its
// uncorrected 95% t interval (Holm widens it within a family).
func pairedEffect(d []float64) Effect {
	m, se, p := pairedT(d)
	e := Effect{Est: m, SE: se, P: p, PAdj: p, N: len(d), Level: 1 - Alpha}
	e.Lo, e.Hi = tBounds(m, se, len(d), e.Level)
	e.Significant = p < Alpha
	return e
}

// tBounds is the two-sided t interval of level at mean m, standard error
// se and n values (NaN bounds below two values).
func tBounds(m, se float64, n int, level float64) (lo, hi float64) {
	if n < 2 || math.IsNaN(se) {
		return math.NaN(), math.NaN()
	}
	h := tQuantile(1-(1-level)/2, n-1) * se
	return m - h, m + h
}

// Holm corrects a family of effects in place (each with its Est, SE, P
// and N set, as pairedEffect sets them): PAdj becomes
// Holm's adjusted p-value, Significant PAdj < Alpha, and each interval is
// recomputed at the level Holm tested that comparison at — 1 − α/(m−j+1)
// for the j-th smallest p-value while every smaller one was rejected,
// frozen at the first acceptance — so an interval excludes 0 exactly when
// Holm rejects, and a rejected comparison's interval is at least as wide
// as its uncorrected 95% one. The family-wise error rate is that of the
// decisions (which intervals exclude 0). The intervals are not
// simultaneous: the last rejected one is at 95%, and over a family of m
// true effects the chance that some interval misses its own is well
// above α (Bonferroni's 1 − α/m for every interval would bound it).
// Effects with a NaN p-value take no part (they keep NaN bounds and are
// never significant).
func Holm(es []*Effect) {
	var idx []int
	for i, e := range es {
		if !math.IsNaN(e.P) {
			idx = append(idx, i)
		} else {
			e.Significant = false
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case es[a].P < es[b].P:
			return -1
		case es[a].P > es[b].P:
			return 1
		}
		return 0
	})
	m := len(idx)
	run, frozen := 0.0, 0.0
	for j, i := range idx {
		e := es[i]
		run = math.Max(run, math.Min(1, float64(m-j)*e.P))
		e.PAdj = run
		e.Significant = run < Alpha
		a := Alpha / float64(m-j)
		if !e.Significant && frozen == 0 {
			frozen = a
		}
		if frozen != 0 {
			a = frozen
		}
		e.Level = 1 - a
		e.Lo, e.Hi = tBounds(e.Est, e.SE, e.N, e.Level)
	}
}

// bca returns the BCa bootstrap interval of level for stat, a statistic
// of n paired units given the indices of a resample: B resamples with
// replacement from a PCG seeded with seed, the bias correction from the
// share of resamples below the estimate and the acceleration from the
// jackknife (Efron and Tibshirani 1993, ch. 14). Resamples with a
// non-finite statistic are dropped; with fewer than half left, or a
// non-finite estimate, the bounds are NaN.
func bca(n int, stat func(idx []int) float64, level float64, B int, seed uint64) Interval {
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	iv := Interval{Est: stat(all), Lo: math.NaN(), Hi: math.NaN()}
	if n < 3 || math.IsNaN(iv.Est) || math.IsInf(iv.Est, 0) {
		return iv
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	idx := make([]int, n)
	boot := make([]float64, 0, B)
	below := 0.0
	for range B {
		for i := range idx {
			idx[i] = rng.IntN(n)
		}
		v := stat(idx)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		boot = append(boot, v)
		switch {
		case v < iv.Est:
			below++
		case v == iv.Est:
			below += 0.5
		}
	}
	if len(boot) < B/2 {
		return iv
	}
	slices.Sort(boot)
	std := distuv.UnitNormal
	frac := below / float64(len(boot))
	frac = math.Min(math.Max(frac, 0.5/float64(len(boot))), 1-0.5/float64(len(boot)))
	z0 := std.Quantile(frac)
	// Jackknife acceleration.
	jack := make([]float64, n)
	loo := make([]int, n-1)
	var jm float64
	for i := range n {
		loo = loo[:0]
		for j := range n {
			if j != i {
				loo = append(loo, j)
			}
		}
		jack[i] = stat(loo)
		jm += jack[i]
	}
	jm /= float64(n)
	var num, den float64
	for _, v := range jack {
		d := jm - v
		num += d * d * d
		den += d * d
	}
	a := 0.0
	if den > 0 && !math.IsNaN(num) {
		a = num / (6 * math.Pow(den, 1.5))
	}
	adj := func(q float64) float64 {
		z := std.Quantile(q)
		return std.CDF(z0 + (z0+z)/(1-a*(z0+z)))
	}
	iv.Lo = quantile(boot, adj((1-level)/2))
	iv.Hi = quantile(boot, adj(1-(1-level)/2))
	return iv
}

// percentileBootstrap is the percentile bootstrap interval of level for
// the mean of d (B resamples, seeded): the rule the tables used before
// the t intervals, kept to measure its coverage against theirs.
func percentileBootstrap(d []float64, level float64, B int, rng *rand.Rand) (lo, hi float64) {
	n := len(d)
	boot := make([]float64, B)
	for b := range boot {
		var s float64
		for range n {
			s += d[rng.IntN(n)]
		}
		boot[b] = s / float64(n)
	}
	slices.Sort(boot)
	return quantile(boot, (1-level)/2), quantile(boot, 1-(1-level)/2)
}

// CoverageMethods names the interval rules Coverage measures, in its
// order: the t interval, the percentile bootstrap and the BCa bootstrap
// of a mean.
var CoverageMethods = []string{"t", "percentile bootstrap", "BCa bootstrap"}

// Coverage measures by simulation how often each rule of CoverageMethods
// covers the mean of the population pop with an interval of the given
// level (0.95 for a table's uncorrected intervals; Holm's levels reach
// 1 − 0.05/m) from n values drawn from it with replacement: reps
// simulated samples, B bootstrap resamples each, all from a PCG seeded
// with seed. Used with pop the per-seed paired differences of a committed
// table, it tells whether an interval rule is calibrated at the sample
// size a table uses for the distributions its runs actually have
// (skewed, sometimes bimodal). The bootstrap rules' extreme quantiles need
// B well above 2/(1 − level).
func Coverage(pop []float64, n, reps, B int, level float64, seed uint64) []float64 {
	var mu float64
	for _, v := range pop {
		mu += v
	}
	mu /= float64(len(pop))
	rng := rand.New(rand.NewPCG(seed, 1))
	hit := make([]float64, len(CoverageMethods))
	d := make([]float64, n)
	for r := range reps {
		for i := range d {
			d[i] = pop[rng.IntN(len(pop))]
		}
		m, se, _ := pairedT(d)
		lo, hi := tBounds(m, se, n, level)
		if lo <= mu && mu <= hi {
			hit[0]++
		}
		if lo, hi := percentileBootstrap(d, level, B, rng); lo <= mu && mu <= hi {
			hit[1]++
		}
		mean := func(idx []int) float64 {
			var s float64
			for _, i := range idx {
				s += d[i]
			}
			return s / float64(len(idx))
		}
		if iv := bca(n, mean, level, B, seed^uint64(r+1)*0x9e3779b97f4a7c15); iv.Lo <= mu && mu <= iv.Hi {
			hit[2]++
		}
	}
	for i := range hit {
		hit[i] /= float64(reps)
	}
	return hit
}

// jsonFloat is a float that encodes NaN and ±Inf as JSON null (an
// interval that could not be computed: too few seeds, no significant
// gain).
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(v)
}

// MarshalJSON writes an effect with NaN bounds or p-values as null.
func (e Effect) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Est         jsonFloat `json:"est"`
		Lo          jsonFloat `json:"lo"`
		Hi          jsonFloat `json:"hi"`
		Level       jsonFloat `json:"level"`
		SE          jsonFloat `json:"se"`
		P           jsonFloat `json:"p"`
		PAdj        jsonFloat `json:"p_adj"`
		N           int       `json:"n"`
		Significant bool      `json:"significant"`
	}{jsonFloat(e.Est), jsonFloat(e.Lo), jsonFloat(e.Hi), jsonFloat(e.Level), jsonFloat(e.SE), jsonFloat(e.P), jsonFloat(e.PAdj), e.N, e.Significant})
}

// MarshalJSON writes an interval with NaN bounds as null.
func (iv Interval) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Est jsonFloat `json:"est"`
		Lo  jsonFloat `json:"lo"`
		Hi  jsonFloat `json:"hi"`
	}{jsonFloat(iv.Est), jsonFloat(iv.Lo), jsonFloat(iv.Hi)})
}
