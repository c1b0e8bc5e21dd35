package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/orbit"
)

func init() {
	register(command{
		name:    "complexity",
		summary: "measure the cost exponents of the paper's Table 2 (log-log slopes against n and |G|)",
		run:     runComplexity,
	})
}

const complexityUsage = `
Usage: perf complexity [--group G --d D] [--n 32,64,128,256,512,1024]
                       [--sweep signflip:2-12,hyperoctahedral:1-6] [--group-n 64]
                       [--m 100] [--landmark-m 32] [--landmark-n 256,…,16384]
                       [--landmark-ms 32,64,…,1024]
                       [--base rbf] [--backend gonum|openblas]
                       [--max-point-seconds 5] [--json] [--out DIR [--force]]

The paper's Table 2 (cost per BO iteration) with measured exponents: the
time of each quantity against n (group --group/--d, default
hyperoctahedral 5, |G| = 3840) and, for the orbit work, against |G| (the
groups of --sweep, --group-n points), fitted as log-log least-squares
slopes with R² (and the slope between the last two points, nearest the
asymptotic exponent when lower-order terms weigh at the small end), next
to the predicted exponents:

  gram            Gram of k_b O(n²); k_max, k_avg O(n²|G|*)
  eigen           EigenSym of the k_max Gram O(n³), every compiled-in
                  backend: gonum's is the pure-Go eigsym (dsyevd's
                  algorithm), openblas's LAPACKE dsyevd
  psd-projection  K₊ = Q·diag(λ > n·ε·λ_max)·Qᵀ (kernel.ProjectTo) O(n³);
                  no product when nothing is dropped (a PSD k_max Gram)
  per-query       one kernel value k(x,y): k_b O(1), k_avg O(|G|*),
                  k_plus over n design points O(n|G|*)
  iteration       one BO iteration at fixed hyperparameters (build the
                  kernel and GP, score --m candidates with the posterior):
                  Table 2 has base O(m+n²+n³), avg O((m+n²)|G|*+n³),
                  plus O((mn+n²)|G|*+n³), counting m kernel values for
                  the candidates; scoring one with the posterior mean and
                  variance takes n kernel values and an O(n²) triangular
                  solve, so what is timed costs O(mn² + n³) (base) and
                  O((mn+n²)|G|* + mn² + n³) (avg, plus); predicted = the
                  asymptotic exponent in n, 3 either way
  landmark-gp     gp.New with at most m landmarks, for every kernel bo
                  caps: plus and nystrom (k_plus on a capped design), base,
                  max, avg and avgnorm (gp.NewLandmarkFamily's DTC model);
                  auto fits nystrom, avg and plus. Selection, thin QR of
                  the n×m kernel columns, m×m eigendecompositions,
                  posterior, at fixed hyperparameters: one likelihood
                  evaluation of the landmark fit, O(n·m·c + n·m² + m³), c
                  one kernel evaluation; against n (--landmark-n, further
                  than the exact kernels: the cost is linear) at
                  m = --landmark-m (slope 1) and against m at n = 4m
                  (--landmark-ms; slope 3)
  enumerate-orbits  the n·|G| orbit points O(n|G|)

|G|* = |G| when enumerating; with closed forms the growth in |G| goes
away (predicted slope 0 against |G|), which the closed rows show. In a |G|
sweep d grows with |G| and the enumeration does O(d) work per element, so
the slope against |G|·d is shown as well.

Timing as in perf profile (median; ≥ 0.2 s and ≥ 3 runs unless one run
takes ≥ 1 s). A point predicted (from the series' last points, by their
local slope) to take longer than --max-point-seconds is not run, nor are
the larger ones; slopes use the measured points only ("points" column).

Output: a Markdown table on stdout (or JSON with --json); with --out DIR
(new or empty, checked before anything runs, unless --force)
also DIR/complexity-n.{png,svg}, DIR/complexity-group.{png,svg} and
DIR/complexity-m.{png,svg} (log-log plots; a symbolic link at one of
these names is replaced, never written through). Progress on stderr.

Example:

  perf complexity --out bench/out/complexity

`

