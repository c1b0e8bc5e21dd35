package kernel

import (
	"fmt"
	"math"
	"strings"

	"github.com/symbo/symbo/internal/f64"
)

// Shape is the radial profile κ of a base kernel k(x, y) = v·κ(‖x−y‖/ℓ).
// Every shape is one row of the shape table (shapes, below): its name,
// profile, derivatives, accuracy-guard bounds and SIMD id live there and
// nowhere else, and a Shape outside the table is an error at every entry
// point (Params.Validate, ParseShape) and a panic inside (a programmer
// error: no path falls back to another shape).
type Shape int

// Base kernel shapes, with u = r/ℓ.
const (
	RBF      Shape = iota // κ(u) = exp(−u²/2)
	Matern12              // κ(u) = exp(−u)
	Matern32              // κ(u) = (1 + √3u)·exp(−√3u)
	Matern52              // κ(u) = (1 + √5u + 5u²/3)·exp(−√5u)
)

const (
	sqrt3 = 1.7320508075688772935274463415058723669428052538103806280558069795
	sqrt5 = 2.2360679774997896964091736687312762354406183596115257242708972454
)

// shapeSpec is one base-kernel shape: everything the package knows of it.
// Adding a shape is one row here (plus its SIMD profile in internal/f64
// and its tests and golden values; its radialSpec needs the closed form of
// ∫_u^∞ κ(ρ)/ρ dρ, which TestScalingExactValues checks against an
// independent quadrature); the rest of the package reads the table.
type shapeSpec struct {
	name  string // the command-line spelling
	title string // the name in a figure or a table: "Matérn-5/2"
	// kappa is κ(u), u ≥ 0 (0 where the exponential underflows).
	kappa func(u float64) float64
	// dlog is −u·κ'(u) = ∂κ(r/ℓ)/∂log ℓ.
	dlog func(u float64) float64
	// κ'(u)/u, so that ∇ₓ v·κ(‖x−z‖/ℓ) = v/ℓ²·κ'(u)/u·(x − z) — at u = 0
	// its limit, or 0 where κ is not differentiable at 0 — is
	// dOf(u, e^{dArg(u)}): one exponential, which dkappaOverUTo takes
	// eight at a time.
	dArg func(u float64) float64
	dOf  func(u, e float64) float64
	// deriv is κ'(u) itself, u ≥ 0, with the right-hand derivative at 0
	// (0 where the exponential underflows): the gradient of a pair too
	// close for dOf's κ'(u)/u (gradTiny).
	deriv func(u float64) float64
	// slope is sup_{t ≥ 0} |dκ(√t)/dt| (+Inf where unbounded): the fused
	// accuracy guard's one-multiplication test (guard.go).
	slope float64
	// fusedErr bounds |κ(√t') − κ(√t)| over |t' − u2| ≤ b, t' ≥ lo =
	// max(u2 − b, 0): the guard's exact test (guard.go).
	fusedErr func(lo, u2, b float64) float64
	// simd is the profile's id in internal/f64 (vectorized κ).
	simd f64.Shape
	// product: κ(‖t‖) = Π_k κ(|t_k|), so orbit averages over groups acting
	// on separate coordinates factor (embedded.go).
	product bool
	// radial is κ in the form the exact scaling average integrates
	// (scalingexact.go).
	radial radialSpec
}

// radialSpec writes κ as κ(u) = e^{−a}·K(a) in an argument a = a(u²) with
// a log-derivative at most a/c, and gives the closed form of
//
//	F(u) = ∫_u^∞ κ(ρ)/ρ dρ = c·E1(a) + e^{−a}·P(a)
//	     = −ln u + c·Ein(a) + e^{−a}·P(a) + const,
//
// so that ∫_{u₀}^{u₁} κ(ρ)/ρ dρ = F(u₀) − F(u₁) and, with ln(u₁/u₀) =
// c·ln(a₁/a₀), also ln(u₁/u₀) + J(a₀) − J(a₁) with the entire function
// J(a) = c·Ein(a) + e^{−a}·P(a) (no logarithm left to cancel near u = 0).
type radialSpec struct {
	c float64
	// arg is a(u²): u²/2 (rbf) or √(2ν)·u (Matérn ν); u2 its inverse.
	arg, u2 func(a float64) float64
	// poly is P(a); kpoly is K(a), kdiff its divided difference
	// (K(b) − K(a))/(b − a).
	poly, kpoly func(a float64) float64
	kdiff       func(a, b float64) float64
}

