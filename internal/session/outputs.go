package session

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/internal/benchout"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// resultsFile is where benchstat-format results go: stdout, or a file
// written in place of the old one once the run ends (interrupted or not).
// Both get the results grouped by package and benchmark in source order,
// as go test prints them, once the run ends. A file also gets each line
// as its slice finishes, in schedule order, and keeps them should the
// ordered rewrite fail; stdout, which cannot be rewritten, gets only the
// ordered results. The raw file is the record streamed as it happens.
type resultsFile struct {
	io.Writer
	name     string // the output as messages name it: "--out out.txt", "stdout"
	file     *atomicfile.File
	stdout   io.Writer // the stream the ordered results go to, or nil
	cleanups *Cleanups
	failed   error // the first write that failed
}

// Write writes p. The first failure fails every later write, and names
// the output as the user gave it, not the temporary file behind it: the
// run stops on it at once.
func (r *resultsFile) Write(p []byte) (int, error) {
	if r.failed != nil {
		return 0, r.failed
	}
	n, err := r.Writer.Write(p)
	if err != nil {
		r.failed = r.wrap(err)
		return n, r.failed
	}
	return n, nil
}

// wrap names the output in err.
func (r *resultsFile) wrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("writing %s: %w", r.name, err)
}

// OpenResults opens path as an Output of a run, or stdout for "" and "-",
// and registers the abandonment of an unfinished file with cleanups. An
// error is a usage error of flag, the option that named path.
func OpenResults(flag, path string, stdout io.Writer, cleanups *Cleanups) (Output, error) {
	if path == "" || path == "-" {
		return &resultsFile{Writer: io.Discard, stdout: stdout, name: "results to stdout"}, nil
	}
	f, err := cleanups.CreateOutput(flag, path)
	if err != nil {
		return nil, err
	}
	return &resultsFile{Writer: f, name: "--" + flag + " " + path, file: f, cleanups: cleanups}, nil
}

// Commit puts the file in place, written anew from run in the order of
// the benchmarks in order. Should that fail, the file as it was written
// during the run goes in place instead, if every line of it was written:
// a file cut off in the middle of a line would show a reader results that
// were never measured. Failing both, the old file stays as it was. On
// stdout it writes the results in that order.
func (r *resultsFile) Commit(run *record.Run, order []record.Key) error {
	if r.stdout != nil {
		if err := benchout.WriteInOrder(r.stdout, run, order); err != nil {
			return r.wrap(err)
		}
		return nil
	}
	if r.file == nil {
		return r.failed
	}
	if r.file.Direct() {
		// A pipe or a device has what was streamed; a second copy
		// would follow it, not replace it.
		if err := r.file.Commit(); err != nil && r.failed == nil {
			r.failed = r.wrap(err)
		}
		return r.failed
	}
	sorted, err := r.cleanups.CreateFile(r.file.Path())
	if err == nil {
		defer sorted.Abandon()
		if err = benchout.WriteInOrder(sorted, run, order); err == nil {
			if err = sorted.Commit(); err == nil {
				r.file.Abandon()
				return nil
			}
		}
	}
	if r.failed != nil {
		r.file.Abandon()
		return r.failed
	}
	if err := r.file.Commit(); err != nil {
		return r.wrap(err)
	}
	return nil
}
