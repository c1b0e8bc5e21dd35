// Command perf is symbo's command-line tool: it computes Gram matrices of
// invariant kernels, evaluates benchmark problems, profiles the numeric
// core and runs Bayesian-optimization experiments.
//
// Usage:
//
//	perf <subcommand> [flags]
//	perf help [subcommand]
//
// Run "perf help" for the list of subcommands and "perf <subcommand> -h"
// for each one's flags and an example. Flags may be spelled -flag or
// --flag. Example:
//
//	perf gram --group hyperoctahedral --d 5 --base matern52 --lengthscale 2 \
//	    --kernel plus --x testdata/examples/points5d.csv
//
// # Layout
//
// main.go holds main only; cli.go the dispatcher and what subcommands share
// (the exit-2 error type, flag sets that report instead of print, the
// --backend flag, the JSON matrix writer); each subcommand is one file
// (gram.go, …) that registers itself from init with register. A subcommand
// parses flags, calls the library, prints: it holds no numerics.
// runner.go runs the long experiments (table, bo, batch, robustness): the
// journal that makes them resumable, the signal context, the interrupted
// messages and the progress displays (progress.go); an experiment
// supplies its settings and an experiments.Plan (runs as data and their
// report), or, as perf bo, one sequential computation that journals its
// units. flags.go holds the flag validation subcommands share.
//
// # Invariants
//
// stdout carries results only: JSON with fixed field names, every float in
// shortest round-trip form (strconv.FormatFloat(v, 'g', -1, 64)), so
// parsing it back gives the same float64 bits. Nothing is printed to stdout
// unless the whole result was computed. perf never writes to a file the user
// named as input; perf suggest refuses a stdout that is one of its input
// files (the shell's '>' emptied it), but for '>>' onto --pending. Every file is written atomically (internal/atomicfile); a
// path the user named (--json FILE) is followed if it is a symbolic link,
// but a file perf writes inside an --out directory never is: a link at its
// name is replaced by the file and its target left untouched, and a link
// in place of perf table's runs.journal is refused on --resume.
//
// # Concurrency
//
// run (the program behind main) keeps no global state besides the
// subcommand table filled at init, so tests call it directly and may do so
// in parallel. The memory budget is a value: each subcommand reads
// --mem-budget (default $SYMBO_MEMORY_BUDGET, else 8 GiB) into its flag
// set and passes it down in the library's options (TestParallelBudgets).
// One exception: perf profile and perf complexity in a build with OpenBLAS
// set SYMBO_OPENBLAS_THREADS when it is unset (profilerSetup).
//
// One run writes an output at a time: every command that writes an --out
// directory locks it first (lockOutDir: a flock on DIR/.symbo.lock, held
// until the command returns or the process dies), and a journal is locked
// by the process appending to it (internal/journal), so a second run on
// the same directory or checkpoint — a second --resume, a --force over a
// table still running — exits 2 naming it (TestOneRunPerOut).
//
// A test hook, for tests only: with PERF_TEST_HOLD_AFTER=N a journaled
// command stops after its N-th journal record, says "perf: holding after
// N records" on stderr and waits for a signal, so that the interrupt and
// kill tests act at a known point instead of racing a timer.
//
// # Errors
//
// Exit status 0 on success; 2 on bad input (flags, names, values, point
// files, requests the library refuses such as an orbit buffer over its
// memory budget), with exactly one line on stderr prefixed "perf <sub>: ";
// 1 on any other failure (e.g. stdout cannot be written); 130 when
// interrupted. Errors carry their class (internal/errclass: Input and
// Size are bad input, Internal anything else), which exitStatus maps, the
// one place perf does; an error a subcommand knows to be the user's but
// that the library does not classify so (a file that cannot be opened, a
// constructor refusing a flag's value) it wraps with badInput or asInput.
package main
