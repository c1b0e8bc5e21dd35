package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/atomicfile"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/internal/f64"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/linalg"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // something went wrong that is not the user's input
	exitUsage   = 2 // bad input: flags, files, names, values
	// exitInterrupted: stopped by SIGINT or SIGTERM, what was finished is
	// kept (128 + SIGINT, as shells report an interrupted command).
	exitInterrupted = 130
)

// interruptedError is a run stopped by a signal; its message says what was
// kept and how to resume.
type interruptedError struct{ msg string }

func (e *interruptedError) Error() string { return "interrupted: " + e.msg }

func interrupted(msg string) error { return &interruptedError{msg} }

// A command is one subcommand. run parses args (the arguments after the
// subcommand name), writes results to stdout and returns nil, errHelp after
// printing its usage on request, a *inputError for bad input, or any other
// error for a failure. It may write progress to stderr, but not its error:
// run prints that.
type command struct {
	name    string
	summary string // one line for "perf help"
	run     func(args []string, stdout, stderr io.Writer) error
}

// commands holds the subcommands; each file (gram.go, eval.go, …) adds its
// own from an init function with register.
var commands []command

func register(c command) {
	if c.name == "" || c.run == nil || lookup(c.name) != nil {
		panic("perf: bad or duplicate command " + strconv.Quote(c.name))
	}
	commands = append(commands, c)
	slices.SortFunc(commands, func(a, b command) int { return strings.Compare(a.name, b.name) })
}

func lookup(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

func commandNames() string {
	names := make([]string, 0, len(commands)+1)
	for _, c := range commands {
		names = append(names, c.name)
	}
	names = append(names, "help")
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// run is the whole program behind main, testable without a build: it
// returns the exit status. A write to stdout that fails where the command
// itself does not look (its help, a usage line, perf check's report) is
// exit 1 and one line on stderr, "perf <sub>: writing output: …" as a
// command that looks says it, never exit 0 with the output lost.
func run(args []string, stdout, stderr io.Writer) int {
	sw := &stickyWriter{w: stdout}
	code := run1(args, sw, stderr)
	if sw.err != nil && code == exitOK {
		prefix := "perf"
		if sw.cmd != "" {
			prefix += " " + sw.cmd
		}
		fmt.Fprintf(stderr, "%s: writing output: %v\n", prefix, sw.err)
		return exitFailure
	}
	return code
}

// stickyWriter passes writes to w and keeps the first error; cmd is the
// subcommand writing (set by run1), which names it.
type stickyWriter struct {
	w   io.Writer
	err error
	cmd string
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	if err != nil && s.err == nil {
		s.err = err
	}
	return n, err
}

func run1(args []string, stdout *stickyWriter, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "perf: missing subcommand (one of: %s; run 'perf help')\n", commandNames())
		return exitUsage
	}
	name, rest := args[0], args[1:]
	if on, ok, err := helpArg(name); ok {
		switch {
		case err != nil:
			fmt.Fprintf(stderr, "%s\n", frontend.Message(fmt.Sprintf("perf: invalid boolean value in %q (run 'perf help')", name)))
			return exitUsage
		case !on: // --help=false: as if not given
			return run1(rest, stdout, stderr)
		}
		name = "-h"
	}
	switch name {
	case "help", "-h":
		if name == "help" && len(rest) > 0 {
			c := lookup(rest[0])
			if c == nil || len(rest) > 1 {
				fmt.Fprintf(stderr, "%s\n", frontend.Message(fmt.Sprintf("perf help: unknown subcommand %q (one of: %s)", strings.Join(rest, " "), commandNames())))
				return exitUsage
			}
			stdout.cmd = c.name
			return finish(c.name, c.run([]string{"-h"}, stdout, stderr), stderr)
		}
		printUsage(stdout)
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "%s\n", frontend.Message(fmt.Sprintf("perf: unknown subcommand %q (one of: %s)", name, commandNames())))
		return exitUsage
	}
	stdout.cmd = c.name
	// A SIMD cap perf would ignore: its timings and records would be the
	// detected path's, not the one asked for.
	if err := f64.EnvErr(); err != nil {
		fmt.Fprintf(stderr, "%s\n", frontend.Message(fmt.Sprintf("perf %s: %v", c.name, err)))
		return exitUsage
	}
	return finish(c.name, c.run(rest, stdout, stderr), stderr)
}

