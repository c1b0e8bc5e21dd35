package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/symbo/symbo/internal/budget"
	"gonum.org/v1/gonum/mat"

	"github.com/symbo/symbo/internal/csvio"
	"github.com/symbo/symbo/internal/frontend"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
)

func init() {
	register(command{
		name:    "gram",
		summary: "print the cross-covariance matrix K(X, Y) of a kernel as JSON",
		run:     runGram,
	})
}

// Default search box of --group scaling: the paper's [0.1, 10] per coordinate.
const defaultBoxLo, defaultBoxHi = 0.1, 10.0

const gramUsage = `
Usage: perf gram --group G --d D --base B --lengthscale L [--variance V]
                 --kernel K --x FILE [--y FILE] [--design FILE]
                 [--method auto|enumerate|closed] [--backend gonum|openblas]
                 [--block b] [--box LO:HI[,LO:HI…]] [--matrices FILE]

Prints K(X, Y), the n×m matrix of k(x_i, y_j), as JSON:

  {"rows": n, "cols": m, "matrix": [[…], …]}

with every float in shortest round-trip form (parsing it back gives the
same float64 bits).

Kernels K (base kernel k_b(x,y) = V·κ(‖x−y‖/L)):
  base     k_b itself (--group is still checked but unused; --method is ignored)
  nystrom  k_b(x,D)·K^†·k_b(D,y), K = k_b(D,D) truncated as plus does: the
           base kernel Nyström-extended from the design D (not invariant;
           --group is checked but unused)
  avg      orbit average 1/|G|² Σ_{g,g'} k_b(gx, g'y)
  avgnorm  the orbit average normalized to variance V: avg(x,y)/√(avg(x,x)·avg(y,y))
  max      best orbit alignment max_{g,g'} k_b(gx, g'y) (invariant, not PSD)
  plus     k_max(x,D)·K_+^†·k_max(D,y), K_+ = k_max(D,D) with eigenvalues
           ≤ n·ε·λ_max dropped: the PSD projection on the design D (--design)

Base kernels B: rbf, matern12, matern32, matern52.

Groups G (acting on R^D):
  none             the trivial group
  signflip         sign flips of the D coordinates
  permutation      permutations of the D coordinates
  hyperoctahedral  signed permutations
  blockperm        permutations of D/b blocks of b coordinates (needs --block b)
  pairedperm       D = 2m laid out x1..xm, y1..ym; one permutation of both halves
  cyclic           cyclic shifts of the coordinates
  rotation2d       planar rotations SO(2) (D = 2)
  scaling          the paper's scaling group, orbits taken inside the box
                   --box LO:HI (default 0.1:10), one interval for every
                   coordinate or one per coordinate (LO,HI is also read)
  scalingdir       scaling with the chord between directions as its orbit
                   distance (on the sphere of radius ‖hi‖; PSD max kernel);
                   --box as scaling
  matrices         the finite group of matrices listed in --matrices FILE (JSON)

--method: auto (closed form when the group has one, else enumeration),
enumerate (always enumerate the group; refused when the orbit buffer would
exceed its memory budget), closed (closed form only; an error when there is
none).

Point files (--x, --y, --design): CSV without a header, one point per row,
D comma-separated numbers per row. --y defaults to --x (then the output is
symmetric); --design defaults to --x.

Example:

  perf gram --group hyperoctahedral --d 5 --base matern52 --lengthscale 2 \
      --kernel plus --x testdata/examples/points5d.csv

`

