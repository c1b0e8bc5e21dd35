package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/orbit"
)

func init() {
	register(command{
		name:    "table",
		summary: "run the paper's Table 1 and Figure 3 (benchmarks × kernels × seeds)",
		run:     runTable,
	})
}

const tableUsage = `
Usage: perf table [--seeds N|A:B] [--iters 50] [--init 5] [--out DIR [--force]]
                  [--problems LIST] [--kernels LIST] [--fit own|base] [--prior none|botorch] [--mean sample|constant]
                  [--beta paper|authors] [--acq ucb|ei] [--landmarks M] [--landmark-fit F]
                  [--candidate-fit own|anchored] [--probe-window W] [--backend B] [--workers N]
                  [--noise box|observed|VARIANCE] [--regret acq|all] [--ablation]
                  [--skip PROBLEM/KERNEL,…] [--mem-budget SIZE]
       perf table --out DIR --resume [--workers N]

Runs the paper's Table 1: every benchmark (Ackley2d, Griewank6d,
Rastrigin5d, Radial2d, Scaling2d, WLAN8d) × kernel (base, avg, plus, and
max where it is PSD; --kernels may add avgnorm, the normalized average,
and nystrom, the base kernel Nyström-extended from the observations)
× seed (0…N−1, or A…B−1 with --seeds A:B), each run the protocol of 'perf bo'.
Runs execute in parallel (--workers of them, one goroutine each; results
do not depend on the number), with a progress bar and ETA on stderr (not
a terminal: one line per finished run, and a line at least every 30 s).
The ETA uses each cell's measured run times once one of its runs has
finished, a cost model before, and how long the running runs have run.

Prints the Markdown table on stdout: per benchmark and kernel the mean ±
standard error over the seeds of the cumulative regret R_T (summed over
the --iters BO iterations after the initial design) on the synthetic
benchmarks, and of the negated best reward −max f (initial design
included) on WLAN; lower is better; the median beside the mean where it
lies outside mean ± 1.96·s.e. (a skewed or bimodal cell). Our best mean
per row is bold; a kernel not significantly worse than it is underlined:
the paired (same-seed) t test of their difference does not reject 0 at
5% after Holm's correction over every such comparison in the table. At
the paper's budget (--init 5 --iters 50, one evaluation at a time) the
paper's numbers sit in the adjacent columns, marked by its own rule
(95% intervals m ± 1.96·s.e. that overlap the best's; it has no per-seed
values); at another budget they are left out (table.md says why). The last column counts runs/evaluations that hit
the optimum f* exactly (the box-centre diagnostic).
--skip leaves named cells out, shown as "not run" (e.g. Scaling2d/avg,
whose orbit average still costs the most per run). A cell bo refuses (avg
enumerated over more than bo.AvgEnumerateLimit = 8192 group elements)
fails the table before any run (exit 2, naming the cell) unless skipped.
A --skip of a cell the table does not have — a misspelt name, or max
where it is not PSD, which the table leaves out anyway — is refused.
--problems may name any problem of 'perf eval -h' (e.g. the
off-fixed-point ShiftedAckley2d, or RadialScaled2d).

--ablation runs the invariance × Nyström ablation: unless --problems and
--kernels say otherwise, the paper's six problems and the off-fixed-point
family (ShiftedAckley2d, ShiftedRastrigin4d, ShiftedGriewank6d) × base,
nystrom, max, plus, avg and avgnorm; after the table it reports, per
problem, plus's gain over base split into the part the Nyström extension
alone achieves (base − nystrom) and the part invariance adds (nystrom −
plus), each a paired t interval over the seeds at the level Holm's
procedure over every difference of the ablation tested it at (bold where
it excludes 0: Holm's decision; the intervals are not simultaneous), and
the shares of the gain with BCa bootstrap intervals.

--landmarks M: the landmark cap of every kernel but soft (see 'perf bo -h'): an
exact GP on at most M observations (for plus and nystrom, their design),
a GP on M landmarks beyond; 0 means 256, -1 never. --landmark-fit
subset|likelihood|full: how the landmark GP is fitted (by default
likelihood for plus and nystrom, subset for the others).
--candidate-fit anchored: auto's and portfolio's candidates other than
the last search their lengthscale around the last one's (see 'perf bo
-h'); own (the default) is each its own search. --probe-window W:
portfolio's fixed-point probe may fire in the first W BO steps only (see
'perf bo -h'); 0, the default here, is no limit. A deciding kernel's
flag that acts on no kernel of --kernels (the default list included) is
refused (exit 2), as 'perf bo -h' says; one that acts on some of them
is taken, and the others run without it.

Paper-fidelity switches: --noise sets the variance of the observation
noise (box: 2% of the variance of f over the box, the default; observed:
2% of the variance of f over each run's initial design; or a fixed
variance such as 0.01); --regret all adds the initial design's regret to
R_T (the paper's R_T counts the acquisition steps only).

With --out DIR (created; refused if it exists and is not empty, unless
--force, which first removes the files below that a previous table wrote
there, so that one stopped leaves no stale record) every finished run is
journaled in DIR/runs.journal as it completes (flushed to disk), and at
the end it writes:
  table.md      the table with the settings and environment
  results.json  every trace (the 'perf bo --json' fields), the cells,
                the settings, the environment and the wall time
  strips.png, strips.svg   every run's final metric, one dot per seed, per
                benchmark and kernel, with the median and the mean
  regret.png, regret.svg   the paper's Figure 3: the mean curve per kernel
                with a standard-error band, one panel per benchmark
  record.json   the settings, the commit and every run's metric, which
                'perf check' reruns and compares bit for bit
If the table stops — Ctrl-C, SIGTERM, kill -9 — 'perf table --out DIR
--resume' reruns only the missing runs (the settings come from the
journal, and the backend's environment too, as for 'perf bo --resume';
only --workers and --mem-budget may be given again) and writes
the same files as
an uninterrupted table, timings aside. On SIGINT/SIGTERM perf table stops
at once: the finished runs are kept, the runs in progress are dropped (a
run is journaled whole, so they start over on --resume), and it prints the
resume command (exit status 130). A journal holding runs of another table
(lines spliced from another journal, whose settings differ) is refused
(exit 2), as in 'perf bo --resume', and so is a journal started by a
build of another commit (record.json would name the resuming one's).
Every file is written atomically, and none through a symbolic link
planted in DIR: a link at table.md (or any name perf writes there) is
replaced by the file and its target is left untouched; a link in place
of runs.journal is refused on --resume.

Example:
  perf table --out results/ --fit base
  perf table --seeds 2 --iters 10 --problems Ackley2d,Radial2d --kernels base,plus
  perf table --out results/ --resume
`

