//go:build ignore

// Command gen writes the example point files in testdata/examples from a
// fixed seed. Run from the module root:
//
//	go run testdata/examples/gen/main.go
//
// It refuses to overwrite existing files; delete them first to regenerate.
package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/csvio"
)

func main() {
	dir := filepath.Join("testdata", "examples")
	for _, f := range []struct {
		name   string
		n, d   int
		seed   uint64
		lo, hi float64
	}{
		// The Rastrigin/Ackley box of the paper.
		{"points5d.csv", 20, 5, 1, -5.12, 5.12},
		{"points2d.csv", 10, 2, 2, -5.12, 5.12},
	} {
		if err := write(filepath.Join(dir, f.name), f.n, f.d, f.seed, f.lo, f.hi); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

// write draws n points uniformly in [lo, hi]^d, rounded to 4 decimals so the
// files stay readable, with the stream rand.NewPCG(seed, 0).
func write(path string, n, d int, seed uint64, lo, hi float64) error {
	rng := rand.New(rand.NewPCG(seed, 0))
	x := mat.NewDense(n, d, nil)
	for i := range n {
		for j := range d {
			v := lo + (hi-lo)*rng.Float64()
			x.Set(i, j, math.Round(v*1e4)/1e4)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := csvio.WritePoints(f, x); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
