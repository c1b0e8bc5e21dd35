package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	iofs "io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/linalg"
)

func init() {
	register(command{
		name:    "check",
		summary: "rerun cells of committed results (record.json) and compare them bit for bit",
		run:     runCheck,
	})
}

const checkUsage = `
Usage: perf check --dir DIR[,DIR…] [--cells 2] [--seeds 0] [--workers N]
                  [--spot 0 [--spot-seed S] [--spot-max 5]] [--rotate]
                  [--seed-order first|cheapest] [--max-seconds 0]

Reruns cells of the results in each DIR (or, for a DIR without one, in
every directory below it that has one) — written by perf table, perf
robustness or perf batch with --out, which leave record.json there: the
settings, the commit, and every run's metric — and compares the rerun's
metrics with the recorded ones bit for bit. A cell is (problem, kernel,
batch size); the --cells cheapest (by recorded run time) are rerun, with
their first --seeds seeds (0: all) — or, with --seed-order cheapest, the
--seeds of least recorded run time (ties to the smaller seed): a
500-evaluation record then reruns its quickest run, not seed 0. --spot
N adds, in each DIR, N more runs drawn at random among the others whose
recorded time is at most --spot-max seconds (a draw is a function of
--spot-seed and DIR, printed so that a failure reruns exactly): a drift
confined to later seeds or costlier cells, which the cheapest cells'
first seeds miss, is then caught over repeated checks. Results are a
function of the code, the settings and the seeds, so a committed table
that its command no longer reproduces fails here.

--rotate: records whose settings and cells are the same (one experiment
on disjoint seed sets: a pilot, its main set, its replication) form a
family, and only one member of each family, drawn by --spot-seed and
the family's settings, reruns its cheapest cells; the others rerun only
their --spot draw, and their line names the member that stood in. The
same code paths and settings are checked at a fraction of the cost, and
successive --spot-seeds rotate through the members.

--max-seconds S: when the runs planned above would take more than S
seconds of --workers' time by their recorded times, only a sample of
them reruns: the records in an order drawn by --spot-seed, a run of each
in turn (its runs in a drawn order too), as long as the sum of the
chosen runs' recorded times stays within S × workers. Each record's line
says how many of its planned runs were left for another --spot-seed, so
successive seeds rotate through all of them; 0 (the default) means no
limit.

The runs of every record share one pool of --workers goroutines, the
longest recorded first; each record's line comes on stdout, in --dir's
order, once its runs and those of the records before it are done, with
the run time they took. Progress goes to stderr.

Each record reruns under the linear-algebra backend its runs were
computed with (record.json's protocol.backend; gonum for a record that
names none, as those written before the backend was recorded), whatever
$SYMBO_BACKEND says here, and an openblas record on the OpenBLAS thread
count it names; a backend this build lacks, or another thread count, is
bad input.

A record made by a perf built at another GOAMD64 level than this one
(record.json's goamd64; v1, Go's default, for a record that names none)
is bad input too, before anything reruns: at v3 the compiler may fuse a
multiply and an add into one rounding, so the bits differ. Rebuild perf
at the record's level (GOAMD64=v3 go build ./cmd/perf; the Makefile
builds at v1). A build for another architecture than amd64 has no level
and checks any record.

Exit status 0 when every rerun matches; 1 with one line per mismatch, or
when a record says its code had uncommitted changes; 2 on bad input.

Example:
  perf check --dir lab/results                       # every committed result
  perf check --dir lab/results/table-own --cells 100 # every cell of one table
  perf check --dir lab/results --seeds 1 --spot 2 --spot-seed 20261126
`

// recordFile is the name of the compact results record in an --out
// directory.
const recordFile = "record.json"

// recordVersion is the version of the record.json format.
const recordVersion = 1

