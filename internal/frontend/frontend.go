// Package frontend holds what symbo's front ends share — perf suggest, the
// C ABI (capi) and through it the Python package: settings records with
// stable JSON field names, parsed strictly (Decode), and the two calls
// they make, Cross (a kernel matrix) and Suggest (the next points of an
// optimizer rebuilt from its history, pending and failed points).
//
// # Invariants
//
// Every size in a settings record is checked before anything is sized by
// it: the dimension d lies in [1, orbit.MaxDim] (Group.box, Group.build)
// before a box or group is built, so absurd settings are an ErrInvalid,
// never an out-of-memory crash. FuzzSuggest and FuzzCross (fuzz_test.go)
// hold the paths from JSON to Suggest and Cross to it, under a small
// memory budget.
//
// The memory budget of a call is a value: the settings' optional
// "mem_budget" key (Memory), else the default the front end passes (def:
// perf's --mem-budget, the C ABI's SYMBO_MEMORY_BUDGET read once; 0 means
// 8 GiB). This package never reads the environment for it; it hands the
// budget to the library as kernel.Options.Budget and bo.Config.Budget.
//
// # Errors
//
// Bad settings wrap ErrInvalid; the library's own errors (orbit, kernel,
// bo, problem sentinels) are passed through, wrapped; a row Record refuses
// is a RowError. Every one carries its class (internal/errclass: ErrInvalid
// and RowError are input errors), which the front ends map, each in one
// place, to perf's exit status, a C status and through it a Python
// exception; TrimPrefixes removes symbo's package prefixes from a message
// for the user.
//
// # Concurrency
//
// Functions keep no state and are safe for concurrent use, but Record and
// Suggest write to the optimizer they are given, which is not
// (bo.Optimizer): concurrent calls need distinct optimizers.
package frontend

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/symbo/symbo/bo"
	"github.com/symbo/symbo/bo/problem"
	"github.com/symbo/symbo/gp"
	"github.com/symbo/symbo/internal/budget"
	"github.com/symbo/symbo/internal/errclass"
	"github.com/symbo/symbo/kernel"
	"github.com/symbo/symbo/linalg"
	"github.com/symbo/symbo/orbit"
	"gonum.org/v1/gonum/mat"
)

// ErrInvalid reports bad settings.
var ErrInvalid = errclass.New(errclass.Input, "frontend: invalid settings")

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, a...)...)
}

// Group names a group as perf gram spells it: name, dimension, and the
// extra parameters of some groups.
type Group struct {
	Group    string      `json:"group"`
	D        int         `json:"d"`
	Block    int         `json:"block,omitempty"`
	Box      [][]float64 `json:"box,omitempty"` // [[lo…], [hi…]] (scaling, scalingdir; suggest: the search box)
	Matrices string      `json:"matrices,omitempty"`
	// Coords, when present, makes the group act on these coordinates of
	// the d-dimensional space only (identity on the others; orbit.OnCoords):
	// the group is built for dimension len(coords), coordinate j of it
	// being coords[j]. An empty list is an error.
	Coords []int `json:"coords,omitempty"`
}

// checkD refuses a dimension outside [1, orbit.MaxDim] (0 too when
// required; otherwise 0 leaves it to the group, e.g. rotation2d): the
// first check on a record, before anything is sized by D.
func (g Group) checkD(required bool) error {
	if g.D < 0 || g.D > orbit.MaxDim || (required && g.D == 0) {
		return invalid("d = %d, want 1 ≤ d ≤ %d", g.D, orbit.MaxDim)
	}
	return nil
}

