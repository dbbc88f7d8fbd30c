package worktree

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
)

// MergeBasePrefix marks a revision that stands for the merge base of HEAD
// and the revision after the prefix: "merge-base:origin/main" is the
// commit a branch forked from, or last merged, main. A pull request's
// change is what lies between it and HEAD; the tip of a main that moved on
// since would add other changes to it and measure them as the branch's.
const MergeBasePrefix = "merge-base:"

// CutMergeBase returns the revision a merge-base revision names, and
// whether rev is one.
func CutMergeBase(rev string) (string, bool) {
	return strings.CutPrefix(rev, MergeBasePrefix)
}

// Resolve returns the full hash of the commit rev names in the repository
// holding dir: a revision git knows, or MergeBasePrefix and one, for the
// merge base of HEAD and it.
func Resolve(ctx context.Context, dir, rev string) (string, error) {
	target, merge := CutMergeBase(rev)
	if !merge {
		return commit(ctx, dir, rev)
	}
	if target == "" {
		return "", fmt.Errorf("%q names no revision after %q", rev, MergeBasePrefix)
	}
	hash, err := commit(ctx, dir, target)
	if err != nil {
		return "", err
	}
	base, err := gitrepo.MergeBase(ctx, dir, "HEAD", hash)
	if errors.Is(err, exec.ErrNotFound) {
		return "", noGit(err)
	}
	if err != nil || base == "" {
		if shallow(ctx, dir) {
			return "", fmt.Errorf("%w: the merge base of HEAD and %q is not among the commits it holds; fetch the history with \"git fetch --unshallow\" (in GitHub Actions, check out with \"fetch-depth: 0\")", ErrShallow, target)
		}
		return "", fmt.Errorf("HEAD and %q have no commit in common", target)
	}
	return base, nil
}

// commit returns the full hash of the commit rev names.
func commit(ctx context.Context, dir, rev string) (string, error) {
	hash, err := gitrepo.Commit(ctx, dir, rev)
	if errors.Is(err, exec.ErrNotFound) {
		return "", noGit(err)
	}
	if err != nil {
		if shallow(ctx, dir) {
			return "", fmt.Errorf("%w: %q is not among the commits it holds; fetch the history with \"git fetch --unshallow\" (in GitHub Actions, check out with \"fetch-depth: 0\")", ErrShallow, rev)
		}
		return "", fmt.Errorf("%q is not a commit: %w", rev, err)
	}
	return hash, nil
}

// shallow reports whether the repository holding dir is a shallow clone.
func shallow(ctx context.Context, dir string) bool {
	s, _ := gitrepo.Shallow(ctx, dir)
	return s
}
