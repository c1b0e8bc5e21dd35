package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/csvio"
	"github.com/symbo/symbo/internal/frontend"
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
                    [--kernel K] [--base B] [--history FILE] [--pending FILE]
                    [--failed FILE] [--q 1] [--seed S] [--minimize] [--init 5]
                    [--acq ucb|ei] [--beta paper|authors] [--beta-scale X] [--fit own|base]
                    [--prior none|botorch] [--mean sample|constant] [--liar mean|worst] [--landmarks M]
                    [--landmark-fit default|subset|likelihood|full] [--candidate-fit own|anchored]
                    [--probe-window W] [--hedge S] [--allow-repeats]
                    [--block b] [--matrices FILE] [--coords i,j,…] [--backend B]

Prints the next q points to evaluate as CSV rows (x1,…,xd) on stdout: a
function of the settings, the seed, the history, the pending points and
the failed points only, so the same inputs give the same bits — for
shell scripts and any scheduler that keeps the history itself. While
fewer than --init points are observed, pending or failed, and while none
is observed, it returns the next points of the initial design.
The q points are all or nothing: where the search space runs out first
(every point left lies within the exclusion radius of the orbit of an
observed, pending, failed or already proposed point), no point is
printed and the error (exit 2) says how many a smaller --q returns.
The rows' order is an input too, as it is to the bo package ("History,
resuming and persistence": observations in order): the same rows of
--history, --pending or --failed in another order give other bits, and
for --history possibly another point (the fit runs over the rows in
their order), so keep each file in the order its points arose.

--history FILE  CSV rows x1,…,xd,y: the evaluations so far, in order; a
                blank or NaN y is refused (those points go in --pending
                or --failed)
