package bo

import "fmt"

// errExhausted returns ErrSpaceExhausted for a BO step whose excluded
// candidates of finite acquisition (raw samples and ascent ends) number
// excluded and none is left: the observed (with Config.ExcludeObserved),
// pending and failed points cover every point the step searched, at the
// exclusion radius — the box where they cover it, but a small
// Config.RawSamples searches little of it (package documentation, "The
// exclusion radius").
func (o *Optimizer) errExhausted(excluded int) error {
	obs := "not excluded"
	if o.cfg.ExcludeObserved {
		obs = "excluded"
	}
	return fmt.Errorf("%w: every candidate of finite acquisition (%d raw samples and ascent ends) lies on the orbit of one of %d pending and %d failed points (%d observed points, %s)",
		ErrSpaceExhausted, excluded, len(o.pend), len(o.failed), len(o.xs), obs)
}
