package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/csvio"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/orbit"
)

func init() {
	register(command{
		name:    "suggest",
		summary: "print the next point(s) to evaluate, given the history and the pending points (stateless)",
		run:     runSuggest,
	})
}

const suggestUsage = `
Usage: perf suggest (--problem P [--d D] | --group G --d D --box LO:HI[,LO:HI…])
                    --kernel K [--base B] [--history FILE] [--pending FILE]
                    [--q 1] [--seed S] [--minimize] [--init 5] [--acq ucb|ei]
                    [--beta paper|authors] [--fit own|base] [--prior none|botorch]
                    [--block b] [--matrices FILE] [--backend B]

Prints the next q points to evaluate as CSV rows (x1,…,xd) on stdout: a
function of the settings, the seed, the history and the pending points
only, so the same inputs give the same bits — for shell scripts and any
scheduler that keeps the history itself. While fewer than --init points
are observed or pending it returns the next points of the initial design.

--history FILE  CSV rows x1,…,xd,y: the evaluations so far, in order
--pending FILE  CSV rows x1,…,xd: points handed out and not yet evaluated
                (each stands for its whole orbit under an invariant kernel:
                the q new points avoid them and each other)
--problem P     a benchmark (box, group, base kernel and direction from P)
--group G, --d D, --box LO:HI[,…]   your own black box: the group (as in
                perf gram), and the box as one interval for every
                coordinate or one per coordinate; --base defaults to rbf
--minimize      minimize y (default: maximize; with --problem, P's direction)

Example:
  perf suggest --group hyperoctahedral --d 3 --box -2:2 --kernel plus \
      --history evals.csv --pending running.csv --q 4 --minimize
`

