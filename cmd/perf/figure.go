package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/lab/experiments"
)

func init() {
	register(command{
		name:    "figure",
		summary: "draw the paper's qualitative Figures 1 (radial), 2 (Ackley) and 5 (WLAN) as PNG and SVG",
		run:     runFigure,
	})
}

const figureUsage = `
Usage: perf figure --out DIR [--name all|radial,ackley,wlan] [--seed 0]
                   [--grid 161] [--radius-max 3] [--init 5] [--iters 50]
                   [--force] [--backend gonum|openblas]

Draws the paper's qualitative figures into DIR (created if missing) as
NAME.png and NAME.svg, and DIR/figures.md with this command and the
figures' parameters (for the ones drawn):

  radial  Figure 1: Radial2d's f over its box; k_max and k_avg over planar
          rotations from an RBF base kernel (lengthscale 1/2), as functions
          of (‖x‖, ‖x′‖) with x = (‖x‖, 0), x′ = ‖x′‖·(cos 2π/3, sin 2π/3),
          norms 0…--radius-max
  ackley  Figure 2: the 1-d Ackley function (sign flips) with the GP
          posterior means of k_plus^(D) and k_avg from 6 points D drawn
          uniformly from --seed (hyperparameters fixed: variance 1,
          lengthscale 3, noise 1e-4, base Matérn-5/2), and the two
          covariances over the box × box; figures.md gives the means'
          RMSE against f for this design and over the designs of seeds
          0…19
  wlan    Figure 5: WLAN8d's 16 users and the best AP placement of one
          GP-UCB run with k_plus (perf bo's protocol: --init + --iters
          evaluations from --seed), each user's throughput in Mbps and its
          association to its AP

--seed, --grid, --radius-max, --init and --iters set the figures named
above with them only: one given while --name draws none of those figures
is refused (exit 2) rather than ignored — --iters with --name
radial,ackley, say.

--grid is the number of points per axis of every heat map and curve. The
figures are deterministic for a seed. An existing output file is refused
before anything is computed unless --force; a symbolic link in DIR at an
output's name is replaced by the file, never written through. Progress
on stderr.

Example:

  perf figure --out lab/results/figures

`

// figureNames are the figures, in drawing order.
var figureNames = []string{"radial", "ackley", "wlan"}

// figureFlagUsers names, for each flag that sets some figures only, the
// figures it sets: given while --name draws none of them it is refused,
// not ignored.
var figureFlagUsers = []struct {
	flag    string
	figures []string
}{
	{"seed", []string{"ackley", "wlan"}},
	{"grid", []string{"radial", "ackley"}},
	{"radius-max", []string{"radial"}},
	{"init", []string{"wlan"}},
	{"iters", []string{"wlan"}},
}

// checkFigureFlags refuses a flag of figureFlagUsers that was given
// (given) while none of its figures is drawn (want).
func checkFigureFlags(given map[string]bool, want []string) error {
	for _, u := range figureFlagUsers {
		if !given[u.flag] || slices.ContainsFunc(u.figures, func(f string) bool { return slices.Contains(want, f) }) {
			continue
		}
		figures := u.figures[0] + " figure"
		if len(u.figures) > 1 {
			figures = strings.Join(u.figures, " and ") + " figures"
		}
		return badInput("--%s sets the %s only, and --name draws %s: leave --%s out", u.flag, figures, strings.Join(want, ", "), u.flag)
	}
	return nil
}