--pending FILE  CSV rows x1,…,xd: points handed out and not yet evaluated
                (each stands for its whole orbit under an invariant kernel:
                the q new points avoid them and each other)
                '>> FILE' appends the new points to it (on a line of
                their own if its last row has no line end); a stdout that is
                an input file otherwise ('> FILE', which the shell empties
                before perf reads it, or --history's file) is refused
--failed FILE   CSV rows x1,…,xd: points whose evaluation failed (crashed,
                timed out, no value): neither they nor their orbits are
                proposed again (see 'Failed evaluations' in the bo package
                documentation). A scheduler that drops failed rows instead
                gets the same point again: list them here.
                Any of the files may start with a header row, e.g. x1,x2,x3,y:
                a first line none of whose fields looks like a number
                (starts with a digit, a sign or a dot, or reads as one,
                like nan or inf; also in double quotes, which no data
                row may hold) is skipped; it must have as many fields
                as the rows. Any other non-numeric field is an error
                naming its file:line:column. Files may be pipes or devices
                (/dev/stdin), a pipe for one of the flags only (it is read
                once); what is read is bounded by --mem-budget. A
                file whose last line another process is still writing
                is read again, and refused after 3 reads: append whole
                lines in one write.
--problem P     a benchmark (box, group, base kernel and direction from P)
--group G, --d D, --box LO:HI[,…]   your own black box: the group (as in
                perf gram), and the box as one interval for every
                coordinate or one per coordinate; --base defaults to rbf
--coords i,j,…  the group acts on these coordinates only (0-based), as the
                identity on the others: e.g. --group permutation --coords
                0,1,2,3 for four identical widths among six parameters
--minimize      minimize y (default: maximize; with --problem, P's direction)
--landmarks M   landmark cap of every kernel but soft: exact up to M observations,
                M landmarks above (0: 256; -1: never; see 'perf bo -h');
                M ≥ 1 with --kernel soft is refused
--landmark-fit  default, subset, likelihood or full (see 'perf bo -h')
--candidate-fit anchored (default here, measured level with own:
                lab/results/soft) or own: how auto's and portfolio's
                candidates fit (see 'perf bo -h'); give own to
                reproduce a perf bo run of a deciding kernel
--probe-window  W: the fixed-point probe of a portfolio naming avg may
                fire in the first W BO steps only: 5 here
                (lab/results/soft), no limit with 0 (perf bo's default:
                give 0 to reproduce a perf bo run of such a portfolio);
                the default kernel names no avg and has no probe
--hedge         S: each candidate of the default kernel also proposes the
                maximizer of EI beside UCB's, from S ascents, and the
                referee's mean picks among every proposal: 1 here
                (lab/results/suite), no hedging with 0 (perf bo's
                default: give 0 to reproduce a perf bo run)
                These act on a deciding kernel only: with auto or a
                single kernel --hedge S ≥ 1, --probe earned and
                --probe-window W ≥ 1 are refused (exit 2), and so is
                --candidate-fit anchored with a single kernel; the
                recipe's values below are taken with every kernel
--beta-scale    X in (0, 1e6] multiplies UCB's β: 0.25 here (the front ends'
                default, lab/results/suite/pilots.md), the rule's own
                with 1 (perf bo's default: give 1 to reproduce a perf bo
                run)
--allow-repeats let a point within the exclusion radius (10⁻³ of the box
                diagonal) of an observed point's orbit be proposed, as
                perf bo does (give it to reproduce a perf bo run, or for
                a noisy objective that wants repeats); by default here
                no point is (bo.Config.ExcludeObserved; see 'The
                exclusion radius' in the bo package documentation)
--kernel K      default portfolio:nystrom:soft+plus here (nystrom, soft
                and plus each propose; the proposal with the highest
                posterior mean under the model the evidence picks, soft
                and plus favoured, is evaluated: lab/results/suite).
                A candidate auto or portfolio leaves out as too costly
                over the group (avg with a Matérn base over
                hyperoctahedral(3), say) is named on stderr, with the
                reason: "perf suggest: warning: kernel K leaves out …"
--kernel, --base, --acq, --prior and the other flags that take a word:
                leave one out for its default; given empty (--prior "",
                a shell variable that was unset) it is refused (exit 2),
                as in perf bo
--prior, --mean default botorch and constant here (the C and Python
                front ends' defaults, chosen by measurement:
                lab/results/defaults.md), not perf bo's paper protocol
                (none, sample)

To reproduce a perf bo run with its defaults (same --problem, --kernel,
--seed and --init, its evaluations so far as --history), give every
setting where the two differ:
    --prior none --mean sample --normalize=false --ard=false --beta-scale 1
    --hedge 0 --allow-repeats
and, for a deciding kernel (auto, portfolio), --candidate-fit own
--probe-window 0 --probe always; suggest keeps two settings that have no
flag here, so give them to perf bo instead: --afford, and for a
portfolio --candidate-starts 3 (perf bo refuses both with a kernel that
cannot act on them).

Example:
  perf suggest --group hyperoctahedral --d 3 --box -2:2 --kernel plus \
      --history evals.csv --pending running.csv --q 4 --minimize
`

func runSuggest(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("suggest", suggestUsage, stdout)
	name := fs.String("problem", "", "benchmark problem, e.g. Ackley2d")
	group := fs.String("group", "", "symmetry group of your black box (as in perf gram)")
	d := fs.Int("d", 0, "dimension")
	boxFlag := fs.String("box", "", "search box `LO:HI[,LO:HI…]` (one interval, or one per coordinate)")
	block := fs.Int("block", 0, "block size for --group blockperm")
	matrices := fs.pathFlag("matrices", "JSON group `file` for --group matrices")
	coords := coordsFlag(fs)
	base := fs.String("base", "", "base kernel: "+orList(kernel.ShapeNames())+" (default: the problem's, else rbf)")
	kern := fs.String("kernel", "", "GP kernel: "+orList(bo.KernelNames())+" (default: "+frontend.DefaultKernel+")")
	history := fs.pathFlag("history", "CSV `file` of x1,…,xd,y rows")
	pending := fs.pathFlag("pending", "CSV `file` of x1,…,xd rows")
	failed := fs.pathFlag("failed", "CSV `file` of x1,…,xd rows whose evaluation failed")
	q := fs.Int("q", 1, fmt.Sprintf("number of points to suggest, 1 to %d (bo.MaxBatch)", bo.MaxBatch))
	seed := fs.Uint64("seed", 0, "random seed")
	minimize := fs.Bool("minimize", false, "minimize y (default: maximize)")
	allowRepeats := fs.Bool("allow-repeats", false, "let a proposal return to an observed point's orbit (default: never)")
	proto := protocolFlags(fs, true)
	settingsHelp(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	// A choice flag given empty (a shell variable that was unset) is
	// refused, as by perf bo and table: only leaving it out means the
	// front ends' default. (In the JSON settings of C and Python an empty
	// string is an absent key; a command line has absence for that.)
	if err := fs.refuseEmpty(append([]string{"kernel", "base"}, choiceFlags...)...); err != nil {
		return err
	}
	set := fs.given()
	if err := checkIn("q", *q, 1, bo.MaxBatch); err != nil {
		return err
	}
	p := proto.values()
	// --prior and --mean not given: the front ends' defaults.
	p.Prior, p.Mean = "", ""
	if set["prior"] {
		p.Prior = *proto.prior
	}
	if set["mean"] {
		p.Mean = *proto.mean
	}
	// --candidate-fit not given: the front ends' default (anchored).
	p.CandidateFit = ""
	if set["candidate-fit"] {
		p.CandidateFit = *proto.candidateFit
	}
	// --probe not given: the front ends' default.
	p.Probe = ""
	if set["probe"] {
		p.Probe = *proto.probe
	}
	// --probe-window not given: the front ends' default (5); 0 is no
	// limit, as in perf bo and the settings.
	var probeWindow *int
	if set["probe-window"] {
		probeWindow = &p.ProbeWindow
	}
	// --hedge not given: the front ends' default (bo.DefaultHedgeStarts);
	// 0 is no hedging, as in perf bo.
	var hedge *int
	if set["hedge"] {
		hedge = &p.Hedge
	}
	// --beta-scale not given: the front ends' default
	// (bo.DefaultBetaScale).
	var betaScale *float64
	if set["beta-scale"] {
		betaScale = &p.BetaScale
	}
	var normalize, ard, minimizeSet *bool
	if set["minimize"] {
		minimizeSet = minimize
	}
	if set["normalize"] {
		normalize = &p.Normalize
	}
	if set["ard"] {
		ard = &p.ARD
	}
	st := frontend.SuggestSettings{
		Problem: *name, Group: frontend.Group{Group: *group, D: *d, Block: *block, Matrices: *matrices},
		Kernel: *kern, Base: *base, Seed: *seed, Minimize: minimizeSet, Init: &p.Init,
		Acq: p.Acq, Beta: p.Beta, Fit: p.Fit, Prior: p.Prior, Mean: p.Mean, Landmarks: p.Landmarks, LandmarkFit: p.LandmarkFit, CandidateFit: p.CandidateFit, Probe: p.Probe, Liar: p.Liar,
		ProbeWindow: probeWindow, Hedge: hedge, AllowRepeats: *allowRepeats, Normalize: normalize, ARD: ard, BetaScale: betaScale,
	}
	switch {
	case *name != "" && *group != "":
		return badInput("give --problem or --group, not both")
	case *name == "" && *group == "":
		return badInput("missing --problem or --group (run 'perf suggest -h' for usage)")
	case *name != "":
		for _, f := range []string{"box", "block", "matrices", "coords"} {
			if set[f] {
				return badInput("--%s is not used with --problem", f)
			}
		}
		// --minimize=false given with a minimized problem (true with a
		// maximized one the settings refuse) would be ignored.
		if set["minimize"] && !*minimize {
			if pr, err := problem.New(*name, *d); err == nil && !pr.Maximize() {
				return badInput("--minimize=false: %s is minimized (leave --minimize out for its direction)", pr.Name())
			}
		}
	default:
		if err := fs.require("d", "box"); err != nil {
			return err
		}
		if err := checkIn("d", *d, 1, bo.MaxDim); err != nil {
			return err
		}
		lo, hi, err := parseIntervals(*boxFlag, *d)
		if err != nil {
			return err
		}
		st.Box = [][]float64{lo, hi}
		if set["coords"] {
			spec, err := onCoords(orbit.Spec{D: *d}, *coords, true)
			if err != nil {
				return err
			}
			st.Coords = spec.Coords
		}
	}
	if err := checkIn("init", p.Init, 1, bo.MaxEvaluations); err != nil {
		return err
	}
	be, err := backendByName(p.Backend)
	if err != nil {
		return err
	}
	opt, err := st.Optimizer(be, fs.budget)
	if err != nil {
		return asInput(err)
	}
	inputs := [][2]string{{"history", *history}, {"pending", *pending}, {"failed", *failed}}
	if err := refuseOutputInput(stdout, inputs); err != nil {
		return err
	}
	if err := refuseSharedStream(inputs); err != nil {
		return err
	}
	dim := opt.Dim()
	var hx, px *mat.Dense
	var hy []float64
	// The lines before each file's first data row (a header), so that a
	// row the optimizer refuses is named by its line in the file.
	skipped := map[string]int{}
	if *history != "" {
		h, skip, err := readRows("history", *history, dim+1, fs.budget)
		skipped["history"] = skip
		if err != nil {
			return err
		}
		if h != nil {
			n, c := h.Dims()
			if c != dim+1 {
				return badInput("--history %s has %d columns, want d + 1 = %d (x1,…,xd,y)", *history, c, dim+1)
			}
			hx = mat.DenseCopyOf(h.Slice(0, n, 0, dim))
			hy = mat.Col(nil, dim, h)
		}
	}
	if px, skipped["pending"], err = readPointRows("pending", *pending, dim, fs.budget); err != nil {
		return err
	}
	fx, skipFailed, err := readPointRows("failed", *failed, dim, fs.budget)
	if err != nil {
		return err
	}
	skipped["failed"] = skipFailed
	out, err := suggestPoints(opt, hx, hy, px, fx, *q)
	var re *frontend.RowError
	switch {
	case errors.As(err, &re):
		file := map[string]string{"history": *history, "pending": *pending, "failed": *failed}[re.Input]
		return badInput("--%s %s:%d: %w", re.Input, file, re.Row+1+skipped[re.Input], re.Err)
	case err != nil:
		return asInput(err)
	}
	if unterminatedOutput(stdout, *pending) {
		// '>> FILE' onto --pending's last row, which has no line end: the
		// first point would be glued to it ("0.3,0.4-0.83,0.95").
		if _, err := io.WriteString(stdout, "\n"); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	if err := csvio.WritePoints(stdout, out); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	warnLeftOut(stderr, opt.Config().Kernel)
	return nil
}

// suggestPoints is frontend.Suggest — the study recorded in opt, then its
// next q points — with the batch named as perf spells it: a batch the
// search space runs out of midway (bo.ErrSpaceExhausted after i of its q
// points) is refused saying that only i of the --q q points could be
// proposed and that --q i returns them (frontend.AskBatch, the C ABI's
// and Python's batch ask too). No point is returned with an error: a
// batch is all or nothing, as bo's AskBatch and the C ABI's are.
func suggestPoints(opt *bo.Optimizer, hx *mat.Dense, hy []float64, px, fx *mat.Dense, q int) (*mat.Dense, error) {
	if err := frontend.Record(opt, hx, hy, px, fx); err != nil {
		return nil, err
	}
	pts, err := frontend.AskBatch(opt, q, "--q")
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(q, opt.Dim(), nil)
	for i, x := range pts {
		out.SetRow(i, x)
	}
	return out, nil
}

// warnLeftOut writes a line on stderr for each candidate deciding kernel
// k left out as too costly over the group (bo.Kernel.LeftOut), with the
// reason — after the points, so that a failing call keeps its one line
// of error.
func warnLeftOut(stderr io.Writer, k bo.Kernel) {
	for _, r := range k.LeftOut() {
		fmt.Fprintf(stderr, "perf suggest: warning: kernel %s leaves out %s\n", k.Name(), r)
	}
}

// refuseOutputInput refuses a stdout that is one of the input files
// (flag name, path pairs), before any is read: the shell's '>' emptied it
// before perf could read it, so its rows would be missing without a word,
// and '>>' would write the points into --history or --failed, whose rows
// they are not. Appending to --pending with '>>' hands the points out,
// as a scheduler does, and is allowed (also where how stdout was opened
// cannot be told).
func refuseOutputInput(stdout io.Writer, inputs [][2]string) error {
	if s, ok := stdout.(*stickyWriter); ok {
		stdout = s.w
	}
	f, ok := stdout.(*os.File)
	if !ok {
		return nil
	}
	out, err := f.Stat()
	if err != nil || !out.Mode().IsRegular() {
		return nil
	}
	for _, in := range inputs {
		name, path := in[0], in[1]
		if path == "" {
			continue
		}
		if st, err := os.Stat(path); err != nil || !os.SameFile(st, out) {
			continue
		}
		appending, known := appendMode(f)
		switch {
		case known && !appending && name == "pending":
			return badInput("stdout is --pending's file %s, which the shell's '>' emptied before perf could read it: restore its rows and append with '>>'", path)
		case known && !appending:
			return badInput("stdout is --%s's file %s, which the shell's '>' emptied before perf could read it: restore its rows and write the points elsewhere", name, path)
		case name != "pending":
			return badInput("stdout is --%s's file %s: the points would be appended to it, but are not rows of it; write them elsewhere", name, path)
		}
	}
	return nil
}

// unterminatedOutput reports whether stdout is the file at path (the
// --pending file a scheduler appends the points to with '>>', which
// refuseOutputInput lets through) and that file is not empty and does not
// end in a line end, as an editor or a program may leave its last row:
// the points written then start a line of their own.
func unterminatedOutput(stdout io.Writer, path string) bool {
	if s, ok := stdout.(*stickyWriter); ok {
		stdout = s.w
	}
	f, ok := stdout.(*os.File)
	if path == "" || !ok {
		return false
	}
	out, err := f.Stat()
	if err != nil || !out.Mode().IsRegular() || out.Size() == 0 {
		return false
	}
	if st, err := os.Stat(path); err != nil || !os.SameFile(st, out) {
		return false
	}
	in, err := os.Open(path)
	if err != nil {
		return false
	}
	defer in.Close()
	last := make([]byte, 1)
	if _, err := in.ReadAt(last, out.Size()-1); err != nil {
		return false
	}
	return last[0] != '\n'
}

// refuseSharedStream refuses, before any is read, two input flags (flag
// name, path pairs) naming one pipe (a named pipe, /dev/stdin fed by a
// shell pipeline) or socket: it can be read once, so the second flag's
// rows would be missing without a word (the first read took them all),
// or, for a named pipe whose writer has left, opening it again would wait
// for another writer for ever. One regular file may be named twice (a
// point both pending and failed), and so may a device such as /dev/null
// (no rows for either): each read sees all there is.
func refuseSharedStream(inputs [][2]string) error {
	for i, a := range inputs {
		if a[1] == "" {
			continue
		}
		sa, err := os.Stat(a[1])
		if err != nil || sa.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
			continue
		}
		for _, b := range inputs[i+1:] {
			if b[1] == "" {
				continue
			}
			if sb, err := os.Stat(b[1]); err == nil && os.SameFile(sa, sb) {
				return badInput("--%s and --%s both name %s, a pipe, which can be read once: give each its own file", a[0], b[0], b[1])
			}
		}
	}
	return nil
}

// readRows reads the CSV file of flag name, which may start with a header
// row (csvio.Options.Header: a first line none of whose fields looks like
// a number); an empty file, or a header alone (a study that has not
// started, nothing running), is nil: zero rows. Reading is bounded by
// the memory budget b and by bo.MaxEvaluations rows. cols is the number
// of fields a row should have (the caller checks it; here it tells a
// blank y of --history). skipped is the number of lines before the first
// data row (1 after a header, else 0): row i is line i + 1 + skipped of
// the file.
func readRows(name, path string, cols int, b int64) (m *mat.Dense, skipped int, err error) {
	m, skipped, err = csvio.Options{Header: true, Budget: b, MaxRows: bo.MaxEvaluations}.ReadSkipped(path)
	var ce *csvio.Error
	switch {
	case csvio.IsEmpty(err):
		return nil, 0, nil
	case name == "history" && errors.Is(err, csvio.ErrNotFinite):
		return nil, 0, badInput("--history: %w; an evaluation that failed goes in --failed (its x alone), not as a value", err)
	case name == "history" && errors.Is(err, csvio.ErrEmptyField) && errors.As(err, &ce) && ce.Col == cols:
		// A blank y: a row written before its evaluation came back, or
		// after it failed.
		return nil, 0, badInput("--history: %w (y); a point being evaluated goes in --pending, one whose evaluation failed in --failed (its x alone)", err)
	case name != "history" && errors.Is(err, csvio.ErrEmptyField) && errors.As(err, &ce) && ce.Col == cols+1:
		// A history-shaped row with its y left blank.
		return nil, 0, badInput("--%s: %w; its rows are x1,…,xd, without a y column", name, err)
	case err != nil:
		return nil, 0, badInput("--%s: %w", name, err)
	}
	return m, skipped, nil
}

// readPointRows reads the CSV file of x1,…,xd rows of flag name (none
// for an empty path): readRows, with d columns.
func readPointRows(name, path string, d int, b int64) (*mat.Dense, int, error) {
	if path == "" {
		return nil, 0, nil
	}
	m, skipped, err := readRows(name, path, d, b)
	if err != nil || m == nil {
		return nil, 0, err
	}
	if _, c := m.Dims(); c != d {
		return nil, 0, badInput("--%s %s has %d columns, want d = %d", name, path, c, d)
	}
	return m, skipped, nil
}

// parseIntervals parses LO:HI[,LO:HI…]: one interval for every coordinate
// or d of them, each with finite LO < HI.
func parseIntervals(s string, d int) (lo, hi []float64, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 1 && len(parts) != d {
		return nil, nil, badInput("--box %q: want one LO:HI or %d of them", s, d)
	}
	// which names the interval at fault: the whole value when it is the
	// only one, else its place and text.
	which := func(i int) string {
		if len(parts) == 1 {
			return fmt.Sprintf("--box %q", s)
		}
		return fmt.Sprintf("--box %q: interval %d, %q,", s, i+1, parts[i])
	}
	for i, part := range parts {
		a, b, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, nil, badInput("%s is not LO:HI", which(i))
		}
		for _, v := range []string{a, b} {
			// strconv reads 1_0 as 10 and 0x1p4 as 16; a point file
			// refuses the first (csvio), and '−' (U+2212, as typeset)
			// is no minus sign to it.
			switch v = strings.TrimSpace(v); {
			case strings.ContainsRune(v, '_'):
				return nil, nil, badInput("%s: %q is not a number (no digit separators)", which(i), v)
			case strings.ContainsRune(v, '−'):
				return nil, nil, badInput("%s: %q is not a number (write the minus sign as ASCII '-', not '−')", which(i), v)
			}
		}
		l, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(b), 64)
		if err1 != nil || err2 != nil || math.IsInf(l, 0) || math.IsInf(h, 0) || !(l < h) {
			return nil, nil, badInput("%s needs finite LO < HI", which(i))
		}
		lo, hi = append(lo, l), append(hi, h)
	}
	for len(lo) < d {
		lo, hi = append(lo, lo[0]), append(hi, hi[0])
	}
	return lo, hi, nil
}

// settingsHelp describes every flag of fs that is a setting of the front
// ends from the one table, frontend.Settings: its doc, values and what
// leaving it out means, so that perf suggest -h says what the settings
// of C and Python say (perf bo's defaults — the paper's protocol — are
// not suggest's).
func settingsHelp(fs *flagSet) {
	for _, s := range frontend.Settings {
		if f := fs.Lookup(s.Flag); s.Flag != "" && f != nil {
			f.Usage = fmt.Sprintf("%s: %s (absent: %s)", s.Doc, s.Values, s.Absent)
			// The flag type's zero value, which -h does not print: the
			// usage says what absence means.
			switch _, err := strconv.ParseFloat(f.DefValue, 64); {
			case isBoolFlag(f.Value):
				f.DefValue = "false"
			case err == nil:
				f.DefValue = "0"
			default:
				f.DefValue = ""
			}
		}
	}
}

func isBoolFlag(v flag.Value) bool {
	b, ok := v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
