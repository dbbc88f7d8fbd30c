package session

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/leftover"
	"github.com/gobench-dyn/gobench-dyn/internal/worktree"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// tempPrefix starts the name of every run's temporary directory.
const tempPrefix = "gobench-dyn-"

// makeTemp removes what runs killed before they could clean up left in
// the temporary directory, then makes this run's, with a directory in it
// where its test binaries' process groups are kept for the next run
// should this one be killed in turn.
func makeTemp(log io.Writer) (dir, groups string, err error) {
	removed := leftover.Sweep(os.TempDir(), tempPrefix, func(dir string) {
		leftover.KillGroups(filepath.Join(dir, "groups"), dir)
		_ = worktree.RemoveStale(filepath.Join(dir, "baseline"))
	})
	if len(removed) > 0 {
		fmt.Fprintf(log, "gobench-dyn: removed what %d killed runs left behind: %s\n", len(removed), strings.Join(removed, ", "))
	}
	dir, err = leftover.MkdirTemp(tempPrefix)
	if err != nil {
		return "", "", err
	}
	groups = filepath.Join(dir, "groups")
	if err := os.Mkdir(groups, 0o700); err != nil {
		os.RemoveAll(dir)
		return "", "", err
	}
	return dir, groups, nil
}

// starter returns the Starter of the run: the Env's, or real processes
// whose groups are kept in groups.
func (r *run) starter(groups string) rmit.Starter {
	if r.env.Starter != nil {
		return r.env.Starter
	}
	return rmit.ExecStarter{GroupDir: groups}
}

// workDir makes the run's temporary directory, removed when the run
// returns, and starts the run's processes (the Env's Starter, or real
// ones) with their groups kept in it.
func (r *run) workDir() (string, error) {
	var tmp, groups string
	undo, err := r.cleanups.Create(func() (func(), error) {
		var err error
		tmp, groups, err = makeTemp(r.log)
		return func() { os.RemoveAll(tmp) }, err
	})
	if err != nil {
		return "", err
	}
	r.undo = append(r.undo, undo)
	r.env.Starter = r.starter(groups)
	return tmp, nil
}