// resultsRecord is what perf check needs to rerun an experiment's runs:
// the protocol, the noise rule and metric, the code's revision, and every
// run's metric (floats in shortest round-trip form: the bits survive).
type resultsRecord struct {
	Version  int      `json:"version"`
	Kind     string   `json:"kind"` // table, robustness, batch
	Command  string   `json:"command"`
	Protocol Protocol `json:"protocol"`
	Noise    string   `json:"noise,omitempty"`
	Regret   string   `json:"regret,omitempty"`
	Revision string   `json:"revision"`
	Modified bool     `json:"modified"`
	// OpenBLASThreads is the number of threads OpenBLAS ran on
	// ($SYMBO_OPENBLAS_THREADS) in a record of the openblas backend; 0
	// (omitted) for the others.
	OpenBLASThreads int `json:"openblas_threads,omitempty"`
	// GOAMD64 is the GOAMD64 level of the perf build that computed the
	// runs (goamd64Level) when it is not Go's default v1, at which the
	// compiler may fuse a multiply and an add into one rounding and so
	// change result bits; "" (omitted) for v1, as every record written
	// before the level was recorded (all made at v1: the Makefile builds
	// at v1), and for a build of another architecture, which has none.
	GOAMD64 string      `json:"goamd64,omitempty"`
	Runs    []runRecord `json:"runs"`
}

// goamd64 is the GOAMD64 level of the build that made the record: v1
// when it names none.
func (r resultsRecord) goamd64() string {
	return cmp.Or(r.GOAMD64, "v1")
}

// goamd64Level is the GOAMD64 level this perf was built at, from its build
// information: "v1" when the build says none (Go's default), "" for a
// build of another architecture than amd64, which has no level.
var goamd64Level = sync.OnceValue(func() string {
	var settings []debug.BuildSetting
	if bi, ok := debug.ReadBuildInfo(); ok {
		settings = bi.Settings
	}
	return amd64Level(runtime.GOARCH, settings)
})

// amd64Level is goamd64Level for a build of goarch with these settings.
func amd64Level(goarch string, settings []debug.BuildSetting) string {
	if goarch != "amd64" {
		return ""
	}
	for _, s := range settings {
		if s.Key == "GOAMD64" && s.Value != "" {
			return s.Value
		}
	}
	return "v1"
}

// backend is the linear-algebra backend the record's runs were computed
// with: Protocol.Backend, which perf writes from the runs' traces since
// it recorded --backend's value instead ("" by default, whatever
// $SYMBO_BACKEND chose). A record without one is gonum's: the default,
// and the only backend of the builds that made the committed records
// (lab/scripts/results.sh builds without -tags openblas).
func (r resultsRecord) backend() string {
	if r.Protocol.Backend == "" {
		return "gonum"
	}
	return r.Protocol.Backend
}

type runRecord struct {
	Problem string  `json:"problem"`
	Kernel  string  `json:"kernel"`
	Seed    uint64  `json:"seed"`
	Batch   int     `json:"batch"`
	Metric  float64 `json:"metric"`
	BestF   float64 `json:"best_f"`
	Seconds float64 `json:"seconds"`
}

// writeRecord writes dir/record.json for the runs of an experiment.
func writeRecord(dir string, r results) error {
	rec := resultsRecord{Version: recordVersion, Kind: r.kind, Command: r.command, Protocol: r.proto, Noise: r.noise, Regret: r.regret,
		Revision: r.env.Revision, Modified: r.env.Modified}
	if rec.Noise == "box" {
		rec.Noise = ""
	}
	if rec.Regret == "acq" {
		rec.Regret = ""
	}
	// The backend the runs were computed with (their traces say), not
	// --backend's value: "" when $SYMBO_BACKEND chose it.
	for i, tr := range r.runs {
		if i == 0 {
			rec.Protocol.Backend = tr.Backend
		} else if tr.Backend != rec.Protocol.Backend {
			return fmt.Errorf("%s: the runs were computed with the backends %s and %s; no record can name one", recordFile, rec.Protocol.Backend, tr.Backend)
		}
	}
	if rec.Protocol.Backend == "openblas" {
		rec.OpenBLASThreads = r.env.OpenBLASThreads
	}
	// The build's GOAMD64 level, left out at v1 (records of v1 builds
	// stay as they were) and on other architectures ("").
	if l := goamd64Level(); l != "v1" {
		rec.GOAMD64 = l
	}
	for i, s := range r.specs {
		tr := r.runs[i]
		rec.Runs = append(rec.Runs, runRecord{Problem: s.Problem, Kernel: s.Kernel, Seed: s.Seed, Batch: tr.Batch,
			Metric: experiments.MetricOf(tr, rec.Regret == "all"), BestF: tr.BestF,
			Seconds: math.Round((tr.Timings.Fit+tr.Timings.Acq+tr.Timings.Other).Seconds()*1000) / 1000})
	}
	data, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", recordFile, err)
	}
	return writeOutputIn(dir, recordFile, true, writeBytes(append(data, '\n')))
}