// tableSettings is everything that determines a table and its files: the
// header of its journal.
type tableSettings struct {
	Seeds int `json:"seeds"`
	// FirstSeed: the seeds are FirstSeed…FirstSeed+Seeds−1 (--seeds A:B).
	FirstSeed int      `json:"first_seed,omitempty"`
	Problems  []string `json:"problems,omitempty"`
	Kernels   []string `json:"kernels,omitempty"`
	Skip      []string `json:"skip,omitempty"`
	Noise     string   `json:"noise,omitempty"`
	Regret    string   `json:"regret,omitempty"`
	Ablation  bool     `json:"ablation,omitempty"`
	Protocol
	// Workers is recorded with the results, as Command gives it; --resume
	// runs the remaining runs with it unless --workers is given again,
	// which is not recorded (results do not depend on it).
	Workers int    `json:"workers"`
	Command string `json:"command"`
}

// tableJournalFile is the journal of a table, in its --out directory
// (journal kind "perf table", records planRecord[*bo.Trace]).
const tableJournalFile = "runs.journal"

func runTable(args []string, stdout, stderr io.Writer) (err error) {
	fs := newFlagSet("table", tableUsage, stdout)
	seeds := seedsFlag(fs, 10, "the seeds of each benchmark and kernel")
	out := fs.pathFlag("out", "journal the runs and write table.md, results.json and the plots into `dir`")
	force := fs.Bool("force", false, "write into a non-empty --out directory, overwriting its files")
	resumeFlag := fs.Bool("resume", false, "continue the table journaled in --out")
	problems := fs.String("problems", "", "comma-separated subset of the benchmarks (default: all six)")
	kernels := fs.String("kernels", "", "comma-separated kernels of 'perf bo -h' (default: base,avg,plus,max)")
	proto := protocolFlags(fs)
	noise := noiseFlag(fs)
	ablation := fs.Bool("ablation", false, "the invariance × Nyström ablation: default problems and kernels become the ablation's, and the decomposition of plus's gain is reported")
	regret := fs.String("regret", "acq", "cumulative regret over the acquisition steps (acq, the paper's R_T) or all evaluations, initial design included (all)")
	workers := fs.Int("workers", 0, "runs in parallel; 0 means GOMAXPROCS")
	skip := fs.String("skip", "", "comma-separated `cells` problem/kernel to leave out, e.g. Scaling2d/avg (shown as \"not run\"); a cell bo refuses, such as avg over more than bo.AvgEnumerateLimit enumerated elements, fails the table unless skipped")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.needs("force", "out"); err != nil {
		return err
	}
	if err := checkWorkers(*workers); err != nil {
		return err
	}
	r := &runner{cmd: "perf table", stderr: stderr, unit: "run record", whole: "table", enable: "--out DIR"}
	defer func() { err = r.close(err) }()
	resumeCmd := "perf table --out " + shellQuote(*out) + " --resume"
	var set tableSettings
	var kept []planRecord[*bo.Trace]
	if *resumeFlag {
		if err := fs.require("out"); err != nil {
			return err
		}
		if err := fs.onlyWith("resume", "out", "workers", "mem-budget"); err != nil {
			return err
		}
		lock, err := lockWritableOutDir(*out)
		if err != nil {
			return err
		}
		r.hold(lock)
		if kept, err = resume[planRecord[*bo.Trace]](r, *out, tableJournalFile, resumeCmd, &set); err != nil {
			return err
		}
	} else {
		set = tableSettings{Seeds: seeds.n, FirstSeed: seeds.first, Noise: *noise, Regret: *regret, Ablation: *ablation, Protocol: proto.values(), Workers: *workers, Command: "perf table " + strings.Join(args, " ")}
		if err := fs.refuseEmpty(append([]string{"problems", "kernels"}, choiceFlags...)...); err != nil {
			return err
		}
		if err := set.lists(*problems, *kernels, *skip); err != nil {
			return err
		}
	}
	// --workers given again on --resume sets the parallelism of the runs
	// still to do; the results keep the settings their command line
	// names (set.Workers), as the results do not depend on it.
	runWorkers := set.Workers
	if fs.given()["workers"] {
		runWorkers = *workers
	}
	opts, err := set.options(fs.budget)
	if err != nil {
		return err
	}
	if !*resumeFlag {
		// A deciding kernel's flag given with kernels none of which can
		// act on it is refused; one that acts on some of them is taken.
		if err := refuseInert(fs, orKernels(set.Kernels, experiments.TableKernels), opts.Config.Kernel.Options(), opts.Config.Landmarks); err != nil {
			return err
		}
	}
	plan, err := experiments.Table(opts)
	if err != nil {
		return err
	}
	if err := preflight(plan.Runs, kept); err != nil {
		return err
	}
	if *out != "" && !*resumeFlag {
		lock, err := prepareOutDir(*out, *force)
		if err != nil {
			return err
		}
		r.hold(lock)
		jpath := filepath.Join(*out, tableJournalFile)
		if *force {
			if err := removeOutputs(*out, "table", "regret", "strips"); err != nil {
				return err
			}
		}
		if err := r.create("--out", jpath, resumeCmd, set); err != nil {
			return err
		}
	}
	if *out != "" {
		removeStaleTemps(stderr, r.cmd, *out, append(outputNames("table", "regret", "strips"), outProbe)...)
	}
	res, err := runPlan(r, plan, runWorkers, kept)
	if err != nil {
		return err
	}
	return r.outputsFailed(reportTable(res, set, *out, r.stopped, stdout, stderr, len(kept)))
}

