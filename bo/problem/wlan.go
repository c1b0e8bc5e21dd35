package problem

import (
	_ "embed"
	"errors"
	"fmt"
	"github.com/symbo/symbo/internal/check"
	"github.com/symbo/symbo/internal/csvio"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

// Rewrite the default layout (both copies) from its documented seed:
//go:generate go run ./internal/genusers -seed 2024 -n 16 -o users16.csv -o ../../testdata/wlan/users16.csv

// MaxUsers caps the number of WLAN users (each evaluation costs O(users ×
// access points)).
const MaxUsers = 1 << 16

// WLAN model constants (the paper's Appendix C).
const (
	// WLANHalfWidth is the half width of the area [−50, 50]² (metres).
	WLANHalfWidth = 50.0
	// WLANBandwidth is W in MHz, so capacities are in Mbps.
	WLANBandwidth = 1.0
	// WLANPathLoss is L in dB: the power received at distance ≤ 1 m is
	// 10^(−L/10) mW.
	WLANPathLoss = 46.67
	// WLANExponent is λ, the path-loss exponent.
	WLANExponent = 3.0 // value hard-codes d^−3 as 1/(d²·√d²)
	// WLANNoiseDBm is the background noise N in dBm (10^(N/10) mW).
	WLANNoiseDBm = -85.0
	// MaxAPs is the largest number of access points NewWLAN accepts
	// (20! < 2^63 keeps every permutation addressable by an int).
	MaxAPs = 20
)

//go:embed users16.csv
var users16 []byte

var defaultUsers = sync.OnceValue(func() [][2]float64 {
	u, err := ReadUsers(strings.NewReader(string(users16)), "users16.csv")
	if err != nil {
		panic("problem: shipped users16.csv: " + err.Error())
	}
	return u
})

// DefaultUsers returns a fresh copy of the default WLAN layout: 16 users
// drawn uniformly in [−50, 50]² by internal/genusers from seed 2024,
// rounded to the centimetre (also shipped as testdata/wlan/users16.csv).
func DefaultUsers() [][2]float64 { return slices.Clone(defaultUsers()) }

// ReadUsers parses a user layout (name labels errors): one "x,y" row per
// user (metres), in the
// point-file dialect of every symbo CSV (internal/csvio: no header, spaces
// around fields ignored, CRLF and a BOM accepted, errors naming
// name:line:column). It checks the syntax, finiteness and MaxUsers;
// NewWLAN checks the values. Reading is bounded by the default memory
// budget (8 GiB: at most 2 GiB of text, lines of at most 64 MiB); see
// ReadUsersBudget.
func ReadUsers(r io.Reader, name string) ([][2]float64, error) {
	return ReadUsersBudget(r, name, 0)
}

// ReadUsersBudget is ReadUsers with reading bounded by a memory budget of
// budget bytes, as every symbo CSV input is (at most budget/4 bytes of
// text are read, and the values held are counted against it: an endless
// stream is refused, naming the budget); 0 means the default,
// orbit.DefaultBudget. perf eval --users passes its --mem-budget. A nil
// r (or a nil pointer in it) is ErrUsers.
func ReadUsersBudget(r io.Reader, name string, budget int64) ([][2]float64, error) {
	if check.IsNil(r) {
		return nil, fmt.Errorf("%w: %s: no input (a nil reader)", ErrUsers, name)
	}
	x, err := csvio.Options{Budget: budget}.Parse(r, name)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUsers, err)
	}
	n, d := x.Dims()
	if d != 2 {
		return nil, fmt.Errorf("%w: users are 2-d points, the file has %d columns", ErrUsers, d)
	}
	if n > MaxUsers {
		return nil, fmt.Errorf("%w: %d users exceed MaxUsers = %d", ErrUsers, n, MaxUsers)
	}
	u := make([][2]float64, n)
	for i := range u {
		u[i] = [2]float64{x.At(i, 0), x.At(i, 1)}
	}
	return u, nil
}