// figure is one figure of an experiment: name.png and name.svg, panels
// in cols columns under caption.
type figure struct {
	name    string
	panels  []experiments.Panel
	cols    int
	caption []string
}

// results are the files of an experiment's --out directory: results.json
// (all of it), its figures, kind.md (page) and record.json (what perf
// check reruns: command, protocol, noise, regret, the runs).
type results struct {
	kind    string // "table", "batch", "robustness"
	all     any
	figures []figure
	page    string

	command       string
	proto         Protocol
	noise, regret string
	env           experiments.Environment
	specs         []experiments.RunSpec
	runs          []*bo.Trace

	// stop, when not nil, is checked before each file (runner.stopped).
	stop func() error
}

// writeResults writes r's files into dir, each atomically and never
// through a symbolic link planted there.
func writeResults(dir string, r results) error {
	stop := func() error {
		if r.stop == nil {
			return nil
		}
		return r.stop()
	}
	data, err := json.Marshal(r.all)
	if err != nil {
		return fmt.Errorf("encoding results.json: %w", err)
	}
	if err := stop(); err != nil {
		return err
	}
	if err := writeOutputIn(dir, "results.json", true, writeBytes(append(data, '\n'))); err != nil {
		return err
	}
	for _, f := range r.figures {
		if err := stop(); err != nil {
			return err
		}
		if _, err := experiments.WriteFigure(dir, f.name, f.panels, f.cols, f.caption...); err != nil {
			return err
		}
	}
	if err := stop(); err != nil {
		return err
	}
	if err := writeOutputIn(dir, r.kind+".md", true, writeBytes([]byte(r.page))); err != nil {
		return err
	}
	if err := stop(); err != nil {
		return err
	}
	return writeRecord(dir, r)
}

type cellKey struct {
	problem, kernel string
	batch           int
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("check", checkUsage, stdout)
	dirList := fs.pathFlag("dir", "comma-separated results `directories` (each with a record.json, or every directory below it that has one)")
	cells := fs.Int("cells", 2, "cells to rerun per directory, the cheapest first")
	seeds := fs.Int("seeds", 0, "seeds per cell to rerun (0: all recorded)")
	workers := fs.Int("workers", 0, "runs in parallel; 0 means GOMAXPROCS")
	spot := fs.Int("spot", 0, "extra runs per directory drawn at random among the others")
	spotSeed := fs.Uint64("spot-seed", 0, "seed of the --spot draw")
	spotMax := fs.Float64("spot-max", 5, "largest recorded run time, in seconds, a --spot draw may pick")
	rotate := fs.Bool("rotate", false, "rerun the cells of one member per family of records with the same settings and cells, drawn by --spot-seed")
	seedOrder := fs.String("seed-order", "first", "which --seeds of a cell rerun: first (the smallest seeds) or cheapest (the least recorded run time)")
	maxSeconds := fs.Float64("max-seconds", 0, "rerun a sample of the planned runs whose recorded time fits in this many seconds of the workers' time (0: no limit)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if !(*maxSeconds >= 0) || math.IsInf(*maxSeconds, 0) {
		return badInput("--max-seconds must be a finite number of seconds ≥ 0")
	}
	if *cells < 1 || *seeds < 0 || *workers < 0 || *spot < 0 {
		return badInput("--cells must be ≥ 1, --seeds, --workers and --spot ≥ 0")
	}
	if !(*spotMax >= 0) || math.IsInf(*spotMax, 0) {
		return badInput("--spot-max must be a finite number of seconds ≥ 0")
	}
	if *seedOrder != "first" && *seedOrder != "cheapest" {
		return badInput("--seed-order must be first or cheapest, got %q", *seedOrder)
	}
	sp := spotDraw{n: *spot, seed: *spotSeed, max: *spotMax}
	if err := fs.require("dir"); err != nil {
		return err
	}
	dirs, recs, err := readRecords("dir", *dirList)
	if err != nil {
		return err
	}
	stand := make([]string, len(dirs)) // --rotate: the member that reruns i's cells ("": i itself)
	if *rotate {
		stand = rotation(dirs, recs, *spotSeed)
	}
	plans := make([]checkPlan, len(dirs))
	for i, dir := range dirs {
		c := *cells
		if stand[i] != "" {
			c = 0
		}
		if plans[i], err = planCheck(dir, recs[i], c, *seeds, *seedOrder == "cheapest", sp, fs.budget); err != nil {
			return err
		}
		plans[i].standIn = stand[i]
	}
	for _, p := range plans {
		if err := preflight(p.runs, nil); err != nil {
			return err
		}
	}
	if *maxSeconds > 0 {
		w := *workers
		if w == 0 {
			w = runtime.GOMAXPROCS(0)
		}
		sampleWithin(plans, *maxSeconds*float64(w), *spotSeed)
	}
	failures, err := runChecks(plans, *workers, stdout, stderr)
	if err != nil {
		return err
	}
	for _, f := range failures[:max(len(failures)-1, 0)] {
		fmt.Fprintln(stderr, "perf check: "+f)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%s", failures[len(failures)-1])
	}
	return nil
}

