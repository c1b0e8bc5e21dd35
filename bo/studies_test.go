package bo

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/testdepth"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// TestResidualVariance: Protocol.ResidualVariance reaches the models. With
// it, Nystrom's GP is the base GP (gp's TestResidualVarianceNystromIsBase):
// the same likelihood, so the same fit, and the same posterior, so an
// optimizer on Nystrom proposes Base's points (to the ascent's rounding);
// without it, Nystrom explores less and leaves Base's path. Plus's
// proposals change with it.
func TestResidualVariance(t *testing.T) {
	lo, hi := []float64{-2, -2, -2}, []float64{2, 2, 2}
	f := func(x []float64) float64 {
		return -math.Pow(x[0]-0.7, 2) - math.Pow(x[1]+0.4, 2) - 0.5*math.Pow(x[2]-1.2, 2) + 0.3*math.Cos(3*x[0])
	}
	proto := Protocol{RawSamples: 128, Starts: 4}
	path := func(k Kernel, resid bool) [][]float64 {
		p := proto
		p.ResidualVariance = resid
		o := must(New(lo, hi, Config{Kernel: k, Protocol: p}, 7))
		var xs [][]float64
		for range 15 {
			x := must(o.Ask())
			xs = append(xs, x)
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
		}
		return xs
	}
	gap := func(a, b [][]float64) float64 {
		var m float64
		for i := range a {
			for j := range a[i] {
				m = max(m, math.Abs(a[i][j]-b[i][j]))
			}
		}
		return m
	}
	base := path(Base(kernel.RBF), false)
	if g := gap(base, path(Nystrom(kernel.RBF), true)); g > 1e-5 {
		t.Errorf("Nystrom with the residual: proposals up to %g from Base's", g)
	}
	if g := gap(base, path(Nystrom(kernel.RBF), false)); g < 1e-3 {
		t.Errorf("Nystrom without the residual: proposals within %g of Base's; the case does not tell the setting apart", g)
	}
	sf := must(orbit.SignFlip(3))
	if g := gap(path(Plus(sf, kernel.RBF), false), path(Plus(sf, kernel.RBF), true)); g == 0 {
		t.Error("Plus: the same proposals with and without the residual")
	}
}

// TestRefereeLOO: with DecideOptions.Referee = RefereeLOO the referee is
// the candidate of highest leave-one-out log predictive density, the
// favoured one's raised by the odds (recomputed here from the step's
// fits); with the evidence rule, or where a candidate's GP is a landmark
// GP, the highest log marginal likelihood is. A wrong group (sign flips
// of an objective that is not even) makes the scores differ.
func TestRefereeLOO(t *testing.T) {
	testdepth.Once(t) // a whole run: in one sampled leg (and at full depth), not in every one
	lo, hi := []float64{-2, -2}, []float64{2, 2}
	f := func(x []float64) float64 {
		return -math.Pow(x[0]-1.1, 2) - math.Pow(x[1]+0.6, 2) + 0.3*math.Sin(3*x[0]*x[1])
	}
	g := must(orbit.SignFlip(2))
	differ := false
	for _, c := range []struct {
		rule      RefereeRule
		landmarks int
		loo       bool // the referee is LOO's
	}{{RefereeEvidence, 0, false}, {RefereeLOO, 0, true}, {RefereeLOO, 4, false}} {
		k := must(PortfolioFavouring(g, kernel.RBF, []string{NameBase}, []string{NameNystrom, NameSoft, NamePlus})).With(DecideOptions{Referee: c.rule})
		for seed := range uint64(4) {
			o := must(New(lo, hi, Config{Kernel: k, Landmarks: c.landmarks, Init: 5, Protocol: Protocol{RawSamples: 64, Starts: 2}}, seed))
			for range 25 {
				x := must(o.Ask())
				if err := o.Tell(x, f(x)); err != nil {
					t.Fatal(err)
				}
				if o.armFits == nil {
					continue // the initial design
				}
				best, bestS, bestL, bestLS := -1, math.Inf(-1), -1, math.Inf(-1)
				for i, m := range o.armFits {
					if m == nil {
						continue
					}
					odds := 0.0
					if o.cfg.Kernel.isFavoured(i) {
						odds = o.cfg.Kernel.logOdds()
					}
					if s := m.LogMarginal() + odds; s > bestLS {
						bestL, bestLS = i, s
					}
					v, err := m.LOOLogPredictive()
					if err != nil {
						if c.loo {
							t.Fatal(err)
						}
						continue
					}
					if s := v + odds; s > bestS {
						best, bestS = i, s
					}
				}
				want := bestL
				if c.loo {
					want = best
				}
				if best != bestL && best >= 0 {
					differ = true
				}
				if o.refArm != want {
					t.Errorf("%v, landmarks %d: referee %d, want %d (LOO's %d, evidence's %d)", c.rule, c.landmarks, o.refArm, want, best, bestL)
				}
			}
		}
	}
	if !differ {
		t.Error("LOO and the evidence picked the same referee at every step: the case does not tell them apart")
	}
}

