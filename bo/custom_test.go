package bo_test

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// signAvg is a caller's own kernel, as a user outside symbo would write
// it: the Matérn-5/2 kernel averaged over the four sign patterns of a
// point in R², k(x, y) = v/4·Σ_s κ(‖x − s∘y‖/ℓ), with values only — no
// GradTo (kernel.Gradienter), no GramTo.
type signAvg struct{ p kernel.Params }

func (k signAvg) Dim() int { return 2 }

func (k signAvg) value(x, y []float64) float64 {
	var s float64
	for _, sg := range [4][2]float64{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
		a, b := x[0]-sg[0]*y[0], x[1]-sg[1]*y[1]
		s += k.p.Kappa(math.Sqrt(a*a + b*b))
	}
	return k.p.Variance * s / 4
}

func (k signAvg) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	kerneltest.PairCross(dst, x, y, k.value)
	return nil
}

func (k signAvg) DiagTo(dst []float64, x *mat.Dense) ([]float64, error) {
	n, _ := x.Dims()
	if dst == nil {
		dst = make([]float64, n)
	}
	for i := range n {
		dst[i] = k.value(x.RawRowView(i), x.RawRowView(i))
	}
	return dst, nil
}

// TestCustomKernelWithoutGradient: a kernel with values only plugs into
// bo through gp.FamilyOf and bo.Custom; the acquisition ascent
// differentiates it numerically (gp's TestPredictGradWithoutKernelGradient
// checks the gradients). Its proposals are deterministic (the same bits
// for any worker count), inside the box, and keep pending orbits apart
// under the declared group.
func TestCustomKernelWithoutGradient(t *testing.T) {
	lo, hi := []float64{-2, -2}, []float64{2, 2}
	f := func(x []float64) float64 {
		return -math.Pow(math.Abs(x[0])-1, 2) - math.Pow(math.Abs(x[1])-0.5, 2)
	}
	g, err := orbit.SignFlip(2)
	if err != nil {
		t.Fatal(err)
	}
	fam, err := gp.FamilyOf(2, kernel.Matern52, func(p kernel.Params) (kernel.Kernel, error) {
		return signAvg{p}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	run := func(k bo.Kernel, workers int) [][]float64 {
		o, err := bo.New(lo, hi, bo.Config{Kernel: k, Init: 4, Workers: workers, Protocol: bo.Protocol{RawSamples: 64, Starts: 3}}, 5)
		if err != nil {
			t.Fatal(err)
		}
		var xs [][]float64
		for range 7 {
			x, err := o.Ask()
			if err != nil {
				t.Fatal(err)
			}
			if err := o.Tell(x, f(x)); err != nil {
				t.Fatal(err)
			}
			xs = append(xs, x)
		}
		batch, err := o.AskBatch(3)
		if err != nil {
			t.Fatal(err)
		}
		for i := range batch {
			for j := range i {
				a, b := batch[i], batch[j]
				if math.Abs(math.Abs(a[0])-math.Abs(b[0])) < 1e-3 && math.Abs(math.Abs(a[1])-math.Abs(b[1])) < 1e-3 {
					t.Errorf("batch points %v and %v share an orbit", a, b)
				}
			}
		}
		return append(xs, batch...)
	}
	custom := run(bo.Custom("signavg", fam, g), 1)
	for _, x := range custom {
		if x[0] < lo[0] || x[0] > hi[0] || x[1] < lo[1] || x[1] > hi[1] {
			t.Fatalf("%v outside the box", x)
		}
	}
	if again := run(bo.Custom("signavg", fam, g), 2); !slices.EqualFunc(custom, again, func(a, b []float64) bool { return slices.Equal(a, b) }) {
		t.Errorf("not deterministic: %v, then with 2 workers %v", custom, again)
	}
}

// ptrFamily is a caller's family type with pointer methods: a nil
// *ptrFamily is a typed nil gp.Family.
type ptrFamily struct{ d int }

func (f *ptrFamily) Dim() int                            { return f.d }
func (f *ptrFamily) Bind(x *mat.Dense) (gp.Bound, error) { return nil, nil }

// TestCustomTypedNilFamily: a Custom kernel over a typed-nil family is
// ErrBadConfig from New, as a nil one is (gp.Fit and gp.New refuse both
// alike). New called its Dim method and panicked.
func TestCustomTypedNilFamily(t *testing.T) {
	var fam *ptrFamily
	var cfg bo.Config
	cfg.Kernel = bo.Custom("mine", fam, nil)
	o, err := bo.New([]float64{0}, []float64{1}, cfg, 1)
	if !errors.Is(err, bo.ErrBadConfig) || o != nil {
		t.Errorf("typed-nil family: %v", err)
	}
}

// TestCustomUnnamed: a Custom kernel given no name is "custom" in its
// errors and traces, not "base" (the zero Kernel's name), which it was.
func TestCustomUnnamed(t *testing.T) {
	k := bo.Custom("", nil, nil)
	if k.Name() != "custom" {
		t.Errorf("Name() = %q, want custom", k.Name())
	}
	_, err := bo.New([]float64{0}, []float64{1}, bo.Config{Kernel: k}, 1)
	if !errors.Is(err, bo.ErrBadConfig) || !strings.Contains(err.Error(), "kernel custom") || strings.Contains(err.Error(), "base") {
		t.Errorf("New: %v, want ErrBadConfig naming kernel custom", err)
	}
}

// gomaxprocsRaiser is a kernel that raises GOMAXPROCS to 2 the first
// time it predicts (a one-row x): as the runtime may at any moment (its
// CPU-limit updates) or another goroutine of the process.
type gomaxprocsRaiser struct {
	kernel.Kernel
	raised *bool
}

func (k gomaxprocsRaiser) CrossTo(dst *mat.Dense, x, y *mat.Dense) error {
	if r, _ := x.Dims(); r == 1 && !*k.raised {
		*k.raised = true
		runtime.GOMAXPROCS(2)
	}
	return k.Kernel.CrossTo(dst, x, y)
}

// TestAskGOMAXPROCSRaised: with Workers 0 (GOMAXPROCS), GOMAXPROCS rising
// during an Ask — after the scratch of its workers was sized, between the
// raw samples' scoring and the ascents — neither panics nor changes the
// point. Ask sized one scratch per worker from GOMAXPROCS and then ran the
// ascents on as many workers as GOMAXPROCS said at that later moment:
// worker 1 indexed a scratch that did not exist (index out of range).
func TestAskGOMAXPROCSRaised(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	ask := func(raise bool) (x []float64, err error) {
		runtime.GOMAXPROCS(1)
		raised := !raise
		fam, err := gp.FamilyOf(2, kernel.Matern52, func(p kernel.Params) (kernel.Kernel, error) {
			b, err := kernel.NewBase(p, 2)
			return gomaxprocsRaiser{b, &raised}, err
		})
		if err != nil {
			return nil, err
		}
		o, err := bo.New([]float64{-1, -1}, []float64{1, 1}, bo.Config{Kernel: bo.Custom("raiser", fam, nil), Init: 3, Protocol: bo.Protocol{RawSamples: 16, Starts: 4}}, 1)
		if err != nil {
			return nil, err
		}
		for i := range 3 {
			x, err := o.Ask()
			if err != nil {
				return nil, err
			}
			if err := o.Tell(x, x[0]*x[1]+0.1*float64(i)); err != nil {
				return nil, err
			}
		}
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("Ask panicked: %v", r)
			}
		}()
		return o.Ask()
	}
	want, err := ask(false)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ask(true)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("GOMAXPROCS raised during Ask: %v, want %v", got, want)
	}
}