// readRecords finds the directories of --dir's list (each with a
// record.json, or every directory below it that has one) and reads their
// records.
func readRecords(flag, list string) ([]string, []resultsRecord, error) {
	var dirs []string
	for _, d := range strings.Split(list, ",") {
		d = strings.TrimSpace(d)
		if _, err := os.Stat(filepath.Join(d, recordFile)); err == nil {
			dirs = append(dirs, d)
			continue
		}
		n := len(dirs)
		err := filepath.WalkDir(d, func(path string, e iofs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && e.Name() == recordFile {
				dirs = append(dirs, filepath.Dir(path))
			}
			return nil
		})
		if err != nil {
			return nil, nil, badInput("--%s: %w", flag, err)
		}
		if len(dirs) == n {
			return nil, nil, badInput("--%s %s: no %s in it or below it", flag, d, recordFile)
		}
	}
	recs := make([]resultsRecord, len(dirs))
	for i, dir := range dirs {
		data, err := readRecordFile(filepath.Join(dir, recordFile))
		if err != nil {
			return nil, nil, err
		}
		if err := strictJSON(data, &recs[i]); err != nil {
			return nil, nil, badInput("%s: %w", filepath.Join(dir, recordFile), err)
		}
		if recs[i].Version != recordVersion {
			return nil, nil, badInput("%s: version %d, this perf reads %d", filepath.Join(dir, recordFile), recs[i].Version, recordVersion)
		}
		if err := recs[i].check(); err != nil {
			return nil, nil, badInput("%s: %w", filepath.Join(dir, recordFile), err)
		}
	}
	return dirs, recs, nil
}

// check refuses a record whose values no perf writes: an unknown kind,
// no runs, a run with a batch size outside [1, bo.MaxBatch], an
// unknown problem or a kernel its problem does not take, or two runs of
// one problem, kernel, seed and batch size — before anything reruns,
// whichever runs --cells picks. A run given twice is one run with two
// recorded metrics, of which --seeds and --spot rerun at most the one
// sorted first (a drawn run's twin counts as rerun): the other was never
// compared, whatever it held, and check passed.
func (r resultsRecord) check() error {
	switch r.Kind {
	case "table", "robustness", "batch":
	default:
		return fmt.Errorf("kind %q is none of table, robustness and batch", r.Kind)
	}
	if r.GOAMD64 != "" && !slices.Contains([]string{"v1", "v2", "v3", "v4"}, r.GOAMD64) {
		return fmt.Errorf("goamd64 %q is none of v1, v2, v3 and v4", r.GOAMD64)
	}
	if len(r.Runs) == 0 {
		return errors.New("no runs")
	}
	named := map[[2]string]bool{}
	type runKey struct {
		cell cellKey
		seed uint64
	}
	seen := map[runKey]int{}
	for i, run := range r.Runs {
		if run.Batch < 1 || run.Batch > bo.MaxBatch {
			return fmt.Errorf("run %d: batch %d outside [1, %d]", i, run.Batch, bo.MaxBatch)
		}
		k := runKey{cellKey{run.Problem, run.Kernel, run.Batch}, run.Seed}
		if j, dup := seen[k]; dup {
			return fmt.Errorf("run %d: %s/%s seed %d batch %d is run %d's too: a run is recorded once", i, run.Problem, run.Kernel, run.Seed, run.Batch, j)
		}
		seen[k] = i
		if named[[2]string{run.Problem, run.Kernel}] {
			continue
		}
		p, err := problem.New(run.Problem, 0)
		if err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		if _, err := bo.ParseKernel(run.Kernel, p.Group(), p.BaseShape()); err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		named[[2]string{run.Problem, run.Kernel}] = true
	}
	return nil
}