// build returns the group (scaling and scalingdir take their box from
// Box, default [0.1, 10]).
func (g Group) build() (orbit.Group, error) {
	if err := g.checkD(false); err != nil {
		return nil, err
	}
	spec := orbit.Spec{Name: g.Group, D: g.D, Block: g.Block, Matrices: g.Matrices, Coords: g.Coords}
	if orbit.TakesBox(g.Group) {
		spec.Lo, spec.Hi = []float64{0.1}, []float64{10}
		if g.Box != nil {
			lo, hi, err := g.box()
			if err != nil {
				return nil, err
			}
			spec.Lo, spec.Hi = lo, hi
			if g.Coords != nil && len(g.Coords) <= len(lo) { // the box of the coordinates scaled (Parse refuses longer lists)
				spec.Lo, spec.Hi = nil, nil
				for _, c := range g.Coords {
					if c < 0 || c >= len(lo) {
						return nil, invalid("coords: %d outside [0, %d)", c, len(lo))
					}
					spec.Lo, spec.Hi = append(spec.Lo, lo[c]), append(spec.Hi, hi[c])
				}
			}
		}
	}
	grp, err := orbit.Parse(spec)
	var pe *fs.PathError
	if errors.As(err, &pe) { // the matrices file the settings name
		return nil, invalid("%v", err)
	}
	return grp, err
}

// box returns Box as lo, hi of length D (one interval broadcast to all).
func (g Group) box() (lo, hi []float64, err error) {
	if err := g.checkD(true); err != nil {
		return nil, nil, err
	}
	if len(g.Box) != 2 || len(g.Box[0]) != len(g.Box[1]) || (len(g.Box[0]) != 1 && len(g.Box[0]) != g.D) {
		return nil, nil, invalid("box must be [[lo…], [hi…]] with 1 or d = %d values each", g.D)
	}
	lo, hi = make([]float64, g.D), make([]float64, g.D)
	for k := range g.D {
		j := min(k, len(g.Box[0])-1)
		lo[k], hi[k] = g.Box[0][j], g.Box[1][j]
	}
	return lo, hi, nil
}

// Memory is the optional settings key "mem_budget" of KernelSpec and
// SuggestSettings: the memory budget of the call.
type Memory struct {
	// MemBudget is the largest memory one request of the call (an input
	// copy, a kernel matrix, an orbit buffer, a GP's work matrices) may
	// allocate, as SYMBO_MEMORY_BUDGET spells it: a JSON string, "512MiB",
	// "16GiB", "2e9" (bytes). Absent (or null) leaves the front end's
	// default (perf's --mem-budget, the C ABI's SYMBO_MEMORY_BUDGET, else
	// 8 GiB); anything else that is not a positive size — "", "0",
	// "lots", a number — is ErrInvalid.
	MemBudget *string `json:"mem_budget,omitempty"`
}

// Budget returns the budget in bytes the settings ask for: MemBudget's,
// else def, the front end's default (0 means budget.Default).
func (m Memory) Budget(def int64) (int64, error) {
	if m.MemBudget == nil {
		return def, nil
	}
	b, err := budget.Parse(*m.MemBudget)
	if err != nil {
		return 0, invalid("mem_budget: %v", err)
	}
	return b, nil
}

// KernelSpec is a kernel as perf gram spells it. A parameter of Group its
// group does not use is bad input: a box ErrInvalid, a block or matrices
// file orbit.ErrInvalid (both of errclass.Input).
type KernelSpec struct {
	Group
	Memory
	Base        string  `json:"base"`
	Lengthscale float64 `json:"lengthscale"`
	// Variance is the base kernel's signal variance: nil (absent) means
	// 1; a value given must be positive and finite ("variance": 0 is an
	// error).
	Variance *float64 `json:"variance,omitempty"`
	Kernel   string   `json:"kernel"`
	Method   string   `json:"method,omitempty"` // "" means auto
}