// lists sets the settings' problems, kernels (the ablation's by default
// with --ablation) and skipped cells from their flags.
func (s *tableSettings) lists(problems, kernels, skip string) error {
	var err error
	if s.Problems, err = problemList(problems); err != nil {
		return err
	}
	if s.Kernels, err = kernelList(kernels); err != nil {
		return err
	}
	if s.Ablation {
		if s.Problems == nil {
			s.Problems = experiments.AblationProblems
		}
		if s.Kernels == nil {
			s.Kernels = experiments.AblationKernels
		}
	}
	s.Skip, err = splitList("skip", skip, func(c string) (string, error) { return c, nil })
	return err
}

// reportTable prints a finished table (and with an --out directory,
// writes its files).
func reportTable(res *experiments.TableResult, set tableSettings, out string, stop func() error, stdout, stderr io.Writer, resumed int) error {
	fmt.Fprintf(stderr, "perf table: %d runs in %s\n", len(res.Runs), fmtDuration(time.Duration(res.WallSeconds*float64(time.Second))))
	md := res.Markdown()
	if set.Ablation {
		res.Decompositions = res.Ablation()
		md += "\n### Where plus's gain over base comes from\n\n" + ablationIntro(res) + "\n" + experiments.AblationMarkdown(res.Decompositions, experiments.MaxIsPSD)
	}
	if out != "" {
		title := "Table 1"
		if res.Decompositions != nil {
			title = "The invariance × Nyström ablation"
		}
		if err := writeResults(out, results{
			kind: "table", all: res, figures: []figure{{"regret", res.Panels(), 3, res.Caption()}, {"strips", res.StripPanels(), 3, res.StripCaption()}},
			page:    fmt.Sprintf("# %s\n\nCommand: `%s`\n\n%s", title, set.Command, md) + tableNotes(res, resumed),
			command: set.Command, proto: set.Protocol, noise: set.Noise, regret: set.Regret,
			env: res.Environment, specs: res.Specs, runs: res.Runs, stop: stop,
		}); err != nil {
			return err
		}
	}
	return printResult(stdout, md)
}