// familyKey is what makes two records one experiment on different seeds
// (--rotate, perf stats): the kind, the protocol, the noise and regret
// rules, and the set of cells. Not the GOAMD64 level: it changes the
// rounding of the same computation, not the experiment, so a v3 table is
// still the same table for perf stats; and perf check reruns only records
// of its own level, so a family it reruns never mixes levels.
func familyKey(rec resultsRecord) string {
	settings, cells := familyParts(rec)
	return settings + "\n" + strings.Join(cells, ",") + familyTail(rec)
}

// familyParts splits familyKey: the settings (kind, protocol, noise and
// regret rules) and the sorted cells ("problem"/"kernel"/batch).
func familyParts(rec resultsRecord) (string, []string) {
	cells := map[cellKey]bool{}
	for _, r := range rec.Runs {
		cells[cellKey{r.Problem, r.Kernel, r.Batch}] = true
	}
	var names []string
	for k := range cells {
		names = append(names, fmt.Sprintf("%q/%q/%d", k.problem, k.kernel, k.batch))
	}
	slices.Sort(names)
	// gonum, the default, is spelled "" as the records before the
	// backend was recorded have it (their keys, and so --rotate's draws,
	// stay).
	p := rec.Protocol
	if p.Backend = rec.backend(); p.Backend == "gonum" {
		p.Backend = ""
	}
	proto, _ := json.Marshal(p)
	return strings.Join([]string{rec.Kind, string(proto), rec.Noise, rec.Regret}, "\n"), names
}

// familyTail is the end of familyKey: OpenBLAS's threads where a record
// names them (nothing for the others, whose keys stay as they were).
func familyTail(rec resultsRecord) string {
	if rec.OpenBLASThreads != 0 {
		return fmt.Sprintf("\nopenblas_threads %d", rec.OpenBLASThreads)
	}
	return ""
}

// rotation returns, for each record, the directory of the member of its
// family that reruns the family's cells under --rotate ("" for that
// member itself and for a record alone in its family): drawn by a
// generator seeded with seed and the family's key alone, so that a
// --spot-seed picks the same member whatever else --dir holds.
func rotation(dirs []string, recs []resultsRecord, seed uint64) []string {
	members := map[string][]int{}
	var keys []string
	for i, rec := range recs {
		k := familyKey(rec)
		if _, ok := members[k]; !ok {
			keys = append(keys, k)
		}
		members[k] = append(members[k], i)
	}
	stand := make([]string, len(dirs))
	for _, k := range keys {
		m := members[k]
		if len(m) < 2 {
			continue
		}
		// Members in the order of their directories, not of --dir's list.
		slices.SortFunc(m, func(a, b int) int {
			return strings.Compare(filepath.ToSlash(filepath.Clean(dirs[a])), filepath.ToSlash(filepath.Clean(dirs[b])))
		})
		h := fnv.New64a()
		h.Write([]byte(k))
		chosen := m[rand.New(rand.NewPCG(seed, h.Sum64())).IntN(len(m))]
		for _, i := range m {
			if i != chosen {
				stand[i] = dirs[chosen]
			}
		}
	}
	return stand
}

// spotDraw is --spot: n extra runs per directory, drawn with seed among
// the runs not otherwise rerun whose recorded time is at most max seconds.
type spotDraw struct {
	n    int
	seed uint64
	max  float64
}

