package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/symbo/symbo/bench"
	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
)

func init() {
	register(command{
		name:    "table",
		summary: "run the paper's Table 1 and Figure 3 (benchmarks × kernels × seeds)",
		run:     runTable,
	})
}

const tableUsage = `
Usage: perf table [--seeds 10] [--iters 50] [--init 5] [--out DIR [--force]]
                  [--problems LIST] [--kernels LIST] [--fit own|base] [--prior none|botorch]
                  [--beta paper|authors] [--acq ucb|ei] [--backend B] [--workers N]
                  [--skip PROBLEM/KERNEL,…]

Runs the paper's Table 1: every benchmark (Ackley2d, Griewank6d,
Rastrigin5d, Radial2d, Scaling2d, WLAN8d) × kernel (base, avg, plus, and
max where it is PSD; --kernels may add avgnorm, the normalized average)
× seed 0…seeds−1, each run the protocol of 'perf bo'.
Runs execute in parallel (--workers of them, one goroutine each; results
do not depend on the number), with a progress bar and ETA on stderr.

Prints the Markdown table on stdout: per benchmark and kernel the mean ±
standard error over the seeds of the cumulative regret R_T (summed over
the --iters BO iterations after the initial design) on the synthetic
benchmarks, and of the negated best reward −max f (initial design
included) on WLAN; lower is better. Our best mean per row is bold, means
whose 95% interval (m ± 1.96·s.e.) overlaps the best's are underlined,
and the paper's numbers sit in the adjacent columns (marked by the same
rule among themselves). The last column counts runs/evaluations that hit
the optimum f* exactly (the box-centre diagnostic of DESIGN.md).
--skip leaves named cells out, shown as "not run" (e.g. Scaling2d/avg,
whose discretized 64×64-node orbit average costs minutes per run).

With --out DIR (created; refused if it exists and is not empty, unless
--force) it also writes:
  table.md      the table with the settings and environment
  results.json  every trace (the 'perf bo --json' fields), the cells,
                the settings, the environment and the wall time
  regret.png, regret.svg   the paper's Figure 3: the mean curve per kernel
                with a standard-error band, one panel per benchmark

Example:
  perf table --out results/ --fit base
  perf table --seeds 2 --iters 10 --problems Ackley2d,Radial2d --kernels base,plus
`

