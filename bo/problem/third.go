package problem

import (
	"math"

	"github.com/symbo/symbo/orbit"
)

// The third held-out set (lab/suite/third.md, class ClassThird): twelve
// problems of fixed dimension that no study had run when the page was
// committed, registered under the page's names with their own noise
// fractions and the RBF base kernel. TiltedSign3d and WrongRot2d declare a
// group they are not invariant under, on purpose. Every parameter is a
// float (Mixer6d's time is its log10 coordinate).

// Shifts, targets and the Alpine zeros of the third set's problems.
var (
	qing5     = []float64{1, math.Sqrt2, math.Sqrt(3), 2, math.Sqrt(5)}
	zak6c     = linspace(-1.5, 1.5, 6)
	zak8c     = linspace(0.2, 1.6, 8)
	blocksT   = [2][3]float64{{-1, 0.5, 0}, {0.8, -0.6, 1}}
	mixerSig  = [3]float64{600, 1400, 2200}
	antennaAl = [2]float64{60, 120}
	// alpineLo and alpineHi are the zeros of t·(sin t + 0.1) at t =
	// −asin 0.1 and π + asin 0.1, shifted by AlpineShell4d's 2.
	alpineLo = 2 - math.Asin(0.1)
	alpineHi = 2 + math.Pi + math.Asin(0.1)
)

// third registers a problem of the third set on a cube.
func third(display string, d int, about string, lo, hi, noise float64, group func(d int) (orbit.Group, error),
	f func([]float64) float64, opt [][]float64) family {
	fam := synth(display, d, about, lo, hi, noise, group, f, 0, true, opt)
	fam.class = ClassThird
	return fam
}

// thirdBox registers a problem of the third set on a box with sides of
// their own and a group acting on the coordinates coords.
func thirdBox(display, about string, lo, hi []float64, noise float64, g func() (orbit.Group, error), coords []int,
	f func([]float64) float64, opt [][]float64) family {
	fam := freshBox(display, about, lo, hi, noise, g, coords, f, opt)
	fam.class = ClassThird
	return fam
}