func runComplexity(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("complexity", complexityUsage, stdout)
	group := fs.String("group", "hyperoctahedral", "symmetry group of the sweep in n (as in perf gram)")
	d := fs.Int("d", 5, "dimension D of the sweep in n")
	block := fs.Int("block", 0, "block size b for --group blockperm")
	box := fs.String("box", "", "search box `LO:HI[,LO:HI…]` for --group scaling (default 0.1:10)")
	matrices := fs.pathFlag("matrices", "JSON group `file` for --group matrices")
	nList := fs.String("n", "32,64,128,256,512,1024", "comma-separated n of the sweep in n, ascending, at least two, each ≥ 2")
	sweep := fs.String("sweep", "signflip:2-12,hyperoctahedral:1-6", "groups of the sweep in |G|: comma-separated NAME:DLO-DHI (finite groups with one parameter d), or \"none\"")
	groupN := fs.Int("group-n", 64, "points of the sweep in |G|")
	m := fs.Int("m", 100, "candidates scored per iteration")
	lmM := fs.Int("landmark-m", 32, "landmarks of the landmark GP's sweep in n")
	lmNs := fs.String("landmark-n", "256,512,1024,2048,4096,8192,16384", "comma-separated sizes of the landmark GP's sweep in n, ascending, each > 2·--landmark-m")
	lmMs := fs.String("landmark-ms", "32,64,128,256,512,1024", "comma-separated landmark counts of the sweep in m (n = 4m), ascending")
	timing := timingFlags(fs, "point", 5, "do not run points predicted to take longer than this")
	seed := fs.Uint64("seed", 0, "seed of the points")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	out := fs.pathFlag("out", "write the plots (PNG and SVG) into `DIR`, new or empty unless --force")
	force := fs.Bool("force", false, "write into a non-empty --out directory, overwriting its files")
	backend := backendFlag(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.needs("force", "out"); err != nil {
		return err
	}
	// "none" is no sweep in |G|; --sweep given empty is refused, not
	// read as either.
	if err := fs.refuseEmpty("sweep"); err != nil {
		return err
	}
	if err := checkAtLeast("d", *d, 1); err != nil {
		return err
	}
	ns, err := ascendingInts("n", *nList, 2)
	if err != nil {
		return err
	}
	if len(ns) < 2 {
		return badInput("--n %q: need at least two sizes to fit a slope", *nList)
	}
	fams, err := parseSweep(*sweep)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		name  string
		v, lo int
	}{{"group-n", *groupN, 2}, {"m", *m, 1}, {"landmark-m", *lmM, 1}} {
		if err := checkAtLeast(c.name, c.v, c.lo); err != nil {
			return err
		}
	}
	lms, err := ascendingInts("landmark-ms", *lmMs, 1)
	if err != nil {
		return err
	}
	lns, err := ascendingInts("landmark-n", *lmNs, 2*(*lmM)+1)
	if err != nil {
		return err
	}
	shape, err := timing.check()
	if err != nil {
		return err
	}
	g, be, err := profilerSetup(fs, *group, *d, *block, *box, *matrices, *backend)
	if err != nil {
		return err
	}
	if *out != "" {
		lock, err := prepareOutDir(*out, *force)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	ctx, stop := signalContext()
	defer stop()
	res, err := experiments.Complexity(experiments.ComplexityOptions{
		Group: g, N: ns, GroupSweep: fams, GroupN: *groupN, M: *m, Shape: shape, Backend: be, LandmarkM: *lmM, LandmarkN: lns, LandmarkMs: lms,
		MinTime: *timing.minTime, MaxReps: *timing.maxReps, MaxPointSeconds: *timing.maxItem, Seed: *seed, Progress: stderr, Budget: fs.budget,
		Context: ctx,
	})
	// A signal during the last point, or after it, stops the command too:
	// the study checks between points only, and the signal is caught
	// until the command returns (it no longer ends the process).
	if ierr := stoppedBeforeOutputs(ctx, stderr, "perf complexity", err); ierr != nil {
		return ierr
	}
	if err != nil {
		return err
	}
	if *out != "" {
		paths, err := res.WritePlots(*out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "complexity: wrote %s\n", strings.Join(paths, ", "))
	}
	if *asJSON {
		return writeIndentedJSON(stdout, res)
	}
	return writeComplexityTable(stdout, res)
}

// parseSweep parses NAME:DLO-DHI,… ("none" or "" for no sweep in |G|;
// runComplexity refuses --sweep given empty first).
func parseSweep(s string) ([]experiments.GroupFamily, error) {
	if s == "" || strings.EqualFold(s, "none") {
		return []experiments.GroupFamily{}, nil
	}
	type item struct {
		name   string
		lo, hi int
	}
	items, err := splitList("sweep", s, func(part string) (item, error) {
		name, rng, ok := strings.Cut(part, ":")
		lo, hi, ok2 := strings.Cut(rng, "-")
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if !ok || !ok2 || err1 != nil || err2 != nil || a < 1 || b <= a {
			return item{}, fmt.Errorf("%q is not NAME:DLO-DHI with 1 ≤ DLO < DHI", part)
		}
		return item{strings.ToLower(name), a, b}, nil
	})
	if err != nil {
		return nil, err
	}
	var fams []experiments.GroupFamily
	for _, it := range items {
		fam := experiments.GroupFamily{Name: it.name}
		for d := it.lo; d <= it.hi; d++ {
			g, err := orbit.Parse(orbit.Spec{Name: fam.Name, D: d})
			if err != nil {
				return nil, badInput("--sweep: %w", err)
			}
			if _, err := orbit.Size(g); err != nil {
				return nil, badInput("--sweep: %s: %w", g.Name(), err)
			}
			fam.Groups = append(fam.Groups, g)
		}
		fams = append(fams, fam)
	}
	return fams, nil
}

func writeComplexityTable(w io.Writer, r experiments.ComplexityResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# perf complexity: Table 2 with measured exponents (%s, base %s, m = %d; |G| sweeps at n = %d)\n\n", r.Group, r.Base, r.M, r.GroupN)
	writeEnvironment(&b, r.Environment)
	b.WriteString("slope: least-squares fit of log time against log x; top slope: between the last two points;\npredicted: the asymptotic exponent of the Table 2 cost\n\n")
	header := []string{"quantity", "kernel", "method", "vs", "Table 2", "predicted", "slope", "R²", "top slope", "points", "x range", "slope vs |G|·d", "note"}
	right := []bool{false, false, false, false, false, true, true, true, true, true, false, true, false}
	var cells [][]string
	for _, s := range r.Series {
		vs := s.Against
		if s.Family != "" {
			vs += " (" + s.Family + ")"
		}
		rng := ""
		if len(s.X) > 0 {
			rng = fmt.Sprintf("%g…%g", s.X[0], s.X[len(s.X)-1])
		}
		cells = append(cells, []string{s.Quantity, s.Kernel, s.Method, vs, s.Cost, fmt.Sprintf("%g", s.Predicted),
			fmtOpt(s.Slope, "%.2f"), fmtOpt(s.R2, "%.3f"), fmtOpt(s.SlopeTop, "%.2f"), strconv.Itoa(len(s.X)), rng, fmtOpt(s.SlopeGD, "%.2f"), s.Note})
	}
	writeMarkdownTable(&b, header, right, cells)
	return printResult(w, b.String())
}

func fmtOpt(v *float64, format string) string {
	if v == nil {
		return ""
	}
	return fmt.Sprintf(format, *v)
}
