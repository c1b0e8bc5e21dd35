package orbittest

import "math/big"

// NegativeCanonical is a group a caller might write that breaks a
// declaration symbo relies on: the swap of two coordinates (orbit.Finite,
// order 2) declaring a canonical map (orbit.Canonicalizer) of dimension
// −1. Constructors that take a group must refuse it (orbit.Check:
// orbit.ErrInvalid), not panic later.
type NegativeCanonical struct{}

func (NegativeCanonical) Name() string                 { return "negcanon" }
func (NegativeCanonical) Dim() int                     { return 2 }
func (NegativeCanonical) Order() *big.Int              { return big.NewInt(2) }
func (NegativeCanonical) Inverse(i int) int            { return i }
func (NegativeCanonical) CanonicalDim() int            { return -1 }
func (NegativeCanonical) CanonicalTo(dst, x []float64) { copy(dst, x) }

// ActTo writes element i's image of x: x itself (i = 0) or x swapped.
func (NegativeCanonical) ActTo(dst, x []float64, i int) {
	copy(dst, x)
	if i == 1 {
		dst[0], dst[1] = x[1], x[0]
	}
}
