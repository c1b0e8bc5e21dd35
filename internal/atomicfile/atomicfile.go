// Package atomicfile writes files so that a reader never sees a partial
// one: the data goes to a temporary file in the target's directory, which
// is flushed to disk (fsync) and renamed over the target, and the
// directory is flushed so that the rename survives a crash. An interrupted
// or failed write (a full disk, a signal, a kill) leaves the previous file
// — or no file — in place, never a truncated one. Write, Create and
// WriteFunc write a whole file at once; File takes a stream of writes (a
// profile written while a program runs) and shows it on Commit.
//
// # Symbolic links
//
// A path the user named (Write, Create, WriteFunc, New, CheckWritable) is
// followed if it is a symbolic link: the link stays and its target is
// replaced, as the user asked. A file the caller names inside an output
// directory it owns (the "In" functions: WriteIn, WriteFuncIn, NewIn,
// CheckWritableIn, OpenIn — perf's --out DIR) is never written through a
// symbolic link: a link at dir/name is replaced by the new regular file
// and its target is left untouched, so a link planted in the directory
// cannot make a write land outside it; OpenIn, which reads and appends in
// place, refuses a link. name is one path element (no separator), so no
// symbolic link inside dir is followed either; dir itself is the user's
// and may be one.
//
// # Errors
//
// Errors wrap the os errors (errors.Is(err, fs.ErrExist) for Create on an
// existing path, fs.ErrNotExist for a missing directory, ENOSPC …), which
// carry no class (internal/errclass: Internal). A symbolic link that OpenIn
// (or, where there is no O_NOFOLLOW, a lock file) refuses wraps ErrSymlink;
// a lock another holder has (LockDir, LockFile) wraps ErrLocked; both are
// input errors. A failed flush of the directory after the new file is in
// place (Commit's last step) wraps ErrDirSync as well as the os error: it
// is the one error after which path holds the new data. A name for the
// "In" functions that is not one path element, or a directory or special
// file where a regular file is to be replaced, is a plain error naming
// the path.
//
// # Invariants
//
// A target path shows either its previous contents or the whole new data,
// never a mix: the data reach it by one rename (or one link, for the
// exclusive writes) of a temporary file that was fsync'd first. The only
// failure after that step is the directory's flush (SyncDir): Commit
// then reports an error wrapping ErrDirSync, the new file is already in
// place (with Create and the exclusive writes it is the caller's: no one
// else's link succeeded), and its entry may not survive a crash; every
// other error leaves path as it was. Temporary files are named
// "."+name+".tmp-"+digits beside the target (IsTemp, IsTempOf) and removed
// on every failure reported by an error (not on a panic of WriteFunc's
// fn); one a kill left, the next holder of the target's lock removes
// (RemoveTemps). Where flock(2) exists, the writer holds an exclusive
// flock on its temporary from its creation until it is renamed, linked
// or removed, and the kernel releases it when the writer dies: a
// temporary that can be locked is provably a dead writer's, which
// RemoveStaleTemps removes without the target's lock, leaving a live
// writer's alone. On a file system that does not lock (flock(2) fails
// with ENOSYS, EOPNOTSUPP, ENOLCK or EINVAL) the temporary is written
// unlocked, as where flock(2) does not exist.
//
// # Cost
//
// A whole-file write of B bytes costs O(B) to write, two fsyncs (the file,
// then its directory) and a rename or link; Create and the exclusive
// writes add a link and an unlink. The "In" functions add one Lstat.
// LockDir and LockFile are one flock(2) call each (LockDir retries a
// replaced lock file a bounded number of times); every temporary adds a
// dup(2), a flock(2) and two stats.
//
// # Concurrency
//
// Writes to distinct paths are independent; two writers of one path race,
// and the last rename wins (each file seen is whole). A *File is not safe
// for concurrent use (its Write records the first failure unsynchronized).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/symbo/symbo/internal/errclass"
)

