// Package worktree checks out a git revision into a temporary worktree,
// so that the same packages can be built at two versions side by side.
package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
)

// ErrShallow is why a revision cannot be checked out of a shallow clone,
// which holds only the newest commits: what actions/checkout makes unless
// told otherwise.
var ErrShallow = errors.New("the repository is a shallow clone")

// A Worktree is a temporary checkout of one revision of a repository.
type Worktree struct {
	Repo string // the top-level directory of the repository
	Dir  string // the checkout
	Rev  string // the full commit hash checked out
}

// ErrNoGit is the error of every function here when git is not
// installed.
var ErrNoGit = errors.New("git is not installed: a baseline is checked out with git")

// noGit returns err, or, when it says that git is not installed,
// ErrNoGit with the reason.
func noGit(err error) error {
	var e *exec.Error
	if errors.As(err, &e) && errors.Is(e, exec.ErrNotFound) {
		return fmt.Errorf("%w (%v)", ErrNoGit, e)
	}
	return err
}

// Available returns ErrNoGit when git is not installed, so that a run
// can say so before it builds anything.
func Available() error {
	if err := gitrepo.Installed(); err != nil {
		return fmt.Errorf("%w (%v)", ErrNoGit, err)
	}
	return nil
}

// Add checks out rev of the repository holding dir (a revision Resolve
// takes) into a new directory under parent (which should be private to
// the run), detached from any branch. The caller must Remove it.
func Add(ctx context.Context, dir, rev, parent string) (*Worktree, error) {
	top, err := gitrepo.TopLevel(ctx, dir)
	if err != nil {
		return nil, noGit(err)
	}
	hash, err := Resolve(ctx, top, rev)
	if err != nil {
		return nil, err
	}
	wt := filepath.Join(parent, "baseline")
	if err := gitrepo.AddWorktree(ctx, top, wt, hash); err != nil {
		return nil, noGit(err)
	}
	return &Worktree{Repo: top, Dir: wt, Rev: hash}, nil
}

// Path returns the directory in the worktree that corresponds to dir in
// the original checkout.
func (w *Worktree) Path(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	// Resolve links on both sides: a temporary directory or a checkout
	// reached through a link would otherwise look like it lies outside.
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	top := w.Repo
	if r, err := filepath.EvalSymlinks(top); err == nil {
		top = r
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the repository %s", dir, w.Repo)
	}
	return filepath.Join(w.Dir, rel), nil
}

// Remove deletes the checkout and git's record of it. It uses a fresh
// context so that it works after the run's was cancelled.
func (w *Worktree) Remove() error {
	ctx := context.Background()
	err := gitrepo.RemoveWorktree(ctx, w.Repo, w.Dir)
	if err != nil {
		// The directory may be half gone; clear it and let git forget it.
		os.RemoveAll(w.Dir)
		err = noGit(gitrepo.PruneWorktrees(ctx, w.Repo))
	}
	return err
}

// RemoveStale removes the worktree at dir that a run now gone left behind,
// and git's record of it, which would otherwise list it in git worktree
// list until pruned. The repository is found through the worktree's .git
// file. It does nothing when dir holds no worktree.
func RemoveStale(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, ".git"))
	if err != nil {
		return nil
	}
	gitdir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
	if !ok || filepath.Base(filepath.Dir(gitdir)) != "worktrees" {
		return nil
	}
	common := filepath.Dir(filepath.Dir(gitdir)) // <repo>/.git
	err = gitrepo.RemoveWorktreeOf(context.Background(), common, dir)
	if err != nil {
		// Without git, or with a record git cannot follow: the record
		// is the worktree's directory under <repo>/.git/worktrees.
		os.RemoveAll(dir)
		err = os.RemoveAll(gitdir)
	}
	return err
}