// NewWLAN returns the access-point placement problem for the given users
// (positions in [−50, 50]², metres; copied) and m access points: d = 2m,
// a point is laid out x₁…x_m, y₁…y_m, the box is [−50, 50]^(2m), the group
// is pairedperm(m) (|G| = m!) and the base kernel Matérn-3/2. Its maximum
// is unknown.
func NewWLAN(users [][2]float64, m int) (*Problem, error) {
	if m < 1 || m > MaxAPs {
		return nil, fmt.Errorf("%w: wlan: m = %d access points, want 1 ≤ m ≤ %d", ErrDim, m, MaxAPs)
	}
	if len(users) > MaxUsers {
		return nil, fmt.Errorf("%w: %d users exceed MaxUsers = %d", ErrUsers, len(users), MaxUsers)
	}
	if len(users) == 0 {
		return nil, fmt.Errorf("%w: no users", ErrUsers)
	}
	for j, u := range users {
		for _, v := range u {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < -WLANHalfWidth || v > WLANHalfWidth {
				return nil, fmt.Errorf("%w: user %d at (%v, %v) is not in [-50, 50]²", ErrUsers, j, u[0], u[1])
			}
		}
	}
	g, err := orbit.PairedPerm(m)
	if err != nil {
		return nil, fmt.Errorf("problem: WLAN%dd: building its group: %w", 2*m, err)
	}
	d := 2 * m
	p := &Problem{
		kind:     "wlan",
		name:     fmt.Sprintf("WLAN%dd", d),
		d:        d,
		group:    g,
		shape:    kernel.Matern32,
		maximize: true,
		users:    slices.Clone(users),
	}
	p.lo, p.hi = box(d, -WLANHalfWidth, WLANHalfWidth)
	w := newWLANModel(p.users, m)
	p.f = w.value
	return p, nil
}

// Users returns a fresh copy of the WLAN user layout, or nil for the other
// problems.
func (p *Problem) Users() [][2]float64 { return slices.Clone(p.users) }

type wlanModel struct {
	users [][2]float64
	m     int
	p0    float64 // power received within 1 m, mW
	noise float64 // N, mW
}

func newWLANModel(users [][2]float64, m int) *wlanModel {
	return &wlanModel{
		users: users,
		m:     m,
		p0:    math.Pow(10, -WLANPathLoss/10),
		noise: math.Pow(10, WLANNoiseDBm/10),
	}
}

// value is Σ_j W·log2(1 + γ_j) over users j, where user j associates with
// its closest AP i and γ_j = P_ij / (N + Σ_{k≠i} P_kj).
//
// P is non-increasing in distance, so the closest AP's power is the
// largest one; ties (equally distant APs, or several within 1 m where P
// saturates) change which AP serves the user but not γ_j. value therefore
// sorts the m powers ascending, takes the largest as the signal and sums
// the others in that order: the result is a symmetric function of the AP
// positions, bit-for-bit invariant under pairedperm.
func (w *wlanModel) value(x []float64) float64 {
	m := w.m
	var buf [MaxAPs]float64
	pw := buf[:m]
	var total float64
	for _, u := range w.users {
		for i := range pw {
			dx, dy := x[i]-u[0], x[m+i]-u[1]
			d2 := dx*dx + dy*dy
			if d2 <= 1 {
				pw[i] = w.p0
			} else {
				pw[i] = w.p0 / (d2 * math.Sqrt(d2)) // d^−λ with λ = 3
			}
		}
		insertionSort(pw)
		interf := w.noise
		for _, v := range pw[:m-1] {
			interf += v
		}
		total += WLANBandwidth * math.Log2(1+pw[m-1]/interf)
	}
	return total
}

func insertionSort(a []float64) {
	for i := 1; i < len(a); i++ {
		v := a[i]
		j := i
		for ; j > 0 && a[j-1] > v; j-- {
			a[j] = a[j-1]
		}
		a[j] = v
	}
}

// UserThroughputs returns, for a WLAN problem and a point x of its box,
// each user's serving AP (the closest; the lowest index among equally
// distant ones) and capacity C in Mbps; their sum is Value(x) up to
// rounding. It fails for the other problems.
func (p *Problem) UserThroughputs(x []float64) (ap []int, mbps []float64, err error) {
	if p.kind != "wlan" {
		return nil, nil, errors.New("problem: UserThroughputs: " + p.name + " is not a WLAN problem")
	}
	if err := p.Check(x); err != nil {
		return nil, nil, err
	}
	m := p.d / 2
	w := newWLANModel(p.users, m)
	ap = make([]int, len(p.users))
	mbps = make([]float64, len(p.users))
	pw := make([]float64, m)
	for j, u := range p.users {
		best, bestD2 := 0, math.Inf(1)
		for i := range pw {
			dx, dy := x[i]-u[0], x[m+i]-u[1]
			d2 := dx*dx + dy*dy
			pw[i] = w.p0 * math.Min(math.Pow(d2, -WLANExponent/2), 1)
			if d2 < bestD2 {
				best, bestD2 = i, d2
			}
		}
		interf := w.noise
		for k, v := range pw {
			if k != best {
				interf += v
			}
		}
		ap[j] = best
		mbps[j] = WLANBandwidth * math.Log2(1+pw[best]/interf)
	}
	return ap, mbps, nil
}
