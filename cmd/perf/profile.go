package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

func init() {
	register(command{
		name:    "profile",
		summary: "time every phase of a BO iteration (Grams, eigen, k_plus, GP fit, acquisition)",
		run:     runProfile,
	})
}

const profileUsage = `
Usage: perf profile --group G --d D [--n 55,200,1000] [--base rbf]
                    [--backend gonum|openblas] [--m 1000]
                    [--bo-kernel plus,base,avg,default] [--landmarks M]
                    [--landmark-fit default|subset|likelihood|full] [--gemm-n 1000]
                    [--eigen-vs-c 1000,3000] [--max-phase-seconds 10]
                    [--json] [--cpuprofile FILE] [--memprofile FILE]

Times, at each n, the phases of one BO iteration with the invariant kernels
of G (standard normal points, lengthscale 1):

  orbit enumeration      orbit.Enumerator.Orbits of the n points
  Gram k_b, k_avg, k_max closed form and enumeration; the closed row's
                         ratio is t(enumerate)/t(closed)
  eigendecomposition     the backend's EigenSym of the k_max Gram
  k_plus spectrum        what BO's k_plus fit does per lengthscale it tries:
                         κ(d_G/ℓ) from the orbit distances, EigenSym,
                         spectral cut-off (no K₊ is formed)
  k_plus build           kernel.NewPlus: Gram, eigen, features φ(D)
  k_plus cross           K(candidates, D), m candidates, closed and
                         enumerated k_max
  GP fit, acquisition,   one real bo.Optimizer Ask after n observations
  BO step                for each kernel of --bo-kernel ("default" is
                         bo.Recommended's configuration, what perf
                         suggest, C and Python use; cold fit, as Ask
                         does; every kernel with --landmarks, so by
                         default landmarks above 256 observations), on
                         Rastrigin for hyperoctahedral groups, else a
                         synthetic invariant objective; never estimated.
                         Timed over at least 3 Asks after a warm-up,
                         however long one takes. The step's ratio is the
                         median, over its Asks, of its time over that of
                         gonum's Dgemm of order --gemm-n run right after
                         it (the faster of two, after a garbage
                         collection: interleaved, so the machine's drift
                         cancels; in the summary, also over the --backend
                         Gemm row's)
  DGEMM                  n×n, every compiled-in backend's Gemm and gonum's
                         own Dgemm, at the largest n (ratio = enumerated
                         k_max Gram GFLOP/s / DGEMM's) and at --gemm-n

Columns: median time, timed runs, pairs/s (kernel evaluations), GFLOP/s
(enumeration: 2·d·|G| flops per pair; eigen: 9n³; GEMM: 2n³), share of the
BO step at the same n, ratio; notes come as numbered footnotes under the
table, which fits in 100 columns.

Timing: each phase runs once as a warm-up; when that takes ≥ 1 s it is the
measurement, otherwise the phase repeats until 0.2 s have been timed and 3
runs made (at most --max-reps) and the median is shown. Before a phase
runs at n it is timed (median of up to 5 runs) at sizes climbing toward n
(32, then at most ×4 a step through n/4 to n/2, each while predicted
under --max-phase-seconds), and its time at n is predicted from the
largest of them with an exponent midway between the slope measured from
the one before and the phase's nominal exponent (the slope of a sum of
powers of n grows toward its leading exponent); a phase predicted above
--max-phase-seconds is not run: its row shows the estimate (~) and how
it was made. The BO steps and the DGEMMs are never estimated: they run
at every size asked, however long (gonum's Dgemm of order 10000 alone
takes minutes).

The header names the backend, the SIMD path, GOMAXPROCS and the module
version; with OpenBLAS also the core type it picked and a warning when that
uses narrower vectors than the CPU has (e.g. OPENBLAS_CORETYPE=Haswell on an
AVX-512 CPU). Unless SYMBO_OPENBLAS_THREADS is set, perf profile sets it to
GOMAXPROCS, so OpenBLAS and the Go code run with the same number of threads.

--eigen-vs-c N1,N2,… (builds with -tags openblas only) times the --backend
EigenSym (gonum: the pure-Go solver; openblas: LAPACKE through cgo) against
LAPACKE_dsyevd called directly from C on the same matrix, the two calls
alternating (at least 3 of each, medians), and prints the Go/C ratio.

Progress goes to stderr, one line per phase (the same times as the table)
and, after each n, the time it took and an estimate of the time left;
results to stdout (a table, or JSON with --json).

Example:

  go run -tags openblas ./cmd/perf profile --group hyperoctahedral --d 5 \
      --backend openblas --eigen-vs-c 1000,3000

`