// ablationIntro explains the decomposition table that follows it.
func ablationIntro(res *experiments.TableResult) string {
	return fmt.Sprintf("Each entry is the mean paired (same-seed) difference of the "+
		"table's metric over %s, with its Student t interval at the level Holm's step-down procedure tested it at, over every difference "+
		"in the two tables below (one family): an interval is bold exactly when it excludes 0, when Holm rejects a zero difference, "+
		"and the family-wise error of the bold marks is 5%%. Each interval is at least a nominal 95%% interval; they are not "+
		"simultaneous (to read several bounds together, widen them to Bonferroni's level), and on skewed differences the t "+
		"interval covers less than its level (lab/results/statistics.md). "+
		"Nyström alone is base − nystrom (the base kernel Nyström-extended from the data, not invariant); "+
		"invariance on top is nystrom − plus; the two add up to the gain, and the shares are their ratios to it, "+
		"given where the gain is significant, with BCa bootstrap intervals (%d paired resamples) at the Bonferroni level "+
		"over those problems.\n",
		res.Settings.SeedsPhrase(), experiments.BootstrapResamples)
}

// options validates the settings and returns the table's options, with
// the memory budget b (not a setting: a table may resume with another).
func (s tableSettings) options(b int64) (experiments.TableOptions, error) {
	if err := checkSeeds(s.Seeds); err != nil {
		return experiments.TableOptions{}, err
	}
	cfg, err := s.Protocol.config(0, b)
	if err != nil {
		return experiments.TableOptions{}, err
	}
	opts := experiments.TableOptions{FirstSeed: s.FirstSeed, Seeds: s.Seeds, Config: cfg, Iters: s.Iters, Batch: s.Batch, Workers: s.Workers, Problems: s.Problems, Kernels: s.Kernels}
	if opts.Noise, err = parseNoiseFlag(s.Noise); err != nil {
		return opts, err
	}
	switch s.Regret {
	case "", "acq":
	case "all":
		opts.CountInit = true
	default:
		return opts, badInput("--regret must be acq or all, got %q", s.Regret)
	}
	if opts.Skip, err = skipCells(s.Skip); err != nil {
		return opts, err
	}
	return opts, nil
}