// Cross returns K(x, y) (n×m) for the kernel of spec; y nil means x (the
// symmetric assembly). design is the design set of plus (nil: x). Its
// memory budget is spec's mem_budget, else def (0: budget.Default); an
// output over it is refused before it is computed.
func Cross(spec KernelSpec, x, y, design *mat.Dense, be linalg.Backend, def int64) (*mat.Dense, error) {
	limit, err := spec.Budget(def)
	if err != nil {
		return nil, err
	}
	shape, err := kernel.ParseShape(spec.Base)
	if err != nil {
		return nil, invalid("%v", err)
	}
	v := 1.0
	if spec.Variance != nil {
		v = *spec.Variance
	}
	meth := kernel.Auto
	if spec.Method != "" {
		if meth, err = kernel.ParseMethod(spec.Method); err != nil {
			return nil, invalid("%v", err)
		}
	}
	p := kernel.Params{Shape: shape, Variance: v, Lengthscale: spec.Lengthscale}
	if err := p.Validate(); err != nil {
		return nil, invalid("%v", err)
	}
	if spec.Box != nil && !orbit.TakesBox(spec.Group.Group) {
		return nil, invalid("box is used only by the groups scaling and scalingdir in a kernel matrix, not %s", spec.Group.Group)
	}
	g, err := spec.Group.build()
	if err != nil {
		return nil, err
	}
	if design != nil && !NeedsDesign(spec.Kernel) {
		return nil, invalid("a design set is used by kernels plus and nystrom only, not %q", spec.Kernel)
	}
	if design == nil {
		design = x
	}
	k, err := NewKernel(spec.Kernel, p, g, meth, design, be, limit)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	m := n
	if y != nil {
		m, _ = y.Dims()
	}
	// The kernels check their outputs too, base's against the default
	// budget only (kernel.NewBase takes no options).
	if err := budget.Limit(limit).Check(fmt.Sprintf("a %d×%d kernel matrix", n, m), 8*float64(n)*float64(m)); err != nil {
		return nil, err
	}
	if y == nil {
		var s mat.SymDense
		if err := kernel.Gram(k, &s, x); err != nil {
			return nil, err
		}
		return mat.DenseCopyOf(&s), nil
	}
	var out mat.Dense
	if err := k.CrossTo(&out, x, y); err != nil {
		return nil, err
	}
	return &out, nil
}

// KernelNames lists the kernels NewKernel builds, as the front ends spell
// them.
func KernelNames() []string {
	return []string{"base", "nystrom", "avg", "avgnorm", "max", "plus"}
}

// NeedsDesign reports whether the kernel named name is a Nyström
// extension from a design set (plus, nystrom).
func NeedsDesign(name string) bool {
	n := strings.ToLower(strings.TrimSpace(name))
	return n == "plus" || n == "nystrom"
}

// NewKernel builds the kernel named name (see KernelNames; case-
// insensitive) with base parameters p over the group g and method meth:
// base is the base kernel; nystrom the base kernel Nyström-extended from
// design (k_plus over the trivial group); avg, avgnorm and max the orbit
// kernels; plus k_max's PSD projection on design, Nyström-extended. design
// is used by plus and nystrom only, be by their eigendecompositions.
// limit is the kernel's memory budget (kernel.Options.Budget; base has
// none of its own: orbit.DefaultBudget).
func NewKernel(name string, p kernel.Params, g orbit.Group, meth kernel.Method, design *mat.Dense, be linalg.Backend, limit int64) (kernel.Kernel, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if NeedsDesign(n) && design == nil {
		return nil, invalid("kernel %s needs a design set", n)
	}
	switch n {
	case "base":
		return kernel.NewBase(p, g.Dim())
	case "avg":
		return kernel.NewAvg(p, g, kernel.Options{Method: meth, Budget: limit})
	case "avgnorm":
		return kernel.NewAvg(p, g, kernel.Options{Method: meth, Normalize: true, Budget: limit})
	case "max":
		return kernel.NewMax(p, g, kernel.Options{Method: meth, Budget: limit})
	case "plus", "nystrom":
		if n == "nystrom" {
			t, err := orbit.Trivial(g.Dim())
			if err != nil {
				return nil, err
			}
			g = t
		}
		mx, err := kernel.NewMax(p, g, kernel.Options{Method: meth, Budget: limit})
		if err != nil {
			return nil, err
		}
		return kernel.NewPlus(mx, design, kernel.PlusOptions{Backend: be})
	}
	return nil, invalid("unknown kernel %q (want %s)", name, strings.Join(KernelNames(), ", "))
}

// DefaultKernel is the kernel of SuggestSettings that name none
// (bo.RecommendedKernel). Every other default of the front ends is
// bo.Recommended's too: SuggestSettings.Optimizer starts from it and
// applies the settings on top.
const DefaultKernel = bo.RecommendedKernel

