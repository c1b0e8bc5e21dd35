package kernel_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/kernel/kerneltest"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// BenchmarkClosedVsEnum times, over hyperoctahedral(5) (|G| = 3840), the
// closed-form and enumerated Gram assembly of k_max (rbf and matern52) and
// k_avg (rbf) at n = 55 and 1000 (the enumerated k_avg at n = 1000 takes
// seconds per op: run it with -benchtime=1x),
// and one query against a design of n = 512 points through k_plus with an
// enumerated k_max (CrossTo with a 1-row x, and GradTo). Compare the
// closed and enumerate rows of the same run for the speed-up.
func BenchmarkClosedVsEnum(b *testing.B) {
	g, err := orbit.Hyperoctahedral(5)
	if err != nil {
		b.Fatal(err)
	}
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	for _, c := range []struct {
		kind   string
		shape  kernel.Shape
		method kernel.Method
		n      int
	}{
		{"max", kernel.RBF, kernel.Closed, 55}, {"max", kernel.RBF, kernel.Closed, 1000},
		{"max", kernel.RBF, kernel.Enumerate, 55}, {"max", kernel.RBF, kernel.Enumerate, 1000},
		{"max", kernel.Matern52, kernel.Closed, 55}, {"max", kernel.Matern52, kernel.Closed, 1000},
		{"max", kernel.Matern52, kernel.Enumerate, 55}, {"max", kernel.Matern52, kernel.Enumerate, 1000},
		{"avg", kernel.RBF, kernel.Closed, 55}, {"avg", kernel.RBF, kernel.Closed, 1000},
		{"avg", kernel.RBF, kernel.Enumerate, 55}, {"avg", kernel.RBF, kernel.Enumerate, 1000},
	} {
		x := kerneltest.Points(g, c.n, 1)
		var k kernel.Kernel
		q := p
		q.Shape = c.shape
		if c.kind == "avg" {
			k, err = kernel.NewAvg(q, g, kernel.Options{Method: c.method})
		} else {
			k, err = kernel.NewMax(q, g, kernel.Options{Method: c.method})
		}
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("op=gram/kernel=%s/shape=%s/method=%s/n=%d", c.kind, c.shape, c.method, c.n), func(b *testing.B) {
			var dst mat.SymDense
			for b.Loop() {
				if err := kernel.Gram(k, &dst, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	const n = 512
	m, err := kernel.NewMax(p, g, kernel.Options{Method: kernel.Enumerate})
	if err != nil {
		b.Fatal(err)
	}
	design := kerneltest.Points(g, n, 1)
	pl, err := kernel.NewPlus(m, design, kernel.PlusOptions{})
	if err != nil {
		b.Fatal(err)
	}
	q := kerneltest.Points(g, 1, 2)
	b.Run(fmt.Sprintf("op=plusquery/method=enumerate/n=%d", n), func(b *testing.B) {
		var dst mat.Dense
		for b.Loop() {
			dst.Reset()
			if err := pl.CrossTo(&dst, q, design); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("op=plusgrad/method=enumerate/n=%d", n), func(b *testing.B) {
		var dst mat.Dense
		for b.Loop() {
			dst.Reset()
			if err := pl.GradTo(&dst, q.RawRowView(0), design); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("op=maxquery/method=enumerate/n=%d", n), func(b *testing.B) {
		var dst mat.Dense
		for b.Loop() {
			dst.Reset()
			if err := m.CrossTo(&dst, q, design); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEmbeddedAvg times k_avg (rbf) over groups acting on some of 7
// coordinates, factored over the coordinates (method auto: the inner
// group's closed form) against the enumeration or discretization of the
// whole group (method enumerate): a Gram at n = 256 and one query against
// 256 points (CrossTo with a 1-row x, as the acquisition does).
func BenchmarkEmbeddedAvg(b *testing.B) {
	p := kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 1}
	ho, err := orbit.Hyperoctahedral(4)
	if err != nil {
		b.Fatal(err)
	}
	rot, err := orbit.Rotation2D()
	if err != nil {
		b.Fatal(err)
	}
	const n = 256
	for _, inner := range []orbit.Group{ho, rot} {
		g, err := orbit.OnCoords(inner, 7, []int{6, 1, 3, 0}[:inner.Dim()])
		if err != nil {
			b.Fatal(err)
		}
		x := kerneltest.Points(g, n, 1)
		q := kerneltest.Points(g, 1, 2)
		for _, method := range []kernel.Method{kernel.Auto, kernel.Enumerate} {
			k, err := kernel.NewAvg(p, g, kernel.Options{Method: method})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("op=gram/group=%s/method=%s/n=%d", inner.Name(), method, n), func(b *testing.B) {
				var dst mat.SymDense
				for b.Loop() {
					if err := k.GramTo(&dst, x); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(fmt.Sprintf("op=query/group=%s/method=%s/n=%d", inner.Name(), method, n), func(b *testing.B) {
				var dst mat.Dense
				for b.Loop() {
					dst.Reset()
					if err := k.CrossTo(&dst, q, x); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEmbeddedAvgGrad times the gradient of k_avg with RBF, the
// permanent of order 6, against 30 points: over permutation(6) on its own
// coordinates and on 6 of 10 (the factored form, which also evaluates
// the inner k_avg's value for the other coordinates' factor), one
// worker. docs/performance.md compares the two.
//
//	go test -run XXX -bench EmbeddedAvgGrad -cpu 1 ./kernel
func BenchmarkEmbeddedAvgGrad(b *testing.B) {
	p6, err := orbit.Permutation(6)
	if err != nil {
		b.Fatal(err)
	}
	emb, err := orbit.OnCoords(p6, 10, []int{1, 3, 5, 7, 8, 9})
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range []orbit.Group{p6, emb} {
		b.Run("group="+g.Name(), func(b *testing.B) {
			d := g.Dim()
			k, err := kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 0.7}, g, kernel.Options{Workers: 1})
			if err != nil {
				b.Fatal(err)
			}
			x, y := gradPoints(d)
			dst := mat.NewDense(30, d, nil)
			for b.Loop() {
				if err := kernel.Grad(k, dst, x, y, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The same on 6 of 10 coordinates against the points' preparation,
	// as a GP's acquisition differentiates (GradPreparedTo: the inner
	// prepared points are not prepared again per call).
	b.Run("group="+emb.Name()+"/path=GradPreparedTo", func(b *testing.B) {
		k, err := kernel.NewAvg(kernel.Params{Shape: kernel.RBF, Variance: 1, Lengthscale: 0.7}, emb, kernel.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		x, y := gradPoints(10)
		p, err := k.Prepare(y)
		if err != nil {
			b.Fatal(err)
		}
		dst := mat.NewDense(30, 10, nil)
		for b.Loop() {
			if err := k.GradPreparedTo(dst, x, p); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkEnumAvgGrad times the gradient of the enumerated k_avg with
// Matérn-5/2 over hyperoctahedral(3) (48 elements) against 30 points, on
// its own coordinates and on 3 of 10, one worker: GradTo, which
// enumerates the orbits of the 30 points at every call, and
// GradPreparedTo, which reads them from the points' preparation, as a
// GP's acquisition does. docs/performance.md compares them.
//
//	go test -run XXX -bench EnumAvgGrad -cpu 1 ./kernel
func BenchmarkEnumAvgGrad(b *testing.B) {
	h3, err := orbit.Hyperoctahedral(3)
	if err != nil {
		b.Fatal(err)
	}
	emb, err := orbit.OnCoords(h3, 10, []int{1, 3, 5})
	if err != nil {
		b.Fatal(err)
	}
	for _, g := range []orbit.Group{h3, emb} {
		d := g.Dim()
		k, err := kernel.NewAvg(kernel.Params{Shape: kernel.Matern52, Variance: 1, Lengthscale: 0.7}, g, kernel.Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		x, y := gradPoints(d)
		dst := mat.NewDense(30, d, nil)
		b.Run("group="+g.Name()+"/path=GradTo", func(b *testing.B) {
			for b.Loop() {
				if err := k.GradTo(dst, x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
		p, err := k.Prepare(y)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("group="+g.Name()+"/path=GradPreparedTo", func(b *testing.B) {
			for b.Loop() {
				if err := k.GradPreparedTo(dst, x, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// gradPoints is the gradient benchmarks' x and 30 points y in [−1, 1]^d
// (the same draws for every benchmark).
func gradPoints(d int) ([]float64, *mat.Dense) {
	rng := rand.New(rand.NewPCG(1, 2))
	y := mat.NewDense(30, d, nil)
	for i := range 30 {
		for j := range d {
			y.Set(i, j, 2*rng.Float64()-1)
		}
	}
	x := make([]float64, d)
	for j := range x {
		x[j] = 2*rng.Float64() - 1
	}
	return x, y
}