// problemList parses --problems (empty: nil, the default) into canonical
// names.
func problemList(s string) ([]string, error) {
	return splitList("problems", s, func(n string) (string, error) {
		p, err := problem.New(n, 0)
		if err != nil {
			return "", err
		}
		return p.Name(), nil
	})
}

// kernelName canonicalizes a kernel name.
func kernelName(n string) (string, error) {
	n = strings.ToLower(strings.TrimSpace(n))
	if !slices.Contains(bo.KernelNames(), n) {
		// auto:a+b+… and portfolio:a+b+… over any group that every
		// candidate accepts.
		g, err := orbit.Hyperoctahedral(2)
		if (strings.HasPrefix(n, bo.NameAuto+":") || strings.HasPrefix(n, bo.NamePortfolio+":")) && err == nil {
			if _, err := bo.ParseKernel(n, g, kernel.RBF); err == nil {
				return n, nil
			}
		}
		return "", fmt.Errorf("%w %q (want %s, or auto:a+b+… or portfolio:a+b+… naming the candidates, a+b:c+d favouring c and d)", bo.ErrUnknownKernel, n, strings.Join(bo.KernelNames(), ", "))
	}
	return n, nil
}

// kernelList parses --kernels (empty: nil, the default).
func kernelList(s string) ([]string, error) { return splitList("kernels", s, kernelName) }

// skipList parses --skip: problem/kernel pairs.
func skipList(s string) ([]experiments.CellKey, error) {
	cells, err := splitList("skip", s, func(c string) (string, error) { return c, nil })
	if err != nil {
		return nil, err
	}
	return skipCells(cells)
}

func skipCells(cells []string) ([]experiments.CellKey, error) {
	var keys []experiments.CellKey
	for _, c := range cells {
		pn, kn, ok := strings.Cut(c, "/")
		if !ok {
			return nil, badInput("--skip: %q is not problem/kernel", c)
		}
		p, err := problem.New(pn, 0)
		if err != nil {
			return nil, badInput("--skip: %w", err)
		}
		k, err := kernelName(kn)
		if err != nil {
			return nil, badInput("--skip: %w", err)
		}
		keys = append(keys, experiments.CellKey{Problem: p.Name(), Kernel: k})
	}
	return keys, nil
}

// prepareOutDir creates dir, locks it (lockOutDir), and refuses (as bad
// input) an existing non-empty directory unless force, an existing
// non-directory, and a directory that does not accept new files — all
// before the long run, not at its end. The caller releases the lock when
// it has written its files (or exits).
func prepareOutDir(dir string, force bool) (*atomicfile.Lock, error) {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, badInput("--out: %w", err)
		}
	case err != nil:
		return nil, badInput("--out: %w", err)
	case !st.IsDir():
		return nil, badInput("--out %s exists and is not a directory", dir)
	}
	lock, err := lockOutDir(dir)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		lock.Release()
		return nil, badInput("--out: %w", err)
	}
	// A kill -9 while writing may leave atomicfile's hidden temporaries
	// (and the lock file): they do not make the directory non-empty.
	entries = slices.DeleteFunc(entries, func(e os.DirEntry) bool { return atomicfile.IsTemp(e.Name()) })
	if len(entries) > 0 && !force {
		lock.Release()
		return nil, badInput("--out %s is not empty; refusing to overwrite its files (use --force)", dir)
	}
	if err := checkOutDir(dir); err != nil {
		lock.Release()
		return nil, err
	}
	return lock, nil
}