// shapes is the shape table, indexed by Shape.
var shapes = [...]shapeSpec{
	RBF: {
		name:  "rbf",
		title: "RBF",
		kappa: func(u float64) float64 { return math.Exp(-0.5 * u * u) },
		dlog:  func(u float64) float64 { return expPoly(0.5*u*u, u*u) },
		dArg:  func(u float64) float64 { return -0.5 * u * u },
		dOf:   func(_, e float64) float64 { return -e },
		deriv: func(u float64) float64 { return expPoly(0.5*u*u, -u) },
		slope: 0.5,
		fusedErr: func(lo, _, b float64) float64 {
			return 0.5 * math.Exp(-0.5*lo) * b
		},
		simd: f64.RBF, product: true,
		radial: radialSpec{c: 0.5, arg: func(u2 float64) float64 { return 0.5 * u2 },
			u2:   func(a float64) float64 { return 2 * a },
			poly: zeroPoly, kpoly: onePoly, kdiff: zeroDiff},
	},
	Matern12: {
		name:  "matern12",
		title: "Matérn-1/2",
		kappa: func(u float64) float64 { return math.Exp(-u) },
		dlog:  func(u float64) float64 { return expPoly(u, u) },
		dArg:  func(u float64) float64 { return -u },
		dOf: func(u, e float64) float64 {
			if u == 0 {
				return 0 // κ'(0⁺) = −1: not differentiable at r = 0; the symmetric choice
			}
			if e != 0 {
				return -e / u
			}
			return 0
		},
		deriv: func(u float64) float64 { return -math.Exp(-u) }, // κ'(0⁺) = −1
		slope: math.Inf(1),
		// |Δκ| ≤ e^{−u_lo}·|Δu|, and |Δu| = |t − u2|/(√t + √u2) ≤
		// min(√b, b/(u_lo + √u2)) for t within b of u2. (Before, the
		// denominator was u_lo + √(u2 + b), which is larger: the bound
		// could fall short by the ratio of the two.)
		fusedErr: func(lo, u2, b float64) float64 {
			ul := math.Sqrt(lo)
			return math.Exp(-ul) * min(math.Sqrt(b), b/(ul+math.Sqrt(u2)))
		},
		simd:   f64.Matern12,
		radial: radialSpec{c: 1, arg: math.Sqrt, u2: func(a float64) float64 { return a * a }, poly: zeroPoly, kpoly: onePoly, kdiff: zeroDiff},
	},
	Matern32: {
		name:  "matern32",
		title: "Matérn-3/2",
		kappa: func(u float64) float64 {
			a := sqrt3 * u
			return expPoly(a, 1+a)
		},
		dlog:  func(u float64) float64 { return expPoly(sqrt3*u, 3*u*u) },
		dArg:  func(u float64) float64 { return -sqrt3 * u },
		dOf:   func(_, e float64) float64 { return -3 * e },
		deriv: func(u float64) float64 { return expPoly(sqrt3*u, -3*u) },
		slope: 1.5,
		fusedErr: func(lo, _, b float64) float64 {
			return 1.5 * math.Exp(-sqrt3*math.Sqrt(lo)) * b
		},
		simd: f64.Matern32,
		// ∫_a^∞ (1 + t)e^{−t}/t dt = E1(a) + e^{−a}.
		radial: radialSpec{c: 1, arg: func(u2 float64) float64 { return sqrt3 * math.Sqrt(u2) },
			u2:   func(a float64) float64 { return a * a / 3 },
			poly: onePoly, kpoly: func(a float64) float64 { return 1 + a },
			kdiff: func(_, _ float64) float64 { return 1 }},
	},
	Matern52: {
		name:  "matern52",
		title: "Matérn-5/2",
		kappa: func(u float64) float64 {
			a := sqrt5 * u
			return expPoly(a, 1+a+a*a/3)
		},
		dlog: func(u float64) float64 { return expPoly(sqrt5*u, 5.0/3*u*u*(1+sqrt5*u)) },
		dArg: func(u float64) float64 { return -(sqrt5 * u) },
		dOf: func(u, e float64) float64 {
			a := sqrt5 * u
			if e == 0 {
				return -5.0 / 3 * e // expPoly's 0 where e^{−a} underflows: −0
			}
			return -5.0 / 3 * ((1 + a) * e)
		},
		deriv: func(u float64) float64 {
			a := sqrt5 * u
			return expPoly(a, -5.0/3*u*(1+a))
		},
		slope: 5.0 / 6,
		fusedErr: func(lo, _, b float64) float64 {
			a := sqrt5 * math.Sqrt(lo)
			return 5.0 / 6 * (1 + a) * math.Exp(-a) * b
		},
		simd: f64.Matern52,
		// ∫_a^∞ (1 + t + t²/3)e^{−t}/t dt = E1(a) + e^{−a}·(4/3 + a/3).
		radial: radialSpec{c: 1, arg: func(u2 float64) float64 { return sqrt5 * math.Sqrt(u2) },
			u2:    func(a float64) float64 { return a * a / 5 },
			poly:  func(a float64) float64 { return 4.0/3 + a/3 },
			kpoly: func(a float64) float64 { return 1 + a + a*a/3 },
			kdiff: func(a, b float64) float64 { return 1 + (a+b)/3 }},
	},
}