// SuggestSettings are an optimizer's settings as perf suggest spells them:
// a benchmark (Problem) or a group and box of one's own, and the protocol.
// With Problem, the Group's box, block, matrices and coords are
// ErrInvalid (the problem has its own); its d picks the problem's
// dimension.
type SuggestSettings struct {
	Problem string `json:"problem,omitempty"`
	Group
	Memory
	Kernel string `json:"kernel,omitempty"` // default: DefaultKernel
	Base   string `json:"base,omitempty"`   // default: the problem's, else rbf
	Seed   uint64 `json:"seed,omitempty"`
	// Minimize: absent (nil) means maximize, or with Problem its
	// direction; given with Problem it must agree with it (an explicit
	// false for a minimized problem is ErrInvalid, not overruled).
	Minimize *bool `json:"minimize,omitempty"`
	// Init is the number of uniform random initial points: absent (nil)
	// means bo.DefaultInit, else at least 1 (0 is ErrInvalid, not 5).
	Init *int   `json:"init,omitempty"`
	Acq  string `json:"acq,omitempty"`
	Beta string `json:"beta,omitempty"`
	// BetaScale is bo.Protocol.BetaScale, which multiplies UCB's β:
	// absent (nil) means bo.Recommended's (bo.DefaultBetaScale), 1 the
	// rule's own β (perf bo's default); anything outside (0,
	// bo.MaxBetaScale] is ErrInvalid.
	BetaScale *float64 `json:"beta_scale,omitempty"`
	Fit       string   `json:"fit,omitempty"`
	Liar      string   `json:"liar,omitempty"`  // "mean" (default) or "worst"
	Prior     string   `json:"prior,omitempty"` // "botorch" or "none"; default bo.Recommended's (botorch)
	Mean      string   `json:"mean,omitempty"`  // "constant" or "sample"; default bo.Recommended's (constant)

	// Landmarks is bo.Config.Landmarks: the landmark cap of every kernel
	// but soft (0: the default, negative: never). Above 0 with kernel
	// soft, which has no landmark form (exact at any n), it is ErrInvalid
	// (refuseInert); a deciding kernel naming soft takes it.
	Landmarks int `json:"landmarks,omitempty"`
	// LandmarkFit is bo.Config.LandmarkFit: "default" (or empty),
	// "subset", "likelihood" or "full".
	LandmarkFit string `json:"landmark_fit,omitempty"`
	// CandidateFit is bo.Config.CandidateFit: "anchored" (or empty,
	// bo.Recommended's) or "own". Given "anchored" with a kernel that
	// does not decide (one candidate) is ErrInvalid (refuseInert).
	CandidateFit string `json:"candidate_fit,omitempty"`
	// Probe is bo.DecideOptions.Probe: "always", "earned" or "off";
	// empty for bo.Recommended's. Given "earned" with a kernel other
	// than a portfolio is ErrInvalid (refuseInert).
	Probe string `json:"probe,omitempty"`
	// ProbeWindow is bo.DecideOptions.ProbeWindow, the BO steps in which
	// a portfolio's fixed-point probe may fire (a portfolio naming avg;
	// the default kernel names none and has no probe): absent (nil) means
	// bo.Recommended's (bo.DefaultProbeWindow), 0 no limit (as in bo and
	// perf), negative is ErrInvalid, and so is a window above 0 given
	// with a kernel other than a portfolio (refuseInert).
	ProbeWindow *int `json:"probe_window,omitempty"`
	// Hedge is bo.DecideOptions.Hedge with HedgeStarts, for a portfolio
	// kernel: absent (nil) means bo.Recommended's (hedged, with
	// bo.DefaultHedgeStarts ascents), 0 no hedging (one proposal per
	// candidate, the portfolio before hedging and perf bo's default), S
	// in [1, bo.DefaultStarts] hedged with S ascents; anything else is
	// ErrInvalid, and so is S ≥ 1 with a kernel other than a portfolio
	// (refuseInert).
	Hedge *int `json:"hedge,omitempty"`
	// AllowRepeats turns off bo.Config.ExcludeObserved, which the front
	// ends set (bo.Recommended's): false (absent) means no BO step
	// proposes a point within the exclusion radius of an observed point's
	// orbit; true lets one return to an observed point, as perf bo does
	// (for a noisy objective that wants repeats).
	AllowRepeats bool `json:"allow_repeats,omitempty"`
	// Normalize is bo.Protocol.Normalize: absent (nil) bo.Recommended's
	// (true), false the raw coordinates (perf bo's default).
	Normalize *bool `json:"normalize,omitempty"`
	// ARD is bo.Protocol.ARD: absent (nil) bo.Recommended's (true), false
	// one lengthscale (perf bo's default).
	ARD *bool `json:"ard,omitempty"`
}