// pick returns up to n of the candidates (in the record's order), drawn
// without replacement by a generator seeded with seed and dir alone.
func (s spotDraw) pick(dir string, cand []runRecord) []runRecord {
	if s.n == 0 || len(cand) == 0 {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(filepath.ToSlash(filepath.Clean(dir))))
	rng := rand.New(rand.NewPCG(s.seed, h.Sum64()))
	idx := rng.Perm(len(cand))[:min(s.n, len(cand))]
	slices.Sort(idx)
	out := make([]runRecord, len(idx))
	for i, j := range idx {
		out[i] = cand[j]
	}
	return out
}

// checkPlan is what perf check reruns of one record: the runs, the
// metrics recorded for them (want, in the same order), the names of the
// cells and spot draws for its report line, and the failures known before
// any run (a record of uncommitted code).
type checkPlan struct {
	dir      string
	rec      resultsRecord
	runs     []experiments.Run[*bo.Trace]
	want     []runRecord
	names    []string
	failures []string
	standIn  string // --rotate: the member of the record's family that reruns its cells
	left     int    // --max-seconds: planned runs left for another --spot-seed
}

// sampleWithin keeps, of the plans' runs, a sample whose recorded times
// sum to at most budget seconds: the plans in an order drawn by seed, a
// run of each in turn (each plan's runs in a drawn order), a run kept
// when it still fits, until no plan has a run left to try. Each plan
// keeps its kept runs in their planned order and counts the others in
// left. When every run fits, nothing changes.
func sampleWithin(plans []checkPlan, budget float64, seed uint64) {
	total := 0.0
	for _, p := range plans {
		for _, w := range p.want {
			total += w.Seconds
		}
	}
	if total <= budget {
		return
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d61782d73656373)) // "max-secs"
	order := rng.Perm(len(plans))
	queue := make([][]int, len(plans)) // each plan's runs in drawn order
	keep := make([][]bool, len(plans))
	for j, p := range plans {
		queue[j] = rng.Perm(len(p.want))
		keep[j] = make([]bool, len(p.want))
	}
	used := 0.0
	for more := true; more; {
		more = false
		for _, j := range order {
			if len(queue[j]) == 0 {
				continue
			}
			more = true
			k := queue[j][0]
			queue[j] = queue[j][1:]
			if s := plans[j].want[k].Seconds; used+s <= budget {
				used += s
				keep[j][k] = true
			}
		}
	}
	for j := range plans {
		p := &plans[j]
		var runs []experiments.Run[*bo.Trace]
		var want []runRecord
		for k, ok := range keep[j] {
			if ok {
				runs = append(runs, p.runs[k])
				want = append(want, p.want[k])
			} else {
				p.left++
			}
		}
		p.runs, p.want = runs, want
	}
}