// helpArg reports whether arg is -h, -help or --help (ok), alone or
// with =value as the flag package spells a boolean flag, and its value
// on; err for a value that is no boolean.
func helpArg(arg string) (on, ok bool, err error) {
	for _, h := range []string{"-h", "-help", "--help"} {
		if arg == h {
			return true, true, nil
		}
		if v, found := strings.CutPrefix(arg, h+"="); found {
			on, err = strconv.ParseBool(v)
			return on, true, err
		}
	}
	return false, false, nil
}

// finish reports err on stderr as one line prefixed "perf name: " and maps
// it to an exit status.
func finish(name string, err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	}
	// "perf bo: WLAN8d: …", not "perf bo: bo: WLAN8d: …": the library's
	// package prefixes say where in symbo, which the user does not need;
	// echoed input is bounded (frontend.Message, shared with the C ABI).
	fmt.Fprintf(stderr, "perf %s: %s\n", name, frontend.Message(oneLine(err.Error()), name))
	var ie *interruptedError
	if errors.As(err, &ie) {
		return exitInterrupted
	}
	return exitStatus(errclass.Of(err))
}

// exitStatus maps an error's class to perf's exit status, the one place
// perf does: bad input — flags, names, values, point files, journals,
// requests over the memory budget — is exit status 2, anything else 1.
func exitStatus(c errclass.Class) int {
	switch c {
	case errclass.Input, errclass.Size:
		return exitUsage
	case errclass.Internal:
		return exitFailure
	}
	return exitFailure // a class exitStatus does not know: TestExitStatus fails
}

// errNotFinite reports a result that is NaN or infinite, which JSON cannot
// carry; with the library's guards it is caused by the input's magnitudes.
var errNotFinite = errclass.New(errclass.Input, "result is not finite")

// oneLine keeps a message on one line whatever the error text holds.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", "; ")), " ")
}

func printUsage(w io.Writer) {
	fmt.Fprintf(w, "perf is symbo's command-line tool.\n\nUsage:\n\n  perf <subcommand> [flags]\n  perf help [subcommand]\n\nSubcommands:\n\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'perf <subcommand> -h' for its flags and an example. Flags may be\n"+
		"spelled -flag or --flag. Exit status: 0 success, 2 bad input (one line on\n"+
		"stderr), 1 other failure.\n")
}

// inputError marks an error caused by the user's input (errclass.Input:
// exit status 2), whatever it wraps.
type inputError struct{ err error }

func (e *inputError) Error() string            { return e.err.Error() }
func (e *inputError) Unwrap() error            { return e.err }
func (e *inputError) ErrClass() errclass.Class { return errclass.Input }

var _ errclass.Classifier = (*inputError)(nil)

// badInput returns an exit-2 error with a formatted message (%w allowed).
func badInput(format string, a ...any) error {
	return &inputError{fmt.Errorf(format, a...)}
}

// asInput marks err (e.g. from a library constructor given user values) as
// bad input; nil stays nil.
func asInput(err error) error {
	if err == nil {
		return nil
	}
	return &inputError{err}
}

// errHelp is returned by a command that printed its usage on -h/--help.
var errHelp = errors.New("help requested")

// flagSet is a subcommand's flag.FlagSet that reports errors instead of
// printing them, prints its usage text and flags on -h/--help, refuses a
// flag given twice, and carries the --mem-budget flag every subcommand
// takes: after parse, budget is the subcommand's memory budget, the value
// it passes to the library (no process-wide state).
type flagSet struct {
	*flag.FlagSet
	usage     string
	stdout    io.Writer
	help      *helpFlag
	memBudget *string
	// budget is --mem-budget, else $SYMBO_MEMORY_BUDGET, else 0 (the
	// library's default, 8 GiB), in bytes; set by parse.
	budget int64
	// paths are the flags that name a file or directory (pathFlag):
	// parse refuses an empty value for one.
	paths []string
}

// pathFlag adds a string flag whose value names a file or directory. An
// empty value (--out "", a shell variable that was unset) is refused by
// parse as bad input naming the flag, before any work: it named nothing,
// and the command ran writing nothing (or a default file).
func (fs *flagSet) pathFlag(name, usage string) *string {
	fs.paths = append(fs.paths, name)
	return fs.String(name, "", usage)
}

