package f64

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fuzzValue draws a float64 of any magnitude: ordinary, huge, tiny,
// subnormal, zero or negative zero.
func fuzzValue(rng *rand.Rand, scale float64) float64 {
	v := rng.NormFloat64()
	switch rng.IntN(8) {
	case 0:
		v *= 1e150
	case 1:
		v *= 1e-300
	case 2:
		v = math.Float64frombits(rng.Uint64() & 0x000fffffffffffff) // subnormal
	case 3:
		v = 0
	case 4:
		v = math.Copysign(0, -1)
	default:
		v *= scale
	}
	return v
}

func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// FuzzSIMDPaths is the differential target of the SIMD kernels: on inputs of
// any magnitude (subnormals, ±0, values whose squares overflow), every
// available path (AVX-512, AVX2) gives the same bits as the generic Go
// loop, as the package promises, for MaxDot, SumKappa, KappaTo, ExpTo and
// ExpPermanent8(Pairs), and MathExpTo gives math.Exp's bits on every path.
func FuzzSIMDPaths(f *testing.F) {
	f.Add(uint64(1), uint8(5), uint16(40), 0.0)
	f.Add(uint64(2), uint8(1), uint16(1), 3.0)
	f.Add(uint64(3), uint8(16), uint16(300), -2.0)
	f.Add(uint64(4), uint8(3), uint16(9), 150.0)
	f.Fuzz(func(t *testing.T, seed uint64, d8 uint8, g16 uint16, logScale float64) {
		if math.IsNaN(logScale) || math.Abs(logScale) > 300 {
			return
		}
		d := int(d8)%16 + 1
		G := int(g16)%512 + 1
		scale := math.Pow(10, logScale)
		rng := rand.New(rand.NewPCG(seed, 77))
		rows := 5
		x := make([]float64, rows*d)
		for i := range x {
			x[i] = fuzzValue(rng, scale)
		}
		orbRows := make([]float64, G*d)
		for i := range orbRows {
			orbRows[i] = fuzzValue(rng, scale)
		}
		orb := make([]float64, PackedLen(G, d))
		Pack(orb, orbRows, G, d)
		u2 := make([]float64, 37)
		for i := range u2 {
			u2[i] = math.Abs(fuzzValue(rng, scale))
		}
		ex := make([]float64, 37)
		for i := range ex {
			ex[i] = fuzzValue(rng, 700)
		}
		inv2 := math.Abs(fuzzValue(rng, 1)) + 1e-300
		nxy := math.Abs(fuzzValue(rng, scale*scale))
		ed := min(d, MaxExpPermDim)
		pu, pw, pwp := make([]float64, ed), make([]float64, 8*ed), make([]float64, 8*ed)
		for i := range pu {
			pu[i] = rng.Float64() * 3
		}
		for i := range pw {
			pw[i], pwp[i] = rng.Float64()*3, rng.Float64()*3
		}
		type out struct {
			maxdot []float64
			sums   [4]float64
			kappa  [4][]float64
			exp    []float64
			mexp   []float64
			perm   [2][8]float64
			dist2  []float64
			dsum   []float64
		}
		run := func() out {
			var o out
			o.maxdot = make([]float64, rows)
			MaxDot(o.maxdot, x, d, d, orb)
			for s := range 4 {
				o.sums[s] = SumKappa(x[:d], nxy, orb, G, Shape(s), inv2)
				o.kappa[s] = make([]float64, len(u2))
				KappaTo(o.kappa[s], u2, Shape(s))
			}
			o.exp = make([]float64, len(ex))
			ExpTo(o.exp, ex)
			o.mexp = make([]float64, len(ex))
			MathExpTo(o.mexp, ex)
			scr := make([]float64, ExpPermScratch(ed))
			ExpPermanent8(&o.perm[0], pu, pw, seed%2 == 0, scr)
			ExpPermanent8Pairs(&o.perm[1], pwp, pw, seed%2 == 1, scr)
			o.dist2 = make([]float64, G)
			Dist2To(o.dist2, x[:d], orb)
			o.dsum = make([]float64, d)
			ScaledDiffSum(o.dsum, x[:d], orbRows, u2[:min(len(u2), G)])
			return o
		}
		// MaxDot and SumKappa promise equal paths while no inner product
		// overflows (beyond that the kernels recompute from direct
		// differences, see kernel's accuracy guard).
		var mx, mo float64
		for _, v := range x {
			mx = max(mx, math.Abs(v))
		}
		for _, v := range orbRows {
			mo = max(mo, math.Abs(v))
		}
		dots := mx*mo*float64(d) < 1e300 && (nxy+2*mx*mo*float64(d))*inv2 < 1e300
		var ref out
		for i, p := range paths() {
			restore := setFeatures(p.f)
			o := run()
			restore()
			for k, v := range ex {
				if math.Float64bits(o.mexp[k]) != math.Float64bits(math.Exp(v)) {
					t.Fatalf("%s MathExpTo(%v) = %v, math.Exp %v", p.name, v, o.mexp[k], math.Exp(v))
				}
			}
			if i == 0 {
				ref = o
				continue
			}
			for r := range rows {
				if !dots {
					break
				}
				// The maximum of +0 and −0 may be either (VMAXPD keeps an
				// operand by position); equal as numbers is the contract.
				if o.maxdot[r] != ref.maxdot[r] && !sameBits(o.maxdot[r], ref.maxdot[r]) {
					t.Fatalf("%s MaxDot row %d: %g, generic %g", p.name, r, o.maxdot[r], ref.maxdot[r])
				}
			}
			for s := range 4 {
				if dots && !sameBits(o.sums[s], ref.sums[s]) {
					t.Fatalf("%s SumKappa shape %d: %g, generic %g", p.name, s, o.sums[s], ref.sums[s])
				}
				for i := range u2 {
					if !sameBits(o.kappa[s][i], ref.kappa[s][i]) {
						t.Fatalf("%s KappaTo shape %d at %g: %g, generic %g", p.name, s, u2[i], o.kappa[s][i], ref.kappa[s][i])
					}
					if math.IsNaN(o.kappa[s][i]) {
						t.Fatalf("KappaTo shape %d at u² = %g is NaN", s, u2[i])
					}
				}
			}
			for i := range ex {
				if !sameBits(o.exp[i], ref.exp[i]) {
					t.Fatalf("%s Exp(%g) = %g, generic %g", p.name, ex[i], o.exp[i], ref.exp[i])
				}
			}
			for k := range 2 {
				for l := range 8 {
					if !sameBits(o.perm[k][l], ref.perm[k][l]) {
						t.Fatalf("%s ExpPermanent8 (%d) lane %d: %g, generic %g", p.name, k, l, o.perm[k][l], ref.perm[k][l])
					}
				}
			}
			// Direct differences: the same bits on every path, whatever
			// the scale (no inner products to overflow).
			for g := range o.dist2 {
				if !sameBits(o.dist2[g], ref.dist2[g]) {
					t.Fatalf("%s Dist2To element %d: %g, generic %g", p.name, g, o.dist2[g], ref.dist2[g])
				}
			}
			for k := range o.dsum {
				if !sameBits(o.dsum[k], ref.dsum[k]) {
					t.Fatalf("%s ScaledDiffSum coordinate %d: %g, generic %g", p.name, k, o.dsum[k], ref.dsum[k])
				}
			}
		}
	})
}