func runFigure(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("figure", figureUsage, stdout)
	names := fs.String("name", "all", "figures to draw: all, or a comma-separated list of radial, ackley, wlan")
	out := fs.pathFlag("out", "output `DIR`")
	seed := fs.Uint64("seed", 0, "seed of the Ackley design and of the WLAN run")
	grid := fs.Int("grid", experiments.DefaultFigureGrid, fmt.Sprintf("points per axis of the heat maps and curves, 2…%d", experiments.MaxFigureGrid))
	radiusMax := fs.Float64("radius-max", experiments.DefaultRadiusMax, "largest norm of the radial kernel maps")
	initN := fs.Int("init", bo.DefaultInit, "uniform random initial points of the WLAN run")
	iters := fs.Int("iters", bo.DefaultIters, "GP-UCB steps of the WLAN run")
	force := fs.Bool("force", false, "overwrite existing output files")
	backend := backendFlag(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.require("out"); err != nil {
		return err
	}
	want, err := parseFigureNames(*names)
	if err != nil {
		return err
	}
	if err := checkFigureFlags(fs.given(), want); err != nil {
		return err
	}
	if err := checkIn("grid", *grid, 2, experiments.MaxFigureGrid); err != nil {
		return err
	}
	if err := positiveFinite("radius-max", *radiusMax); err != nil {
		return err
	}
	if *radiusMax > 1e6 {
		return badInput("--radius-max must be at most 1e6, got %v", *radiusMax)
	}
	if err := checkInitIters(*initN, *iters); err != nil {
		return err
	}
	be, err := backendByName(*backend)
	if err != nil {
		return err
	}
	lock, err := prepareFigureDir(*out)
	if err != nil {
		return err
	}
	defer lock.Release()
	var files []string
	for _, n := range want {
		files = append(files, n+".png", n+".svg")
	}
	files = append(files, "figures.md")
	var paths []string
	for _, n := range files {
		if err := checkOutputIn(*out, n, *force); err != nil {
			return err
		}
		paths = append(paths, filepath.Join(*out, n))
	}
	ctx, stop := signalContext()
	defer stop()
	opts := experiments.FigureOptions{Seed: *seed, Grid: *grid, RadiusMax: *radiusMax, Init: *initN, Iters: *iters, Backend: be, Context: ctx, Budget: fs.budget}
	var (
		rad *experiments.RadialFigure
		ack *experiments.AckleyFigure
		wl  *experiments.WLANFigure
	)
	// A signal stops the command before the next figure or file (the
	// radial and ackley figures finish the grid they are computing): the
	// files written so far are whole. They are outputs like any other, so
	// the same command without --force would refuse them: the message
	// says to rerun it with --force then.
	var written []string
	rerun := func() string {
		if len(written) == 0 || *force {
			return "rerun the command"
		}
		return "the files written so far are whole (" + strings.Join(written, ", ") + "): rerun the command with --force"
	}
	stopped := func(at string) error {
		if ctx.Err() != nil {
			return interrupted("stopped " + at + "; " + rerun())
		}
		return nil
	}
	for _, n := range want {
		if err := stopped("before the " + n + " figure"); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "perf figure: %s…\n", n)
		var r experiments.Rendered
		switch n {
		case "radial":
			if rad, err = experiments.Radial(opts); err == nil {
				r, err = rad.Render()
			}
		case "ackley":
			if ack, err = experiments.Ackley(opts); err == nil {
				r, err = ack.Render()
			}
		case "wlan":
			prog := newLineProgress(stderr, "perf figure: wlan")
			o := opts
			o.Progress = func(done, total int) {
				if done%5 == 0 || done == total {
					prog.printf("evaluation %d/%d", done, total)
				}
			}
			wl, err = experiments.WLAN(o)
			prog.finish()
			if err != nil && ctx.Err() != nil {
				return interrupted("stopped during the WLAN run, nothing of it kept; " + rerun())
			}
			if err == nil {
				r, err = wl.Render()
			}
		}
		if err != nil {
			return err
		}
		if err := stopped("before writing the " + n + " figure"); err != nil {
			return err
		}
		for _, f := range []struct {
			ext  string
			data []byte
		}{{".png", r.PNG}, {".svg", r.SVG}} {
			if err := writeOutputIn(*out, n+f.ext, *force, func(w io.Writer) error {
				_, err := w.Write(f.data)
				return err
			}); err != nil {
				return err
			}
			written = append(written, filepath.Join(*out, n+f.ext))
		}
	}
	if err := stopped("before writing figures.md"); err != nil {
		return err
	}
	md := experiments.FiguresMarkdown(figureCommand(args), rad, ack, wl)
	if err := writeOutputIn(*out, "figures.md", *force, func(w io.Writer) error {
		_, err := io.WriteString(w, md)
		return err
	}); err != nil {
		return err
	}
	if wl != nil {
		fmt.Fprintf(stdout, "wlan: %s, k_%s, seed %d: total throughput %s Mbps; users per AP %v\n",
			wl.Problem, wl.Kernel, wl.Seed, appendFloat(nil, wl.Value), wl.APUsers)
	}
	if ack != nil {
		fmt.Fprintf(stdout, "ackley: posterior-mean RMSE k_plus %.4g, k_avg %.4g; k_plus lower on %d of %d seeds' designs\n",
			ack.RMSEPlus, ack.RMSEAvg, ack.Seeds.PlusBetter, len(ack.Seeds.RMSEPlus))
	}
	// Which files were written is a log line, not a result: stderr, as
	// perf spectrum and perf complexity print theirs (the figures are the
	// result, in the files; the summaries above are the numbers).
	fmt.Fprintf(stderr, "perf figure: wrote %s\n", strings.Join(paths, ", "))
	return nil
}

// parseFigureNames parses --name: "all" or a list of figureNames, drawn
// in figureNames' order.
func parseFigureNames(s string) ([]string, error) {
	if strings.EqualFold(strings.TrimSpace(s), "all") {
		return slices.Clone(figureNames), nil
	}
	names, err := splitList("name", s, func(n string) (string, error) {
		n = strings.ToLower(n)
		if !slices.Contains(figureNames, n) {
			return "", fmt.Errorf("unknown figure %q (want all, or some of %s)", n, strings.Join(figureNames, ", "))
		}
		return n, nil
	})
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, badInput("--name is empty (want all, or some of %s)", strings.Join(figureNames, ", "))
	}
	slices.SortFunc(names, func(a, b string) int { return slices.Index(figureNames, a) - slices.Index(figureNames, b) })
	return names, nil
}

// prepareFigureDir creates dir if missing, locks it and checks that it
// is a writable directory (lockWritableOutDir; existing files are checked
// one by one).
func prepareFigureDir(dir string) (*atomicfile.Lock, error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, badInput("--out %s exists and is not a directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, badInput("--out: %w", err)
	}
	return lockWritableOutDir(dir)
}

// figureCommand is the command line that reproduces a run: perf figure
// and its arguments, each quoted for a shell where needed.
func figureCommand(args []string) string {
	parts := []string{"perf", "figure"}
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}
