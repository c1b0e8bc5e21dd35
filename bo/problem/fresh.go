package problem

import (
	"math"

	"github.com/symbo/symbo/orbit"
)

// The fresh held-out set (lab/suite/fresh.md, class ClassFresh): twelve
// problems of fixed dimension no earlier study ran, each registered under
// its page's name, with its own noise fraction and the RBF base kernel.
// Like the suite's, the names carry their dimension and collide with no
// other family's member (TestSuiteNameCollisions).

// Constants of the fresh set's problems (lab/suite/fresh.md).
const (
	// stybT is the positive root of 4t³ − 32t + 5, where ½(t⁴ − 16t² +
	// 5t) is least for t ≥ 0; stybStar is StyblinskiAbs4d's minimum, four
	// times that least value (bisection to the last bit,
	// TestFreshOptima recomputes both).
	stybT    = 2.746802770990837
	stybStar = -100.11778662113576
	// tiltR is TiltedRing2d's optimal radius, the root of g′ for g(r) =
	// (r − 1.5)² + 0.3·(1 − cos 6(r − 1.5)) − 0.15·r near 1.5 (its
	// minimum on the box is at (−tiltR, 0): the tilt 0.15·x₁ is least
	// at x₁ = −r), and tiltStar = g(tiltR).
	tiltR    = 1.5117269122248653
	tiltStar = -0.22587921214551734
)

// Shifts and targets of the fresh set's problems.
var (
	levy6c   = linspace(-2.5, 2.5, 6)
	levy10c  = linspace(-3, 3, 10)
	rosen5c  = []float64{0.3, 0.7, 1.1, 1.5, 1.9}
	wrongW   = [4]float64{1, 2, 4, 8}
	wrongC   = [4]float64{-1, -0.3, 0.4, 1.1}
	pumpsTau = [3]float64{1, 2.5, 4}
	rigC     = [3]float64{0.4, 1.1, 2.2}
	targets  = [4][2]float64{{-1, -1}, {1, -0.5}, {-0.5, 1}, {1.2, 1.2}}
)

// fresh registers a problem of the fresh set on a cube.
func fresh(display string, d int, about string, lo, hi, noise float64, group func(d int) (orbit.Group, error),
	f func([]float64) float64, fstar float64, opt [][]float64) family {
	fam := synth(display, d, about, lo, hi, noise, group, f, fstar, true, opt)
	fam.class = ClassFresh
	return fam
}

// freshBox registers a problem of the fresh set on a box with sides of
// their own and a group acting on the coordinates coords.
func freshBox(display, about string, lo, hi []float64, noise float64, g func() (orbit.Group, error), coords []int,
	f func([]float64) float64, opt [][]float64) family {
	fam := suite(display, len(lo), about, func() (*Problem, error) {
		return suiteSpec{
			name: display, lo: lo, hi: hi, noise: noise, f: f, known: true, opt: opt,
			group: func() (orbit.Group, error) {
				h, err := g()
				if err != nil {
					return nil, err
				}
				return orbit.OnCoords(h, len(lo), coords)
			},
		}.build()
	})
	fam.class = ClassFresh
	return fam
}