func zeroPoly(float64) float64          { return 0 }
func onePoly(float64) float64           { return 1 }
func zeroDiff(float64, float64) float64 { return 0 }

// spec returns the table row of s; an s outside the table is a
// programmer error (Params.Validate and ParseShape refuse it at the
// boundary).
func (s Shape) spec() *shapeSpec {
	if s < 0 || int(s) >= len(shapes) {
		panic(fmt.Sprintf("kernel: bad shape %d", int(s)))
	}
	return &shapes[s]
}

// valid reports whether s is a row of the shape table.
func (s Shape) valid() bool { return s >= 0 && int(s) < len(shapes) }

// Shapes lists every base-kernel shape, in table order.
func Shapes() []Shape {
	out := make([]Shape, len(shapes))
	for i := range out {
		out[i] = Shape(i)
	}
	return out
}

// String returns the command-line spelling: "rbf", "matern12", ….
func (s Shape) String() string {
	if !s.valid() {
		return fmt.Sprintf("Shape(%d)", int(s))
	}
	return shapes[s].name
}

// Title returns the shape's name for figures and tables: "RBF",
// "Matérn-5/2", ….
func (s Shape) Title() string {
	if !s.valid() {
		return s.String()
	}
	return shapes[s].title
}

// ShapeNames lists the spellings ParseShape accepts, in table order.
func ShapeNames() []string {
	out := make([]string, len(shapes))
	for i, sp := range shapes {
		out[i] = sp.name
	}
	return out
}

// ParseShape parses a shape's spelling (see Shapes; case insensitive).
func ParseShape(s string) (Shape, error) {
	names := make([]string, len(shapes))
	for i, sp := range shapes {
		if strings.EqualFold(strings.TrimSpace(s), sp.name) {
			return Shape(i), nil
		}
		names[i] = sp.name
	}
	return 0, fmt.Errorf("%w: unknown base kernel %q (want %s)", ErrInvalid, s, strings.Join(names, ", "))
}

// expPoly returns p·e^{−a} computed as e^{−a} first, 0 where it
// underflows (p may then be +Inf: a ≳ 1e154, or u = +Inf): the profiles,
// their derivatives and −u·κ'(u) of the shape table.
func expPoly(a, p float64) float64 {
	e := math.Exp(-a)
	if e == 0 {
		return 0
	}
	return p * e
}

// kappa is κ(u) for u ≥ 0.
func kappa(s Shape, u float64) float64 { return s.spec().kappa(u) }

// kappaDLog is −u·κ'(u).
func kappaDLog(s Shape, u float64) float64 { return s.spec().dlog(u) }

// kappaU2 is κ as a function of u² (avoids a square root for RBF).
func kappaU2(s Shape, u2 float64) float64 {
	if s == RBF {
		return math.Exp(-0.5 * u2)
	}
	return kappa(s, math.Sqrt(u2))
}

// dkappaOverU is κ'(u)/u (see shapeSpec.dOf).
func dkappaOverU(s Shape, u float64) float64 {
	sp := s.spec()
	return sp.dOf(u, math.Exp(sp.dArg(u)))
}

