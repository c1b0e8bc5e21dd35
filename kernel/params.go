package kernel

import (
	"fmt"
	"math"
	"strings"

	"github.com/symbo/symbo/internal/errclass"
)

// Params are the hyperparameters of a base kernel.
type Params struct {
	Shape       Shape   // the radial profile κ (RBF, Matern12, Matern32, Matern52)
	Variance    float64 // v > 0, finite
	Lengthscale float64 // ℓ in [MinLengthscale, MaxLengthscale]
}

// Lengthscale range. Kernels scale squared distances by 1/ℓ²; within this
// range ℓ² and 1/ℓ² are finite normal numbers, so no distance is lost to
// underflow (ℓ = 1e−300 would make 1/ℓ² = +Inf and 0·Inf = NaN at r = 0).
const (
	MinLengthscale = 1e-150
	MaxLengthscale = 1e150
)

// Validate reports a bad shape or a non-positive or non-finite variance or
// lengthscale.
func (p Params) Validate() error {
	if !p.Shape.valid() {
		return fmt.Errorf("%w: unknown shape %d", ErrInvalid, int(p.Shape))
	}
	if !(p.Variance > 0) || math.IsInf(p.Variance, 0) {
		return fmt.Errorf("%w: variance must be positive and finite, got %v", ErrInvalid, p.Variance)
	}
	if !(p.Lengthscale >= MinLengthscale && p.Lengthscale <= MaxLengthscale) {
		return fmt.Errorf("%w: lengthscale must lie in [%g, %g], got %v", ErrInvalid, MinLengthscale, MaxLengthscale, p.Lengthscale)
	}
	return nil
}

// Kappa returns v·κ(r/ℓ), the base kernel at distance r ≥ 0: 0 at
// r = +Inf, NaN for a NaN r (no error: it is the caller's distance). It
// panics on a shape outside the table, as KappaU2To does (Validate
// reports one).
func (p Params) Kappa(r float64) float64 {
	return p.Variance * kappa(p.Shape, r/p.Lengthscale)
}

// KappaDLog returns ∂/∂log ℓ of v·κ(r/ℓ) at r ≥ 0, that is v·(−u·κ'(u))
// with u = r/ℓ: u²·e^{−u²/2} (rbf), u·e^{−u} (matern12),
// 3u²·e^{−√3u} (matern32), (5/3)u²(1 + √5u)·e^{−√5u} (matern52); 0 where
// the exponential underflows (r = +Inf included), NaN for a NaN r. It
// panics on a shape outside the table, as Kappa does.
func (p Params) KappaDLog(r float64) float64 {
	return p.Variance * kappaDLog(p.Shape, r/p.Lengthscale)
}

// Method is how an orbit kernel is evaluated: requested in
// Options.Method (Auto, Enumerate or Closed) and reported, once resolved,
// by the kernels' Method method (Closed, Enumerate or Quadrature).
type Method int

// Methods.
const (
	// Auto uses a closed form where the group and base kernel allow one,
	// else enumeration (finite groups) or quadrature (continuous groups).
	// It is never reported.
	Auto Method = iota
	// Enumerate enumerates the orbit of a finite group, or a discretized
	// orbit (Options.Quadrature nodes) of a continuous one. Reported for
	// finite groups only; a continuous group evaluated on nodes reports
	// Quadrature.
	Enumerate
	// Closed requires a closed form and fails if there is none.
	Closed
	// Quadrature is reported, never requested: the kernel reduces over the
	// nodes of a quadrature rule or a discretized orbit (a continuous group
	// without a closed form, under Auto or Enumerate). Options.Method =
	// Quadrature is an error (ErrBadOptions).
	Quadrature
)

var methodNames = [...]string{"auto", "enumerate", "closed", "quadrature"}

// String returns "auto", "enumerate", "closed" or "quadrature".
func (m Method) String() string {
	if m < 0 || int(m) >= len(methodNames) {
		return fmt.Sprintf("Method(%d)", int(m))
	}
	return methodNames[m]
}

// ParseMethod parses the methods Options.Method accepts: "auto",
// "enumerate" or "closed" (case-insensitive).
func ParseMethod(s string) (Method, error) {
	for i, n := range methodNames[:Closed+1] {
		if strings.EqualFold(s, n) {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown method %q (want auto, enumerate or closed)", ErrInvalid, s)
}

// Options configure Avg and Max. The zero value is the default.
type Options struct {
	// Method: Auto (default), Enumerate or Closed.
	Method Method
	// Workers is the number of goroutines for assembly; 0 = GOMAXPROCS.
	// Results are bit-identical for every value.
	Workers int
	// Budget is the kernel's memory budget in bytes, the largest request
	// it makes: one enumerated orbit (|G|·d·8; each worker holds one at a
	// time), an output matrix CrossTo or GramTo sizes for an empty dst
	// (so also k_plus's, built on this k_max, and OrbitDist2To's), the
	// prepared points of NewOrbitDist. 0 = orbit.DefaultBudget (8 GiB),
	// whatever the environment says; negative is an error.
	Budget int64
	// Quadrature is the number of nodes for continuous groups without a
	// closed form; 0 = DefaultQuadrature for isometric groups (a single
	// sum or max over the nodes of y), DefaultQuadratureDouble for the
	// others (a double one over the nodes of x and of y). k_avg over
	// scaling (orbit.Segmenter) is exact with 0 (Method Closed; also under
	// Method Closed whatever Quadrature says); Quadrature > 0 asks for
	// that many Gauss–Legendre nodes per orbit instead, and Method
	// Enumerate for DefaultQuadratureGauss of them when it is 0.
	Quadrature int
	// Normalize (NewAvg only) makes k_avg unit-diagonal: the normalized
	// orbit average k̃(x, y) = v·a(x, y)/√(a(x, x)·a(y, y)), a = k_avg
	// with unit variance (any Method), so k̃(x, x) = v everywhere instead
	// of peaking at the group's fixed points. NewMax (hence NewPlus)
	// rejects it with an error.
	Normalize bool
}

// Caps on Options.Quadrature, checked by NewAvg and NewMax: a single
// reduction over the nodes (isometric groups, e.g. rotation2d) costs
// Quadrature kernel evaluations per pair, a double one (scaling and other
// non-isometric groups) Quadrature².
const (
	MaxQuadrature       = 1 << 16
	MaxQuadratureDouble = 1 << 10
)

// ErrBadOptions reports invalid Options (a negative Workers or Budget, a
// Quadrature outside its range, an unknown Method).
var ErrBadOptions = errclass.New(errclass.Input, "kernel: invalid options")

// ErrInvalid reports invalid parameters or settings: a base shape, a
// variance or lengthscale out of range, a method name, a dimension, a
// group the kernel cannot evaluate, a RelTol. Its text is the package's
// prefix alone, so a wrapped message reads "kernel: <what is wrong>".
var ErrInvalid = errclass.New(errclass.Input, "kernel")

// DefaultQuadrature is the default number of quadrature nodes for
// continuous groups (see the package documentation for its error bounds).
const DefaultQuadrature = 256

// DefaultQuadratureDouble is the default number of nodes per orbit for
// non-isometric continuous groups (scaling), whose double reduction costs
// m² base-kernel evaluations per pair (midpoint nodes, orbit.Discretizer).
// k_avg over scaling is exact by default, or uses Gauss–Legendre nodes
// (DefaultQuadratureGauss; see Options.Quadrature).
const DefaultQuadratureDouble = 64

// ErrNoClosedForm is returned when Method Closed is requested for a group
// and base kernel without a closed form.
var ErrNoClosedForm = errclass.New(errclass.Input, "kernel: no closed form")