// Write replaces path by data atomically (creating it if needed) with
// permissions perm less the umask (as os.WriteFile's).
func Write(path string, data []byte, perm fs.FileMode) error {
	return WriteFunc(path, perm, false, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Create writes data to path atomically only if path does not exist yet;
// otherwise it fails with an error wrapping fs.ErrExist and leaves path
// untouched.
func Create(path string, data []byte, perm fs.FileMode) error {
	return WriteFunc(path, perm, true, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc writes what fn writes to path atomically. With exclusive it
// fails (fs.ErrExist) if path exists, atomically with respect to other
// creators (the temporary file is hard-linked, not renamed, into place).
// If fn fails nothing is changed and fn's error is returned.
func WriteFunc(path string, perm fs.FileMode, exclusive bool, fn func(io.Writer) error) error {
	f, err := New(path, perm, exclusive)
	if err != nil {
		return err
	}
	return f.fill(fn)
}

// fill writes what fn writes to f and commits it; if fn fails, f is
// aborted (nothing is changed) and fn's error returned (WriteFunc,
// WriteFuncIn).
func (f *File) fill(fn func(io.Writer) error) error {
	if err := fn(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// File is a file written atomically by a stream of writes (e.g. a CPU
// profile written while a program runs): the data go to a temporary file
// in the target's directory, and path shows them, whole, only after Commit.
// Abort, a crash or a Commit that fails before its rename leave the
// previous file, or none (see Commit for a failure of the last step).
type File struct {
	tmp       *os.File
	lock      *os.File // holds the flock on tmp until it is renamed or removed (nil without flock)
	path      string
	exclusive bool
	done      bool
	werr      error // the first failed Write's error, which Commit returns
}

// New starts writing path atomically (see File); exclusive is as for
// WriteFunc.
func New(path string, perm fs.FileMode, exclusive bool) (*File, error) {
	path, err := resolve(path)
	if err != nil {
		return nil, err
	}
	return newFile(path, perm, exclusive)
}

// WriteIn is Write for the file name inside the output directory dir: a
// symbolic link at dir/name is replaced, never written through (see the
// package doc).
func WriteIn(dir, name string, data []byte, perm fs.FileMode) error {
	return WriteFuncIn(dir, name, perm, false, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFuncIn is WriteFunc for the file name inside the output directory
// dir: a symbolic link at dir/name is replaced by the new file (with
// exclusive, it exists: fs.ErrExist), its target untouched.
func WriteFuncIn(dir, name string, perm fs.FileMode, exclusive bool, fn func(io.Writer) error) error {
	f, err := NewIn(dir, name, perm, exclusive)
	if err != nil {
		return err
	}
	return f.fill(fn)
}

// NewIn is New for the file name inside the output directory dir: the
// file shown on Commit replaces whatever entry dir/name is — a regular
// file or a symbolic link, whose target is not touched — and a directory
// or a special file there is refused.
func NewIn(dir, name string, perm fs.FileMode, exclusive bool) (*File, error) {
	path, err := inDir(dir, name)
	if err != nil {
		return nil, err
	}
	return newFile(path, perm, exclusive)
}

// inDir returns dir/name after checking that name is one path element
// and that the entry dir/name, if any, is a regular file or a symbolic
// link (not followed).
func inDir(dir, name string) (string, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') || name != filepath.Base(name) {
		return "", fmt.Errorf("atomicfile: %q is not a file name (one path element)", name)
	}
	path := filepath.Join(dir, name)
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink != 0, fi.Mode().IsRegular():
		return path, nil
	case fi.IsDir():
		return "", fmt.Errorf("%s is a directory", path)
	}
	return "", fmt.Errorf("%s is %s, not a regular file: an atomic write replaces a file", path, Kind(fi.Mode()))
}

func newFile(path string, perm fs.FileMode, exclusive bool) (*File, error) {
	tmp, lock, err := createTemp(filepath.Dir(path), "."+filepath.Base(path)+tmpInfix, perm)
	if err != nil {
		return nil, err
	}
	return &File{tmp: tmp, lock: lock, path: path, exclusive: exclusive}, nil
}

// createTemp creates a new file named prefix and a random number in dir
// with permissions perm less the process's umask — as os.WriteFile's are,
// the kernel applying the umask as it creates the file (os.CreateTemp's
// are 0600, and a chmod to perm would not be masked) — and locks it
// (lockTemp): lock holds the lock until it is closed, which the caller
// does only after the temporary is renamed or removed. A temporary that
// a RemoveStaleTemps locked first (between the create and the lock), or
// removed before the lock, is left to it and another name is tried.
func createTemp(dir, prefix string, perm fs.FileMode) (f, lock *os.File, err error) {
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		lock, err := lockTemp(f)
		if errors.Is(err, errWouldBlock) {
			f.Close() // a remover holds it and removes it
			continue
		}
		if cannotLock(err) {
			// The file system does not lock (Lustre without -o flock,
			// say): the temporary stays unlocked, as where flock(2)
			// does not exist, and a RemoveStaleTemps, which cannot lock
			// it either, leaves it alone. The lock only tells dead
			// writers' temporaries apart: a write needs none.
			return f, nil, nil
		}
		if err != nil {
			f.Close()
			os.Remove(name)
			return nil, nil, fmt.Errorf("atomicfile: locking %s: %w", name, err)
		}
		held, err1 := f.Stat()
		named, err2 := os.Lstat(name)
		if err1 != nil || err2 != nil || !os.SameFile(held, named) {
			// Removed (as stale) before the lock: the name is not ours.
			lock.Close()
			f.Close()
			continue
		}
		return f, lock, nil
	}
	return nil, nil, fmt.Errorf("atomicfile: no free temporary name %s* in %s", prefix, dir)
}

// The temporary files are named "." + the target's name + an infix + a
// random number, in the target's directory.
const (
	tmpInfix   = ".tmp-"
	probeInfix = ".probe-"
)

// IsTemp reports whether a directory entry's name is one of this package's
// temporary files, which a crash (kill -9, power loss) may leave behind: a
// caller that wants an empty directory can ignore them, and they may be
// removed once no writer runs. The lock file of LockDir counts as one.
func IsTemp(name string) bool {
	if name == LockName {
		return true // a killed LockDir holder's
	}
	if !strings.HasPrefix(name, ".") {
		return false
	}
	for _, in := range []string{tmpInfix, probeInfix} {
		if i := strings.LastIndex(name, in); i > 1 {
			rest := name[i+len(in):]
			if rest != "" && strings.Trim(rest, "0123456789") == "" {
				return true
			}
		}
	}
	return false
}

// IsTempOf reports whether entry, a directory entry's name, is a
// temporary file this package made while writing the file name beside it:
// "."+name+".tmp-"+digits (New and the writes built on it) or
// "."+name+".probe-"+digits (CheckWritable's probe) — what a writer
// killed before its rename or removal leaves. Any other entry, a
// temporary of another name included, is not.
func IsTempOf(name, entry string) bool {
	for _, in := range []string{tmpInfix, probeInfix} {
		if rest, ok := strings.CutPrefix(entry, "."+name+in); ok {
			return rest != "" && strings.Trim(rest, "0123456789") == ""
		}
	}
	return false
}

// RemoveStaleTemps removes from dir the regular files that are
// temporaries of the files names (IsTempOf) and provably stale — their
// writer is gone — and returns the paths it removed. A writer holds a
// flock(2) on its temporary until it renames or removes it (see New), and
// the kernel releases it when the writer dies, so a temporary that
// RemoveStaleTemps can lock (without waiting) is a dead writer's; one
// whose lock is held, a live writer's in this process or another, is
// left alone. It needs no lock on the targets: two runs writing one
// path (perf bo --json X --force twice) may both call it. A temporary
// made by a version that did not lock its temporaries counts as stale.
// Where flock(2) does not exist, or the file system does not lock
// (ENOSYS, EOPNOTSUPP, ENOLCK, EINVAL: there New's temporaries are not
// locked, and writes work as elsewhere), nothing can be proved and
// nothing is removed. A temporary it cannot open, lock or remove does
// not stop it: it tries every one and returns, with the paths removed,
// the errors joined (errors.Join), each naming its path; an error reading
// dir ends the walk after the entries read before it.
func RemoveStaleTemps(dir string, names ...string) ([]string, error) {
	if !haveFlock {
		return nil, nil
	}
	return removeTempsBy(dir, names, removeIfUnlocked)
}

// removeTempsBy calls remove on each regular file in dir that is a
// temporary of one of names (IsTempOf), in directory order — the entries
// read before an error reading dir, if one occurs — and returns the paths
// it reports removed and the errors (reading dir, then remove's, in that
// order) joined. The walk of RemoveTemps and RemoveStaleTemps, which
// differ in remove.
func removeTempsBy(dir string, names []string, remove func(path string) (bool, error)) ([]string, error) {
	entries, err := os.ReadDir(dir)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !slices.ContainsFunc(names, func(n string) bool { return IsTempOf(n, e.Name()) }) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		gone, err := remove(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if gone {
			removed = append(removed, path)
		}
	}
	return removed, errors.Join(errs...)
}

// removeIfUnlocked removes the temporary at path if it can take its lock
// without waiting (its writer is gone), holding the lock while it
// removes it, so that a writer that created it and has not locked it yet
// finds it taken and moves to another name (createTemp). It reports
// whether it removed the file; a file gone or replaced meanwhile is not
// an error.
func removeIfUnlocked(path string) (bool, error) {
	// The entry was a regular file when the directory was read; one
	// replaced since by a FIFO would make a blocking open wait for a
	// writer, for ever (O_NONBLOCK), and is no temporary (IsRegular).
	f, err := openNoFollow(path, os.O_RDONLY|oNonblock)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil // renamed into place or removed by its writer
	case err != nil:
		return false, err
	}
	defer f.Close()
	switch err := flockTemp(f); {
	case errors.Is(err, errWouldBlock):
		return false, nil // a live writer's
	case cannotLock(err):
		return false, nil // a file system that does not lock: nothing can be proved
	case err != nil:
		return false, fmt.Errorf("atomicfile: locking %s: %w", path, err)
	}
	held, err1 := f.Stat()
	named, err2 := os.Lstat(path)
	if err1 != nil || err2 != nil || !held.Mode().IsRegular() || !os.SameFile(held, named) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// RemoveTemps removes from dir the regular files that are temporaries of
// the files names (IsTempOf), left there by writers that were killed, and
// returns the paths it removed; a directory, a symbolic link or any other
// entry is left alone. Call it only while no writer of those names runs
// (holding the lock that excludes them): a running writer's temporary
// would be removed too; without such a lock, RemoveStaleTemps. A file it
// cannot remove does not stop it: it tries every one and returns, with
// the paths removed, the errors joined (errors.Join), each naming its
// path; an error reading dir ends the walk after the entries read before
// it.
func RemoveTemps(dir string, names ...string) ([]string, error) {
	return removeTempsBy(dir, names, func(path string) (bool, error) {
		// A file gone meanwhile still counts as removed.
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		return true, nil
	})
}

// resolve returns the file that writing path replaces: path itself, or the
// file a symbolic link at path points to (the link stays, its target is
// replaced). It refuses an existing path that is not a regular file — a
// directory, a device such as /dev/null or /dev/stdout, a FIFO — since a
// rename over it would replace the special file itself (as root, the
// device node), and a dangling link.
func resolve(path string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		t, err := filepath.EvalSymlinks(path)
		if err != nil {
			return "", fmt.Errorf("%s: symbolic link: %w", path, err)
		}
		if fi, err = os.Stat(t); err != nil {
			return "", err
		}
		path = t
	}
	switch {
	case fi.IsDir():
		return "", fmt.Errorf("%s is a directory", path)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is %s, not a regular file: an atomic write replaces a file", path, Kind(fi.Mode()))
	}
	return path, nil
}

// Kind names the kind of a file that is not a regular one ("a
// directory", "a FIFO or pipe", …), for messages that refuse it.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO or pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// Write appends p to the temporary file. A failed write is remembered:
// Commit then fails with its error, whether or not the writer (a CPU
// profile's, which drops write errors) took notice, so that a truncated
// file is never shown.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.tmp.Write(p)
	if err != nil && f.werr == nil {
		f.werr = err
	}
	return n, err
}

// Commit flushes the data to disk and puts them at path (renamed over it,
// or linked with exclusive), then flushes the directory. On an error
// before the rename or link — a Write that failed before it included —
// path is unchanged and the temporary file is removed. An error from the
// directory's flush, the last step, comes after the new file is in place:
// it wraps ErrDirSync (and the flush's error), and path then holds the
// new data, whose rename or link may not survive a crash.
func (f *File) Commit() (err error) {
	if f.done {
		return fmt.Errorf("atomicfile: %s already committed or aborted", f.path)
	}
	f.done = true
	name := f.tmp.Name()
	placed := false
	defer func() {
		if err != nil && !placed {
			f.tmp.Close()
			os.Remove(name)
		}
		// The temporary name is gone (renamed, linked and removed, or
		// removed): its lock may go.
		f.lock.Close()
	}()
	if f.werr != nil {
		return f.werr
	}
	if err = f.tmp.Sync(); err != nil {
		return err
	}
	if err = f.tmp.Close(); err != nil {
		return err
	}
	if f.exclusive {
		if err = os.Link(name, f.path); err != nil {
			return err
		}
		os.Remove(name)
	} else if err = os.Rename(name, f.path); err != nil {
		return err
	}
	// In place: the temporary name is gone (another writer may take it
	// now), so a failure from here on removes nothing.
	placed = true
	if err = syncDir(filepath.Dir(f.path)); err != nil {
		return fmt.Errorf("%w (%s): %w", ErrDirSync, f.path, err)
	}
	return nil
}

// ErrDirSync reports that Commit put the new file at its path but the
// flush of its directory (SyncDir) then failed: path holds the new data,
// and its rename or link may not survive a crash. A caller of Create (or
// of an exclusive write) that gets it owns the file it made, and may
// remove it. The error wraps the flush's too.
var ErrDirSync = errclass.New(errclass.Internal, "atomicfile: flushing the directory failed after the file was put in place")

// syncDir is SyncDir, Commit's last step (a test substitutes a failing
// one).
var syncDir = SyncDir

// Abort discards what was written; path is unchanged. Abort after Commit
// does nothing.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
	f.lock.Close()
}

// SyncDir flushes a directory, so that entries created or renamed in it
// survive a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err
	}
	return nil
}

