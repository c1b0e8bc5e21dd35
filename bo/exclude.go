package bo

import (
	"fmt"

	"github.com/symbo/symbo/internal/errclass"
)

// ErrExhausted reports a BO step that found no point to propose: the
// acquisition is not finite at any start or raw sample off the excluded
// orbits (package documentation, "The exclusion radius") — the observed
// (with Config.ExcludeObserved), pending and failed points cover the box
// at the exclusion radius, or every point off them has a non-finite
// acquisition. The input caused it (errclass.Input): a front end can fall
// back to a point of its own, or stop.
var ErrExhausted = errclass.New(errclass.Input, "bo: no point to propose off the excluded orbits")

// errExhausted returns ErrExhausted with the counts of the excluded
// points.
func (o *Optimizer) errExhausted() error {
	obs := "not excluded"
	if o.cfg.ExcludeObserved {
		obs = "excluded"
	}
	return fmt.Errorf("%w: the acquisition is not finite at any ascent end or raw sample off the orbits of %d pending and %d failed points (%d observed points, %s)",
		ErrExhausted, len(o.pend), len(o.failed), len(o.xs), obs)
}