// newFlagSet returns the flag set of subcommand name. usage (the synopsis,
// a description and an example) is printed to stdout before the flag list
// on -h/--help.
func newFlagSet(name string, usage string, stdout io.Writer) *flagSet {
	fs := flag.NewFlagSet("perf "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	// The flag package calls Usage on every parse error; parse prints the
	// usage itself, on -h/--help only.
	fs.Usage = func() {}
	f := &flagSet{FlagSet: fs, usage: usage, stdout: stdout, help: new(helpFlag)}
	fs.Var(f.help, "h", "print this help")
	fs.Var(f.help, "help", "print this help")
	f.memBudget = fs.String("mem-budget", "", "largest memory one request may allocate, e.g. 16GiB (default: $"+budget.EnvVar+", else 8GiB)")
	return f
}

// helpFlag is -h, -help and --help, a boolean: --help=false asks for no
// help, and --help=maybe is bad input. (Left undefined, the flag package
// takes -h and -help for a request of help whatever value follows them.)
type helpFlag struct{ on bool }

func (h *helpFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return errors.New("parse error") // as the flag package's booleans say
	}
	h.on = v
	return nil
}

func (h *helpFlag) String() string {
	return strconv.FormatBool(h != nil && h.on)
}

func (h *helpFlag) IsBoolFlag() bool { return true }

// onceValue refuses a second value for the same flag: the flag package
// would silently keep the last.
type onceValue struct {
	flag.Value
	name string
	set  bool
}

func (v *onceValue) Set(s string) error {
	if v.set {
		return fmt.Errorf("flag --%s given twice", v.name)
	}
	v.set = true
	return v.Value.Set(s)
}

// IsBoolFlag keeps "--force" (without a value) working for wrapped bools.
func (v *onceValue) IsBoolFlag() bool {
	b, ok := v.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// String is the wrapped value's (empty for the zero onceValue that the
// flag package makes to find a flag's zero value).
func (v *onceValue) String() string {
	if v == nil || v.Value == nil {
		return ""
	}
	return v.Value.String()
}

func (fs *flagSet) printHelp() {
	fmt.Fprint(fs.stdout, strings.TrimLeft(fs.usage, "\n"))
	fmt.Fprintln(fs.stdout, "\nFlags (spell them -flag or --flag):")
	// PrintDefaults names a flag's type and spots its zero default from
	// the value's own type: show it the unwrapped values, and not the
	// help flags, in a flag set of their own.
	list := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	list.SetOutput(fs.stdout)
	fs.VisitAll(func(f *flag.Flag) {
		v := f.Value
		switch o := v.(type) {
		case *helpFlag:
			return
		case *onceValue:
			v = o.Value
		}
		list.Var(v, f.Name, f.Usage)
		list.Lookup(f.Name).DefValue = f.DefValue
	})
	list.PrintDefaults()
}

// parse parses args. It returns errHelp after printing the usage when
// -h/--help is true where parsing stopped (a bad flag after it does not
// matter; --help=false asks for none), and an *inputError for a bad flag
// or a stray argument.
func (fs *flagSet) parse(args []string) error {
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Value.(type) {
		case *onceValue, *helpFlag: // -h -h asks for help as -h does
		default:
			f.Value = &onceValue{Value: f.Value, name: f.Name}
		}
	})
	err := fs.Parse(args)
	if fs.help.on {
		fs.printHelp()
		return errHelp
	}
	if err != nil {
		return badInput("%v (run '%s -h' for usage)", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q (flags take the form --name value; run '%s -h' for usage)", fs.Arg(0), fs.Name())
	}
	given := fs.given()
	for _, name := range fs.paths {
		if given[name] && fs.Lookup(name).Value.String() == "" {
			return badInput("--%s is empty; give it a path (run '%s -h' for usage)", name, fs.Name())
		}
	}
	// The environment is read here, at the edge, for this subcommand
	// only: a malformed $SYMBO_MEMORY_BUDGET is bad input even beside
	// --mem-budget, as it always was.
	env, err := budget.FromEnv()
	if err != nil {
		return badInput("%w", err)
	}
	fs.budget = int64(env)
	if *fs.memBudget != "" {
		b, err := budget.Parse(*fs.memBudget)
		if err != nil {
			return badInput("--mem-budget: %w", err)
		}
		fs.budget = b
	}
	return nil
}

