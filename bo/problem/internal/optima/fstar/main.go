// Command fstar recomputes the optima the users' suite registers for the
// problems without a closed form (package optima) and prints each as
//
//	name  f*  hits/starts  optimizer
//
// e.g. go run ./bo/problem/internal/optima/fstar -starts 2000 -seed 1.
// With -check it exits 1 where the registry's Optimum differs from the
// recomputed value by more than optima.Tol.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"

	"github.com/symbo/symbo/bo/problem/internal/optima"
)

func main() {
	starts := flag.Int("starts", 2000, "local minimizations per problem")
	seed := flag.Uint64("seed", 1, "seed of the starts")
	check := flag.Bool("check", false, "compare with the registry's Optimum")
	flag.Parse()
	bad := false
	for _, name := range optima.Names {
		r, err := optima.Search(name, *starts, *seed)
		if err != nil {
			fmt.Fprintln(os.Stderr, "fstar:", err)
			os.Exit(2)
		}
		fmt.Printf("%s\t%.17g\t%d/%d\t%#v\n", name, r.F, r.Hits, *starts, r.X)
		if *check {
			if math.Abs(r.F-r.Registered) > optima.Tol || !r.Known {
				fmt.Printf("\tregistered %v (known %v), recomputed %.17g\n", r.Registered, r.Known, r.F)
				bad = true
			}
		}
	}
	if bad {
		os.Exit(1)
	}
}