// planCheck plans the rerun of the first seeds seeds (0: all; with
// cheap, the seeds of least recorded time) of the cells cheapest cells
// (0: none) of the record rec of dir, and sp's draw of its other runs,
// within the memory budget b.
func planCheck(dir string, rec resultsRecord, cells, seeds int, cheap bool, sp spotDraw, b int64) (checkPlan, error) {
	p := checkPlan{dir: dir, rec: rec}
	if rec.Modified {
		p.failures = append(p.failures, fmt.Sprintf("%s: recorded from commit %s with uncommitted changes", dir, rec.Revision))
	}
	byCell := map[cellKey][]runRecord{}
	cost := map[cellKey]float64{}
	for _, r := range rec.Runs {
		k := cellKey{r.Problem, r.Kernel, r.Batch}
		byCell[k] = append(byCell[k], r)
		cost[k] += r.Seconds
	}
	keys := make([]cellKey, 0, len(byCell))
	for k := range byCell {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if cost[keys[a]] != cost[keys[b]] {
			return cost[keys[a]] < cost[keys[b]]
		}
		ka, kb := keys[a], keys[b]
		return fmt.Sprint(ka) < fmt.Sprint(kb)
	})
	keys = keys[:min(cells, len(keys))]
	// A build of another GOAMD64 level than the record's computes other
	// bits: refused before anything reruns, not reported as mismatches.
	// A build of another architecture has no level and is not refused.
	if here := goamd64Level(); here != "" && here != rec.goamd64() {
		return p, badInput("%s: recorded by a GOAMD64=%s build, this perf is GOAMD64=%s, whose floating-point bits differ; rebuild it with GOAMD64=%s go build ./cmd/perf", dir, rec.goamd64(), here, rec.goamd64())
	}
	// The runs rerun under the record's backend, whatever
	// $SYMBO_BACKEND says here; one this build lacks, or OpenBLAS on
	// another number of threads than the record's, is refused.
	proto := rec.Protocol
	proto.Backend = rec.backend()
	be, err := linalg.ByName(proto.Backend)
	if err != nil {
		return p, badInput("%s: recorded with the %s backend, which this perf cannot run: %w", dir, proto.Backend, err)
	}
	if be.Name() == "openblas" && rec.OpenBLASThreads != 0 && rec.OpenBLASThreads != linalg.OpenBLASThreads() {
		return p, badInput("%s: recorded with %s=%d, this perf runs OpenBLAS on %d threads; rerun with %s=%d", dir, linalg.EnvOpenBLASThreads, rec.OpenBLASThreads, linalg.OpenBLASThreads(), linalg.EnvOpenBLASThreads, rec.OpenBLASThreads)
	}
	cfg, err := proto.config(0, b)
	if err != nil {
		return p, fmt.Errorf("%s: %w", dir, err)
	}
	rule, err := parseNoiseFlag(rec.Noise)
	if err != nil {
		return p, fmt.Errorf("%s: %w", dir, err)
	}
	var specs []experiments.RunSpec
	for _, k := range keys {
		runs := byCell[k]
		slices.SortFunc(runs, func(a, b runRecord) int { return cmp.Compare(a.Seed, b.Seed) })
		if seeds > 0 {
			if cheap {
				slices.SortStableFunc(runs, func(a, b runRecord) int { return cmp.Compare(a.Seconds, b.Seconds) })
			}
			runs = runs[:min(seeds, len(runs))]
			slices.SortFunc(runs, func(a, b runRecord) int { return cmp.Compare(a.Seed, b.Seed) })
		}
		for _, r := range runs {
			specs = append(specs, experiments.RunSpec{Index: len(specs), Problem: r.Problem, Kernel: r.Kernel, Seed: r.Seed, Batch: r.Batch})
			p.want = append(p.want, r)
		}
		name := fmt.Sprintf("%s/%s", k.problem, k.kernel)
		if k.batch > 1 {
			name += fmt.Sprintf("/q=%d", k.batch)
		}
		p.names = append(p.names, name)
	}
	if sp.n > 0 {
		type runKey struct {
			cell cellKey
			seed uint64
		}
		chosen := map[runKey]bool{}
		for _, r := range p.want {
			chosen[runKey{cellKey{r.Problem, r.Kernel, r.Batch}, r.Seed}] = true
		}
		var cand []runRecord
		for _, r := range rec.Runs {
			if !chosen[runKey{cellKey{r.Problem, r.Kernel, r.Batch}, r.Seed}] && r.Seconds <= sp.max {
				cand = append(cand, r)
			}
		}
		for _, r := range sp.pick(dir, cand) {
			specs = append(specs, experiments.RunSpec{Index: len(specs), Problem: r.Problem, Kernel: r.Kernel, Seed: r.Seed, Batch: r.Batch})
			p.want = append(p.want, r)
			name := fmt.Sprintf("%s/%s seed %d", r.Problem, r.Kernel, r.Seed)
			if r.Batch > 1 {
				name += fmt.Sprintf(" q=%d", r.Batch)
			}
			p.names = append(p.names, name+fmt.Sprintf(" (spot, --spot-seed %d)", sp.seed))
		}
	}
	if p.runs, err = experiments.BORuns(specs, cfg, rec.Protocol.Iters, 0, rule); err != nil {
		return p, fmt.Errorf("%s: %w", dir, err)
	}
	for i := range p.runs {
		r := &p.runs[i]
		r.Label = dir + ": " + r.Label
		r.Cell = dir + ": " + r.Cell // the ETA model: cells of different protocols differ in cost
		if s := p.want[i].Seconds; s > 0 {
			r.Cost = s // the recorded time predicts the rerun better than the cost model
		}
	}
	return p, nil
}