// given returns the names of the flags given on the command line, but
// the help flags (--help=false is no setting of the command's).
func (fs *flagSet) given() map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		if _, ok := f.Value.(*helpFlag); !ok {
			set[f.Name] = true
		}
	})
	return set
}

// require returns an *inputError listing the required flags missing from
// the command line.
func (fs *flagSet) require(names ...string) error {
	set := fs.given()
	var missing []string
	for _, n := range names {
		if !set[n] {
			missing = append(missing, "--"+n)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return badInput("missing required flag %s (run '%s -h' for usage)", missing[0], fs.Name())
	default:
		return badInput("missing required flags %s (run '%s -h' for usage)", strings.Join(missing, ", "), fs.Name())
	}
}

// needs refuses (bad input) flag given without other, which it modifies
// (--force without the output it lets overwrite did nothing).
func (fs *flagSet) needs(flag, other string) error {
	if set := fs.given(); set[flag] && !set[other] {
		return badInput("--%s is used only with --%s", flag, other)
	}
	return nil
}

// onlyWith refuses (bad input) any flag given besides flag and the allowed
// ones, e.g. settings given again with --resume.
func (fs *flagSet) onlyWith(flag string, allowed ...string) error {
	ok := map[string]bool{flag: true}
	for _, a := range allowed {
		ok[a] = true
	}
	var extra []string
	for n := range fs.given() {
		if !ok[n] {
			extra = append(extra, "--"+n)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		return badInput("--%s takes its settings from the journal; remove %s", flag, strings.Join(extra, ", "))
	}
	return nil
}

// backendFlag adds the shared --backend flag to fs.
func backendFlag(fs *flagSet) *string {
	return fs.String("backend", "", "linear-algebra backend: gonum or openblas (openblas needs a build with -tags openblas);\n"+
		"default: $"+linalg.EnvBackend+", else gonum")
}

// backendByName resolves a --backend value; "" means linalg.Default (the
// environment variable, else gonum). Any failure is bad input.
func backendByName(name string) (linalg.Backend, error) {
	if name == "" {
		b, err := linalg.Default()
		return b, asInput(err)
	}
	b, err := linalg.ByName(name)
	if err != nil {
		return nil, badInput("--backend: %w", err)
	}
	return b, nil
}

// checkOutput refuses (bad input), before any work, an output path that
// cannot be written: a missing or read-only directory, a directory, or an
// existing file without force. remedy is what the refusal of an existing
// file advises ("use --force" where the flag can overwrite it).
func checkOutput(flagName, path string, force bool, remedy string) error {
	if err := atomicfile.CheckWritable(path, force); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return badInput("--%s %s already exists; refusing to overwrite it (%s)", flagName, path, remedy)
		}
		return badInput("--%s: %w", flagName, err)
	}
	return nil
}

// checkDistinct refuses two file flags (named by the flags, "--json")
// that name the same file, where one would replace the other: the same
// path once absolute with its directory's links resolved, or two existing
// names of one file (a link, a hard link). Empty paths are not compared.
func checkDistinct(flagA, a, flagB, b string) error {
	if a == "" || b == "" || !sameFile(a, b) {
		return nil
	}
	return badInput("%s %s and %s %s name the same file; one would replace the other", flagA, a, flagB, b)
}

