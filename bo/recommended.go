package bo

import (
	"fmt"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// RecommendedKernel is the kernel of Recommended, as ParseRecommended
// spells it: the portfolio over nystrom, soft and plus, soft and plus both
// favoured by the prior odds. It has no avg, so no fixed-point probe:
// chosen on the users' suite's tuning half (lab/results/suite/), where
// avg's proposals and its probe cost more on the problems whose optimum
// is off the fixed points than they won on the one whose optimum is on
// them.
const RecommendedKernel = "portfolio:nystrom:soft+plus"

// Recommended returns the configuration symbo recommends for a black box
// invariant under g whose base kernel has the given shape (kernel.RBF
// when you know nothing better; orbit.Trivial(d) for no symmetry). It is
// what every front end uses — perf suggest, the C ABI, Python's
// symbo.Optimizer and the Optuna sampler — with their settings applied
// on top; the zero Config is the paper's protocol instead.
//
// It sets, beyond the zero value:
//   - Kernel: RecommendedKernel over g. Each of the three candidates
//     proposes a point and the model the evidence picks chooses among
//     them, so a group that is wrong or only approximately right costs
//     little.
//   - Prior gp.PriorBoTorch and Mean gp.MeanConstant: BoTorch's
//     hyperparameter priors and a learned constant mean, which keep UCB
//     off the box's corners.
//   - CandidateFit CandidateFitAnchored: the candidates other than plus
//     search their lengthscale around plus's (half the fitting cost).
//   - Hedge with HedgeStarts DefaultHedgeStarts: each candidate also
//     proposes expected improvement's maximizer beside UCB's, and the
//     referee's mean picks among the six proposals. Chosen on the users'
//     suite's tuning half, where it lowered the default's regret for a
//     little more per step (lab/results/suite/README.md, "The portfolio
//     hedged").
//   - CandidateStarts DefaultCandidateStarts: the candidates other than
//     the referee search their UCB maximizer from three ascents, the
//     referee from Config.Starts (on the tuning half no worse, and the
//     step cheaper: lab/results/hedge/README.md, "Three ascents for the
//     candidates other than the referee").
//   - ProbeWindow DefaultProbeWindow and Probe ProbeEarned: for a
//     kernel with avg set on top (a front end's kernel setting), its
//     fixed-point probe fires within the first five steps and only where
//     the referee's own acquisition rates the point as high as the
//     proposal its means picked (on the tuning half, always-on probing
//     was the costlier rule).
//   - ExcludeObserved (DefaultExcludeObserved): no step proposes a point
//     on an observed point's orbit, so no evaluation is spent twice; and
//     StepAside: where the acquisition rates an observed point highest,
//     the step takes the best point just outside its exclusion radius
//     rather than the next local maximum, wherever that lies (chosen on
//     the users' suite's tuning half, where it lowered the mean regret and
//     raised it resolvably on no problem: lab/results/hedge/README.md,
//     "Stepping aside").
//   - Normalize: the model works in coordinates normalized by maps the
//     group commutes with, so the user's units do not matter (a learning
//     rate in [1e-5, 1e-1] beside a width in [16, 1024]).
//   - ARD: a lengthscale per class of coordinates the group allows,
//     where its fit earns it.
//   - BetaScale DefaultBetaScale: UCB's β is a quarter of the paper's
//     0.5·d·log t, so each step explores less (chosen on the users'
//     suite's tuning half, where it lowered regret resolvably on some
//     problems and raised it on none: lab/results/suite/README.md, "Nine
//     pilots on the tuning half").
//
// The evidence for each choice is in lab/results/README.md. Errors: a
// nil g, a shape not in kernel.Shapes(), or a g ParseKernel refuses for
// the shape (ErrBadConfig and ErrUnknownKernel's class: bad input).
func Recommended(g orbit.Group, shape kernel.Shape) (Config, error) {
	if check.IsNil(g) {
		return Config{}, fmt.Errorf("%w: Recommended needs a group (orbit.Trivial(d) for none)", ErrBadConfig)
	}
	k, err := ParseRecommended(RecommendedKernel, g, shape)
	if err != nil {
		return Config{}, err
	}
	return Config{Kernel: k, Protocol: RecommendedProtocol()}, nil
}

// ParseRecommended is ParseKernel with Recommended's deciding options
// (anchored candidate fits, the earned probe within DefaultProbeWindow
// steps, one EI hedge per candidate, DefaultCandidateStarts ascents for
// the candidates other than the referee, DecideOptions.Afford): the kernel
// every front end builds when a user names one, and the one to set on
// Recommended's Config to change its kernel and keep the rest,
//
//	cfg.Kernel, err = bo.ParseRecommended("portfolio:nystrom+plus", g, kernel.RBF)
//
// ParseKernel's kernel, with the zero DecideOptions, is the paper's
// protocol instead; a kernel with one candidate (plus, avg, …) is the
// same either way. Errors: ParseKernel's, and ErrBadConfig for a list
// of candidates DecideOptions.Afford empties.
func ParseRecommended(name string, g orbit.Group, shape kernel.Shape) (Kernel, error) {
	k, err := ParseKernel(name, g, shape)
	if err != nil {
		return Kernel{}, err
	}
	k = k.With(DecideOptions{CandidateFit: CandidateFitAnchored, ProbeWindow: DefaultProbeWindow, Probe: ProbeEarned, Hedge: true, HedgeStarts: DefaultHedgeStarts, CandidateStarts: DefaultCandidateStarts, Afford: true})
	if k.affordErr != nil {
		return Kernel{}, k.affordErr
	}
	return k, nil
}