// CheckWritableIn is CheckWritable for the file name inside the output
// directory dir (see NewIn): a symbolic link there is not followed (it
// would be replaced), so the check is of dir itself.
func CheckWritableIn(dir, name string, overwrite bool) error {
	path, err := inDir(dir, name)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return fmt.Errorf("%s: %w", path, fs.ErrExist)
	}
	return probe(dir, name)
}

// OpenIn opens the existing file name inside the output directory dir
// with flag (os.O_RDWR, …) for reading or appending in place, refusing a
// symbolic link at dir/name (an error wrapping ErrSymlink), so that
// nothing outside dir is read or written as if it were dir's.
func OpenIn(dir, name string, flag int) (*os.File, error) {
	path, err := inDir(dir, name)
	if err != nil {
		return nil, err
	}
	f, err := openNoFollow(path, flag)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s %w; it must be a regular file of the directory (remove the link)", path, ErrSymlink)
		}
		return nil, err
	}
	return f, nil
}

// ErrSymlink reports a symbolic link where OpenIn needs the directory's
// own regular file: an input error (the user removes the link).
var ErrSymlink = errclass.New(errclass.Input, "is a symbolic link")

// CheckWritable reports, before any long computation, whether a file could
// be written at path: its directory (a symbolic link's target's) must exist
// and accept a new file (it creates and removes a temporary one there). It
// fails with an error wrapping fs.ErrExist if path exists and !overwrite,
// and if path is a directory or another file that is not a regular one
// (see New).
func CheckWritable(path string, overwrite bool) error {
	target, err := resolve(path)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return fmt.Errorf("%s: %w", path, fs.ErrExist)
	}
	return probe(filepath.Dir(target), filepath.Base(path))
}

// probe creates and removes a temporary file named after name in dir,
// locked as New's are (removed before its lock is released), so that a
// RemoveStaleTemps leaves it alone.
func probe(dir, name string) error {
	tmp, lock, err := createTemp(dir, "."+name+probeInfix, 0o600)
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	defer lock.Close()
	tmp.Close()
	return os.Remove(tmp.Name())
}