// TestStudySettingsDeterministic: the portfolio with both study settings
// (Referee = RefereeLOO, ResidualVariance) gives the same trace bits for
// GOMAXPROCS 1 and 4 and any Workers, and the trace names them.
func TestStudySettingsDeterministic(t *testing.T) {
	p := must(problem.New("Ackley2d", 0))
	cfg := Config{Kernel: Kernel{}.With(DecideOptions{Referee: RefereeLOO}), Protocol: Protocol{RawSamples: 64, ResidualVariance: true}}
	s := traceJSON(t, sameTraceEverywhere(t, NamePortfolio, p, NamePortfolio, cfg, 4, 11))
	if !strings.Contains(s, `"referee":"loo"`) || !strings.Contains(s, `"residual_variance":true`) {
		t.Errorf("the trace does not name the settings: %.300s", s)
	}
}

// TestDecideStudyOptions: the deciding kernel's study options are
// validated when the optimizer is built (ErrBadConfig), and Odds replaces
// AutoOdds: with odds far above any difference in evidence the referee is
// always a favoured candidate, with AutoOdds here it is not.
func TestDecideStudyOptions(t *testing.T) {
	lo, hi := []float64{-2, -2}, []float64{2, 2}
	g := must(orbit.SignFlip(2))
	k := must(PortfolioFavouring(g, kernel.RBF, []string{NameBase}, []string{NamePlus}))
	for _, o := range []DecideOptions{{Referee: 7}, {Odds: -1}, {Odds: math.NaN()}, {Odds: math.Inf(1)}} {
		if _, err := New(lo, hi, Config{Kernel: k.With(o)}, 1); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%+v: %v, want ErrBadConfig", o, err)
		}
	}
	// Not invariant under sign flips: base's evidence beats plus's.
	f := func(x []float64) float64 { return -math.Pow(x[0]-1.1, 2) - math.Pow(x[1]+0.6, 2) }
	for _, c := range []struct {
		odds        float64
		wantUnfavor bool // base (not favoured) is the referee at some step
	}{{0, true}, {1000, false}} {
		o := must(New(lo, hi, Config{Kernel: k.With(DecideOptions{Odds: c.odds}), Protocol: Protocol{RawSamples: 64, Starts: 2}}, 5))
		unfavoured := false
		for range 20 {
			x := must(o.Ask())
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
			if o.armFits != nil && !o.cfg.Kernel.isFavoured(o.refArm) {
				unfavoured = true
			}
		}
		if unfavoured != c.wantUnfavor {
			t.Errorf("odds %v: base the referee at some step %v, want %v", c.odds, unfavoured, c.wantUnfavor)
		}
	}
}

// TestBetaScale: Protocol.BetaScale multiplies both rules' β at every n,
// 0 leaves it, and bad factors are ErrBadConfig: among them a finite
// factor above MaxBetaScale (1e308 was accepted, β overflowed at some
// step and every later ask failed with an error naming no setting). At
// MaxBetaScale, the largest d and the last evaluation, β is finite.
func TestBetaScale(t *testing.T) {
	lo, hi := []float64{-1, -1, -1}, []float64{1, 1, 1}
	for _, s := range []float64{-1, math.NaN(), math.Inf(1), 1e308, math.Nextafter(MaxBetaScale, math.Inf(1))} {
		if _, err := New(lo, hi, Config{Protocol: Protocol{BetaScale: s}}, 1); !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), "BetaScale") {
			t.Errorf("BetaScale %v: %v, want ErrBadConfig naming BetaScale", s, err)
		}
	}
	wlo, whi := make([]float64, MaxDim), make([]float64, MaxDim)
	for i := range wlo {
		wlo[i], whi[i] = -1, 1
	}
	for _, rule := range []BetaRule{BetaPaper, BetaAuthors} {
		o := must(New(wlo, whi, Config{Protocol: Protocol{Beta: rule, BetaScale: MaxBetaScale}}, 1))
		if _, b := o.beta(MaxEvaluations); !(b > 0) || math.IsInf(b, 0) {
			t.Errorf("rule %v: β = %v at d = %d, n = %d and BetaScale = MaxBetaScale", rule, b, MaxDim, MaxEvaluations)
		}
	}
	for _, rule := range []BetaRule{BetaPaper, BetaAuthors} {
		ref := must(New(lo, hi, Config{Protocol: Protocol{Beta: rule}}, 1))
		one := must(New(lo, hi, Config{Protocol: Protocol{Beta: rule, BetaScale: 1}}, 1))
		quarter := must(New(lo, hi, Config{Protocol: Protocol{Beta: rule, BetaScale: 0.25}}, 1))
		for _, n := range []int{5, 6, 20, 55} {
			_, b := ref.beta(n)
			_, b1 := one.beta(n)
			_, bq := quarter.beta(n)
			want := 0.5 * 3 * math.Log(float64(n-4))
			if rule == BetaAuthors {
				want = 0.5 * 3 * math.Log(2*float64(n))
			}
			if math.Abs(b-want) > 1e-12 || b1 != b || math.Abs(bq-0.25*want) > 1e-12 {
				t.Errorf("%v, n = %d: β %v, with factor 1 %v, with 0.25 %v; want %v and %v", rule, n, b, b1, bq, want, 0.25*want)
			}
		}
	}
}