// freshRegistry is the fresh set's entries, in its page's order.
func freshRegistry() []family {
	styb := []float64{stybT, -stybT, stybT, -stybT}
	return []family{
		fresh("StyblinskiAbs4d", 4, "½Σ(t⁴ − 16t² + 5t), t = |x_i|, on [−5, 5]⁴, sign flips; min at |x_i| = 2.7468; light noise", -5, 5, noiseLight,
			signflip, styblinskiAbs, stybStar, [][]float64{styb, flipFirst(styb)}),
		fresh("OffLevy6d", 6, "Levy(sort x − c), c evenly spaced from −2.5 to 2.5, on [−5, 5]⁶, permutations; no noise", -5, 5, noiseNone,
			permutation, shiftedBy(canonSort, levyU, levy6c), 0, [][]float64{levy6c, reversed(levy6c)}),
		fresh("OffRosen5d", 5, "Rosenbrock(sort|x| − c + 1)/100, c = (0.3, 0.7, 1.1, 1.5, 1.9), on [−3, 3]⁵, hyperoctahedral; moderate noise", -3, 3, noiseModerate,
			hyperoctahedral, shiftedBy(canonSortAbs, rosenU, rosen5c), 0, [][]float64{rosen5c, flipFirst(reversed(rosen5c))}),
		fresh("Targets4x2d", 8, "four points in the plane matched to four targets (min over the 24 assignments of Σ‖u‖² + 0.3Σ(1 − cos 3πu_j)) on [−2, 2]⁸, blockperm(4, 2); no noise", -2, 2, noiseNone,
			func(int) (orbit.Group, error) { return orbit.BlockPerm(4, 2) }, targetsF, 0, targetsOptima()),
		fresh("Halo2d", 2, "t²(1 + sin² 5r) + 0.1(1 − cos 4πt), t = ‖x‖ − 1.5, on [−2.5, 2.5]², rotation2d; min 0 on the circle; light noise", -2.5, 2.5, noiseLight,
			func(int) (orbit.Group, error) { return orbit.Rotation2D() }, halo, 0, [][]float64{{1.5, 0}, {0, -1.5}}),
		fresh("Salomon4d", 4, "1 − cos 2π‖x‖ + 0.1‖x‖ on [−4, 4]⁴, hyperoctahedral; min 0 at the origin; light noise", -4, 4, noiseLight,
			hyperoctahedral, salomon, 0, [][]float64{make([]float64, 4)}),
		fresh("DiagRastrigin6d", 6, "Σ((x_i − 1)² + 3(1 − cos 2π(x_i − 1))) on [−3, 3]⁶, permutations; min 0 at (1, …, 1); moderate noise", -3, 3, noiseModerate,
			permutation, diagRastrigin, 0, [][]float64{rep1(6)}),
		fresh("TiltedRing2d", 2, "(r − 1.5)² + 0.3(1 − cos 6(r − 1.5)) + 0.15x₁ on [−2.5, 2.5]², declared rotation2d (approximately invariant); no noise", -2.5, 2.5, noiseNone,
			func(int) (orbit.Group, error) { return orbit.Rotation2D() }, tiltedRing, tiltStar, [][]float64{{-tiltR, 0}}),
		fresh("WrongPerm4d", 4, "Σw_i((x_i − c_i)² + 0.2(1 − cos 2π(x_i − c_i))), w = (1, 2, 4, 8), on [−2, 2]⁴, declared permutations (not invariant); light noise", -2, 2, noiseLight,
			permutation, wrongPerm, 0, [][]float64{wrongC[:]}),
		freshBox("Pumps6d", "three flows ∈ [0, 500] (permuted), T ∈ [250, 400], log10 pressure ∈ [0, 4], valve ∈ [0, 1]; moderate noise",
			[]float64{0, 0, 0, 250, 0, 0}, []float64{500, 500, 500, 400, 4, 1}, noiseModerate,
			func() (orbit.Group, error) { return orbit.Permutation(3) }, []int{0, 1, 2}, pumps,
			[][]float64{{100, 250, 400, 330, 2.2, 0.35}, {400, 100, 250, 330, 2.2, 0.35}}),
		freshBox("Rig7d", "three angles ∈ [−90, 90] (hyperoctahedral), frequency ∈ [10³, 10⁶], gain ∈ [0, 0.01], x₆ ∈ [0, 10⁵] ignored, x₇ ∈ [−1, 1]; light noise",
			[]float64{-90, -90, -90, 1e3, 0, 0, -1}, []float64{90, 90, 90, 1e6, 0.01, 1e5, 1}, noiseLight,
			func() (orbit.Group, error) { return orbit.Hyperoctahedral(3) }, []int{0, 1, 2}, rig,
			[][]float64{{12, 33, 66, 3.7e5, 0.004, 0, 0.2}, {-66, 12, -33, 3.7e5, 0.004, 5e4, 0.2}}),
		fresh("OffLevy10dPerm", 10, "Levy(sort x − c), c evenly spaced from −3 to 3, on [−5, 5]¹⁰, permutations (|G| = 10!); light noise", -5, 5, noiseLight,
			permutation, shiftedBy(canonSort, levyU, levy10c), 0, [][]float64{levy10c, reversed(levy10c)}),
	}
}

func rep1(d int) []float64 {
	out := make([]float64, d)
	for i := range out {
		out[i] = 1
	}
	return out
}

// levyU is Levy's function written on its shift u = z − 1 (w = 1 + u/4):
// sin²(πu₁/4) + Σ_{i<d} (u_i/4)²·(1 + 10·sin²(πu_i/4 + 1)) + (u_d/4)²·(1 +
// sin²(πu_d/2)), which equals the textbook form and is exactly 0 at u = 0.
func levyU(u []float64) float64 {
	s := math.Sin(math.Pi * u[0] / 4)
	f := s * s
	d := len(u)
	for _, v := range u[:d-1] {
		a, b := v/4, math.Sin(math.Pi*v/4+1)
		f += a * a * (1 + 10*b*b)
	}
	a, b := u[d-1]/4, math.Sin(math.Pi*u[d-1]/2)
	return f + a*a*(1+b*b)
}

// rosenU is Rosenbrock's function of z = u + 1, divided by 100: Σ_{i<d}
// (z_{i+1} − z_i²)² + (1 − z_i)²/100; 0 at u = 0.
func rosenU(u []float64) float64 {
	var f float64
	for i := range len(u) - 1 {
		z, w := u[i]+1, u[i+1]+1
		a := w - z*z
		f += a*a + u[i]*u[i]/100
	}
	return f
}

