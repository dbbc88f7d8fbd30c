package gitrepo

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
)

// TopLevel returns the top-level directory of the repository holding dir.
func TopLevel(ctx context.Context, dir string) (string, error) {
	top, err := Run(ctx, dir, "rev-parse", "--show-toplevel")
	if notInstalled(err) {
		return "", err
	}
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository: %w", dir, err)
	}
	return top, nil
}

// Commit returns the full hash of the commit rev names in the repository
// holding dir.
func Commit(ctx context.Context, dir, rev string) (string, error) {
	// "--end-of-options" keeps a revision that starts with "-" from
	// being read as an option.
	return Run(ctx, dir, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
}

// MergeBase returns the best common ancestor of the commits a and b.
func MergeBase(ctx context.Context, dir, a, b string) (string, error) {
	return Run(ctx, dir, "merge-base", a, b)
}

// Shallow reports whether the repository holding dir is a shallow clone,
// which lacks the older commits.
func Shallow(ctx context.Context, dir string) (bool, error) {
	s, err := Run(ctx, dir, "rev-parse", "--is-shallow-repository")
	return s == "true", err
}

// AddWorktree checks out the commit rev of repo into the new directory
// dir, detached from any branch.
func AddWorktree(ctx context.Context, repo, dir, rev string) error {
	_, err := Run(ctx, repo, "worktree", "add", "--detach", "--quiet", dir, rev)
	return err
}

// RemoveWorktree deletes the worktree dir of repo and git's record of it,
// changes and all.
func RemoveWorktree(ctx context.Context, repo, dir string) error {
	_, err := Run(ctx, repo, "worktree", "remove", "--force", dir)
	return err
}

// RemoveWorktreeOf is RemoveWorktree for a repository known only by its
// git directory, as a worktree's .git file names it.
func RemoveWorktreeOf(ctx context.Context, gitDir, dir string) error {
	_, err := Run(ctx, gitDir, "--git-dir="+gitDir, "worktree", "remove", "--force", dir)
	return err
}

// PruneWorktrees drops git's records of the worktrees of repo whose
// directories are gone.
func PruneWorktrees(ctx context.Context, repo string) error {
	_, err := Run(ctx, repo, "worktree", "prune")
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
	out, err := Output(ctx, top, "status", "--porcelain=v1", "--untracked-files=all")
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
	tracked, err := Output(ctx, top, "diff", "--name-only", "--no-renames", "-z", rev, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := Output(ctx, top, "ls-files", "--others", "--exclude-standard", "-z")
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
