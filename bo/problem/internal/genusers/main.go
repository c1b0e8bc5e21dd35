// Command genusers writes the default WLAN user layout of package problem:
// p users drawn uniformly in the area [−50, 50]² (metres) from a fixed seed,
// rounded to the centimetre, one "x,y" row per user, no header, floats in
// shortest round-trip form.
//
// The shipped layout (bo/problem/users16.csv, a copy in testdata/wlan/) is
//
//	go run ./bo/problem/internal/genusers -seed 2024 -n 16
//
// i.e. rand.New(rand.NewPCG(2024, 0)); user j takes two consecutive draws,
// x = −50 + 100·U, then y = −50 + 100·U. Run `go generate ./bo/problem/` to
// rewrite both copies; TestShippedLayout checks that they match the output.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
)

// Defaults of the shipped layout.
const (
	defaultSeed  = 2024
	defaultUsers = 16
	half         = 50.0 // the area is [−half, half]²
)

// generate returns n users uniform in [−50, 50]², rounded to 0.01.
func generate(seed uint64, n int) [][2]float64 {
	rng := rand.New(rand.NewPCG(seed, 0))
	u := make([][2]float64, n)
	for j := range u {
		for c := 0; c < 2; c++ {
			v := -half + 2*half*rng.Float64()
			u[j][c] = math.Round(v*100) / 100
		}
	}
	return u
}

// format writes users as CSV rows "x,y\n".
func format(u [][2]float64) []byte {
	var b bytes.Buffer
	for _, p := range u {
		b.WriteString(strconv.FormatFloat(p[0], 'f', -1, 64))
		b.WriteByte(',')
		b.WriteString(strconv.FormatFloat(p[1], 'f', -1, 64))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func main() {
	fs := flag.NewFlagSet("genusers", flag.ContinueOnError)
	seed := fs.Uint64("seed", defaultSeed, "PCG seed (stream 0)")
	n := fs.Int("n", defaultUsers, "number of users")
	var outs multiFlag
	fs.Var(&outs, "o", "output file (repeatable; default stdout)")
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	if *n < 1 {
		fmt.Fprintln(os.Stderr, "genusers: -n must be at least 1")
		os.Exit(2)
	}
	data := format(generate(*seed, *n))
	if len(outs) == 0 {
		os.Stdout.Write(data)
		return
	}
	for _, name := range outs {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genusers:", err)
			os.Exit(1)
		}
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