// removeOutputs removes from the --out directory dir, for --force, the
// files a run of kind (table, batch, robustness) writes there: record.json
// first (what perf check reads), then the page kind.md, results.json,
// the figures (name.png and name.svg for each name) and the journal —
// before the new run starts, so that a forced run that stops leaves its
// journal and none of the previous run's files beside it (perf check
// checked the stale record.json, exit 0). A symbolic link is removed,
// not its target; the directory's other files stay.
func removeOutputs(dir, kind string, figures ...string) error {
	for _, n := range outputNames(kind, figures...) {
		if err := os.Remove(filepath.Join(dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return badInput("--out: --force: %w", err)
		}
	}
	return nil
}

// outputNames are the files a run of kind (table, batch, robustness)
// writes in its --out directory: record.json, kind.md, results.json, the
// figures (name.png and name.svg for each name) and the journal.
func outputNames(kind string, figures ...string) []string {
	names := []string{recordFile, kind + ".md", "results.json"}
	for _, f := range figures {
		names = append(names, f+".png", f+".svg")
	}
	return append(names, tableJournalFile)
}

// outProbe is the name checkOutDir probes an --out directory with.
const outProbe = ".perf-out"

// removeStaleTemps removes from dir the hidden temporaries of the files
// names (atomicfile.RemoveTemps: ".NAME.tmp-digits", ".NAME.probe-digits")
// that a run killed while writing one of them left behind, so that a
// resumed directory ends up clean; each removal is a note on stderr, and
// a temporary that cannot be removed a warning (the run goes on: it does
// not need the space). The caller holds what excludes every other writer
// of those names — the --out lock, or a journal's own lock for its
// header's temporaries — since a running writer's temporary would go too.
func removeStaleTemps(stderr io.Writer, cmd, dir string, names ...string) {
	removed, err := atomicfile.RemoveTemps(dir, names...)
	noteRemovedTemps(stderr, cmd, dir, removed, err)
}

// removeDeadTemps is removeStaleTemps for names no lock of the caller
// excludes other writers of (perf bo's --json trace, which another run
// may be writing): it removes only the temporaries whose writer is gone
// (atomicfile.RemoveStaleTemps), never a running writer's.
func removeDeadTemps(stderr io.Writer, cmd, dir string, names ...string) {
	removed, err := atomicfile.RemoveStaleTemps(dir, names...)
	noteRemovedTemps(stderr, cmd, dir, removed, err)
}

// noteRemovedTemps notes on stderr each temporary removed, and warns of
// an error, on one line: the atomicfile walk joins one error per
// temporary it could not remove (errors.Join, a line each), which the
// warning separates by "; ".
func noteRemovedTemps(stderr io.Writer, cmd, dir string, removed []string, err error) {
	for _, p := range removed {
		fmt.Fprintf(stderr, "%s: removed %s, the temporary file of a run killed while writing\n", cmd, p)
	}
	if err != nil {
		msg := strings.ReplaceAll(err.Error(), "\n", "; ")
		fmt.Fprintf(stderr, "%s: warning: removing the temporary files that killed runs left in %s: %s\n", cmd, dir, msg)
	}
}

// lockWritableOutDir is lockOutDir, then refusing (bad input) a
// directory in which the outputs could not be written (checkOutDir) —
// for --resume and perf figure, before any work.
func lockWritableOutDir(dir string) (*atomicfile.Lock, error) {
	lock, err := lockOutDir(dir)
	if err != nil {
		return nil, err
	}
	if err := checkOutDir(dir); err != nil {
		lock.Release()
		return nil, err
	}
	return lock, nil
}

// lockOutDir locks the output directory dir (which exists) for this
// process (atomicfile.LockDir): every command that writes an --out
// directory takes it before it reads, removes or writes anything there,
// so that a second run on one directory — a second perf table --resume,
// a --force over a table still running — is refused (bad input) instead
// of interleaving its journal lines or replacing the other's files.
func lockOutDir(dir string) (*atomicfile.Lock, error) {
	lock, err := atomicfile.LockDir(dir)
	switch {
	case errors.Is(err, atomicfile.ErrLocked):
		return nil, badInput("--out: %w; wait for it to finish or choose another directory", err)
	case err != nil:
		return nil, badInput("--out: %w", err)
	}
	return lock, nil
}

// checkOutDir refuses (bad input) an output directory in which a file
// cannot be created (read-only, a read-only file system).
func checkOutDir(dir string) error {
	if err := atomicfile.CheckWritableIn(dir, outProbe, true); err != nil {
		return badInput("--out: %w", err)
	}
	return nil
}

// tableNotes is what table.md says after the table: how to read it, the
// settings, the code, the environment and the timings.
func tableNotes(res *experiments.TableResult, resumed int) string {
	var b strings.Builder
	over := "over the BO iterations (after the initial design)"
	if res.Settings.Regret == "all" {
		over = "over every evaluation, initial design included"
	}
	b.WriteString("\nLower is better. Cumulative regret R_T " + over + " on the\n" +
		"synthetic benchmarks, negated best reward −max f on WLAN8d; mean ± standard error over the seeds.\n" +
		"Bold: best mean of the row; underlined: not significantly worse than the best (paired t test over the seeds, " +
		"Holm-corrected over the table's comparisons, family-wise error 5%); a median is shown where it lies outside " +
		"mean ± 1.96·s.e. The paper's columns are marked by its rule: 95% interval (m ± 1.96·s.e.) overlaps the best's.\n")
	s, e := res.Settings, res.Environment
	batch := ""
	if s.Batch > 1 {
		batch = fmt.Sprintf(" in rounds of %d parallel evaluations", s.Batch)
	}
	if res.PaperComparable() {
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "The paper's columns are left out: its Table 1 is for 5 + 50 evaluations, one at a time,\n"+
			"and regret summed over another budget (here %d + %d%s) is not comparable.\n\n",
			s.Init, s.Iters, batch)
	}
	noise := "2% of the variance of f over the box"
	switch s.Noise {
	case "":
	case "observed":
		noise = "2% of the variance of f over each run's initial design"
	default:
		noise = "fixed at " + s.Noise
	}
	fmt.Fprintf(&b, "Settings: %s, %d init + %d iterations%s, %s, beta %s, fit %s%s%s, backend %s; noise variance %s.\n\n",
		s.SeedsPhrase(), s.Init, s.Iters, batch, s.Acquisition, s.Beta, s.FitMode, priorNote(s.Prior)+meanNote(s.Mean), landmarksNote(s.Landmarks), s.Backend, noise)
	fmt.Fprintf(&b, "Code: %s.\n\n", codeNote(e))
	fmt.Fprintf(&b, "Environment: %s, %s, SIMD %s, GOMAXPROCS %d, %s (%d CPUs), %s/%s.\n\n",
		e.Module, e.GoVersion, e.SIMD, e.GOMAXPROCS, e.CPU, e.NumCPU, e.GOOS, e.GOARCH)
	var own float64
	for _, tr := range res.Runs {
		own += (tr.Timings.Fit + tr.Timings.Acq + tr.Timings.Other).Seconds()
	}
	wall := fmtDuration(time.Duration(res.WallSeconds * float64(time.Second)))
	if resumed > 0 {
		fmt.Fprintf(&b, "Wall time: %s for the %d runs of the last invocation (%d runs resumed from the journal); the runs' own times sum to %s.\n\n",
			wall, len(res.Runs)-resumed, resumed, fmtDuration(time.Duration(own*float64(time.Second))))
	} else {
		fmt.Fprintf(&b, "Wall time: %s for %d runs; the runs' own times sum to %s.\n\n", wall, len(res.Runs), fmtDuration(time.Duration(own*float64(time.Second))))
	}
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
	b.WriteString("\nEvery run, one dot per seed (black bar: median; ring: mean):\n\n![every run](strips.png)\n")
	return b.String()
}

// codeNote names the commit a record came from.
func codeNote(e experiments.Environment) string {
	switch {
	case e.Revision == "":
		return "revision unknown (not built from a git checkout)"
	case e.Modified:
		return "commit " + e.Revision + " with uncommitted changes"
	}
	return "commit " + e.Revision
}
