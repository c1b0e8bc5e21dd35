package frontend

import (
	"fmt"
	"strings"

	"github.com/symbo/symbo/bo"
)

// InertKeys are the settings RefuseInert checks, in the order it checks
// them, by their keys in the settings table (perf bo's flags spell them
// with dashes: --probe-window; candidate_starts, referee, odds and afford
// are perf's only): a deciding kernel's, and landmarks.
var InertKeys = []string{"hedge", "probe", "probe_window", "candidate_fit", "candidate_starts", "referee", "odds", "afford", "landmarks"}

// inertRule is one setting RefuseInert checks: set reports whether the
// value parsed into dec (or landmarks) asks for something (the values that ask for
// nothing a kernel lacks are never refused) and value spells it ("" for
// a switch); acts reports whether a kernel of the kind (bo.Kernel.Name up
// to its ":", lowercase) can act on it.
type inertRule struct {
	key    string
	set    func(dec bo.DecideOptions, landmarks int) bool
	value  func(dec bo.DecideOptions, landmarks int) string
	acts   func(kind string) bool
	needs  string // what the setting acts on
	remedy string // the values taken with every kernel
}

func portfolioKind(kind string) bool { return kind == bo.NamePortfolio }
func decidingKind(kind string) bool  { return kind == bo.NamePortfolio || kind == bo.NameAuto }

// landmarkKind: every kernel but soft has a landmark form
// (bo.Config.Landmarks); soft alone is exact at any n, and in a deciding
// kernel the cap acts on the other candidates (soft sits out above it).
func landmarkKind(kind string) bool { return kind != bo.NameSoft }

var inertRules = []inertRule{
	{"hedge", func(d bo.DecideOptions, _ int) bool { return d.HedgeStarts > 0 },
		func(d bo.DecideOptions, _ int) string { return fmt.Sprint(d.HedgeStarts) },
		portfolioKind, "a portfolio kernel", "or give 0: no hedging"},
	{"probe", func(d bo.DecideOptions, _ int) bool { return d.Probe == bo.ProbeEarned },
		func(d bo.DecideOptions, _ int) string { return d.Probe.String() },
		portfolioKind, "a portfolio kernel naming avg", "or give off"},
	{"probe_window", func(d bo.DecideOptions, _ int) bool { return d.ProbeWindow > 0 },
		func(d bo.DecideOptions, _ int) string { return fmt.Sprint(d.ProbeWindow) },
		portfolioKind, "a portfolio kernel naming avg", "or give 0"},
	{"candidate_fit", func(d bo.DecideOptions, _ int) bool { return d.CandidateFit == bo.CandidateFitAnchored },
		func(d bo.DecideOptions, _ int) string { return d.CandidateFit.String() },
		decidingKind, "a deciding kernel (auto, portfolio)", "or give own"},
	{"candidate_starts", func(d bo.DecideOptions, _ int) bool { return d.CandidateStarts > 0 },
		func(d bo.DecideOptions, _ int) string { return fmt.Sprint(d.CandidateStarts) },
		portfolioKind, "a portfolio kernel", "or give 0: the referee's"},
	{"referee", func(d bo.DecideOptions, _ int) bool { return d.Referee == bo.RefereeLOO },
		func(d bo.DecideOptions, _ int) string { return d.Referee.String() },
		decidingKind, "a deciding kernel (auto, portfolio)", "or give evidence"},
	{"odds", func(d bo.DecideOptions, _ int) bool { return d.Odds > 0 },
		func(d bo.DecideOptions, _ int) string { return fmt.Sprint(d.Odds) },
		decidingKind, "a deciding kernel (auto, portfolio)", "or give 0"},
	{"afford", func(d bo.DecideOptions, _ int) bool { return d.Afford },
		func(bo.DecideOptions, int) string { return "" },
		decidingKind, "a deciding kernel (auto, portfolio)", "or give false"},
	{"landmarks", func(_ bo.DecideOptions, m int) bool { return m > 0 },
		func(_ bo.DecideOptions, m int) string { return fmt.Sprint(m) },
		landmarkKind, "a kernel with a landmark form (every kernel but soft)", "or give -1: never"},
}

// RefuseInert refuses a setting given explicitly (given(key), key one of
// InertKeys) with kernels none of which can act on it, rather than
// running without it: ErrInvalid naming the setting (as name(key) spells
// it; nil: the key), its value and the kernels. The values are those
// parsed into dec (the deciding kernel's options) and landmarks
// (bo.Config.Landmarks). kernels are kernel
// names as bo.Kernel.Name or bo.ParseKernel spell them: one for an
// optimizer, a study's list for perf table, batch and robustness (a
// setting that acts on some of them is taken). The rule, every front end's and perf's:
//
//   - hedge above 0, probe earned, probe_window above 0 and
//     candidate_starts above 0 act on a portfolio only (auto proposes
//     one model's point; a single kernel has one candidate);
//   - candidate_fit anchored, referee loo, odds above 0 and afford on a
//     deciding kernel (auto, portfolio);
//   - landmarks above 0 on every kernel but soft, which has no landmark
//     form: alone it is exact at any n (bo.Config.Landmarks; in a
//     deciding kernel the cap acts on the other candidates, and soft
//     sits out above it).
//
// The values that ask for nothing such a kernel lacks are taken with
// every kernel: hedge 0, probe always or off, probe_window 0,
// candidate_fit own, candidate_starts 0, referee evidence, odds 0,
// afford false (perf bo's defaults, and the recipe perf suggest -h gives
// for every kernel), and landmarks 0 (the default) or negative (never:
// exact, as soft is), so that one command line serves every kernel. A
// portfolio takes the probe settings whether or not it names avg (the
// default kernel names none, so has no probe; committed runs give it a
// probe window). Callers run it before bo.New: nothing is allocated for
// a refused call.
func RefuseInert(kernels []string, dec bo.DecideOptions, landmarks int, given func(key string) bool, name func(key string) string) error {
	if name == nil {
		name = func(key string) string { return key }
	}
	kernels = append([]string(nil), kernels...)
	kinds := make([]string, len(kernels))
	for i, k := range kernels {
		kernels[i] = strings.ToLower(strings.TrimSpace(k))
		kinds[i], _, _ = strings.Cut(kernels[i], ":")
	}
	for _, r := range inertRules {
		if !given(r.key) || !r.set(dec, landmarks) {
			continue
		}
		acted := false
		for _, kind := range kinds {
			acted = acted || r.acts(kind)
		}
		if acted {
			continue
		}
		v := r.value(dec, landmarks)
		if v != "" {
			v = " " + v
		}
		return invalid("%s%s acts only on %s; %s (leave %s out, %s)", name(r.key), v, r.needs, inertWhy(r.key, kernels, kinds), name(r.key), r.remedy)
	}
	return nil
}

// inertWhy says why none of the kernels can act on the setting key.
func inertWhy(key string, kernels, kinds []string) string {
	if len(kernels) != 1 {
		return fmt.Sprintf("none of the kernels %s can act on it", strings.Join(kernels, ","))
	}
	switch {
	case key == "landmarks":
		return fmt.Sprintf("kernel %q has none: it is exact at any n", kernels[0])
	case decidingKind(kinds[0]):
		return fmt.Sprintf("kernel %q proposes the point of the one model it picks", kernels[0])
	}
	return fmt.Sprintf("kernel %q has one candidate", kernels[0])
}
