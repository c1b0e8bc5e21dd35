// Command ratios prints, from one process with one thread count, the
// enumeration Gram's GFLOP/s (k_max, hyperoctahedral(5), n = 1000) as a
// fraction of each backend's DGEMM GFLOP/s at n = 1000, and the
// openblas/gonum eigendecomposition time ratio at n = 1000 when openblas is
// compiled in. It is a thin wrapper over experiments.Ratios.
//
//	go run -tags openblas ./bench/cmd/ratios -threads 1
//
// Unless SYMBO_OPENBLAS_THREADS is already set, it is set to -threads so
// that OpenBLAS runs with the same number of threads as the Go code.
// Exit status 2 on bad flags, 1 on other failures.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"

	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/linalg"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ratios", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o experiments.RatiosOptions
	fs.IntVar(&o.N, "n", 1000, "points of the Gram and order of the GEMM")
	fs.IntVar(&o.EigenN, "eigen-n", 1000, "order of the eigendecompositions")
	fs.IntVar(&o.Threads, "threads", 1, "GOMAXPROCS and OpenBLAS threads (0: current GOMAXPROCS)")
	fs.IntVar(&o.Reps, "reps", 3, "timed repetitions (median reported)")
	fs.BoolVar(&o.SkipEigen, "skip-eigen", false, "skip the eigendecompositions")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 || o.N < 1 || o.EigenN < 1 || o.Reps < 1 || o.Threads < 0 {
		fmt.Fprintln(stderr, "ratios: -n, -eigen-n and -reps must be positive, -threads non-negative, no arguments")
		return 2
	}
	if o.Threads == 0 {
		o.Threads = runtime.GOMAXPROCS(0)
	}
	if os.Getenv(linalg.EnvOpenBLASThreads) == "" {
		os.Setenv(linalg.EnvOpenBLASThreads, strconv.Itoa(o.Threads))
	}
	r, err := experiments.Ratios(o)
	if err != nil {
		fmt.Fprintln(stderr, "ratios:", err)
		return 1
	}
	if *asJSON {
		e := json.NewEncoder(stdout)
		e.SetIndent("", "  ")
		if err := e.Encode(r); err != nil {
			return 1
		}
		return 0
	}
	fmt.Fprintf(stdout, "threads %d (openblas threads %d, core %q), median of %d\n", r.Threads, r.OpenBLASThreads, r.OpenBLASCore, r.Reps)
	fmt.Fprintf(stdout, "enumeration gram  k_max %s n=%d: %.3f s  %.2f GFLOP/s\n", r.Group, r.N, r.EnumSeconds, r.EnumGFLOPS)
	for _, g := range r.Gemm {
		fmt.Fprintf(stdout, "dgemm %-8s n=%d: %.3f s  %.2f GFLOP/s  enumeration/dgemm = %.3f\n", g.Backend, r.N, g.Seconds, g.GFLOPS, g.EnumFraction)
	}
	for _, name := range linalg.Available() {
		if s, ok := r.Eigen[name]; ok {
			fmt.Fprintf(stdout, "eigen %-8s n=%d: %.3f s\n", name, r.EigenN, s)
		}
	}
	if r.EigenRatio > 0 {
		fmt.Fprintf(stdout, "eigen openblas/gonum n=%d: %.3f\n", r.EigenN, r.EigenRatio)
	}
	return 0
}
