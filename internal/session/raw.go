package session

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// rawFile is the --raw output: appended to and flushed record by record,
// and locked so that two runs cannot write one file.
type rawFile struct {
	*os.File
	closed bool
}

// openLocked opens path with flag and takes an exclusive lock on it, or
// fails at once if another run holds one.
func openLocked(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("%s is being written by another gobench-dyn run", path)
		}
		return nil, err
	}
	return f, nil
}

// errLocked is lockFile's error when another process holds the lock.
var errLocked = errors.New("locked")

// createRaw creates the raw file of a new run.
func createRaw(path string) (*rawFile, error) {
	f, err := openLocked(path, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	// Truncate only once the lock is ours, so that a refused run leaves
	// the other run's file alone.
	if err := f.Truncate(0); err != nil {
		f.Close()
		return nil, err
	}
	return &rawFile{File: f}, nil
}

// appendRaw opens the raw file of an interrupted run to append to it,
// locked as createRaw locks. A last record cut short by a crash is cut
// off, so that the records appended start on a line of their own.
func appendRaw(path string) (*rawFile, error) {
	f, err := openLocked(path, os.O_RDWR)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err == nil {
		if end := int64(bytes.LastIndexByte(data, '\n') + 1); end < int64(len(data)) {
			err = f.Truncate(end)
		}
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekEnd)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &rawFile{File: f}, nil
}

// Close closes the file once; later calls do nothing.
func (r *rawFile) Close() error {
	if r == nil || r.closed {
		return nil
	}
	r.closed = true
	return r.File.Close()
}
