// Package csvio reads and writes point files: CSV without a header, one
// point per row, coordinates separated by commas.
//
//	0.5,-1.25,3
//	2,0,1e-3
//
// Spaces and tabs around a field are ignored, lines may end in "\n" or
// "\r\n", a UTF-8 byte-order mark before the first line is skipped, and blank
// lines are allowed only at the end of the file (so a trailing newline, or a
// few, is fine). Every field is a decimal (or Go hexadecimal) floating-point
// number as accepted by strconv.ParseFloat, without digit-separating
// underscores; NaN, ±Inf and values that overflow float64 are rejected.
// Options{Header: true} also accepts one header row (e.g. "x1,x2,y") as the
// first line; the strict dialect, ReadPoints and ParsePoints, refuses it.
//
// Reading is bounded by the memory budget (Options.Budget, a value the
// caller passes; 0 means internal/budget's Default) whatever the input is — a regular file, a pipe, a FIFO, a device that never ends:
// at most budget/4 bytes are read (a regular file larger than that is
// refused before reading), one line of at most MaxLine bytes is buffered,
// and the values parsed so far are counted against the budget as they
// grow.
//
// # Invariants
//
// A successfully read file gives an n×d matrix with n ≥ 1, d ≥ 1, every
// entry finite, row i holding line i+1 of the file. WritePoints writes every
// float in shortest round-trip form, so ParsePoints(WritePoints(x)) == x bit
// for bit (with -0 read back as -0).
//
// # Concurrency
//
// Functions keep no state; they are safe for concurrent use on distinct
// readers and writers.
//
// A regular file another process writes while Read or ReadSkipped reads
// it (its size or modification time moves, or the bytes read are not its
// size) is read again, unless what was read ends in "\n" (whole lines;
// rows appended meanwhile are the next read's), up to ReadAttempts times,
// then refused: a read does not return a line half written by a writer
// still at work, which would otherwise parse if it is the last ("0.3,0.4,2"
// of "0.3,0.4,25"). A writer that stopped halfway before the read began
// and resumes only after it ends is not seen: writers append whole lines
// in one write, or write a file elsewhere and rename it into place.
//
// # Errors
//
// Errors are *Error values naming the file (as the caller spelled it), the
// 1-based line and, for a bad field, the 1-based column (field index), in the
// compiler's "file:line:col: message" form, e.g.
//
//	pts.csv:3:2: "abc" is not a number
//	pts.csv:4: row has 3 fields, want 5 (as in line 1)
//	x.csv: empty file
//
// A line that looks written in another dialect — semicolons between fields
// (a spreadsheet in a locale with decimal commas), quotes, tabs, NUL
// bytes (a UTF-16 file), lone CRs between lines, a row of empty fields (a
// spreadsheet's empty row), or, with Options.Header, a first line of
// names that is no header row (pandas' unnamed index column leaves its
// first name empty) — has its error end in advice saying so, e.g.
//
//	h.csv:1:1: empty field; line 1 is not read as a header row, whose fields must all be names: field 1 is empty
//
// This form is meant to be printed to a user as is, so the message does not
// carry the usual "csvio: " package prefix. Failures to open or read the
// file are returned wrapped (errors.Is(err, fs.ErrNotExist) works). An
// *Error is an input error (its ErrClass; internal/errclass). A field
// that is NaN or ±Inf is an *Error wrapping ErrNotFinite, an empty one
// (a blank cell) one wrapping ErrEmptyField. A refusal by
// the memory budget (or by MaxLine, or Options.MaxRows) is an *Error too,
// so an input error: it does not wrap orbit.ErrOverBudget and is not a
// Size error, unlike the budget refusals of the other packages.
// WritePoints refuses a NaN or ±Inf entry with a plain "csvio: …" error
// (no class: it is the caller's bug, not the user's input) before writing
// anything, and returns the writer's errors wrapped ("csvio: …").
//
// # Cost
//
// Reading is one pass over the input: O(B) time for B bytes (each field
// parsed once), n·d float64s for the result plus the slice's growth
// (counted against the budget as above) and one line buffer of at most
// MaxLine bytes. A regular file's size is checked against the budget in
// O(1) before anything is read. WritePoints is O(n·d).
package csvio
