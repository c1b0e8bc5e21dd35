// Package atomicfile writes files so that a reader never sees a partial
// one: the data goes to a temporary file in the target's directory, which
// is flushed to disk (fsync) and renamed over the target, and the
// directory is flushed so that the rename survives a crash. An interrupted
// or failed write (a full disk, a signal, a kill) leaves the previous file
// — or no file — in place, never a truncated one.
//
// # Errors
//
// Errors wrap the os errors (errors.Is(err, fs.ErrExist) for Create on an
// existing path, fs.ErrNotExist for a missing directory, ENOSPC …).
//
// # Concurrency
//
// Writes to distinct paths are independent; two writers of one path race,
// and the last rename wins (each file seen is whole).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path by data atomically (creating it if needed) with
// permissions perm.
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
func WriteFunc(path string, perm fs.FileMode, exclusive bool, fn func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err = fn(tmp); err != nil {
		return err
	}
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if exclusive {
		if err = os.Link(name, path); err != nil {
			return err
		}
		os.Remove(name)
	} else if err = os.Rename(name, path); err != nil {
		return err
	}
	return SyncDir(dir)
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

// CheckWritable reports, before any long computation, whether a file could
// be written at path: its directory must exist and accept a new file (it
// creates and removes a temporary one there). It fails with an error
// wrapping fs.ErrExist if path exists and !overwrite, and if path is a
// directory.
func CheckWritable(path string, overwrite bool) error {
	if st, err := os.Stat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		if !overwrite {
			return fmt.Errorf("%s: %w", path, fs.ErrExist)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".probe-*")
	if err != nil {
		return fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	name := tmp.Name()
	tmp.Close()
	return os.Remove(name)
}