func runProfile(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("profile", profileUsage, stdout)
	group := fs.String("group", "", "symmetry group (as in perf gram)")
	d := fs.Int("d", 0, "dimension D")
	block := fs.Int("block", 0, "block size b for --group blockperm")
	box := fs.String("box", "", "search box `LO:HI[,LO:HI…]` for --group scaling (default 0.1:10)")
	matrices := fs.pathFlag("matrices", "JSON group `file` for --group matrices")
	nList := fs.String("n", "55,200,1000", "comma-separated numbers of points, ascending, each ≥ 2")
	m := fs.Int("m", 1000, "candidates of the k_plus cross-covariance")
	boKernel := fs.String("bo-kernel", "plus,base,avg,"+experiments.DefaultBOKernel, "comma-separated GP kernels of the BO phases: "+commaList(bo.KernelNames())+", or auto:a+b+… or portfolio:a+b+… naming the candidates (a+b:c+d favouring c and d), under the paper's protocol; the name \""+experiments.DefaultBOKernel+"\" is bo.Recommended's configuration (the front ends' default)")
	landmarks := fs.Int("landmarks", 0, fmt.Sprintf("landmark cap `M` of every kernel in the BO phases (the design cap of plus and nystrom): 0 means %d, -1 never", bo.DefaultLandmarks))
	landmarkFit := landmarkFitFlag(fs)
	gemmN := fs.Int("gemm-n", 1000, "order of the DGEMMs the BO steps are compared with")
	eigenVsC := fs.String("eigen-vs-c", "", "comma-separated orders n at which the --backend EigenSym is timed against C LAPACKE_dsyevd (needs -tags openblas)")
	timing := timingFlags(fs, "phase", 10, "estimate instead of run a phase predicted to take longer than this")
	seed := fs.Uint64("seed", 0, "seed of the points")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	cpuProfile := fs.pathFlag("cpuprofile", "write a pprof CPU profile to `file`")
	memProfile := fs.pathFlag("memprofile", "write a pprof heap profile to `file` at the end")
	backend := backendFlag(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.require("group", "d"); err != nil {
		return err
	}
	if err := fs.refuseEmpty("eigen-vs-c"); err != nil {
		return err
	}
	if err := checkAtLeast("d", *d, 1); err != nil {
		return err
	}
	ns, err := ascendingInts("n", *nList, 2)
	if err != nil {
		return err
	}
	var evc []int
	if *eigenVsC != "" {
		if evc, err = parseIntsFlag("eigen-vs-c", *eigenVsC, 1); err != nil {
			return err
		}
		if !slices.Contains(linalg.Available(), "openblas") {
			return badInput("--eigen-vs-c needs a build with -tags openblas (and cgo)")
		}
	}
	if err := checkAtLeast("m", *m, 1); err != nil {
		return err
	}
	shape, err := timing.check()
	if err != nil {
		return err
	}
	var bks []string
	for _, k := range strings.Split(*boKernel, ",") {
		if strings.TrimSpace(k) == experiments.DefaultBOKernel {
			bks = append(bks, experiments.DefaultBOKernel)
			continue
		}
		k, err := kernelName(k)
		if err != nil {
			return badInput("--bo-kernel %q: want a comma-separated list of %s, or auto:a+b+… or portfolio:a+b+… naming the candidates", *boKernel, strings.Join(bo.KernelNames(), ", "))
		}
		bks = append(bks, k)
	}
	if err := checkLandmarks(*landmarks); err != nil {
		return err
	}
	// --landmarks above 0 with only soft in --bo-kernel would act on
	// nothing: refused (refuseInert), as perf bo refuses it.
	if err := refuseInert(fs, bks, bo.DecideOptions{}, *landmarks); err != nil {
		return err
	}
	lf, err := gp.ParseLandmarkFit(*landmarkFit)
	if err != nil {
		return badInput("--landmark-fit: %w", err)
	}
	if err := checkIn("gemm-n", *gemmN, 1, 100_000); err != nil {
		return err
	}
	g, be, err := profilerSetup(fs, *group, *d, *block, *box, *matrices, *backend)
	if err != nil {
		return err
	}
	// Every phase of a finite group enumerates it: its order must fit.
	if g.Order() != nil {
		if _, err := orbit.Size(g); err != nil {
			return asInput(err)
		}
	}
	// The largest phase holds a GP on n points (about five n×n matrices)
	// and the points themselves, and k_plus cross its --m candidates and
	// their m×n cross-covariance: refuse up front what cannot fit.
	top := float64(ns[len(ns)-1])
	if err := budget.Limit(fs.budget).Check(fmt.Sprintf("profiling at n = %d with %d candidates", ns[len(ns)-1], *m), 8*(5*top*top+top*float64(*d)+float64(*m)*top+float64(*m)*float64(*d))); err != nil {
		return err
	}
	if gn := float64(*gemmN); gn > top {
		if err := budget.Limit(fs.budget).Check(fmt.Sprintf("a DGEMM of order %d", *gemmN), 3*8*gn*gn); err != nil {
			return err
		}
	}
	if err := checkProfileOutputs(*cpuProfile, *memProfile); err != nil {
		return err
	}
	if err := checkDistinct("--cpuprofile", *cpuProfile, "--memprofile", *memProfile); err != nil {
		return err
	}
	// perf never writes to a file the user named as input (doc.go): a
	// profile over --matrices would replace the group file.
	for _, out := range [...]struct{ flag, path string }{{"--cpuprofile", *cpuProfile}, {"--memprofile", *memProfile}} {
		if err := checkDistinct("--matrices", *matrices, out.flag, out.path); err != nil {
			return err
		}
	}

	ctx, stopSignals := signalContext()
	defer stopSignals()
	stop, err := startProfiles(*cpuProfile, *memProfile)
	if err != nil {
		return err
	}
	res, err := experiments.Profile(experiments.ProfileOptions{
		Group: g, N: ns, Shape: shape, Backend: be, M: *m, BOKernels: bks, Landmarks: *landmarks, LandmarkFit: lf, GemmN: *gemmN,
		MinTime: *timing.minTime, MaxReps: *timing.maxReps, MaxPhaseSeconds: *timing.maxItem,
		EigenVsC: evc, Seed: *seed, Progress: stderr, Budget: fs.budget, Context: ctx,
	})
	if ierr := stoppedBeforeOutputs(ctx, stderr, "perf profile", err); ierr != nil {
		// Stopped by a signal (during the last phase or after it too:
		// the study checks between phases only, and the signal is caught
		// until the command returns): the profiles' temporary files are
		// removed, the previous files (if any) stay.
		stop(false)
		return ierr
	}
	if perr := stop(true); err == nil {
		err = perr
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return writeIndentedJSON(stdout, res)
	}
	return writeProfileTable(stdout, res)
}

// checkProfileOutputs checks the profile files can be written before the
// (long) measurements start.
func checkProfileOutputs(paths ...string) error {
	for i, p := range paths {
		if p == "" {
			continue
		}
		name := "cpuprofile"
		if i == 1 {
			name = "memprofile"
		}
		if err := checkOutput(name, p, true, "use --force"); err != nil {
			return err
		}
	}
	return nil
}

// startProfiles starts the CPU profile and returns a function that stops
// it and, with commit, writes the heap profile and shows both files;
// without commit (an interrupted run) it discards them. Both files are
// written atomically (internal/atomicfile: they appear whole when the
// profile ends, or not at all). Files that cannot be created are bad
// input.
func startProfiles(cpuPath, memPath string) (func(commit bool) error, error) {
	var cpuFile, memFile *atomicfile.File
	if cpuPath != "" {
		f, err := atomicfile.New(cpuPath, 0o644, false)
		if err != nil {
			return nil, badInput("--cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Abort()
			return nil, fmt.Errorf("--cpuprofile: %w", err)
		}
		cpuFile = f
	}
	if memPath != "" {
		f, err := atomicfile.New(memPath, 0o644, false)
		if err != nil {
			if cpuFile != nil {
				pprof.StopCPUProfile()
				cpuFile.Abort()
			}
			return nil, badInput("--memprofile: %w", err)
		}
		memFile = f
	}
	return func(commit bool) error {
		if !commit {
			if cpuFile != nil {
				pprof.StopCPUProfile()
				cpuFile.Abort()
			}
			if memFile != nil {
				memFile.Abort()
			}
			return nil
		}
		var first error
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Commit(); err != nil {
				first = fmt.Errorf("--cpuprofile: %w", err)
			}
		}
		if memFile != nil {
			runtime.GC()
			err := pprof.WriteHeapProfile(memFile)
			if err == nil {
				err = memFile.Commit()
			} else {
				memFile.Abort()
			}
			if err != nil && first == nil {
				first = fmt.Errorf("--memprofile: %w", err)
			}
		}
		return first
	}, nil
}

// printResult writes s, a command's result, to w; a failed write is
// "writing output: …".
func printResult(w io.Writer, s string) error {
	if _, err := io.WriteString(w, s); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// writeJSON writes v as indented JSON (encoding/json prints floats in
// shortest round-trip form).
func writeIndentedJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

func writeEnvironment(w io.Writer, e experiments.Environment) {
	fmt.Fprintf(w, "backend %s · SIMD %s · GOMAXPROCS %d · %s · module %s\n", e.Backend, e.SIMD, e.GOMAXPROCS, e.GoVersion, e.Module)
	fmt.Fprintf(w, "CPU %s (%s)", e.CPU, e.CPUVector)
	if e.OpenBLASCore != "" {
		fmt.Fprintf(w, " · OpenBLAS core %s, %d threads", e.OpenBLASCore, e.OpenBLASThreads)
		if e.OpenBLASCoreType != "" {
			fmt.Fprintf(w, " (OPENBLAS_CORETYPE=%s)", e.OpenBLASCoreType)
		}
	}
	fmt.Fprintln(w)
	for _, warn := range e.Warnings {
		fmt.Fprintln(w, wrapWords("WARNING: "+warn, 100, "  "))
	}
}

func writeProfileTable(w io.Writer, r experiments.ProfileResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# perf profile: %s, |G| = %s, base %s\n\n", r.Group, r.Order, r.Base)
	fmt.Fprintf(&b, "k_plus cross: m = %d candidates. BO steps: %s%s, on %s.\n",
		r.M, strings.Join(r.BOKernels, ", "), landmarksNote(r.Landmarks)+landmarkFitNote(r.LandmarkFit), r.BOObjective)
	writeEnvironment(&b, r.Environment)
	fmt.Fprintf(&b, "time: median of timed runs (≥ %gs and ≥ 3 runs, ≤ %d; one run when it takes ≥ 1 s, but\n"+
		"≥ 3 for a BO step); ~ = estimated, not run (> %gs). %% step: the phase's time over one BO step\n"+
		"(one Ask) at the same n, a fit's or acquisition's over its own kernel's step, the rest over\n"+
		"%s's; phases BO does not run can exceed 100%%. ratio: enum N× = N times faster than enumeration;\n"+
		"N dgemm = a BO step's time over that of gonum/blas's Dgemm of order %d timed right after each Ask\n"+
		"(median over the Asks); on a DGEMM row, Gram N× = the enumerated k_max Gram's GFLOP/s over its.\n\n",
		r.MinTimeSeconds, r.MaxReps, r.MaxPhaseSeconds, r.BOKernels[0], r.GemmN)

	header := []string{"phase", "n", "time", "runs", "pairs/s", "GFLOP/s", "% step", "ratio"}
	right := []bool{false, true, true, true, true, true, true, false}
	var cells [][]string
	var notes []string
	for _, row := range r.Rows {
		t, runs := "–", "–"
		switch row.Status {
		case experiments.StatusMeasured:
			t, runs = fmtSeconds(row.Seconds), strconv.Itoa(row.Reps)
		case experiments.StatusEstimated:
			t = "~" + fmtSeconds(row.Seconds)
		}
		if row.Note != "" {
			k := slices.Index(notes, row.Note)
			if k < 0 {
				k = len(notes)
				notes = append(notes, row.Note)
			}
			t += fmt.Sprintf(" [%d]", k+1)
		}
		label := row.Label
		if row.Phase == "eigen-vs-c" && row.Backend != "" && !strings.Contains(label, row.Backend) {
			label += " [" + row.Backend + "]"
		}
		cells = append(cells, []string{label, strconv.Itoa(row.N), t, runs,
			fmtRate(row.PairsPerSecond), fmtGF(row.GFLOPS), fmtShare(row.Share), fmtRatio(row.Ratio, row.RatioKind)})
	}
	writeMarkdownTable(&b, header, right, cells)
	for i, n := range notes {
		fmt.Fprintf(&b, "\n[%d] %s", i+1, n)
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	b.WriteString(profileSummary(r))
	return printResult(w, b.String())
}

// writeMarkdownTable writes a Markdown table whose columns are padded to
// a common width (measured in runes), right-aligned where right says so.
// A "|" inside a cell is escaped as "\|".
func writeMarkdownTable(b *strings.Builder, header []string, right []bool, rows [][]string) {
	esc := func(cells []string) []string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		return out
	}
	header = esc(header)
	for i := range rows {
		rows[i] = esc(rows[i])
	}
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = max(3, utf8.RuneCountInString(h))
	}
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(cells []string) {
		b.WriteString("|")
		for i, c := range cells {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right[i] {
				b.WriteString(" " + pad + c + " |")
			} else {
				b.WriteString(" " + c + pad + " |")
			}
		}
		b.WriteString("\n")
	}
	line(header)
	b.WriteString("|")
	for i := range header {
		if right[i] {
			b.WriteString(" " + strings.Repeat("-", width[i]-1) + ": |")
		} else {
			b.WriteString(" " + strings.Repeat("-", width[i]) + " |")
		}
	}
	b.WriteString("\n")
	for _, r := range rows {
		line(r)
	}
}

// profileSummary states the targets against what was measured.
func profileSummary(r experiments.ProfileResult) string {
	var b strings.Builder
	b.WriteString("\n")
	for _, row := range r.Rows {
		if row.Phase == "gram" && row.Method == "closed" && row.RatioKind == experiments.RatioEnumOverClosed && (row.Kernel == "max" || row.Kernel == "avg") {
			est := ""
			if row.Note != "" {
				est = " (enumeration estimated, not run)"
			}
			// Ratio is t(enumerate)/t(closed): below 1 the closed form is
			// the slower (%.0f printed 1.24 as "1× faster", 0.4 as "0×").
			speed := fmt.Sprintf("%.3g× faster than", row.Ratio)
			if row.Ratio < 1 {
				speed = fmt.Sprintf("%.3g× slower than", 1/row.Ratio)
			}
			fmt.Fprintf(&b, "closed k_%s Gram at n = %d: %s enumeration%s\n", row.Kernel, row.N, speed, est)
		}
	}
	for _, row := range r.Rows {
		if row.Phase == "dgemm" && row.RatioKind == experiments.RatioEnumOverGemm {
			fmt.Fprintf(&b, "enumerated k_max Gram at n = %d: %.0f%% of the GFLOP/s of the %s\n", row.N, 100*row.Ratio, strings.TrimPrefix(row.Label, "DGEMM, "))
		}
		if row.Phase == "eigen-vs-c" && row.RatioKind == experiments.RatioGoOverC {
			fmt.Fprintf(&b, "%s EigenSym at n = %d: %.3f× the time of LAPACKE_dsyevd called from C\n", row.Backend, row.N, row.Ratio)
		}
	}
	for _, row := range r.Rows {
		if row.Phase != "bo-iteration" || row.Status != experiments.StatusMeasured {
			continue
		}
		var fit, acq float64
		for _, q := range r.Rows {
			if q.N == row.N && q.Kernel == row.Kernel && q.Status == experiments.StatusMeasured {
				switch q.Phase {
				case "gp-fit":
					fit = q.Seconds
				case "acquisition":
					acq = q.Seconds
				}
			}
		}
		design := ""
		if row.Landmarks > 0 {
			design = fmt.Sprintf(", %d landmarks", row.Landmarks)
		}
		fmt.Fprintf(&b, "BO step %s at n = %d%s: %s = fit %s + acquisition %s", row.Kernel, row.N, design, fmtSeconds(row.Seconds), fmtSeconds(fit), fmtSeconds(acq))
		if row.RatioKind == experiments.RatioStepOverDgemm {
			fmt.Fprintf(&b, "\n  over a DGEMM of order %d: %.3g× gonum/blas's (%s), %.3g× backend %s's", r.GemmN, row.Ratio, fmtSeconds(row.DgemmSeconds), row.RatioBackendGemm, r.Backend)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func fmtSeconds(s float64) string {
	switch {
	case s <= 0 || math.IsNaN(s):
		return "–"
	case s < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.3g s", s)
}

func fmtRate(v float64) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprintf("%.3g", v)
}

func fmtGF(v float64) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f", v)
}

func fmtShare(v float64) string {
	if v <= 0 {
		return ""
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

func fmtRatio(v float64, kind string) string {
	if v <= 0 {
		return ""
	}
	switch kind {
	case experiments.RatioEnumOverClosed:
		return fmt.Sprintf("enum %.3g×", v)
	case experiments.RatioEnumOverGemm:
		return fmt.Sprintf("Gram %.2f×", v)
	case experiments.RatioGoOverC:
		return fmt.Sprintf("go/c %.3f", v)
	case experiments.RatioStepOverDgemm:
		return fmt.Sprintf("%.2f dgemm", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// profilerSetup parses the group flags and the backend of perf profile and
// perf complexity. With OpenBLAS compiled in and SYMBO_OPENBLAS_THREADS
// unset, OpenBLAS gets GOMAXPROCS threads, so that DGEMM and the Go code
// are compared at the same thread count.
func profilerSetup(fs *flagSet, group string, d, block int, box, matrices, backend string) (orbit.Group, linalg.Backend, error) {
	spec, err := groupSpec(strings.ToLower(group), d, fs.given(), block, box, matrices)
	if err != nil {
		return nil, nil, err
	}
	g, err := orbit.Parse(spec)
	if err != nil {
		return nil, nil, asInput(err)
	}
	if os.Getenv(linalg.EnvOpenBLASThreads) == "" && slices.Contains(linalg.Available(), "openblas") {
		os.Setenv(linalg.EnvOpenBLASThreads, strconv.Itoa(runtime.GOMAXPROCS(0)))
	}
	be, err := backendByName(backend)
	if err != nil {
		return nil, nil, err
	}
	return g, be, nil
}

// landmarkFitNote is ", landmarks fitted on the …" for a non-default
// --landmark-fit, else "".
func landmarkFitNote(f string) string {
	switch f {
	case "":
		return ""
	case "subset":
		return ", landmark GPs fitted on a subset"
	case "full":
		return ", landmark GPs fitted on their likelihood on every point"
	}
	return ", landmark GPs fitted on their likelihood"
}

// wrapWords breaks s between words into lines of at most width runes (a
// longer word keeps its own line), the lines after the first indented.
func wrapWords(s string, width int, indent string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		l := utf8.RuneCountInString(w)
		switch {
		case i == 0:
		case n+1+l > width:
			b.WriteString("\n" + indent)
			n = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += l
	}
	return b.String()
}