// thirdRegistry is the third set's entries, in its page's order.
func thirdRegistry() []family {
	rot := func(int) (orbit.Group, error) { return orbit.Rotation2D() }
	blocks := func(int) (orbit.Group, error) { return orbit.BlockPerm(2, 3) }
	b12 := append(append([]float64(nil), blocksT[0][:]...), blocksT[1][:]...)
	b21 := append(append([]float64(nil), blocksT[1][:]...), blocksT[0][:]...)
	return []family{
		third("QingAbs5d", 5, "Σ(t_i² − i)², t = sort|x|, on [−3, 3]⁵, hyperoctahedral; min 0 at t = (1, √2, √3, 2, √5); no noise", -3, 3, noiseNone,
			hyperoctahedral, qingAbs, [][]float64{qing5, flipFirst(reversed(qing5))}),
		third("AlpineShell4d", 4, "Σ|t sin t + 0.1t|, t = |x_i| − 2, on [−6, 6]⁴, sign flips; min 0 where every |x_i| ∈ {2, 1.8998, 5.2418}; light noise", -6, 6, noiseLight,
			signflip, alpineShell, [][]float64{{2, -2, 2, -2}, {alpineLo, -alpineHi, 2, alpineLo}}),
		third("ZakharovSorted6d", 6, "Zakharov(sort x − c), c evenly spaced from −1.5 to 1.5, on [−4, 4]⁶, permutations; moderate noise", -4, 4, noiseModerate,
			permutation, shiftedBy(canonSort, zakharov, zak6c), [][]float64{zak6c, reversed(zak6c)}),
		third("Blocks2x3d", 6, "two blocks of three coordinates matched to two targets (min over both assignments of Σ b(p − t)) on [−2, 2]⁶, blockperm(2, 3); heavy noise", -2, 2, noiseHeavy,
			blocks, blocksF, [][]float64{b12, b21}),
		third("CosineShell2d", 2, "((r² − 4)/4)² + 0.2 sin² 2πr, r = ‖x‖, on [−3, 3]², rotation2d; min 0 on the circle r = 2; light noise", -3, 3, noiseLight,
			rot, cosineShell, [][]float64{{2, 0}, {0, -2}}),
		third("AlpineAbs5d", 5, "Σ|t sin t + 0.1t|, t = |x_i|, on [−3, 3]⁵, hyperoctahedral; min 0 at the origin only; moderate noise", -3, 3, noiseModerate,
			hyperoctahedral, alpineAbs, [][]float64{make([]float64, 5)}),
		third("CentreZakharov4d", 4, "Σv_i² + (½Σv_i)² + (½Σv_i)⁴, v = x − 0.5, on [−2, 3]⁴, permutations; min 0 at (0.5, …, 0.5); no noise", -2, 3, noiseNone,
			permutation, centreZakharov, [][]float64{{0.5, 0.5, 0.5, 0.5}}),
		third("TiltedSign3d", 3, "Σ[(|x_i| − 1.5)² + 0.3(1 − cos 2π(|x_i| − 1.5))] + 0.2(x₁ − 1.5)² on [−3, 3]³, declared sign flips (approximately invariant); light noise", -3, 3, noiseLight,
			signflip, tiltedSign, [][]float64{{1.5, 1.5, -1.5}, {1.5, -1.5, 1.5}}),
		third("WrongRot2d", 2, "(x₁ − 1)² + 4(x₂ + 0.5)² + 0.3(1 − cos 3π(x₁ − 1)) on [−2.5, 2.5]², declared rotation2d (not invariant); no noise", -2.5, 2.5, noiseNone,
			rot, wrongRot, [][]float64{{1, -0.5}}),
		thirdBox("Mixer6d", "three speeds ∈ [100, 3000] (permuted), T ∈ [273, 373], log10 time ∈ [0, 5], x₆ ∈ [0, 10⁵] ignored; light noise",
			[]float64{100, 100, 100, 273, 0, 0}, []float64{3000, 3000, 3000, 373, 5, 1e5}, noiseLight,
			func() (orbit.Group, error) { return orbit.Permutation(3) }, []int{0, 1, 2}, mixer,
			[][]float64{{600, 1400, 2200, 310, 3.1, 0}, {2200, 600, 1400, 310, 3.1, 5e4}}),
		thirdBox("Antenna5d", "two angles ∈ [−180, 180] (sign flips), spacing ∈ [0.001, 0.1], power ∈ [0, 1000], gain ∈ [−1, 1]; moderate noise",
			[]float64{-180, -180, 0.001, 0, -1}, []float64{180, 180, 0.1, 1000, 1}, noiseModerate,
			func() (orbit.Group, error) { return orbit.SignFlip(2) }, []int{0, 1}, antenna,
			[][]float64{{60, -120, 0.03, 700, 0}, {-60, 120, 0.03, 700, 0}}),
		third("OffZakharov8dHyper", 8, "Zakharov(sort|x| − c), c evenly spaced from 0.2 to 1.6, on [−2, 2]⁸, hyperoctahedral (|G| = 2⁸·8!); light noise", -2, 2, noiseLight,
			hyperoctahedral, shiftedBy(canonSortAbs, zakharov, zak8c), [][]float64{zak8c, flipFirst(reversed(zak8c))}),
	}
}

// zakharov is Σz_i² + s² + s⁴, s = Σ ½·i·z_i (i from 1).
func zakharov(z []float64) float64 {
	var q, s float64
	for i, v := range z {
		q += v * v
		s += 0.5 * float64(i+1) * v
	}
	s2 := s * s
	return q + s2 + s2*s2
}

// qingAbs is Σ(t_i² − i)², t = sort|x|, i from 1.
func qingAbs(x []float64) float64 {
	var buf [MaxDim]float64
	t := buf[:len(x)]
	sortAbs(t, x)
	var f float64
	for i, v := range t {
		a := v*v - float64(i+1)
		f += a * a
	}
	return f
}

// alpine is A(t) = |t·sin t + 0.1·t|.
func alpine(t float64) float64 { return math.Abs(t*math.Sin(t) + 0.1*t) }

// alpineShell is Σ A(|x_i| − 2).
func alpineShell(x []float64) float64 {
	var f float64
	for _, v := range x {
		f += alpine(math.Abs(v) - 2)
	}
	return f
}

