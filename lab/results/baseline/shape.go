//go:build ignore

// Shape runs the base kernel with a chosen shape on the protocol of perf
// table (5 uniform initial points, 50 UCB steps, β = 0.5·d·log t, noise
// 2% of Var f over the box) with the constant mean, for seeds 0…29, and
// prints the cumulative regret's mean ± standard error: the kernel-shape
// check of lab/results/baseline.md (perf table uses each problem's shape).
// -from moves the seeds to from…from+seeds−1; -json writes every run's
// cumulative regret to a file, for pairing by seed with other records.
//
//	go run lab/results/baseline/shape.go -problems Rastrigin5d,Griewank6d,Ackley2d -shapes rbf,matern52 -prior botorch
//	go run lab/results/baseline/shape.go -problems Rastrigin5d -shapes matern52 -prior botorch -from 30 -seeds 20 -json runs.json
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"strings"
	"sync"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/kernel"
)

func main() {
	probs := flag.String("problems", "Rastrigin5d,Griewank6d,Ackley2d", "benchmarks")
	shapes := flag.String("shapes", "rbf,matern52", "base kernel shapes")
	priorName := flag.String("prior", "none", "none or botorch")
	meanName := flag.String("mean", "constant", "sample or constant")
	seeds := flag.Int("seeds", 30, "the number of seeds")
	from := flag.Int("from", 0, "the first seed")
	jsonOut := flag.String("json", "", "write every run's cumulative regret here (a JSON array)")
	flag.Parse()
	type run struct {
		Problem string  `json:"problem"`
		Shape   string  `json:"shape"`
		Seed    int     `json:"seed"`
		Metric  float64 `json:"metric"`
	}
	var runs []run
	prior, err := gp.ParsePrior(*priorName)
	if err != nil {
		log.Fatal(err)
	}
	mean, err := gp.ParseMean(*meanName)
	if err != nil {
		log.Fatal(err)
	}
	for _, pn := range strings.Split(*probs, ",") {
		p, err := problem.New(pn, 0)
		if err != nil {
			log.Fatal(err)
		}
		for _, sn := range strings.Split(*shapes, ",") {
			sh, err := kernel.ParseShape(sn)
			if err != nil {
				log.Fatal(err)
			}
			regs := make([]float64, *seeds)
			var wg sync.WaitGroup
			next := make(chan int)
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for s := range next {
						cfg := bo.Config{Kernel: bo.Base(sh), Minimize: !p.Maximize(), Workers: 1, Protocol: bo.Protocol{Prior: prior, Mean: mean}}
						tr, err := bo.Run(context.Background(), p, cfg, uint64(*from+s), bo.RunOptions{Iters: bo.DefaultIters})
						if err != nil {
							log.Fatal(err)
						}
						regs[s] = tr.CumulativeRegret[len(tr.CumulativeRegret)-1]
					}
				}()
			}
			for s := range *seeds {
				next <- s
			}
			close(next)
			wg.Wait()
			var m, v float64
			for s, r := range regs {
				m += r
				runs = append(runs, run{Problem: pn, Shape: sn, Seed: *from + s, Metric: r})
			}
			m /= float64(len(regs))
			for _, r := range regs {
				v += (r - m) * (r - m)
			}
			se := math.Sqrt(v/float64(len(regs)-1)) / math.Sqrt(float64(len(regs)))
			fmt.Printf("%s base %s (perf table: %s), prior %s, mean %s, seeds %d–%d: %.1f ± %.1f\n", pn, sn, p.BaseShape(), prior, mean, *from, *from+*seeds-1, m, se)
		}
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(runs, "", " ")
		if err != nil {
			log.Fatal(err)
		}
		// Atomically: a temporary file beside it, then a rename; a
		// failure leaves no temporary file (atomicfile removes it).
		if err := atomicfile.Write(*jsonOut, append(b, '\n'), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
