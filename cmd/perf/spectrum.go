package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/lab/experiments"
	"github.com/symbo/symbo/orbit"
)

func init() {
	register(command{
		name:    "spectrum",
		summary: "compare the eigendecays of k_b, k_avg, k_plus and k_b on S/G (the paper's Figure 4, middle and right)",
		run:     runSpectrum,
	})
}

const spectrumUsage = `
Usage: perf spectrum [--group hyperoctahedral] [--d 1,2,3] [--bases rbf,matern52]
                     [--n 3000] [--lengthscale 0.5] [--seed 0]
                     [--fit-lo 2] [--fit-hi N/10] [--json] [--out DIR [--force]]
                     [--backend gonum|openblas]

The paper's Figure 4 (middle and right columns; appendix "Eigendecay
comparison"): the ordered eigenvalues of the normalized Gram matrices K/n
of n i.i.d. uniform points on S = [−1, 1]^d, for every base kernel B of
--bases (variance 1, lengthscale --lengthscale in the units of S) and the
group G of each --d:

  base     k_b on S
  avg      k_avg on S (orbit average)
  plus     k_plus^(D) on S with D = the points themselves: the PSD
           projection of k_max(D, D) (eigenvalues ≤ n·2⁻⁵²·λ_max dropped,
           the library's rule), so its eigenvalues are k_max's kept ones
  base-S'  k_b on n i.i.d. uniform points of S' = φ(S), the fundamental
           domain picked by G's canonical map φ, of volume vol(S)/|G|:
           0 ≤ x_1 ≤ … ≤ x_d ≤ 1 for hyperoctahedral, [0, 1]^d for
           signflip, −1 ≤ x_1 ≤ … ≤ x_d ≤ 1 for permutation (drawn
           independently of S's points)

G (--group) must be a group of signed coordinate permutations with a
canonical map: hyperoctahedral, signflip, permutation or none.

Each panel's slopes are least-squares fits of log λ_i against log i over
the indices --fit-lo … min(--fit-hi, the last index every series of the
panel has above its floor), taken on a geometric grid (40 a decade).
Eigenvalues ≤ n·2⁻⁵²·λ_max (not resolved by the eigensolver; for plus,
the ones its projection sets to zero) are neither drawn nor fitted.

Output: the slopes as a Markdown table on stdout (or JSON with --json, the
eigenvalues included). With --out DIR (created; refused if not empty
unless --force): spectrum.md, spectrum.json and spectrum.png/.svg (one
log-log panel per base kernel and group; a symbolic link at one of these
names is replaced, never written through). Progress on stderr; at the
default n = 3000 each of the 4 spectra of a panel is one 3000×3000
eigendecomposition (seconds each).

Example:

  perf spectrum --out lab/results/spectrum
  perf spectrum --n 500 --d 2 --bases matern52

`

