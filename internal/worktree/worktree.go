// Package worktree checks out a git revision into a temporary worktree,
// so that the same packages can be built at two versions side by side.
package worktree

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// git runs git with args in dir and returns its trimmed stdout.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitRaw(ctx, dir, args...)
	return strings.TrimSpace(out), err
}

// gitRaw runs git with args in dir and returns its stdout as is.
func gitRaw(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%w (%v)", ErrNoGit, err)
		}
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.String(), nil
}

// ErrNoGit is the error of every function here when git is not
// installed.
var ErrNoGit = errors.New("git is not installed: a baseline is checked out with git")

// Available returns ErrNoGit when git is not installed, so that a run
// can say so before it builds anything.
func Available() error {
	if _, err := exec.LookPath("git"); err != nil {
		return fmt.Errorf("%w (%v)", ErrNoGit, err)
	}
	return nil
}

// TopLevel returns the top-level directory of the repository holding dir.
func TopLevel(ctx context.Context, dir string) (string, error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if errors.Is(err, ErrNoGit) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository: %w", dir, err)
	}
	return top, nil
}

// Add checks out rev of the repository holding dir (a revision Resolve
// takes) into a new directory under parent (which should be private to
// the run), detached from any branch. The caller must Remove it.
func Add(ctx context.Context, dir, rev, parent string) (*Worktree, error) {
	top, err := TopLevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	hash, err := Resolve(ctx, top, rev)
	if err != nil {
		return nil, err
	}
	wt := filepath.Join(parent, "baseline")
	if _, err := git(ctx, top, "worktree", "add", "--detach", "--quiet", wt, hash); err != nil {
		return nil, err
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
	_, err := git(ctx, w.Repo, "worktree", "remove", "--force", w.Dir)
	if err != nil {
		// The directory may be half gone; clear it and let git forget it.
		os.RemoveAll(w.Dir)
		_, err = git(ctx, w.Repo, "worktree", "prune")
	}
	return err
}

// Changes lists the uncommitted changes of the repository holding dir
// that can change what its benchmarks measure, as git status prints them
// ("M calc.go"): changes to tracked files, and untracked Go source and
// module files. Other untracked files, such as results written by an
// earlier run, do not count.
func Changes(ctx context.Context, dir string) ([]string, error) {
	top, err := TopLevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	out, err := gitRaw(ctx, top, "status", "--porcelain=v1", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var changes []string
	for line := range strings.Lines(out) {
		line = strings.TrimRight(line, "\n")
		if len(line) < 4 {
			continue
		}
		path := line[3:]
		if strings.HasPrefix(line, "??") && !isGoFile(path) {
			continue
		}
		changes = append(changes, strings.TrimSpace(line[:2])+" "+path)
	}
	return changes, nil
}

// Diff lists the paths, relative to the top level of the repository
// holding dir, that differ between rev and the working tree: tracked
// files changed since rev (staged or not, renames as a removal and an
// addition), and untracked files git does not ignore.
func Diff(ctx context.Context, dir, rev string) ([]string, error) {
	top, err := TopLevel(ctx, dir)
	if err != nil {
		return nil, err
	}
	tracked, err := gitRaw(ctx, top, "diff", "--name-only", "--no-renames", "-z", rev, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := gitRaw(ctx, top, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	paths := []string{} // none differs: not nil, which would mean unknown
	for p := range strings.SplitSeq(tracked+untracked, "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// isGoFile reports whether path is a file the go command builds from.
func isGoFile(path string) bool {
	base := filepath.Base(strings.Trim(path, `"`))
	return strings.HasSuffix(base, ".go") || base == "go.mod" || base == "go.sum" || base == "go.work" || base == "go.work.sum"
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
	_, err = git(context.Background(), common, "--git-dir="+common, "worktree", "remove", "--force", dir)
	if err != nil {
		// Without git, or with a record git cannot follow: the record
		// is the worktree's directory under <repo>/.git/worktrees.
		os.RemoveAll(dir)
		err = os.RemoveAll(gitdir)
	}
	return err
}
