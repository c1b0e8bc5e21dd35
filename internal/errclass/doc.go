// Package errclass classifies errors once, where they are defined, so that
// every front end maps a class — not a hand list of sentinels — to what
// its user sees:
//
//	class     perf exit status   C status           Python
//	Input     2                  SYMBO_EINVAL       InvalidInput
//	Size      2                  SYMBO_ESIZE        SizeError
//	Internal  1                  SYMBO_EINTERNAL    InternalError
//
// A package declares its sentinels with New (the class and the message
// together: ErrX = errclass.New(errclass.Input, "pkg: …")); an error type
// that means bad input (a row or file error, a flag error) has a method
// ErrClass() Class. Of reads the class of any error, wrapped or not. The
// package imports nothing of symbo's, so every package may use it.
//
// # Which class
//
// Input: the caller's input alone can cause it, and the caller can fix it
// by changing the input — settings and options, names (of groups, kernels,
// problems, backends), dimensions and lengths, points and values (NaN,
// ±Inf, outside the box), files (syntax, a corrupt journal, a symbolic
// link where a regular file is needed), a history that does not match, a
// feature this build lacks asked for by name, and magnitudes so extreme
// that a result the library computes from them is not finite (a Gram of
// variance 1e308, a prediction that overflows).
//
// Size: a request larger than the memory budget, or an output buffer
// smaller than the result: the input is well formed but too big for the
// limits it was given.
//
// Internal: everything else — numerical failures on matrices the library
// built itself (a covariance that stays non-positive-definite after the
// GP's jitter, an eigensolver that does not converge), markers a package
// catches itself (a family without a derivative, a skipped row), I/O
// failures, bugs. Internal is the zero Class: an error nothing classifies
// is Internal, so a forgotten classification is reported as the library's
// failure, never hidden as the user's. A sentinel that is Internal on
// purpose says so (New(Internal, …)); this package's test
// (TestSentinelsClassified) fails for a package-level sentinel made with
// errors.New.
//
// # Invariants
//
// New's errors keep their identity: errors.Is(err, ErrX) is how callers
// test for them, and wrapping (fmt.Errorf("…: %w", ErrX), several %w,
// Unwrap() []error) keeps the class. Of looks at every error in the tree:
// Input if any error in it is Input, else Size if any is Size, else
// Internal — an error the input explains is the input's whatever else it
// ran into (a history row refused because the fit it caused failed).
//
// # Cost
//
// Of visits each error of the tree at most once, depth first, stopping at
// the first Input: O(size of the tree) calls of Unwrap and ErrClass. New
// and the sentinels' methods are O(1).
//
// # Concurrency
//
// Everything is immutable; safe for concurrent use.
//
// # Errors
//
// The package returns no errors of its own.
package errclass