// Optimizer returns the optimizer of the settings (backend be, nil for the
// default). Its memory budget (bo.Config.Budget) is the settings'
// mem_budget, else def (0: budget.Default).
func (s SuggestSettings) Optimizer(be linalg.Backend, def int64) (*bo.Optimizer, error) {
	limit, err := s.Budget(def)
	if err != nil {
		return nil, err
	}
	if s.Init != nil && (*s.Init < 1 || *s.Init > bo.MaxEvaluations) {
		return nil, invalid("init = %d outside [1, %d]", *s.Init, bo.MaxEvaluations)
	}
	var lo, hi []float64
	var g orbit.Group
	shape := kernel.RBF
	minimize := s.Minimize != nil && *s.Minimize
	switch {
	case s.Problem != "" && s.Group.Group != "":
		return nil, invalid("give problem or group, not both")
	case s.Problem != "":
		if s.Box != nil || s.Block != 0 || s.Matrices != "" || s.Coords != nil {
			return nil, invalid("box, block, matrices and coords are not used with problem")
		}
		p, err := problem.New(s.Problem, s.D)
		if err != nil {
			return nil, err
		}
		lo, hi = p.Bounds()
		g, shape = p.Group(), p.BaseShape()
		if s.Minimize != nil && *s.Minimize == p.Maximize() {
			if p.Maximize() {
				return nil, invalid("%s is maximized; minimize must be false", p.Name())
			}
			return nil, invalid("%s is minimized; minimize must be true (or left out for its direction)", p.Name())
		}
		minimize = !p.Maximize()
	case s.Group.Group != "":
		if s.Box == nil {
			return nil, invalid("group needs box")
		}
		// An optimizer's bound, below the groups' (orbit.MaxDim): the
		// one message names the limit that applies.
		if s.Group.D > bo.MaxDim {
			return nil, invalid("d = %d, want 1 ≤ d ≤ %d for an optimizer", s.Group.D, bo.MaxDim)
		}
		var err error
		if lo, hi, err = s.Group.box(); err != nil {
			return nil, err
		}
		if g, err = s.Group.build(); err != nil {
			return nil, err
		}
	default:
		return nil, invalid("need problem or group")
	}
	if s.Base != "" {
		var err error
		if shape, err = kernel.ParseShape(s.Base); err != nil {
			return nil, invalid("%v", err)
		}
	}
	// The front ends' configuration is bo.Recommended's, with the
	// settings on top: what is unset keeps its recommended value.
	cfg, err := bo.Recommended(g, shape)
	if err != nil {
		return nil, err
	}
	cfg.Minimize, cfg.Backend, cfg.Landmarks, cfg.Budget = minimize, be, s.Landmarks, limit
	if s.Init != nil {
		cfg.Init = *s.Init
	}
	dec := cfg.Kernel.Options()
	if strings.TrimSpace(s.Kernel) != "" {
		if cfg.Kernel, err = bo.ParseKernel(s.Kernel, g, shape); err != nil {
			return nil, err
		}
	}
	if s.Acq != "" {
		if cfg.Acquisition, err = bo.ParseAcquisition(s.Acq); err != nil {
			return nil, err
		}
	}
	if s.Beta != "" {
		if cfg.Beta, err = bo.ParseBeta(s.Beta); err != nil {
			return nil, err
		}
	}
	if b := s.BetaScale; b != nil {
		if !(*b > 0 && *b <= bo.MaxBetaScale) {
			return nil, invalid("beta_scale must be a number in (0, %g] (1: the rule's own β), got %v", float64(bo.MaxBetaScale), *b)
		}
		cfg.BetaScale = *b
	}
	switch strings.ToLower(s.Fit) {
	case "", "own":
	case "base":
		cfg.FitMode = gp.ModeBase
	default:
		return nil, invalid("fit must be own or base, got %q", s.Fit)
	}
	if strings.TrimSpace(s.Prior) != "" {
		if cfg.Prior, err = gp.ParsePrior(s.Prior); err != nil {
			return nil, invalid("%v", err)
		}
	}
	if s.Liar != "" {
		if cfg.Liar, err = bo.ParseLiar(s.Liar); err != nil {
			return nil, err
		}
	}
	if strings.TrimSpace(s.Mean) != "" {
		if cfg.Mean, err = gp.ParseMean(s.Mean); err != nil {
			return nil, invalid("%v", err)
		}
	}
	if cfg.LandmarkFit, err = gp.ParseLandmarkFit(s.LandmarkFit); err != nil {
		return nil, invalid("%v", err)
	}
	if strings.TrimSpace(s.CandidateFit) != "" {
		if dec.CandidateFit, err = bo.ParseCandidateFit(s.CandidateFit); err != nil {
			return nil, err
		}
	}
	if strings.TrimSpace(s.Probe) != "" {
		if dec.Probe, err = bo.ParseProbeRule(s.Probe); err != nil {
			return nil, err
		}
	}
	if w := s.ProbeWindow; w != nil {
		if *w < 0 || *w > bo.MaxEvaluations {
			return nil, invalid("probe_window must lie in [0, %d] (0: no limit), got %d", bo.MaxEvaluations, *w)
		}
		dec.ProbeWindow = *w
	}
	if h := s.Hedge; h != nil {
		if *h < 0 || *h > bo.DefaultStarts {
			return nil, invalid("hedge must lie in [0, %d] (0: no hedging), got %d", bo.DefaultStarts, *h)
		}
		dec.Hedge, dec.HedgeStarts = *h > 0, *h
	}
	if err := s.refuseInert(cfg.Kernel, dec); err != nil {
		return nil, err
	}
	cfg.Kernel = cfg.Kernel.With(dec)
	if s.AllowRepeats {
		cfg.ExcludeObserved, cfg.StepAside = false, false
	}
	if s.Normalize != nil {
		cfg.Normalize = *s.Normalize
	}
	if s.ARD != nil {
		cfg.ARD = *s.ARD
	}
	return bo.New(lo, hi, cfg, s.Seed)
}