// alpineAbs is Σ A(|x_i|).
func alpineAbs(x []float64) float64 {
	var f float64
	for _, v := range x {
		f += alpine(math.Abs(v))
	}
	return f
}

// blocksB is b(u) = u₁² + 2u₂² + 3u₃² − 0.3 cos 3πu₁ − 0.4 cos 4πu₂ − 0.3
// cos 2πu₃ + 1, 0 at u = 0.
func blocksB(p []float64, t [3]float64) float64 {
	u1, u2, u3 := p[0]-t[0], p[1]-t[1], p[2]-t[2]
	return u1*u1 + 2*u2*u2 + 3*u3*u3 - 0.3*math.Cos(3*math.Pi*u1) - 0.4*math.Cos(4*math.Pi*u2) - 0.3*math.Cos(2*math.Pi*u3) + 1
}

// blocksF is the lesser, over the two assignments of the blocks (x₁, x₂,
// x₃) and (x₄, x₅, x₆) to the two targets, of the sum of b.
func blocksF(x []float64) float64 {
	p, q := x[:3], x[3:6]
	return min(blocksB(p, blocksT[0])+blocksB(q, blocksT[1]), blocksB(p, blocksT[1])+blocksB(q, blocksT[0]))
}

// cosineShell is ((r² − 4)/4)² + 0.2·sin²(2πr), r = ‖x‖.
func cosineShell(x []float64) float64 {
	r := math.Hypot(x[0], x[1])
	a, s := (r*r-4)/4, math.Sin(2*math.Pi*r)
	return a*a + 0.2*s*s
}

// centreZakharov is Σv_i² + (½Σv_i)² + (½Σv_i)⁴, v = x − 0.5.
func centreZakharov(x []float64) float64 {
	var q, s float64
	for _, v := range x {
		v -= 0.5
		q += v * v
		s += v
	}
	s2 := s * s / 4
	return q + s2 + s2*s2
}

// tiltedSign is Σ[(|x_i| − 1.5)² + 0.3·(1 − cos 2π(|x_i| − 1.5))] + 0.2·(x₁
// − 1.5)².
func tiltedSign(x []float64) float64 {
	var f float64
	for _, v := range x {
		t := math.Abs(v) - 1.5
		f += t*t + 0.3*(1-math.Cos(2*math.Pi*t))
	}
	a := x[0] - 1.5
	return f + 0.2*a*a
}

// wrongRot is (x₁ − 1)² + 4·(x₂ + 0.5)² + 0.3·(1 − cos 3π(x₁ − 1)).
func wrongRot(x []float64) float64 {
	a, b := x[0]-1, x[1]+0.5
	return a*a + 4*b*b + 0.3*(1-math.Cos(3*math.Pi*a))
}

// mixer is Σ[((s_(i) − σ_i)/500)² + 0.3·(1 − cos 2π(s_(i) − σ_i)/500)]
// over the sorted speeds + ((T − 310)/20)² + (z − 3.1)²/2, z the log10
// time: x = (s₁, s₂, s₃, T, z, x₆), x₆ ignored.
func mixer(x []float64) float64 {
	var s [3]float64
	sortInto(s[:], x[:3])
	var f float64
	for i, v := range s {
		u := (v - mixerSig[i]) / 500
		f += u*u + 0.3*(1-math.Cos(2*math.Pi*u))
	}
	a, z := (x[3]-310)/20, x[4]-3.1
	return f + a*a + z*z/2
}

// antenna is Σ_j[((|a_j| − α_j)/30)² + 0.2·(1 − cos 2π(|a_j| − α_j)/30)]
// + ((spacing − 0.03)/0.02)² + ((power − 700)/300)² + 10⁻³·gain²: x =
// (a₁, a₂, spacing, power, gain).
func antenna(x []float64) float64 {
	var f float64
	for j, al := range antennaAl {
		u := (math.Abs(x[j]) - al) / 30
		f += u*u + 0.2*(1-math.Cos(2*math.Pi*u))
	}
	a, b := (x[2]-0.03)/0.02, (x[3]-700)/300
	return f + a*a + b*b + 1e-3*x[4]*x[4]
}
