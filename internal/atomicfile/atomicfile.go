// Package atomicfile writes files that replace others all at once: the
// content goes to a private temporary file beside the target, which is
// renamed over it only when complete. A reader never sees half a file, and
// a failed write leaves the old file as it was.
//
// A target that is not a regular file, such as /dev/stdout, a named pipe
// or /dev/null, cannot be replaced: it is written directly.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/gobench-dyn/gobench-dyn/internal/leftover"
)

// A File is a file being written in place of another.
type File struct {
	*os.File
	path string
	// mu makes Commit and Abandon exclusive: an abort that abandons the
	// file while the run commits it waits, rather than exiting between
	// the commit's start and its rename and leaving the temporary file.
	mu   sync.Mutex
	done bool
	// direct is set for a target that is no regular file (/dev/null,
	// /dev/stdout, a named pipe): it is written in place, since renaming
	// a file over it would replace the device or pipe itself.
	direct bool
}

// Create starts writing path. It fails at once if the directory cannot be
// written, so that callers can check their outputs before long work.
func Create(path string) (*File, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{File: f, path: path, direct: true}, nil
	}
	// The temporary name holds this process's pid: a run killed before
	// it could remove its file leaves it to the next that writes path.
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+".tmp"
	leftover.Sweep(dir, prefix, nil)
	f, err := leftover.CreateTemp(dir, prefix)
	if err != nil {
		// The temporary name is ours, not the caller's: name the path
		// they asked for.
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, &os.PathError{Op: "create", Path: path, Err: pe.Err}
		}
		return nil, err
	}
	return &File{File: f, path: path}, nil
}

// Path returns the path the file replaces once committed.
func (f *File) Path() string { return f.path }

// Write writes p to the file. Its error names the target, as the caller
// gave it, not the temporary file behind it.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	return n, f.named(err)
}

// WriteString is Write of a string.
func (f *File) WriteString(s string) (int, error) {
	n, err := f.File.WriteString(s)
	return n, f.named(err)
}

// named returns err with the temporary file's name replaced by the
// target's.
func (f *File) named(err error) error {
	var pe *os.PathError
	if err == nil || f.direct || !errors.As(err, &pe) {
		return err
	}
	return &os.PathError{Op: pe.Op, Path: f.path, Err: pe.Err}
}

// Direct reports whether the target is written directly, as it is not a
// regular file: what is written reaches it at once, and Abandon cannot
// take it back.
func (f *File) Direct() bool { return f.direct }

// Commit flushes the content to disk and renames it over the target.
func (f *File) Commit() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return errors.New("atomicfile: " + f.path + " already committed or abandoned")
	}
	f.done = true
	if f.direct {
		return f.File.Close()
	}
	err := f.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file 0600; results are for sharing.
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return f.named(err)
}

// Abandon removes the temporary file, leaving the target untouched. It is
// a no-op after Commit, so it can be deferred.
func (f *File) Abandon() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	if !f.direct {
		os.Remove(f.Name())
	}
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abandon()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}
