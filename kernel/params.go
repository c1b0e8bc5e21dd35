package kernel

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Shape is the radial profile κ of a base kernel k(x, y) = v·κ(‖x−y‖/ℓ).
type Shape int

// Base kernel shapes, with u = r/ℓ.
const (
	RBF      Shape = iota // κ(u) = exp(−u²/2)
	Matern12              // κ(u) = exp(−u)
	Matern32              // κ(u) = (1 + √3u)·exp(−√3u)
	Matern52              // κ(u) = (1 + √5u + 5u²/3)·exp(−√5u)
)

var shapeNames = [...]string{"rbf", "matern12", "matern32", "matern52"}

// String returns the command-line spelling: "rbf", "matern12", ….
func (s Shape) String() string {
	if s < 0 || int(s) >= len(shapeNames) {
		return fmt.Sprintf("Shape(%d)", int(s))
	}
	return shapeNames[s]
}

// ParseShape parses "rbf", "matern12", "matern32" or "matern52" (case
// insensitive).
func ParseShape(s string) (Shape, error) {
	for i, n := range shapeNames {
		if strings.EqualFold(s, n) {
			return Shape(i), nil
		}
	}
	return 0, fmt.Errorf("kernel: unknown base kernel %q (want rbf, matern12, matern32 or matern52)", s)
}

// Params are the hyperparameters of a base kernel.
type Params struct {
	Shape       Shape
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
	if p.Shape < 0 || int(p.Shape) >= len(shapeNames) {
		return fmt.Errorf("kernel: unknown shape %d", int(p.Shape))
	}
	if !(p.Variance > 0) || math.IsInf(p.Variance, 0) {
		return fmt.Errorf("kernel: variance must be positive and finite, got %v", p.Variance)
	}
	if !(p.Lengthscale >= MinLengthscale && p.Lengthscale <= MaxLengthscale) {
		return fmt.Errorf("kernel: lengthscale must lie in [%g, %g], got %v", MinLengthscale, MaxLengthscale, p.Lengthscale)
	}
	return nil
}

// Kappa returns v·κ(r/ℓ), the base kernel at distance r ≥ 0.
func (p Params) Kappa(r float64) float64 {
	return p.Variance * kappa(p.Shape, r/p.Lengthscale)
}

const (
	sqrt3 = 1.7320508075688772935274463415058723669428052538103806280558069795
	sqrt5 = 2.2360679774997896964091736687312762354406183596115257242708972454
)

// kappa is κ(u) for u ≥ 0.
func kappa(s Shape, u float64) float64 {
	switch s {
	case RBF:
		return math.Exp(-0.5 * u * u)
	case Matern12:
		return math.Exp(-u)
	case Matern32:
		a := sqrt3 * u
		return expPoly(a, 1+a)
	case Matern52:
		a := sqrt5 * u
		return expPoly(a, 1+a+a*a/3)
	}
	panic("kernel: bad shape")
}

// expPoly returns p·e^{−a}, 0 where e^{−a} underflows (p may then be +Inf:
// a ≳ 1e154, or u = +Inf).
func expPoly(a, p float64) float64 {
	e := math.Exp(-a)
	if e == 0 {
		return 0
	}
	return p * e
}

// KappaDLog returns ∂/∂log ℓ of v·κ(r/ℓ) at r ≥ 0, that is v·(−u·κ'(u))
// with u = r/ℓ: u²·e^{−u²/2} (rbf), u·e^{−u} (matern12),
// 3u²·e^{−√3u} (matern32), (5/3)u²(1 + √5u)·e^{−√5u} (matern52); 0 where
// the exponential underflows.
func (p Params) KappaDLog(r float64) float64 {
	return p.Variance * kappaDLog(p.Shape, r/p.Lengthscale)
}

func kappaDLog(s Shape, u float64) float64 {
	var e float64
	switch s {
	case RBF:
		e = math.Exp(-0.5 * u * u)
	case Matern12:
		e = math.Exp(-u)
	case Matern32:
		e = math.Exp(-sqrt3 * u)
	case Matern52:
		e = math.Exp(-sqrt5 * u)
	default:
		panic("kernel: bad shape")
	}
	if e == 0 {
		return 0
	}
	switch s {
	case RBF:
		return u * u * e
	case Matern12:
		return u * e
	case Matern32:
		return 3 * u * u * e
	}
	return 5.0 / 3 * u * u * (1 + sqrt5*u) * e
}

// productShape reports whether the base kernel is a product over
// coordinates, κ(‖t‖) = Π_k κ(|t_k|): RBF, exp(−Σ_k t_k²/2), and no
// Matérn kernel. Orbit averages over groups acting on separate sets of
// coordinates then factor (embedded.go).
func productShape(s Shape) bool { return s == RBF }

// kappaU2 is κ as a function of u² (avoids a square root for RBF).
func kappaU2(s Shape, u2 float64) float64 {
	if s == RBF {
		return math.Exp(-0.5 * u2)
	}
	return kappa(s, math.Sqrt(u2))
}

// dkappaOverU is κ'(u)/u, so that ∇ₓ v·κ(‖x−z‖/ℓ) = v/ℓ²·κ'(u)/u·(x − z).
// It is finite at u = 0 except for Matern12 (κ'(0⁺) = −1, not
// differentiable at r = 0), for which it returns 0 at u = 0: the gradient
// there is taken to be zero, the symmetric choice.
func dkappaOverU(s Shape, u float64) float64 {
	switch s {
	case RBF:
		return -math.Exp(-0.5 * u * u)
	case Matern12:
		if u == 0 {
			return 0
		}
		if e := math.Exp(-u); e != 0 {
			return -e / u
		}
		return 0
	case Matern32:
		return -3 * math.Exp(-sqrt3*u)
	case Matern52:
		a := sqrt5 * u
		return -5.0 / 3 * expPoly(a, 1+a)
	}
	panic("kernel: bad shape")
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
	return 0, fmt.Errorf("kernel: unknown method %q (want auto, enumerate or closed)", s)
}

// Options configure Avg and Max. The zero value is the default.
type Options struct {
	// Method: Auto (default), Enumerate or Closed.
	Method Method
	// Workers is the number of goroutines for assembly; 0 = GOMAXPROCS.
	// Results are bit-identical for every value.
	Workers int
	// Budget bounds the bytes of one enumerated orbit (|G|·d·8); each
	// worker holds one at a time. 0 = orbit.MemoryBudget().
	Budget int64
	// Quadrature is the number of nodes for continuous groups without a
	// closed form; 0 = DefaultQuadrature for isometric groups (a single
	// sum or max over the nodes of y), DefaultQuadratureDouble for the
	// others (a double one over the nodes of x and of y), except k_avg
	// over scaling: DefaultQuadratureGauss Gauss–Legendre nodes per orbit.
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
var ErrBadOptions = errors.New("kernel: invalid options")

// DefaultQuadrature is the default number of quadrature nodes for
// continuous groups (see the package documentation for measured errors).
const DefaultQuadrature = 256

// DefaultQuadratureDouble is the default number of nodes per orbit for
// non-isometric continuous groups (scaling), whose double reduction costs
// m² base-kernel evaluations per pair (midpoint nodes, orbit.Discretizer).
// k_avg over scaling uses DefaultQuadratureGauss Gauss–Legendre nodes
// instead.
const DefaultQuadratureDouble = 64

// ErrNoClosedForm is returned when Method Closed is requested for a group
// and base kernel without a closed form.
var ErrNoClosedForm = errors.New("kernel: no closed form")