// gradTiny reports whether c·(x − a), c = v/ℓ²·κ'(u)/u from the
// squared distance d2 = ‖x − a‖², misrepresents ∇ₓ v·κ(‖x − a‖/ℓ): d2
// fell below float64's normal range although x ≠ a (u is then 0 or
// imprecise, and Matérn-1/2's κ'(u)/u ≈ −1/u with it, or c overflows),
// or c is not finite (v/ℓ² overflows for a large v over a small ℓ while
// the gradient, at most v/ℓ·max|κ'|, need not). Ordinary pairs never do;
// gradSafe then recomputes the pair.
func gradTiny(c, d2 float64, x, a []float64) bool {
	if math.IsInf(c, 0) || math.IsNaN(c) {
		return true
	}
	if d2 >= 0x1p-1022 {
		return false
	}
	for k, xk := range x {
		if xk != a[k] {
			return true
		}
	}
	return false
}

// gradToward writes ∇ₓ v·κ(‖x − a‖/ℓ) into dst: c·(x − a), with c =
// v/ℓ²·κ'(u)/u computed by the caller from d2 = ‖x − a‖² (each path
// keeps its own u), or gradSafe's value where gradTiny says c·(x − a)
// misrepresents it. The base, aligned, enumerated and fused k_max
// gradients all end here. dst must not overlap x or a.
func gradToward(dst []float64, p Params, c, d2 float64, x, a []float64) {
	if gradTiny(c, d2, x, a) {
		gradSafe(dst, p, x, a)
		return
	}
	for k := range x {
		dst[k] = c * (x[k] - a[k])
	}
}

// gradSafe writes ∇ₓ v·κ(‖x − a‖/ℓ) = v·κ'(u)/ℓ·(x − a)/r into dst, with
// r = ‖x − a‖ from differences scaled by their largest magnitude (no
// underflow) and u = r/ℓ; 0 at x = a.
func gradSafe(dst []float64, p Params, x, a []float64) {
	var s float64
	for k, xk := range x {
		s = max(s, math.Abs(xk-a[k]))
	}
	if s == 0 {
		clear(dst)
		return
	}
	var q float64
	for k, xk := range x {
		t := (xk - a[k]) / s
		q += t * t
	}
	r := s * math.Sqrt(q)
	f := p.Variance * p.Shape.spec().deriv(r/p.Lengthscale) / p.Lengthscale
	for k, xk := range x {
		dst[k] = f * ((xk - a[k]) / r)
	}
}

// dkappaOverUTo sets out[i] = dkappaOverU(s, u[i]), the same bits, with
// the exponentials through f64.MathExpTo (math.Exp's, eight at a time).
// out and u have the same length and must not be the same slice.
func dkappaOverUTo(s Shape, out, u []float64) {
	sp := s.spec()
	for i, v := range u {
		out[i] = sp.dArg(v)
	}
	f64.MathExpTo(out, out)
	for i, v := range u {
		out[i] = sp.dOf(v, out[i])
	}
}

// productShape reports whether the base kernel is a product over
// coordinates, κ(‖t‖) = Π_k κ(|t_k|): RBF, exp(−Σ_k t_k²/2), and no
// Matérn kernel. Orbit averages over groups acting on separate sets of
// coordinates then factor (embedded.go).
func productShape(s Shape) bool { return s.spec().product }

// f64Shape maps a Shape to its SIMD profile in internal/f64.
func f64Shape(s Shape) f64.Shape { return s.spec().simd }

// fusedSlope is sup_{t ≥ 0} |dκ(√t)/dt| (+Inf where unbounded).
func fusedSlope(s Shape) float64 { return s.spec().slope }

// KappaU2To writes κ(√u2_i) into dst (len(dst) = len(u2); dst may be u2)
// for u2_i ≥ 0 with the vectorized exponentials of internal/f64: the same
// bits on every SIMD path, and 0 for u2_i = +Inf. A NaN u2_i gives NaN
// (whose payload may differ between paths); a negative one is outside the
// domain, with no value promised (NaN for the Matérn shapes, e^{−u2_i/2},
// up to +Inf, for rbf). No error: the caller's values are not checked. It panics on
// a shape outside the table and where len(dst) ≠ len(u2) (a programmer
// error, as gonum's length mismatches are).
func KappaU2To(dst, u2 []float64, s Shape) { f64.KappaTo(dst, u2, s.spec().simd) }