func runTable(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("table", tableUsage, stdout)
	seeds := fs.Int("seeds", 10, "seeds 0…seeds−1 per benchmark and kernel")
	out := fs.String("out", "", "write table.md, results.json and the plots into `dir`")
	force := fs.Bool("force", false, "write into a non-empty --out directory, overwriting its files")
	problems := fs.String("problems", "", "comma-separated subset of the benchmarks (default: all six)")
	kernels := fs.String("kernels", "", "comma-separated subset of base,avg,avgnorm,plus,max (default: base,avg,plus,max)")
	proto := protocolFlags(fs)
	workers := fs.Int("workers", 0, "runs in parallel; 0 means GOMAXPROCS")
	skip := fs.String("skip", "", "comma-separated `cells` problem/kernel to leave out, e.g. Scaling2d/avg (shown as \"not run\")")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *seeds < 1 {
		return badInput("--seeds must be ≥ 1, got %d", *seeds)
	}
	cfg, err := proto.config(0)
	if err != nil {
		return err
	}
	if *workers < 0 {
		return badInput("--workers must be ≥ 0, got %d", *workers)
	}
	opts := bench.TableOptions{Seeds: *seeds, Config: cfg, Workers: *workers}
	if opts.Problems, err = problemList(*problems); err != nil {
		return err
	}
	if opts.Kernels, err = kernelList(*kernels); err != nil {
		return err
	}
	if opts.Skip, err = skipList(*skip); err != nil {
		return err
	}
	if *out != "" {
		if err := prepareOutDir(*out, *force); err != nil {
			return err
		}
	}
	bar := newProgressBar(stderr, "perf table")
	opts.Progress = bar.update
	res, err := bench.Table(opts)
	bar.finish()
	if err != nil {
		if errors.Is(err, bench.ErrBadOptions) {
			return asInput(err)
		}
		return err
	}
	fmt.Fprintf(stderr, "perf table: %d runs in %s\n", len(res.Runs), fmtDuration(time.Duration(res.WallSeconds*float64(time.Second))))
	md := res.Markdown()
	if *out != "" {
		if err := writeTableFiles(*out, res, md, "perf table "+strings.Join(args, " ")); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(stdout, md); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// problemList parses --problems (empty: nil, the default).
func problemList(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var names []string
	for _, n := range strings.Split(s, ",") {
		p, err := problem.New(strings.TrimSpace(n), 0)
		if err != nil {
			return nil, badInput("--problems: %w", err)
		}
		names = append(names, p.Name())
	}
	return names, nil
}

// kernelList parses --kernels (empty: nil, the default).
func kernelList(s string) ([]bo.KernelKind, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var ks []bo.KernelKind
	for _, n := range strings.Split(s, ",") {
		k, err := bo.ParseKernel(strings.TrimSpace(n))
		if err != nil {
			return nil, badInput("--kernels: %w", err)
		}
		ks = append(ks, k)
	}
	return ks, nil
}

// skipList parses --skip: problem/kernel pairs.
func skipList(s string) ([]bench.CellKey, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var keys []bench.CellKey
	for _, c := range strings.Split(s, ",") {
		pn, kn, ok := strings.Cut(strings.TrimSpace(c), "/")
		if !ok {
			return nil, badInput("--skip: %q is not problem/kernel", c)
		}
		p, err := problem.New(pn, 0)
		if err != nil {
			return nil, badInput("--skip: %w", err)
		}
		k, err := bo.ParseKernel(kn)
		if err != nil {
			return nil, badInput("--skip: %w", err)
		}
		keys = append(keys, bench.CellKey{Problem: p.Name(), Kernel: k})
	}
	return keys, nil
}

// prepareOutDir creates dir, refusing (as bad input) an existing non-empty
// directory unless force, and an existing non-directory.
func prepareOutDir(dir string, force bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return badInput("--out: %w", err)
		}
		return nil
	case err != nil:
		return badInput("--out: %w", err)
	case !st.IsDir():
		return badInput("--out %s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return badInput("--out: %w", err)
	}
	if len(entries) > 0 && !force {
		return badInput("--out %s is not empty; refusing to overwrite its files (use --force)", dir)
	}
	return nil
}

func writeTableFiles(dir string, res *bench.TableResult, md, command string) error {
	data, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("encoding results.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "results.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	if _, err := bench.WriteFigure(dir, "regret", res.Panels(), 3); err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Table 1\n\nCommand: `%s`\n\n", command)
	b.WriteString(md)
	b.WriteString("\nLower is better. Cumulative regret R_T over the BO iterations (after the initial design) on the\n" +
		"synthetic benchmarks, negated best reward −max f on WLAN8d; mean ± standard error over the seeds.\n" +
		"Bold: best mean of the row; underlined: 95% interval (m ± 1.96·s.e.) overlaps the best's.\n" +
		"The paper's columns are marked by the same rule among base, avg and plus.\n\n")
	s, e := res.Settings, res.Environment
	fmt.Fprintf(&b, "Settings: %d seeds, %d init + %d iterations, %s, beta %s, fit %s%s, backend %s.\n\n",
		s.Seeds, s.Init, s.Iters, s.Acquisition, s.Beta, s.FitMode, priorNote(s.Prior), s.Backend)
	fmt.Fprintf(&b, "Environment: %s, %s, SIMD %s, GOMAXPROCS %d, %s (%d CPUs), %s/%s.\n\n",
		e.Module, e.GoVersion, e.SIMD, e.GOMAXPROCS, e.CPU, e.NumCPU, e.GOOS, e.GOARCH)
	fmt.Fprintf(&b, "Wall time: %s for %d runs.\n\n", fmtDuration(time.Duration(res.WallSeconds*float64(time.Second))), len(res.Runs))
	b.WriteString("Mean seconds per run:\n\n| Benchmark |")
	for _, k := range res.Kernels {
		b.WriteString(" " + string(k) + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(res.Kernels)) + "\n")
	for _, row := range res.Rows {
		b.WriteString("| " + row.Problem + " |")
		for _, k := range res.Kernels {
			if c := row.Cells[k]; c != nil {
				fmt.Fprintf(&b, " %.2f |", c.Seconds)
			} else {
				b.WriteString(" — |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("\n![cumulative regret](regret.png)\n")
	return os.WriteFile(filepath.Join(dir, "table.md"), []byte(b.String()), 0o644)
}

// progressBar draws "[####----] done/total runs  elapsed  ETA" on one
// stderr line, redrawn in place.
type progressBar struct {
	w     io.Writer
	label string
	drawn bool
}

func newProgressBar(w io.Writer, label string) *progressBar { return &progressBar{w: w, label: label} }

func (b *progressBar) update(p bench.Progress) {
	const width = 30
	fill := 0
	if p.TotalCost > 0 {
		fill = int(width * p.DoneCost / p.TotalCost)
	}
	eta := "ETA —"
	if p.Done < p.Total && p.DoneCost > 0 {
		eta = "ETA " + fmtDuration(p.ETA())
	} else if p.Done == p.Total {
		eta = "done"
	}
	fmt.Fprintf(b.w, "\r%s: [%s%s] %d/%d runs  %s elapsed  %s   ", b.label,
		strings.Repeat("#", fill), strings.Repeat("-", width-fill), p.Done, p.Total, fmtDuration(p.Elapsed), eta)
	b.drawn = true
}

func (b *progressBar) finish() {
	if b.drawn {
		fmt.Fprint(b.w, "\n")
	}
}

func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
