package history

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/reportfile"
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// An AddRequest is what history add asks for, as its flags give it:
// where the entries go and what they carry besides the run's numbers.
type AddRequest struct {
	Store string
	// Dir is the git repository the commit and its place are read from.
	Dir string
	// Commit, CommitTime (RFC 3339), Branch, Machine and Options
	// override what git and the runs' headers tell.
	Commit     string
	CommitTime string
	Branch     string
	Machine    string
	Options    string
	// Log receives the warnings and the counts of entries added.
	Log io.Writer
}

// AddRuns adds the entries of the raw record files to the store of req.
// A file with no benchmark of the code under test is bad input.
func AddRuns(ctx context.Context, req *AddRequest, files []*runfile.File) error {
	meta, err := req.meta(ctx)
	if err != nil {
		return err
	}
	var entries []Entry
	for _, f := range files {
		es := FromRun(f.Run, meta.WithRunLabels(f.Run.Header))
		if len(es) == 0 {
			return usage.Errorf("", "%s: no benchmark of the code under test to add", f.Path)
		}
		entries = append(entries, es...)
	}
	return addTo(ctx, req.Log, "store", req.Store, req.Dir, entries)
}

// meta returns the commit, time and labels of the entries to add, from
// the flags and, for what they leave out, git.
func (req *AddRequest) meta(ctx context.Context) (Meta, error) {
	m := Meta{Commit: req.Commit, Branch: req.Branch, Machine: req.Machine, Options: req.Options}
	if req.CommitTime != "" {
		t, err := time.Parse(time.RFC3339, req.CommitTime)
		if err != nil {
			return m, usage.ValueErrorf("commit-time", fmt.Sprintf("%q", req.CommitTime), "want RFC 3339, such as 2026-11-25T14:00:00Z")
		}
		m.CommitTime = t
	}
	m, err := ResolveMeta(ctx, req.Log, req.Dir, m)
	switch {
	case err != nil && req.Commit != "":
		return m, usage.ValueErrorf("commit", req.Commit, "%v (or give --commit-time)", err)
	case err != nil:
		// Not ValueErrorf: --dir '' is still quoted as given.
		return m, usage.Errorf("", "--dir %s: %v (or give --commit and --commit-time)", req.Dir, err)
	}
	return m, nil
}

// addTo adds entries to the store at path, named by flag in errors: a
// store that cannot be opened is bad input, one that cannot be written a
// failure.
func addTo(ctx context.Context, log io.Writer, flag, path, dir string, entries []Entry) error {
	s, err := Open(path)
	if err != nil {
		return usage.Errorf(flag, "%v", err)
	}
	defer s.Close()
	if err := s.AddPlaced(ctx, log, dir, entries); err != nil {
		return fmt.Errorf("--%s: %v", flag, err)
	}
	return nil
}

// ImportFiles adds the entries of the JSON Lines files at paths to the
// store at path, one file after the other, saying on log how many each
// added. A bad line or a missing file is bad input.
func ImportFiles(ctx context.Context, path string, paths []string, log io.Writer) error {
	s, err := Open(path)
	if err != nil {
		return usage.Errorf("store", "%v", err)
	}
	defer s.Close()
	for _, p := range paths {
		n, err := s.Import(ctx, p)
		var se *SyntaxError
		switch {
		case errors.As(err, &se), errors.Is(err, os.ErrNotExist):
			return usage.Errorf("", "%v", err)
		case err != nil:
			return fmt.Errorf("%s: importing %s: %v", path, p, err)
		}
		fmt.Fprintf(log, "gobench-dyn: history %s: %d entries imported from %s\n", path, n, p)
	}
	return nil
}

// ExportFile writes every entry of the store at path as JSON Lines to the
// file out, or to stdout when out is "" or "-". The store must exist:
// exporting a new, empty one would hide a mistyped name.
func ExportFile(ctx context.Context, path, out string, stdout io.Writer) error {
	if _, err := os.Stat(path); err != nil {
		// Not ValueErrorf: --store '' is still quoted as given.
		return usage.Errorf("", "--store %s: %v", path, err)
	}
	s, err := Open(path)
	if err != nil {
		return usage.Errorf("store", "%v", err)
	}
	defer s.Close()
	write := func(w io.Writer) error { return s.Export(ctx, w) }
	if out == "" || out == "-" {
		if err := write(stdout); err != nil {
			return fmt.Errorf("export: %v", err)
		}
		return nil
	}
	return reportfile.Write("--out", out, write)
}

// RunAdder checks the store at path that run --history adds to, and the
// commit checked out in dir, before the run, so that a bad store or a
// directory outside git fails at once. It returns what adds the
// summaries of a run's records to the store.
func RunAdder(ctx context.Context, path, dir string, log io.Writer) (func(run *record.Run, log io.Writer) error, error) {
	s, err := Open(path)
	if err != nil {
		return nil, usage.Errorf("history", "%v", err)
	}
	s.Close()
	if dir == "" {
		dir = "."
	}
	meta, err := ResolveMeta(ctx, log, dir, Meta{})
	if err != nil {
		return nil, usage.Errorf("history", "%v (history add --commit records a run made outside git)", err)
	}
	return func(run *record.Run, log io.Writer) error {
		entries := FromRun(run, meta.WithRunLabels(run.Header))
		if len(entries) == 0 {
			return nil
		}
		return addTo(context.Background(), log, "history", path, dir, entries)
	}, nil
}