func runSuggest(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("suggest", suggestUsage, stdout)
	name := fs.String("problem", "", "benchmark problem, e.g. Ackley2d")
	group := fs.String("group", "", "symmetry group of your black box (as in perf gram)")
	d := fs.Int("d", 0, "dimension")
	boxFlag := fs.String("box", "", "search box `LO:HI[,LO:HI…]` (one interval, or one per coordinate)")
	block := fs.Int("block", 0, "block size for --group blockperm")
	matrices := fs.String("matrices", "", "JSON group `file` for --group matrices")
	base := fs.String("base", "", "base kernel: rbf, matern12, matern32, matern52 (default: the problem's, else rbf)")
	kern := fs.String("kernel", "", "GP kernel: base, avg, avgnorm, max or plus")
	history := fs.String("history", "", "CSV `file` of x1,…,xd,y rows")
	pending := fs.String("pending", "", "CSV `file` of x1,…,xd rows")
	q := fs.Int("q", 1, "number of points to suggest")
	seed := fs.Uint64("seed", 0, "random seed")
	minimize := fs.Bool("minimize", false, "minimize y (default: maximize)")
	proto := protocolFlags(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	set := fs.given()
	if err := fs.require("kernel"); err != nil {
		return err
	}
	for _, f := range []string{"iters", "batch"} {
		if set[f] {
			return badInput("--%s is not used by perf suggest (see --q)", f)
		}
	}
	if *q < 1 || *q > bo.MaxBatch {
		return badInput("--q must lie in [1, %d], got %d", bo.MaxBatch, *q)
	}
	var lo, hi []float64
	var g orbit.Group
	shape := kernel.RBF
	minimizeY := *minimize
	switch {
	case *name != "" && *group != "":
		return badInput("give --problem or --group, not both")
	case *name != "":
		for _, f := range []string{"box", "block", "matrices"} {
			if set[f] {
				return badInput("--%s is not used with --problem", f)
			}
		}
		p, err := problem.New(*name, *d)
		if err != nil {
			return asInput(err)
		}
		lo, hi = p.Bounds()
		g, shape = p.Group(), p.BaseShape()
		if p.Maximize() && minimizeY {
			return badInput("%s is maximized; drop --minimize", p.Name())
		}
		minimizeY = !p.Maximize()
	case *group != "":
		if err := fs.require("d", "box"); err != nil {
			return err
		}
		if *d < 1 || *d > orbit.MaxDim {
			return badInput("--d must lie in [1, %d], got %d", orbit.MaxDim, *d)
		}
		var err error
		if lo, hi, err = parseIntervals(*boxFlag, *d); err != nil {
			return err
		}
		spec, err := groupSpec(strings.ToLower(*group), *d, map[string]bool{"block": set["block"], "matrices": set["matrices"]}, *block, "", *matrices)
		if err != nil {
			return err
		}
		if spec.Name == "scaling" {
			spec.Lo, spec.Hi = lo, hi
		}
		if g, err = orbit.Parse(spec); err != nil {
			return asInput(err)
		}
	default:
		return badInput("missing --problem or --group (run 'perf suggest -h' for usage)")
	}
	if *base != "" {
		var err error
		if shape, err = kernel.ParseShape(*base); err != nil {
			return badInput("--base: %w", err)
		}
	}
	p := proto.values()
	p.Iters, p.Batch = 1, 1 // unused here; keeps config's checks quiet
	cfg, err := p.config(0)
	if err != nil {
		return err
	}
	if cfg.Kernel, err = bo.ParseKernel(*kern, g, shape); err != nil {
		return asInput(err)
	}
	cfg.Minimize = minimizeY
	dim := len(lo)
	var hx, px *mat.Dense
	if *history != "" {
		if hx, err = csvio.ReadPoints(*history); err != nil {
			return badInput("--history: %w", err)
		}
		if _, c := hx.Dims(); c != dim+1 {
			return badInput("--history %s has %d columns, want d + 1 = %d (x1,…,xd,y)", *history, c, dim+1)
		}
	}
	if *pending != "" {
		if px, err = csvio.ReadPoints(*pending); err != nil {
			return badInput("--pending: %w", err)
		}
		if _, c := px.Dims(); c != dim {
			return badInput("--pending %s has %d columns, want d = %d", *pending, c, dim)
		}
	}
	opt, err := bo.New(lo, hi, cfg, *seed)
	if err != nil {
		return asInput(err)
	}
	if hx != nil {
		n, _ := hx.Dims()
		for i := range n {
			row := hx.RawRowView(i)
			if err := opt.Tell(row[:dim], row[dim]); err != nil {
				return badInput("--history %s:%d: %w", *history, i+1, err)
			}
		}
	}
	if px != nil {
		n, _ := px.Dims()
		for i := range n {
			if err := opt.AddPending(px.RawRowView(i)); err != nil {
				return badInput("--pending %s:%d: %w", *pending, i+1, err)
			}
		}
	}
	pts, err := opt.AskBatch(*q)
	if err != nil {
		return err
	}
	out := mat.NewDense(len(pts), dim, nil)
	for i, x := range pts {
		out.SetRow(i, x)
	}
	if err := csvio.WritePoints(stdout, out); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// parseIntervals parses LO:HI[,LO:HI…]: one interval for every coordinate
// or d of them, each with finite LO < HI.
func parseIntervals(s string, d int) (lo, hi []float64, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != d {
		return nil, nil, badInput("--box %q: want one LO:HI or %d of them", s, d)
	}
	for _, part := range parts {
		a, b, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, nil, badInput("--box %q: %q is not LO:HI", s, part)
		}
		l, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if err1 != nil || err2 != nil || math.IsInf(l, 0) || math.IsInf(h, 0) || !(l < h) {
			return nil, nil, badInput("--box %q: %q needs finite LO < HI", s, part)
		}
		lo, hi = append(lo, l), append(hi, h)
	}
	for len(lo) < d {
		lo, hi = append(lo, lo[0]), append(hi, hi[0])
	}
	return lo, hi, nil
}