func runGram(args []string, stdout, _ io.Writer) error {
	fs := newFlagSet("gram", gramUsage, stdout)
	group := fs.String("group", "", "symmetry group (see above)")
	d := fs.Int("d", 0, "dimension D of the points; must equal the number of columns of every point file")
	block := fs.Int("block", 0, "block size b for --group blockperm (D must be a multiple of b)")
	box := fs.String("box", "", "search box `LO:HI[,LO:HI…]` for --group scaling: one interval for every coordinate, or one per coordinate (default 0.1:10)")
	matrices := fs.pathFlag("matrices", "JSON group `file` for --group matrices")
	coords := coordsFlag(fs)
	base := fs.String("base", "", "base kernel: "+orList(kernel.ShapeNames()))
	lengthscale := fs.Float64("lengthscale", 0, "lengthscale L > 0")
	variance := fs.Float64("variance", 1, "signal variance V > 0")
	kern := fs.String("kernel", "", "kernel: "+strings.Join(frontend.KernelNames(), ", "))
	xPath := fs.pathFlag("x", "point `file` X (rows of the output)")
	yPath := fs.pathFlag("y", "point `file` Y (columns of the output; default: --x)")
	designPath := fs.pathFlag("design", "design point `file` D for --kernel plus (default: --x)")
	method := fs.String("method", "auto", "orbit method: auto, enumerate, closed (ignored by --kernel base)")
	backend := backendFlag(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.require("group", "d", "base", "lengthscale", "kernel", "x"); err != nil {
		return err
	}
	set := fs.given()
	// Names are case-insensitive, as in the library's parsers.
	*group, *kern = strings.ToLower(*group), strings.ToLower(*kern)

	// Cheap checks on values first, files last.
	if *d < 1 {
		return badInput("--d must be at least 1, got %d", *d)
	}
	if err := positiveFinite("lengthscale", *lengthscale); err != nil {
		return err
	}
	if err := positiveFinite("variance", *variance); err != nil {
		return err
	}
	if !slices.Contains(frontend.KernelNames(), *kern) {
		return badInput("unknown --kernel %q (valid: %s)", *kern, strings.Join(frontend.KernelNames(), ", "))
	}
	if set["design"] && !frontend.NeedsDesign(*kern) {
		return badInput("--design is used only by --kernel plus and nystrom, not %s", *kern)
	}
	shape, err := kernel.ParseShape(*base)
	if err != nil {
		return badInput("--base: %w", err)
	}
	meth, err := kernel.ParseMethod(*method)
	if err != nil {
		return badInput("--method: %w", err)
	}
	spec, err := groupSpec(*group, *d, set, *block, *box, *matrices)
	if err != nil {
		return err
	}
	if spec, err = onCoords(spec, *coords, set["coords"]); err != nil {
		return err
	}
	// Resolve the backend even when unused so that a bad --backend is
	// always reported.
	var be linalg.Backend
	if set["backend"] || frontend.NeedsDesign(*kern) {
		if be, err = backendByName(*backend); err != nil {
			return err
		}
	}
	g, err := orbit.Parse(spec)
	if err != nil {
		return asInput(err)
	}

	// The result and its JSON text (≤ 26 bytes a number) are sized from
	// the files' row counts before they are parsed (constant memory). A
	// pipe or a device is not counted (-1: counting would consume it); its
	// reading is bounded by the budget, and the result is sized after.
	nx, err := csvio.CountRows(*xPath)
	if err != nil {
		return badInput("--x: %w", err)
	}
	ny := nx
	if set["y"] {
		if ny, err = csvio.CountRows(*yPath); err != nil {
			return badInput("--y: %w", err)
		}
	}
	if nx >= 0 && ny >= 0 {
		if err := budget.Limit(fs.budget).Check(fmt.Sprintf("the %d×%d result and its JSON text", nx, ny), float64(nx)*float64(ny)*(8+26)); err != nil {
			return err
		}
	}
	x, err := readPoints("x", *xPath, *d, fs.budget)
	if err != nil {
		return err
	}
	y := x
	if set["y"] {
		if y, err = readPoints("y", *yPath, *d, fs.budget); err != nil {
			return err
		}
	}

	// The result and its JSON text (≤ 26 bytes a number) are sized before
	// anything is computed.
	n, _ := x.Dims()
	m, _ := y.Dims()
	if err := budget.Limit(fs.budget).Check(fmt.Sprintf("the %d×%d result and its JSON text", n, m), float64(n)*float64(m)*(8+26)); err != nil {
		return err
	}
	p := kernel.Params{Shape: shape, Variance: *variance, Lengthscale: *lengthscale}
	var design *mat.Dense
	if frontend.NeedsDesign(*kern) {
		design = x
		if set["design"] {
			if design, err = readPoints("design", *designPath, *d, fs.budget); err != nil {
				return err
			}
		}
	}
	k, err := frontend.NewKernel(*kern, p, g, meth, design, be, fs.budget)
	if err != nil {
		return asInput(err)
	}

	out, err := cross(k, x, y, !set["y"])
	if err != nil {
		// The inputs passed every check above, so a refusal here (orbit
		// buffer over budget, no closed form for --method closed, …) is
		// still caused by what the user asked for.
		return asInput(err)
	}
	return writeMatrixJSON(stdout, out)
}

// crosser is what perf gram needs from every kernel.
type crosser interface {
	CrossTo(dst *mat.Dense, x, y *mat.Dense) error
}

// cross returns K(x, y). When y is x (same) and the kernel has a symmetric
// assembly, it is used: half the work, and an exactly symmetric result.
func cross(k crosser, x, y *mat.Dense, same bool) (mat.Matrix, error) {
	if g, ok := k.(kernel.Gramer); ok && same {
		var dst mat.SymDense
		if err := g.GramTo(&dst, x); err != nil {
			return nil, err
		}
		return &dst, nil
	}
	var dst mat.Dense
	if err := k.CrossTo(&dst, x, y); err != nil {
		return nil, err
	}
	return &dst, nil
}

// readPoints reads the point file of flag name, within the memory budget
// b, and checks it has d columns.
func readPoints(flagName, path string, d int, b int64) (*mat.Dense, error) {
	x, err := csvio.Options{Budget: b}.Read(path)
	if err != nil {
		return nil, badInput("--%s: %w", flagName, err)
	}
	if _, c := x.Dims(); c != d {
		return nil, badInput("--%s %s has %d columns per row, but --d is %d", flagName, path, c, d)
	}
	return x, nil
}

// groupSpec checks the group-specific flags and builds the orbit.Spec.
func groupSpec(name string, d int, set map[string]bool, block int, box, matrices string) (orbit.Spec, error) {
	spec := orbit.Spec{Name: name, D: d}
	if set["block"] && name != "blockperm" {
		return spec, badInput("--block is used only by --group blockperm, not %s", name)
	}
	if set["box"] && !orbit.TakesBox(name) {
		return spec, badInput("--box is used only by --group scaling and scalingdir, not %s", name)
	}
	if set["matrices"] && name != "matrices" {
		return spec, badInput("--matrices is used only by --group matrices, not %s", name)
	}
	switch name {
	case "blockperm":
		if !set["block"] {
			return spec, badInput("--group blockperm needs --block b (the block size)")
		}
		spec.Block = block // orbit.Parse checks that it divides d
	case "scaling", "scalingdir":
		spec.Lo, spec.Hi = []float64{defaultBoxLo}, []float64{defaultBoxHi} // broadcast by orbit.Parse after it checks d
		if set["box"] {
			if err := checkIn("d", d, 1, orbit.MaxDim); err != nil {
				return spec, err
			}
			var err error
			if spec.Lo, spec.Hi, err = parseBox(box, d); err != nil {
				return spec, err
			}
		}
	case "matrices":
		if !set["matrices"] || matrices == "" {
			return spec, badInput("--group matrices needs --matrices FILE")
		}
		spec.Matrices = matrices
	}
	return spec, nil
}

// coordsFlag adds --coords, the coordinates a group acts on.
func coordsFlag(fs *flagSet) *string {
	return fs.String("coords", "", "make the group act on these coordinates only (`i,j,…`, 0-based; identity on the others): the group is built for dimension len(coords), its coordinate j being coords[j]")
}

// onCoords embeds spec's group on the coordinates of --coords (not
// given: spec unchanged); a scaling group takes the box of those
// coordinates. --coords given empty is an error, as "coords": [] is in
// the JSON settings (it does not mean all coordinates: omit it for that).
func onCoords(spec orbit.Spec, list string, given bool) (orbit.Spec, error) {
	if given && strings.TrimSpace(list) == "" {
		return spec, badInput("--coords is empty: name the coordinates the group acts on (omit --coords for all of them)")
	}
	coords, err := splitList("coords", list, func(s string) (int, error) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 || v >= spec.D {
			return 0, fmt.Errorf("%q is not a coordinate in [0, %d)", s, spec.D)
		}
		return v, nil
	})
	if err != nil || coords == nil {
		return spec, err
	}
	if spec.Lo != nil { // scaling: the box of the coordinates scaled
		lo, hi := spec.Lo, spec.Hi
		spec.Lo, spec.Hi = make([]float64, len(coords)), make([]float64, len(coords))
		for j, c := range coords {
			spec.Lo[j], spec.Hi[j] = lo[min(c, len(lo)-1)], hi[min(c, len(hi)-1)]
		}
	}
	spec.Coords = coords
	return spec, nil
}

// parseBox parses a search box as every subcommand spells it,
// LO:HI[,LO:HI…] (one interval for every coordinate, or d of them; see
// parseIntervals), and the older two-number form LO,HI of one interval.
func parseBox(s string, d int) (lo, hi []float64, err error) {
	if !strings.Contains(s, ":") {
		if a, b, ok := strings.Cut(s, ","); ok && !strings.Contains(b, ",") {
			s = a + ":" + b
		}
	}
	return parseIntervals(s, d)
}