func runSpectrum(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("spectrum", spectrumUsage, stdout)
	group := fs.String("group", "hyperoctahedral", "group of every panel: hyperoctahedral, signflip, permutation or none")
	dims := fs.String("d", "1,2,3", "comma-separated dimensions d, one row of panels each")
	bases := fs.String("bases", "rbf,matern52", "comma-separated base kernels ("+commaList(kernel.ShapeNames())+"), one column each")
	n := fs.Int("n", experiments.DefaultSpectrumN, fmt.Sprintf("number of points, in [2, %d]", experiments.MaxSpectrumN))
	lengthscale := fs.Float64("lengthscale", experiments.DefaultSpectrumLengthscale, "lengthscale of the base kernels (variance 1), in the units of S = [−1, 1]^d")
	seed := fs.Uint64("seed", 0, "seed of the points")
	fitLo := fs.Int("fit-lo", 2, "first index (1-based) of the slope fit")
	fitHi := fs.Int("fit-hi", 0, "last index of the slope fit; 0 means n/10")
	asJSON := fs.Bool("json", false, "print JSON (with the eigenvalues) instead of the table")
	out := fs.pathFlag("out", "write spectrum.md, spectrum.json and spectrum.png/.svg into `DIR`")
	force := fs.Bool("force", false, "write into a non-empty --out directory, overwriting its files")
	backend := backendFlag(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := fs.needs("force", "out"); err != nil {
		return err
	}
	if err := checkIn("n", *n, 2, experiments.MaxSpectrumN); err != nil {
		return err
	}
	if err := positiveFinite("lengthscale", *lengthscale); err != nil {
		return err
	}
	hi := *fitHi
	if hi == 0 {
		hi = max(*n/10, min(*fitLo+1, *n))
	}
	if *fitLo < 1 || hi > *n || hi <= *fitLo {
		return badInput("--fit-lo %d and --fit-hi %d: need 1 ≤ fit-lo < fit-hi ≤ n = %d", *fitLo, hi, *n)
	}
	ds, err := parseIntsFlag("d", *dims, 1)
	if err != nil {
		return err
	}
	name := strings.ToLower(strings.TrimSpace(*group))
	var groups []orbit.Group
	for _, d := range ds {
		g, err := orbit.Parse(orbit.Spec{Name: name, D: d})
		if err != nil {
			return badInput("--group %s --d %d: %w", name, d, err)
		}
		if _, err := orbit.Size(g); err != nil {
			return badInput("--group %s --d %d: %w", name, d, err)
		}
		if experiments.CheckSpectrumGroup(g) != nil {
			return badInput("--group %s: not a group of signed coordinate permutations with a canonical map (use hyperoctahedral, signflip, permutation or none)", name)
		}
		groups = append(groups, g)
	}
	shapes, err := splitList("bases", *bases, kernel.ParseShape)
	if err != nil {
		return err
	}
	if len(shapes) == 0 {
		return badInput("--bases is empty")
	}
	be, err := backendByName(*backend)
	if err != nil {
		return err
	}
	// Sized before anything is allocated or created.
	if err := experiments.CheckSpectrumMemory(*n, slices.Max(ds), fs.budget); err != nil {
		return asInput(err)
	}
	if *out != "" {
		lock, err := prepareOutDir(*out, *force)
		if err != nil {
			return err
		}
		defer lock.Release()
	}
	ctx, stop := signalContext()
	defer stop()
	res, err := experiments.Spectrum(experiments.SpectrumOptions{
		Groups: groups, Shapes: shapes, N: *n, Lengthscale: *lengthscale, FitLo: *fitLo, FitHi: hi,
		Seed: *seed, Backend: be, Context: ctx, Progress: stderr, Budget: fs.budget,
	})
	// A signal during the last spectrum, or after it, stops the command
	// too (it is caught until the command returns), and one while the
	// files are written stops it before the next.
	if ierr := stoppedBeforeOutputs(ctx, stderr, "perf spectrum", err); ierr != nil {
		return ierr
	}
	if err != nil {
		return err
	}
	stopped := func(at string) error {
		if ctx.Err() != nil {
			return interrupted("stopped before writing " + at + "; the files written so far are whole (rerun the command)")
		}
		return nil
	}
	wall := fmtDuration(time.Duration(res.WallSeconds * float64(time.Second)))
	fmt.Fprintf(stderr, "perf spectrum: %d spectra in %s\n", 4*len(res.Spectra), wall)
	md := res.Markdown()
	if *out != "" {
		if err := writeJSONOutputIn(*out, "spectrum.json", res, true); err != nil {
			return err
		}
		if err := stopped("the spectrum figure"); err != nil {
			return err
		}
		paths, err := experiments.WriteFigure(*out, "spectrum", res.Panels(), res.Cols(), res.Caption()...)
		if err != nil {
			return err
		}
		e := res.Environment
		doc := fmt.Sprintf("# Eigendecays of k_b, k_avg and k_plus (Figure 4, middle and right)\n\n"+
			"Command: `perf spectrum %s`\n\n%s\n%s\n"+
			"Code: %s.\n\nEnvironment: backend %s, %s, SIMD %s, GOMAXPROCS %d, %s (%d CPUs), %s/%s.\n\n"+
			"Wall time: %s for %d spectra (n = %d).\n\n![spectra](spectrum.png)\n",
			strings.Join(args, " "), spectrumProtocol(res), md,
			codeNote(e), e.Backend, e.GoVersion, e.SIMD, e.GOMAXPROCS, e.CPU, e.NumCPU, e.GOOS, e.GOARCH, wall, 4*len(res.Spectra), res.N)
		if err := stopped("spectrum.md"); err != nil {
			return err
		}
		if err := writeOutputIn(*out, "spectrum.md", true, func(w io.Writer) error {
			_, err := io.WriteString(w, doc)
			return err
		}); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "perf spectrum: wrote %s, %s\n", filepath.Join(*out, "spectrum.md"), strings.Join(append([]string{filepath.Join(*out, "spectrum.json")}, paths...), ", "))
	}
	if *asJSON {
		return writeIndentedJSON(stdout, res)
	}
	return printResult(stdout, md)
}

// spectrumProtocol is the protocol paragraph of spectrum.md.
func spectrumProtocol(r *experiments.SpectrumResult) string {
	return fmt.Sprintf("Ordered eigenvalues λ_1 ≥ λ_2 ≥ … of K/n, K = (k(x_i, x_j)), for n = %d i.i.d. uniform points x_i "+
		"on S = [−1, 1]^d (seed %d): k_b, k_avg and k_plus^(D) with D the points themselves (the PSD projection of "+
		"k_max(D, D), eigenvalues ≤ n·2⁻⁵²·λ_max dropped), and k_b on n independent uniform points of the reduced domain "+
		"S' = φ(S) (the fundamental domain chosen by the group's canonical map φ, vol(S)/|G|; see the table). Base kernels "+
		"have variance 1 and lengthscale %g (units of S; the paper does not state its lengthscale). Slope: least-squares fit of "+
		"log λ_i against log i on a geometric grid of indices (%d a decade) from %d to min(%d, the last index every series of "+
		"the panel has above its floor n·2⁻⁵²·λ_max), the panel's fit range; eigenvalues at or below the floor are neither drawn "+
		"nor fitted (\"drawn\": how many are above it). Plus/base(S') in range: the smallest and largest ratio λ_i(k_plus on S)/λ_i(k_b on S') "+
		"over the fit range. Avg > plus at: at how many of the indices both have above their floors λ_i(k_avg) exceeds λ_i(k_plus). "+
		"Plus clipped: eigenvalues of k_max(D, D) its projection dropped. "+
		"Avg trace: tr(K)/n of k_avg (the mean of k_avg(x, x); 1 for the others).\n",
		r.N, r.Seed, r.Lengthscale, experiments.SpectrumGridPerDecade, r.FitLo, r.FitHi)
}