// refuseInert refuses a deciding kernel's setting, or landmarks, given
// explicitly (dec: the values parsed from s) with the kernel k, which
// cannot act on it (RefuseInert, the rule perf bo shares). Absent settings are
// bo.Recommended's, not the caller's, and are not checked.
func (s SuggestSettings) refuseInert(k bo.Kernel, dec bo.DecideOptions) error {
	given := func(key string) bool {
		switch key {
		case "hedge":
			return s.Hedge != nil
		case "probe":
			return strings.TrimSpace(s.Probe) != ""
		case "probe_window":
			return s.ProbeWindow != nil
		case "candidate_fit":
			return strings.TrimSpace(s.CandidateFit) != ""
		case "landmarks":
			return s.Landmarks != 0
		}
		return false
	}
	return RefuseInert([]string{k.Name()}, dec, s.Landmarks, given, nil)
}

// RowError is a history, pending or failed row (0-based) the optimizer
// refused.
type RowError struct {
	Input string // "history", "pending" or "failed"
	Row   int
	Err   error
}

func (e *RowError) Error() string { return fmt.Sprintf("%s row %d: %v", e.Input, e.Row, e.Err) }
func (e *RowError) Unwrap() error { return e.Err }

// ErrClass classifies a RowError as bad input (errclass.Input), whatever
// the row ran into: the row is the caller's.
func (e *RowError) ErrClass() errclass.Class { return errclass.Input }

var _ errclass.Classifier = (*RowError)(nil)

