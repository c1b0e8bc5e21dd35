// Package experiments holds the experiments perf runs: the paper's Table 1
// and Figure 3 (Table) with the invariance × Nyström decomposition
// (TableResult.Ablation), the group-size study (Robustness), the study of
// parallel evaluations (Batch), the Gram eigendecay of Figure 4 middle and
// right (Spectrum), the qualitative Figures 1, 2 and 5 (Radial, Ackley,
// WLAN), the profiler of one BO iteration and its phases (Profile), the
// complexity study (Complexity), the enumeration-vs-GEMM throughput probe
// (Ratios), and the plots and records they write. It is internal: its surface serves
// cmd/perf and bench/cmd/ratios, not library users.
//
// # Experiments
//
// Table runs benchmarks × kernels (base, avg, plus, and max where bo
// accepts it) × seeds, each run a bo.Run with the same protocol, and
// summarizes Metric per cell: the cumulative regret R_T over the BO
// iterations after the initial design, or the negated best reward −max f
// on WLAN (initial design included), as mean ± standard error over the
// seeds. OurMarks and PairedMarks mark our entries (best mean bold; not
// significantly worse than the best — a paired t test, Holm over the
// table — underlined); Marks applies the paper's emphasis (intervals
// m ± 1.96·s.e. that meet the best's underlined) to the paper's entries,
// which have no per-seed values; TableResult.Markdown sets our numbers
// beside the paper's and reports the exact-optimum hits
// (the box-centre diagnostic). Robustness runs the group-size study
// (Figure 4, left). Ablation splits plus's gain over base into the
// Nyström extension alone (base − nystrom) and invariance on top
// (nystrom − plus), with paired (same-seed) t intervals at the levels
// Holm's procedure tests them at, and BCa bootstrap intervals for the
// shares of the gain.
// WriteFigure draws panels with gonum.org/v1/plot as PNG and SVG, written
// atomically, under a caption stating the statistic, the seeds and the
// direction, with each legend placed where it covers no data.
//
// Table, Robustness and Batch return a Plan: runs as data (Run: a label,
// a cell, a predicted cost, a work function and a check of a kept
// result) and the report of their results. Execute distributes runs over
// goroutines, one run per goroutine at a time, most expensive first, and
// stores each result at its plan index: results are the same for any
// worker count and GOMAXPROCS (timings aside). It skips runs already done
// (ExecOptions.Done, e.g. from a journal), reports each finished run
// (OnRun) and its progress with an ETA, and stops on its context. BORuns
// makes the runs of BO RunSpecs (bo.Config.Workers = 1 per run,
// EstimatedCost). Every result carries its settings and an Environment
// (module version and VCS revision, Go version, SIMD path, GOMAXPROCS,
// CPU, backend).
//
// The memory budget is a value the caller passes: Table, Batch and
// Robustness take it in their bo.Config (Config.Budget), Spectrum,
// Profile, Complexity and the figures in their options' Budget; 0 means
// 8 GiB, never the environment. Ratios, a fixed-size probe, uses the
// default.
//
// # Concurrency
//
// Run.Do is called from Execute's goroutines; OnRun and Progress one at
// a time. A Plan's report is made once (it fills the result it built).
// Profile, Complexity and Ratios time code: they must not run concurrently
// with anything else timing-sensitive in the process; Ratios sets
// GOMAXPROCS for its duration and restores it.
//
// # Errors
//
// Errors are prefixed "experiments: ", wrap ErrBadOptions for invalid
// options, and wrap the problem and bo errors of a failed run (the first
// failing run by plan index stops a batch). ErrBadOptions and ErrNoCDsyevd
// are input errors (internal/errclass).
package experiments
