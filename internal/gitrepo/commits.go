package gitrepo

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Head returns the commit checked out in dir, its commit time and its
// branch ("" on a detached head).
func Head(ctx context.Context, dir string) (commit string, at time.Time, branch string, err error) {
	out, err := Run(ctx, dir, "show", "-s", "--format=%H %cI", "HEAD")
	if err != nil {
		return "", time.Time{}, "", err
	}
	hash, when, ok := strings.Cut(out, " ")
	if !ok {
		return "", time.Time{}, "", fmt.Errorf("git show: unexpected output %q", out)
	}
	if at, err = time.Parse(time.RFC3339, when); err != nil {
		return "", time.Time{}, "", fmt.Errorf("git show: commit time %q: %v", when, err)
	}
	if b, err := Run(ctx, dir, "symbolic-ref", "--quiet", "--short", "HEAD"); err == nil {
		branch = b
	}
	return hash, at, branch, nil
}

// CommitTime returns the full hash and commit time of rev in dir.
func CommitTime(ctx context.Context, dir, rev string) (string, time.Time, error) {
	out, err := Run(ctx, dir, "show", "-s", "--format=%H %cI", "--end-of-options", rev)
	if err != nil {
		return "", time.Time{}, err
	}
	hash, when, _ := strings.Cut(out, " ")
	at, err := time.Parse(time.RFC3339, when)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("git show %s: commit time %q: %v", rev, when, err)
	}
	return hash, at, nil
}

// Parents returns the hashes of the parents of rev, the first parent
// first.
func Parents(ctx context.Context, dir, rev string) ([]string, error) {
	out, err := Run(ctx, dir, "show", "-s", "--format=%P", "--end-of-options", rev)
	return strings.Fields(out), err
}

// FirstParentCount returns the number of commits on the first-parent
// line from the root to rev, rev included: its position on that line.
func FirstParentCount(ctx context.Context, dir, rev string) (int, error) {
	count, err := Run(ctx, dir, "rev-list", "--first-parent", "--count", "--end-of-options", rev)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("git rev-list --count %s: unexpected output %q", rev, count)
	}
	return n, nil
}

// A LineCommit is a commit of a first-parent line and its parents.
type LineCommit struct {
	Hash    string
	Parents []string
}

// FirstParentLine returns the commits of the first-parent line of HEAD,
// from the root: the commit at position i (from 1) is at index i-1.
func FirstParentLine(ctx context.Context, dir string) ([]LineCommit, error) {
	out, err := Run(ctx, dir, "log", "--first-parent", "--reverse", "--format=%H %P", "HEAD")
	if err != nil {
		return nil, err
	}
	var line []LineCommit
	for l := range strings.SplitSeq(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			line = append(line, LineCommit{Hash: f[0], Parents: f[1:]})
		}
	}
	return line, nil
}
