package bench

import (
	"fmt"
	"github.com/symbo/symbo/lab/experiments"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

// Sizes of the core suite. -short (CI's regression gate) keeps only the
// small ones; names carry the size, so short and full results never mix
// in a comparison.
func gramSizes() []int {
	if testing.Short() {
		return []int{55}
	}
	return []int{55, 500}
}

func eigenSizes() []int {
	if testing.Short() {
		return []int{55}
	}
	return []int{55, 500, 1000}
}

func gemmSizes() []int {
	if testing.Short() {
		return []int{200}
	}
	return []int{1000}
}

// BenchmarkCore is the numeric core's suite: Gram assembly, the symmetric
// eigendecomposition and GEMM. Sub-benchmarks are named key=value for
// benchstat:
//
//	kind=gram/kernel={avg,max,plus}/group={signflip,hyperoctahedral}/d=…/method={closed,enumerate}[/backend=…]/n=…
//	kind=eigen/backend=…/n=…
//	kind=gemm/backend=…/n=…
//
// Backends are linalg.Available() (build with -tags openblas for both).
// Enumerated avg and max Grams, and GEMM, report GFLOP/s (EnumGramFlops,
// GemmFlops). Plus Grams carry the backend of their eigendecomposition and
// products; they are built on the points themselves (D = x) outside the
// timed loop, so only the Gram is timed.
func BenchmarkCore(b *testing.B) {
	sf, err := orbit.SignFlip(6)
	if err != nil {
		b.Fatal(err)
	}
	ho, err := orbit.Hyperoctahedral(5)
	if err != nil {
		b.Fatal(err)
	}
	backends := make([]linalg.Backend, 0, 2)
	for _, name := range linalg.Available() {
		be, err := linalg.ByName(name)
		if err != nil {
			b.Fatal(err)
		}
		backends = append(backends, be)
	}
	p := kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 1}
	for _, g := range []orbit.Finite{sf, ho} {
		for _, kind := range []string{"avg", "max", "plus"} {
			for _, method := range []kernel.Method{kernel.Closed, kernel.Enumerate} {
				if kind == "avg" && method == kernel.Closed {
					continue // no closed form: kernel.ErrNoClosedForm
				}
				bes := []linalg.Backend{nil}
				if kind == "plus" {
					bes = backends
				}
				for _, be := range bes {
					for _, n := range gramSizes() {
						benchGram(b, p, g, kind, method, be, n)
					}
				}
			}
		}
	}
	for _, be := range backends {
		for _, n := range eigenSizes() {
			b.Run(fmt.Sprintf("kind=eigen/backend=%s/n=%d", be.Name(), n), func(b *testing.B) {
				a := experiments.Symmetric(n, 1)
				var e linalg.Eigen
				b.ReportAllocs()
				for b.Loop() {
					if err := be.EigenSym(&e, a); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	for _, be := range backends {
		for _, n := range gemmSizes() {
			b.Run(fmt.Sprintf("kind=gemm/backend=%s/n=%d", be.Name(), n), func(b *testing.B) {
				x, y := experiments.Dense(n, 3, 0), experiments.Dense(n, 3, 1)
				c := mat.NewDense(n, n, nil)
				b.ReportAllocs()
				for b.Loop() {
					be.Gemm(false, false, 1, x, y, 0, c)
				}
				b.ReportMetric(experiments.GemmFlops(n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// groupKey is the group's name without its parameters ("hyperoctahedral"
// for "hyperoctahedral(5)"); d is a key of its own.
func groupKey(g orbit.Group) string {
	name := g.Name()
	for i, c := range name {
		if c == '(' {
			return name[:i]
		}
	}
	return name
}

// benchGram runs one kind=gram sub-benchmark. be is nil except for plus.
// Construction (for plus: the eigendecomposition of k_max(x, x)) happens
// inside the sub-benchmark, so a -bench filter skips it, but before the
// timed loop.
func benchGram(b *testing.B, p kernel.Params, g orbit.Finite, kind string, method kernel.Method, be linalg.Backend, n int) {
	name := fmt.Sprintf("kind=gram/kernel=%s/group=%s/d=%d/method=%s", kind, groupKey(g), g.Dim(), method)
	if be != nil {
		name += "/backend=" + be.Name()
	}
	name += fmt.Sprintf("/n=%d", n)
	b.Run(name, func(b *testing.B) {
		x := experiments.Points(n, g.Dim(), 2)
		o := kernel.Options{Method: method}
		var k kernel.Kernel
		var err error
		switch kind {
		case "avg":
			k, err = kernel.NewAvg(p, g, o)
		case "max":
			k, err = kernel.NewMax(p, g, o)
		case "plus":
			var m *kernel.Max
			if m, err = kernel.NewMax(p, g, o); err == nil {
				k, err = kernel.NewPlus(m, x, kernel.PlusOptions{Backend: be})
			}
		default:
			panic("bench: unknown kind " + kind)
		}
		if err != nil {
			b.Fatal(err)
		}
		var dst mat.SymDense
		b.ReportAllocs()
		for b.Loop() {
			if err := kernel.Gram(k, &dst, x); err != nil {
				b.Fatal(err)
			}
		}
		if method == kernel.Enumerate && kind != "plus" {
			order := int(g.Order().Int64())
			flops := experiments.EnumGramFlops(n, g.Dim(), order) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		}
	})
}
