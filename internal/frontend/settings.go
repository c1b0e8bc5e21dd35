package frontend

// A Setting is one setting of an optimizer as the front ends take it —
// the one table that defines each: its key in the JSON settings
// (SuggestSettings, the C ABI), its perf suggest flag, its keyword in
// Python's symbo.Optimizer and in the Optuna SymboSampler, its values,
// what leaving it out means, and a line of doc. A value means the same
// everywhere; leaving a setting out means bo.Recommended's value (or the
// default named).
//
// Tests hold every front end to it: SuggestSettings' JSON fields
// (TestSettingsTableJSON), perf suggest's flags (cmd/perf), symbo.h's
// list of keys and Python's keyword arguments (TestSettingsTableFiles).
// A deciding kernel's settings (candidate_fit, probe_window, probe,
// hedge), and landmarks, given explicitly with a kernel they cannot act
// on (landmarks: soft) are refused, naming the setting and the kernel,
// except at the values that ask for nothing that kernel lacks (each row's doc says which; perf bo's values,
// which perf suggest -h's recipe gives for every kernel, among them):
// SuggestSettings.Optimizer (refuseInert).
//
// To add a setting: a row here, then the field, the flag, the line in
// symbo.h and the keyword, which those tests then require.
type Setting struct {
	Key     string // JSON key
	Flag    string // perf suggest's flag ("" if it has none)
	Python  string // symbo.Optimizer's keyword ("" if it has none)
	Sampler string // SymboSampler's keyword ("" if it has none)
	Values  string // the values it takes
	Absent  string // what leaving it out means
	Doc     string
}

// Settings is the table of every setting, in the order the docs list
// them.
var Settings = []Setting{
	{"problem", "problem", "", "", "a benchmark's name (perf eval -h)", "a group and box of one's own", "a benchmark: its box, group, base kernel and direction"},
	{"group", "group", "group", "group", "none, signflip, permutation, hyperoctahedral, blockperm, pairedperm, cyclic, rotation2d, scaling, scalingdir, matrices", "required without problem", "the group the objective is invariant under"},
	{"d", "d", "", "", "1 to 1000", "required with group (Python: the box's length)", "the dimension"},
	{"box", "box", "", "", "[[lo…], [hi…]], one or d values each (perf suggest: LO:HI[,…]; Python: lo, hi)", "required with group", "the search box, lo < hi in every coordinate"},
	{"block", "block", "block", "block", "an integer ≥ 1", "required by blockperm only (refused with another group)", "the block size of blockperm"},
	{"matrices", "matrices", "matrices", "matrices", "a JSON file of orthogonal matrices", "required by matrices only (refused with another group)", "the group's generators"},
	{"coords", "coords", "coords", "", "0-based coordinate indices, not empty", "every coordinate", "the coordinates the group acts on (the identity on the others); the sampler takes params instead"},
	{"mem_budget", "mem-budget", "mem_budget", "mem_budget", "a whole number of bytes with B, KiB, MiB, GiB or TiB (Python: or an int of bytes)", "the front end's: 8 GiB or $SYMBO_MEMORY_BUDGET", "the largest memory one request may allocate"},
	{"kernel", "kernel", "kernel", "kernel", "base, nystrom, avg, avgnorm, max, plus, soft, auto, portfolio, or auto:/portfolio: with candidates", "bo.Recommended's: portfolio:nystrom:soft+plus", "the GP kernel"},
	{"base", "base", "base", "base", "rbf, matern12, matern32, matern52", "the problem's, else rbf", "the base kernel's shape"},
	{"seed", "seed", "seed", "seed", "an integer ≥ 0", "0 (the sampler: a fresh seed)", "the random seed"},
	{"minimize", "minimize", "minimize", "", "true or false", "false (the problem's direction; the sampler: the study's)", "minimize y instead of maximizing it"},
	{"init", "init", "init", "n_startup_trials", "an integer ≥ 1", "5", "the uniform random initial points"},
	{"acq", "acq", "acq", "acq", "ucb, ei", "ucb", "the acquisition function"},
	{"beta", "beta", "beta", "beta", "paper, authors", "paper", "UCB's exploration rule"},
	{"beta_scale", "beta-scale", "beta_scale", "beta_scale", "a number in (0, 1e6]: 1 the rule's own β", "bo.Recommended's: 0.25", "multiplies UCB's β: below 1 each step explores less"},
	{"fit", "fit", "fit", "fit", "own, base", "own", "whose likelihood fits the hyperparameters"},
	{"liar", "liar", "liar", "liar", "mean, worst", "mean", "the value pending and failed points are told"},
	{"prior", "prior", "prior", "prior", "botorch, none", "bo.Recommended's: botorch", "the hyperparameter priors"},
	{"mean", "mean", "mean", "mean", "constant, sample", "bo.Recommended's: constant", "the GP's prior mean"},
	{"landmarks", "landmarks", "landmarks", "landmarks", "an integer: 0 the default, negative never", "256", "the landmark cap of every kernel but soft (exact at any n); with kernel soft only 0 and negative are taken, a cap refused (a deciding kernel naming soft takes it: soft sits out above the cap)"},
	{"landmark_fit", "landmark-fit", "landmark_fit", "landmark_fit", "default, subset, likelihood, full", "default", "how a GP with landmarks is fitted"},
	{"candidate_fit", "candidate-fit", "candidate_fit", "candidate_fit", "anchored, own", "bo.Recommended's: anchored", "how a deciding kernel's candidates fit; with a single kernel only own (its own fit) is taken, anchored refused"},
	{"probe_window", "probe-window", "probe_window", "probe_window", "an integer ≥ 0: 0 no limit", "bo.Recommended's: 5", "the BO steps in which a portfolio's fixed-point probe may fire (a portfolio naming avg; the default names none, so has no probe, and takes it all the same); with auto or a single kernel only 0 is taken, a window refused"},
	{"probe", "probe", "probe", "probe", "always, earned, off", "bo.Recommended's: earned", "when a portfolio's fixed-point probe fires (a portfolio naming avg; the default has none, and takes it all the same): earned only where the referee's own acquisition rates its point as high as the proposal its means picked; with auto or a single kernel only always and off are taken, earned refused"},
	{"hedge", "hedge", "hedge", "hedge", "an integer from 0 to 10: 0 no hedging", "bo.Recommended's: 1", "a portfolio's hedging: each candidate also proposes EI's maximizer beside UCB's, from this many ascents, and the referee's posterior mean picks among every proposal; with auto or a single kernel only 0 is taken, hedging refused"},
	{"normalize", "normalize", "normalize", "normalize", "true or false", "bo.Recommended's: true", "fit and search in coordinates normalized by maps the group commutes with, so that units do not matter; false is the paper's raw coordinates"},
	{"ard", "ard", "ard", "ard", "true or false", "bo.Recommended's: true", "a lengthscale per class of coordinates the group allows (those it mixes share one); false is the paper's one lengthscale"},
	{"allow_repeats", "allow-repeats", "allow_repeats", "allow_repeats", "true or false", "false: no step proposes an observed point's orbit", "let a step return to an observed point (a noisy objective)"},
}
