package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/linalg"
)

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // something went wrong that is not the user's input
	exitUsage   = 2 // bad input: flags, files, names, values
)

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
// returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "perf: missing subcommand (one of: %s; run 'perf help')\n", commandNames())
		return exitUsage
	}
	name, rest := args[0], args[1:]
	switch name {
	case "help", "-h", "-help", "--help":
		if name == "help" && len(rest) > 0 {
			c := lookup(rest[0])
			if c == nil || len(rest) > 1 {
				fmt.Fprintf(stderr, "perf help: unknown subcommand %q (one of: %s)\n", strings.Join(rest, " "), commandNames())
				return exitUsage
			}
			return finish(c.name, c.run([]string{"-h"}, stdout, stderr), stderr)
		}
		printUsage(stdout)
		return exitOK
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "perf: unknown subcommand %q (one of: %s)\n", name, commandNames())
		return exitUsage
	}
	return finish(c.name, c.run(rest, stdout, stderr), stderr)
}

// finish reports err on stderr as one line prefixed "perf name: " and maps
// it to an exit status.
func finish(name string, err error, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, errHelp):
		return exitOK
	}
	fmt.Fprintf(stderr, "perf %s: %s\n", name, oneLine(err.Error()))
	var ie *inputError
	if errors.As(err, &ie) {
		return exitUsage
	}
	return exitFailure
}

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

// inputError marks an error caused by the user's input: exit status 2.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

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
// printing them, and prints its usage text and flags on -h/--help.
type flagSet struct {
	*flag.FlagSet
	usage  string
	stdout io.Writer
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
	return &flagSet{FlagSet: fs, usage: usage, stdout: stdout}
}

func (fs *flagSet) printHelp() {
	fs.SetOutput(fs.stdout)
	defer fs.SetOutput(io.Discard)
	fmt.Fprint(fs.stdout, strings.TrimLeft(fs.usage, "\n"))
	fmt.Fprintln(fs.stdout, "\nFlags (spell them -flag or --flag):")
	fs.PrintDefaults()
}

// parse parses args. It returns errHelp after printing the usage on
// -h/--help, and an *inputError for a bad flag or a stray argument.
func (fs *flagSet) parse(args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.printHelp()
			return errHelp
		}
		return badInput("%v (run '%s -h' for usage)", err, fs.Name())
	}
	if fs.NArg() > 0 {
		return badInput("unexpected argument %q (flags take the form --name value; run '%s -h' for usage)", fs.Arg(0), fs.Name())
	}
	return nil
}

// given returns the names of the flags given on the command line.
func (fs *flagSet) given() map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
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
				return fmt.Errorf("result entry (%d,%d) is %v; refusing to print invalid JSON", i, j, v)
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
		return fmt.Errorf("%v is not a finite number; refusing to print invalid JSON", v)
	}
	return nil
}
