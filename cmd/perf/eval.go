package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/symbo/symbo/bo/problem"
)

func init() {
	register(command{
		name:    "eval",
		summary: "evaluate a benchmark problem at the points of a file, as JSON",
		run:     runEval,
	})
}

var evalUsage = fmt.Sprintf(`
Usage: perf eval --problem P [--d D] --x FILE [--users FILE]

Prints the paper's definition of problem P at every row of FILE as JSON:

  {"values": [f(x_1), f(x_2), …]}

every float in shortest round-trip form. Every problem but WLAN is in its
usual minimization form; WLAN is the total throughput in Mbps, to maximize.

Problems P (default dimension in parentheses; --d 0 or absent selects it):
%sNames are case-insensitive and may carry the dimension, e.g. Rastrigin5d;
a trailing ":G" declares the group G instead of the problem's own (G one of
none, signflip, permutation, hyperoctahedral, cyclic, pairedperm,
rotation2d, on R^d): Rastrigin5d:none for a user who declares no symmetry,
Griewank6d:hyperoctahedral for one who declares a group the objective is
not invariant under (Griewank's product term weighs coordinate i by 1/√i).

Point files: CSV, no header, one point per row. Every point must lie in
the problem's box. For WLAN a point is laid out x1..xm, y1..ym, and
--users gives the user positions (CSV of 2-d points, metres); without it
the shipped layout of 16 users is used.

Example:
  perf eval --problem rastrigin --d 5 --x testdata/examples/points5d.csv
`, problemsHelp())

// problemsHelp is the problems of perf eval -h, from problem.Families: the
// registry is the one list of problems.
func problemsHelp() string {
	var b strings.Builder
	class := ""
	for _, f := range problem.Families() {
		if f.Class != class {
			class = f.Class
			fmt.Fprintf(&b, "  %s:\n", map[string]string{
				problem.ClassPaper: "the paper's", problem.ClassVariant: "variants of the paper's (the function or the group's geometry)",
				problem.ClassOffFixedPoint: "off-fixed-point (optima on free orbits, not at the origin)",
				problem.ClassTwin:          "their fixed-point twins (the same F, group, d and box; optimum at the origin)",
				problem.ClassSuite:         "the users' suite (lab/suite/README.md; its paper problems are above)",
				problem.ClassFresh:         "the fresh held-out set (lab/suite/fresh.md)",
				problem.ClassThird:         "the third held-out set (lab/suite/third.md)",
			}[class])
		}
		fmt.Fprintf(&b, "    %-22s %s; %s\n", fmt.Sprintf("%s (%d)", f.Name, f.DefaultDim), f.About, f.Dims)
	}
	return b.String()
}

func runEval(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("eval", evalUsage, stdout)
	name := fs.String("problem", "", "benchmark problem (see above)")
	d := fs.Int("d", 0, "dimension; 0 selects the paper's")
	xPath := fs.pathFlag("x", "point `file` to evaluate")
	usersPath := fs.pathFlag("users", "WLAN user positions `file` (CSV of x,y rows; default: the shipped 16 users)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.require("problem", "x"); err != nil {
		return err
	}
	if *d < 0 {
		return badInput("--d must be 0 (the paper's dimension) or positive, got %d", *d)
	}
	p, err := problem.New(*name, *d)
	if err != nil {
		return asInput(err)
	}
	if fs.given()["users"] {
		// The family WLAN only ("WLAN8d", "WLAN8d:none"), not WLANOther8d,
		// whose users are part of its definition.
		base, _, _ := strings.Cut(strings.ToLower(p.Name()), ":")
		if strings.TrimRight(strings.TrimSuffix(base, "d"), "0123456789") != "wlan" {
			return badInput("--users applies only to --problem wlan, not %s", p.Name())
		}
		users, err := readUsers(*usersPath, fs.budget)
		if err != nil {
			return err
		}
		if p, err = problem.NewWLAN(users, p.Dim()/2); err != nil {
			return badInput("--users %s: %w", *usersPath, err)
		}
	}
	x, err := readPoints("x", *xPath, p.Dim(), fs.budget)
	if err != nil {
		return err
	}
	n, _ := x.Dims()
	values := make([]float64, n)
	for i := range n {
		v, err := p.Evaluate(x.RawRowView(i))
		if err != nil {
			return badInput("--x %s line %d: %w", *xPath, i+1, err)
		}
		values[i] = v
	}
	return writeValuesJSON(stdout, values)
}

func readUsers(path string, budget int64) ([][2]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput("--users: %w", err)
	}
	defer f.Close()
	users, err := problem.ReadUsersBudget(f, path, budget)
	if err != nil {
		return nil, badInput("--users: %w", err)
	}
	return users, nil
}

// writeValuesJSON writes {"values": […]} with floats in shortest round-trip
// form, refusing (and writing nothing) if a value is not finite.
func writeValuesJSON(w io.Writer, values []float64) error {
	buf := []byte(`{"values": [`)
	for i, v := range values {
		if err := finite(v); err != nil {
			return fmt.Errorf("value %d: %w", i, err)
		}
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = appendFloat(buf, v)
	}
	buf = append(buf, "]}\n"...)
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return nil
}
