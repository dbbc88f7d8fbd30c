// Package gitrepo runs git on a repository: the one package that runs it,
// so that every caller reports a failure alike, in git's own words, and
// none builds a command line of its own.
package gitrepo

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
)

// An Error is a git command that failed. Its message is what git said on
// standard error, or, when git said nothing (it did not start), why it
// failed; errors.Is(err, exec.ErrNotFound) tells that git is not installed.
type Error struct {
	Subcommand string // the first argument, which names the command in messages
	Msg        string
	Err        error // what running git returned
}

func (e *Error) Error() string { return "git " + e.Subcommand + ": " + e.Msg }

// Unwrap returns what running git returned, so that a missing git stays
// recognizable.
func (e *Error) Unwrap() error { return e.Err }

// An Identity is the author and committer of the commits git makes, given
// where git may be configured with none (an evaluation's throwaway
// repository).
type Identity struct {
	Name, Email string
}

// Installed returns why git cannot be run, nil when it can: so that a
// command that needs it can say so before it starts any work.
func Installed() error {
	_, err := exec.LookPath("git")
	return err
}

// Run runs git with args in dir and returns its stdout without the
// surrounding white space.
func Run(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Output(ctx, dir, args...)
	return strings.TrimSpace(out), err
}

// Output runs git with args in dir and returns its stdout as is: for
// output where white space is data, such as NUL-separated paths.
func Output(ctx context.Context, dir string, args ...string) (string, error) {
	return run(ctx, dir, nil, args)
}

// RunAs is Run as id, for commands that make commits.
func RunAs(ctx context.Context, dir string, id Identity, args ...string) (string, error) {
	env := append(os.Environ(),
		"GIT_AUTHOR_NAME="+id.Name, "GIT_AUTHOR_EMAIL="+id.Email,
		"GIT_COMMITTER_NAME="+id.Name, "GIT_COMMITTER_EMAIL="+id.Email)
	out, err := run(ctx, dir, env, args)
	return strings.TrimSpace(out), err
}

// run runs git with args in dir and environment env (nil: this
// process's).
func run(ctx context.Context, dir string, env, args []string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", &Error{Subcommand: args[0], Msg: msg, Err: err}
	}
	return stdout.String(), nil
}

// notInstalled reports whether err says that git is not installed.
func notInstalled(err error) bool {
	return errors.Is(err, exec.ErrNotFound)
}