func sameFile(a, b string) bool {
	// The directory part is resolved as given, links first: tidied by
	// text, "L/../j" would be "./j" where L links elsewhere.
	resolved := func(p string) string {
		dir, base := filepath.Split(p)
		if dir == "" {
			dir = "."
		}
		if rd, err := filepath.EvalSymlinks(dir); err == nil {
			if abs, err := filepath.Abs(rd); err == nil {
				return filepath.Join(abs, base)
			}
		}
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
		return filepath.Clean(p)
	}
	if resolved(a) == resolved(b) {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}

// checkOutputIn is checkOutput for the file name inside an --out
// directory: a symbolic link there is not followed (see writeOutputIn).
func checkOutputIn(dir, name string, force bool) error {
	if err := atomicfile.CheckWritableIn(dir, name, force); err != nil {
		path := filepath.Join(dir, name)
		if errors.Is(err, fs.ErrExist) {
			return badInput("--out: %s already exists; refusing to overwrite it (use --force)", path)
		}
		return badInput("--out: %w", err)
	}
	return nil
}

// writeOutput writes what fn writes to path, a file the user named,
// atomically (never a partial file, even on a full disk or a signal),
// refusing to replace an existing file unless force. A symbolic link at
// path is followed: its target is replaced.
func writeOutput(path string, force bool, fn func(io.Writer) error) error {
	return finishWrite(path, atomicWrite(path, 0o644, !force, buffered(fn)))
}

// atomicWrite and atomicWriteIn are atomicfile.WriteFunc and WriteFuncIn,
// which writeOutput and writeOutputIn write with; variables so that a
// test can make a write fail (a full disk).
var (
	atomicWrite   = atomicfile.WriteFunc
	atomicWriteIn = atomicfile.WriteFuncIn
)

// writeOutputIn is writeOutput for the file name that perf writes inside
// an --out directory: never through a symbolic link — a link planted at
// dir/name is replaced by the file, and its target is left untouched.
func writeOutputIn(dir, name string, force bool, fn func(io.Writer) error) error {
	return finishWrite(filepath.Join(dir, name), atomicWriteIn(dir, name, 0o644, !force, buffered(fn)))
}

// buffered runs fn on a buffered writer and flushes it.
func buffered(fn func(io.Writer) error) func(io.Writer) error {
	return func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		if err := fn(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
}

// finishWrite maps the error of writing path.
func finishWrite(path string, err error) error {
	if errors.Is(err, fs.ErrExist) {
		return badInput("%s already exists; refusing to overwrite it (use --force)", path)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeJSONOutput writes v as indented JSON (and a newline) to path
// through writeOutput.
func writeJSONOutput(path string, v any, force bool) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", path, err)
	}
	return writeOutput(path, force, writeBytes(append(data, '\n')))
}

// writeJSONOutputIn is writeJSONOutput for the file name inside an --out
// directory (see writeOutputIn).
func writeJSONOutputIn(dir, name string, v any, force bool) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return fmt.Errorf("encoding %s: %w", name, err)
	}
	return writeOutputIn(dir, name, force, writeBytes(append(data, '\n')))
}

// writeBytes is a writeOutput function writing b.
func writeBytes(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	}
}

// splitList parses a comma-separated flag value with parse (empty: nil),
// refusing empty and repeated items.
func splitList[T comparable](flagName, s string, parse func(string) (T, error)) ([]T, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []T
	seen := map[T]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, badInput("--%s %q has an empty item", flagName, s)
		}
		v, err := parse(f)
		if err != nil {
			return nil, badInput("--%s: %w", flagName, err)
		}
		if seen[v] {
			return nil, badInput("--%s lists %q twice", flagName, f)
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, nil
}

// positiveFinite checks a flag value that must be > 0 and finite.
func positiveFinite(flagName string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return badInput("--%s must be a positive finite number, got %v", flagName, v)
	}
	return nil
}

// appendFloat appends v in shortest round-trip form, the only float format
// perf prints.
func appendFloat(b []byte, v float64) []byte {
	return strconv.AppendFloat(b, v, 'g', -1, 64)
}

// writeMatrixJSON writes m as {"rows": n, "cols": m, "matrix": [[…], …]}
// followed by a newline, one matrix row per line, every float in shortest
// round-trip form. It fails, writing nothing, if an entry is NaN or ±Inf
// (not representable in JSON).
func writeMatrixJSON(w io.Writer, m mat.Matrix) error {
	r, c := m.Dims()
	for i := range r {
		for j := range c {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: entry (%d,%d) is %v; refusing to print invalid JSON", errNotFinite, i, j, v)
			}
		}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := fmt.Appendf(nil, `{"rows": %d, "cols": %d, "matrix": [`, r, c)
	for i := range r {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n  ["...)
		for j := range c {
			if j > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendFloat(buf, m.At(i, j))
		}
		buf = append(buf, ']')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
		buf = buf[:0]
	}
	if r > 0 {
		buf = append(buf, '\n')
	}
	buf = append(buf, "]}\n"...)
	if _, err := bw.Write(buf); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}

// finite reports an error for NaN and ±Inf, which JSON cannot carry.
func finite(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%w: %v; refusing to print invalid JSON", errNotFinite, v)
	}
	return nil
}
