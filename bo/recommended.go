package bo

import (
	"fmt"

	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// RecommendedKernel is the kernel of Recommended, as ParseKernel spells
// it: the portfolio over nystrom, avg, soft and plus, soft and plus both
// favoured by the prior odds.
const RecommendedKernel = "portfolio:nystrom+avg:soft+plus"

// Recommended returns the configuration symbo recommends for a black box
// invariant under g whose base kernel has the given shape (kernel.RBF
// when you know nothing better; orbit.Trivial(d) for no symmetry). It is
// what every front end uses — perf suggest, the C ABI, Python's
// symbo.Optimizer and the Optuna sampler — with their settings applied
// on top; the zero Config is the paper's protocol instead.
//
// It sets, beyond the zero value:
//   - Kernel: RecommendedKernel over g. Each of the four candidates
//     proposes a point and the model the evidence picks chooses among
//     them, so a group that is wrong or only approximately right costs
//     little; avg's proposal on the fixed points of g is tried once
//     within the first ProbeWindow steps.
//   - Prior gp.PriorBoTorch and Mean gp.MeanConstant: BoTorch's
//     hyperparameter priors and a learned constant mean, which keep UCB
//     off the box's corners.
//   - CandidateFit CandidateFitAnchored: the candidates other than plus
//     search their lengthscale around plus's (half the fitting cost).
//   - ProbeWindow DefaultProbeWindow.
//   - ExcludeObserved (DefaultExcludeObserved): no step proposes a point
//     on an observed point's orbit, so no evaluation is spent twice.
//   - Normalize: the model works in coordinates normalized by maps the
//     group commutes with, so the user's units do not matter (a learning
//     rate in [1e-5, 1e-1] beside a width in [16, 1024]).
//
// The evidence for each choice is in lab/results/defaults.md. Errors: a
// nil g, or a g ParseKernel refuses for the shape (ErrBadConfig and
// ErrUnknownKernel's class: bad input).
func Recommended(g orbit.Group, shape kernel.Shape) (Config, error) {
	if check.IsNil(g) {
		return Config{}, fmt.Errorf("%w: Recommended needs a group (orbit.Trivial(d) for none)", ErrBadConfig)
	}
	k, err := ParseKernel(RecommendedKernel, g, shape)
	if err != nil {
		return Config{}, err
	}
	k = k.With(DecideOptions{CandidateFit: CandidateFitAnchored, ProbeWindow: DefaultProbeWindow})
	return Config{Kernel: k, Protocol: RecommendedProtocol()}, nil
}