// runChecks reruns the runs of every plan on workers goroutines (0:
// GOMAXPROCS) as one pool, the longest recorded first, so that a record
// of one costly run does not leave the other workers idle while it
// reruns. A progress bar goes to stderr. When every run of a plan and of
// the plans before it has finished, it prints the plan's line on stdout
// (so the lines come in the order of the plans, as the runs finish): its
// runs, the run time they took (summed over the runs; they ran
// alongside other plans' runs) and how they compare. It returns one
// failure per rerun that differs, after each plan's own failures.
func runChecks(plans []checkPlan, workers int, stdout, stderr io.Writer) ([]string, error) {
	var runs []experiments.Run[*bo.Trace]
	var owner []int                  // plan of each pooled run
	first := make([]int, len(plans)) // index of each plan's first run in the pool
	left := make([]int, len(plans))
	for j, p := range plans {
		first[j], left[j] = len(runs), len(p.runs)
		runs = append(runs, p.runs...)
		for range p.runs {
			owner = append(owner, j)
		}
	}
	results := make([]*bo.Trace, len(runs))
	var failures []string
	next := 0 // the first plan whose line is not printed yet
	report := func() {
		for ; next < len(plans) && left[next] == 0; next++ {
			p := plans[next]
			failures = append(failures, p.failures...)
			bad, took := 0, 0.0
			for k, w := range p.want {
				tr := results[first[next]+k]
				took += (tr.Timings.Fit + tr.Timings.Acq + tr.Timings.Other).Seconds() // as record.json's seconds
				got := experiments.MetricOf(tr, p.rec.Regret == "all")
				if math.Float64bits(got) != math.Float64bits(w.Metric) || math.Float64bits(tr.BestF) != math.Float64bits(w.BestF) {
					bad++
					failures = append(failures, fmt.Sprintf("%s: %s %s seed %d batch %d: metric %v (recorded %v), best f %v (recorded %v)",
						p.dir, w.Problem, w.Kernel, w.Seed, w.Batch, got, w.Metric, tr.BestF, w.BestF))
				}
			}
			status := "identical"
			if bad > 0 {
				status = fmt.Sprintf("%d differ", bad)
			}
			stood := ""
			if p.standIn != "" {
				stood = fmt.Sprintf("; its cells: %s reruns its family's (--rotate)", p.standIn)
			}
			if p.left > 0 {
				stood += fmt.Sprintf("; %d planned runs left for another --spot-seed (--max-seconds)", p.left)
			}
			if len(p.want) == 0 {
				fmt.Fprintf(stdout, "%s (commit %s): no runs rerun%s\n", p.dir, shortRev(p.rec.Revision), stood)
				continue
			}
			fmt.Fprintf(stdout, "%s (commit %s): %d runs of %s rerun (%s of run time): %s%s\n", p.dir, shortRev(p.rec.Revision), len(p.want),
				strings.Join(p.names, ", "), fmtDuration(time.Duration(took*float64(time.Second))), status, stood)
		}
	}
	report() // plans with no runs
	ctx, stop := signalContext()
	defer stop()
	bar := newProgressBar(stderr, "perf check")
	_, err := experiments.Execute(runs, experiments.ExecOptions[*bo.Trace]{Workers: workers, Context: ctx, Progress: bar.update,
		OnRun: func(i int, tr *bo.Trace) error {
			results[i] = tr
			left[owner[i]]--
			report()
			return nil
		}})
	bar.finish()
	if err != nil && ctx.Err() != nil {
		// The verdicts of the records whose runs all finished are on
		// stdout already.
		return nil, interrupted("perf check keeps no journal; the verdicts printed are whole, rerun it for the others")
	}
	if err != nil {
		return nil, err
	}
	return failures, nil
}

func shortRev(r string) string {
	if len(r) > 12 {
		return r[:12]
	}
	if r == "" {
		return "unknown"
	}
	return r
}

// maxRecordBytes caps the record.json perf check reads: 64 MiB, over 100
// times the largest committed record (a record holds one metric per run).
const maxRecordBytes = 64 << 20

// readRecordFile reads a record.json of at most maxRecordBytes; a larger
// file, or an endless one (a link to /dev/zero), is bad input, refused
// once that much is read.
func readRecordFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput("%w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err != nil {
		return nil, badInput("%s: %w", path, err)
	}
	if len(data) > maxRecordBytes {
		return nil, badInput("%s is over %d MiB: not a record perf check reads", path, maxRecordBytes>>20)
	}
	return data, nil
}