// styblinskiAbs is ½Σ(t⁴ − 16t² + 5t), t = |x_i|.
func styblinskiAbs(x []float64) float64 {
	var f float64
	for _, v := range x {
		t := math.Abs(v)
		f += t*t*t*t - 16*t*t + 5*t
	}
	return f / 2
}

// targetsH is h(u) = ‖u‖² + 0.3·Σ_j(1 − cos 3πu_j) for a point of the plane.
func targetsH(ux, uy float64) float64 {
	return ux*ux + uy*uy + 0.3*((1-math.Cos(3*math.Pi*ux))+(1-math.Cos(3*math.Pi*uy)))
}

// targetsF is the least, over the 24 assignments π of the four points
// p_k = (x_{2k}, x_{2k+1}) to the four targets, of Σ_k h(p_{π(k)} − t_k):
// invariant under permutations of the points, as the minimum over all
// assignments.
func targetsF(x []float64) float64 {
	var cost [4][4]float64 // cost[k][j]: point k on target j
	for k := range 4 {
		for j, t := range targets {
			cost[k][j] = targetsH(x[2*k]-t[0], x[2*k+1]-t[1])
		}
	}
	best := math.Inf(1)
	var perm func(k int, used [4]bool, s float64)
	perm = func(k int, used [4]bool, s float64) {
		if k == 4 {
			best = min(best, s)
			return
		}
		for j := range 4 {
			if !used[j] {
				used[j] = true
				perm(k+1, used, s+cost[k][j])
				used[j] = false
			}
		}
	}
	perm(0, [4]bool{}, 0)
	return best
}

// targetsOptima are two of Targets4x2d's optimizers: the points on the
// targets in order, and in reverse order.
func targetsOptima() [][]float64 {
	var a, b []float64
	for k := range 4 {
		a = append(a, targets[k][0], targets[k][1])
		b = append(b, targets[3-k][0], targets[3-k][1])
	}
	return [][]float64{a, b}
}

// halo is t²·(1 + sin² 5r) + 0.1·(1 − cos 4πt), t = r − 1.5, r = ‖x‖.
func halo(x []float64) float64 {
	r := math.Hypot(x[0], x[1])
	t, s := r-1.5, math.Sin(5*r)
	return t*t*(1+s*s) + 0.1*(1-math.Cos(4*math.Pi*t))
}

// salomon is 1 − cos(2π‖x‖) + 0.1‖x‖.
func salomon(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	r := math.Sqrt(s)
	return 1 - math.Cos(2*math.Pi*r) + 0.1*r
}

// diagRastrigin is Σ((x_i − 1)² + 3·(1 − cos 2π(x_i − 1))).
func diagRastrigin(x []float64) float64 {
	var f float64
	for _, v := range x {
		t := v - 1
		f += t*t + 3*(1-math.Cos(2*math.Pi*t))
	}
	return f
}

// tiltedRing is (r − 1.5)² + 0.3·(1 − cos 6(r − 1.5)) + 0.15·x₁.
func tiltedRing(x []float64) float64 {
	t := math.Hypot(x[0], x[1]) - 1.5
	return t*t + 0.3*(1-math.Cos(6*t)) + 0.15*x[0]
}

// wrongPerm is Σ w_i·((x_i − c_i)² + 0.2·(1 − cos 2π(x_i − c_i))).
func wrongPerm(x []float64) float64 {
	var f float64
	for i, v := range x {
		t := v - wrongC[i]
		f += wrongW[i] * (t*t + 0.2*(1-math.Cos(2*math.Pi*t)))
	}
	return f
}

// pumps is Σ(q_(i)/100 − τ_i)² over the sorted flows + 0.2·(1 − cos
// 2π(Σq − 750)/100) + u² + 0.5uv + v² + (z − 2.2)²/2, u = (T − 330)/40,
// v = (valve − 0.35)/0.2, z the log10 pressure: x = (q₁, q₂, q₃, T, z,
// valve).
func pumps(x []float64) float64 {
	var q [3]float64
	sortInto(q[:], x[:3])
	var f float64
	for i, v := range q {
		t := v/100 - pumpsTau[i]
		f += t * t
	}
	sum := x[0] + x[1] + x[2]
	u, v, z := (x[3]-330)/40, (x[5]-0.35)/0.2, x[4]-2.2
	return f + 0.2*(1-math.Cos(2*math.Pi*(sum-750)/100)) + u*u + 0.5*u*v + v*v + z*z/2
}

// rig is Levy(sort|a|/30 − (0.4, 1.1, 2.2)) + ((x₄ − 3.7·10⁵)/(2·10⁵))² +
// ((x₅ − 0.004)/0.003)² + (x₇ − 0.2)²; x₆ is ignored.
func rig(x []float64) float64 {
	var z [3]float64
	sortAbs(z[:], x[:3])
	for i := range z {
		z[i] = z[i]/30 - rigC[i]
	}
	a, b, c := (x[3]-3.7e5)/2e5, (x[4]-0.004)/0.003, x[6]-0.2
	return levyU(z[:]) + a*a + b*b + c*c
}