// Record tells opt the history (hx n×d with values hy; hx nil for none),
// in row order, then records the pending points and the failed points
// (nil for none) as one state with bo.Optimizer.Record, as a restored
// History holds them: a row both pending and failed stays both (a point
// retried after it failed), and a failed row that is a history point is
// left out (the observation supersedes the failure, as with
// bo.Optimizer.Fail). It costs O(rows·d) (expected): the study a front end hands
// over, recorded the one way perf suggest and the C ABI share. Errors
// name the offending row (0-based) in a RowError; opt then holds the
// history rows before it (and no pending or failed row).
func Record(opt *bo.Optimizer, hx *mat.Dense, hy []float64, pending, failed *mat.Dense) error {
	if hx != nil {
		n, _ := hx.Dims()
		if len(hy) != n {
			return invalid("%d history points but %d values", n, len(hy))
		}
		for i := range n {
			if err := opt.Tell(hx.RawRowView(i), hy[i]); err != nil {
				return &RowError{Input: "history", Row: i, Err: err}
			}
		}
	} else if len(hy) != 0 {
		return invalid("no history points but %d values", len(hy))
	}
	err := opt.Record(rowsOf(pending), rowsOf(failed))
	var pe *bo.PointError
	if errors.As(err, &pe) {
		return &RowError{Input: pe.List, Row: pe.Index, Err: pe.Err}
	}
	return err
}

// rowsOf returns m's rows (views, not copies), nil for a nil m.
func rowsOf(m *mat.Dense) [][]float64 {
	if m == nil {
		return nil
	}
	n, _ := m.Dims()
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = m.RawRowView(i)
	}
	return rows
}

// Suggest records the study in opt (fresh, from SuggestSettings.Optimizer)
// with Record — history, pending points, failed points — and returns its
// next q points (q×d): AskBatch's, a batch the search space runs out of
// midway named as the C ABI's q ("q =").
func Suggest(opt *bo.Optimizer, hx *mat.Dense, hy []float64, pending, failed *mat.Dense, q int) (*mat.Dense, error) {
	if err := Record(opt, hx, hy, pending, failed); err != nil {
		return nil, err
	}
	pts, err := AskBatch(opt, q, "q =")
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(len(pts), len(pts[0]), nil)
	for i, x := range pts {
		out.SetRow(i, x)
	}
	return out, nil
}

// AskBatch returns opt's next q points (1 ≤ q ≤ bo.MaxBatch), recorded as
// pending, asking them one at a time as bo's AskBatch does (the same
// bits). All or nothing, as bo's: on an error the points already asked
// are cancelled, and no point is returned. A batch the search space runs
// out of midway is refused saying how many of its points could be
// proposed and that a smaller q returns them (ExhaustedBatch; qName is
// how the front end spells q: "--q" for perf suggest, "q =" for the C ABI
// and Python). It is the batch ask of every front end: perf suggest, the
// C ABI's symbo_suggest and its optimizer handles' ask_batch and suggest.
func AskBatch(opt *bo.Optimizer, q int, qName string) ([][]float64, error) {
	if q < 1 || q > bo.MaxBatch {
		return nil, invalid("%s %d outside [1, %d]", qName, q, bo.MaxBatch)
	}
	pts := make([][]float64, 0, q)
	for range q {
		x, err := opt.Ask()
		if err != nil {
			for _, p := range pts {
				opt.Cancel(p)
			}
			return nil, ExhaustedBatch(err, len(pts), q, qName)
		}
		pts = append(pts, x)
	}
	return pts, nil
}

// ExhaustedBatch returns the error of a batch of q points whose ask
// failed with err after proposed of them: err itself, unless it is
// bo.ErrSpaceExhausted after at least one point, which it wraps (its
// class and its message's start kept) saying how many of the q points
// could be proposed and that a batch of that many (qName, as the front
// end spells q) returns them. bo's message alone counts the batch's first
// points among the pending ones, which the caller's input does not hold,
// and hides that a smaller q would succeed.
func ExhaustedBatch(err error, proposed, q int, qName string) error {
	if proposed < 1 || !errors.Is(err, bo.ErrSpaceExhausted) {
		return err
	}
	return fmt.Errorf("%w; only %d of the %s %d points could be proposed (the points counted above include them): %s %d returns those",
		err, proposed, qName, q, qName, proposed)
}
