// Package coverage runs a test binary built with -cover for one benchmark
// and maps the blocks of its coverage profile to the functions whose
// bodies hold them. abs reads how much each benchmark exercises an
// exported function from it, and run --baseline which functions each
// benchmark executes.
package coverage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/tools/cover"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// A Span is the extent of a function body in its file, braces included,
// as a coverage profile locates blocks: lines and columns from 1, the end
// column just past the closing brace.
type Span struct{ StartLine, StartCol, EndLine, EndCol int }

// Holds reports whether block b lies within s.
func (s Span) Holds(b cover.ProfileBlock) bool {
	after := b.StartLine > s.StartLine || b.StartLine == s.StartLine && b.StartCol >= s.StartCol
	before := b.EndLine < s.EndLine || b.EndLine == s.EndLine && b.EndCol <= s.EndCol
	return after && before
}

// A Func is a function body that coverage blocks can fall in.
type Func struct {
	// Package is the import path and File the path of the file, of which
	// only the base name counts: a profile names a file by its package's
	// import path and its base name, wherever the source was.
	Package, File string
	Body          Span
}

// key is how a profile names the file of f.
func (f Func) key() string { return path.Join(f.Package, filepath.Base(f.File)) }

// Exercise is how much one benchmark run exercises one function, from a
// count-mode coverage profile.
type Exercise struct {
	Statements int   // statements of the function run at least once
	Hits       int64 // statement executions: each block's count × its statements
}

// Reaches reports whether the function ran at all.
func (e Exercise) Reaches() bool { return e.Hits > 0 }

// Add returns the sum of two exercises.
func (e Exercise) Add(o Exercise) Exercise {
	return Exercise{Statements: e.Statements + o.Statements, Hits: e.Hits + o.Hits}
}

// Parse reads a coverage profile.
func Parse(r io.Reader) ([]*cover.Profile, error) {
	return cover.ParseProfilesFromReader(r)
}

// Exercised maps the blocks of a coverage profile to the functions whose
// bodies hold them, less the counts of the base profile, which may be nil:
// a run of fewer ops, so that what both ran (package initialisation, a
// benchmark's setup) cancels. It returns the exercise of each function
// that ran more in profile than in base, by index in fns.
func Exercised(fns []Func, profile, base []*cover.Profile) map[int]Exercise {
	baseCount := map[blockKey]int{}
	for _, p := range base {
		for _, b := range p.Blocks {
			baseCount[keyOf(p.FileName, b)] += b.Count
		}
	}
	byFile := map[string][]int{}
	for i, f := range fns {
		byFile[f.key()] = append(byFile[f.key()], i)
	}
	out := map[int]Exercise{}
	for _, p := range profile {
		for _, b := range p.Blocks {
			n := b.Count - baseCount[keyOf(p.FileName, b)]
			if n <= 0 {
				continue
			}
			for _, i := range byFile[p.FileName] {
				if fns[i].Body.Holds(b) {
					out[i] = out[i].Add(Exercise{Statements: b.NumStmt, Hits: int64(n) * int64(b.NumStmt)})
				}
			}
		}
	}
	return out
}

type blockKey struct {
	file                                 string
	startLine, startCol, endLine, endCol int
}

func keyOf(file string, b cover.ProfileBlock) blockKey {
	return blockKey{file, b.StartLine, b.StartCol, b.EndLine, b.EndCol}
}

// A Runner runs coverage binaries.
type Runner struct {
	// Starter starts them, so that an abort kills them; nil means real
	// processes (rmit.ExecStarter).
	Starter rmit.Starter
	// Timeout bounds each run; 0 leaves it unbounded.
	Timeout time.Duration
	// Env is added to the environment of the binaries, such as
	// rmit.FixedNEnv to run a family of sub-benchmarks together; the
	// Starter must then be an rmit.EnvStarter.
	Env []string
}

// ErrInterrupted is rmit.ErrInterrupted: ctx ended the run.
var ErrInterrupted = rmit.ErrInterrupted

// Profile runs p's coverage binary in its directory with
// -test.coverprofile=out and args, benchmarks only, and returns the
// profile it wrote. When ctx is cancelled it returns ErrInterrupted.
func (r Runner) Profile(ctx context.Context, p *rmit.Package, out string, args ...string) ([]*cover.Profile, error) {
	profile, _, err := r.ProfileOutput(ctx, p, out, args...)
	return profile, err
}

// ProfileOutput is Profile that also returns what the binary wrote, its
// stdout followed by the tail of its stderr: the results it printed name
// the leaf benchmarks that ran.
func (r Runner) ProfileOutput(ctx context.Context, p *rmit.Package, out string, args ...string) ([]*cover.Profile, []byte, error) {
	if r.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.Timeout)
		defer cancel()
	}
	args = append([]string{"-test.run=^$", "-test.coverprofile=" + out}, args...)
	b, err := r.run(ctx, p, args)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, nil, ErrInterrupted
		}
		return nil, nil, fmt.Errorf("%w\n%s", err, tail(b))
	}
	f, err := os.Open(out)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	profile, err := Parse(f)
	return profile, b, err
}

// run runs p's binary with args in its directory through the Starter,
// killing it when ctx ends, and returns what it wrote to stdout followed
// by the tail of its stderr.
func (r Runner) run(ctx context.Context, p *rmit.Package, args []string) ([]byte, error) {
	starter := r.Starter
	if starter == nil {
		starter = rmit.ExecStarter{}
	}
	var proc rmit.Process
	var err error
	if len(r.Env) == 0 {
		proc, err = starter.Start(p.Binary, p.Dir, args)
	} else if es, ok := starter.(rmit.EnvStarter); ok {
		proc, err = es.StartEnv(p.Binary, p.Dir, args, r.Env)
	} else {
		err = errors.New("the starter cannot set the environment of a test binary")
	}
	if err != nil {
		return nil, err
	}
	defer context.AfterFunc(ctx, proc.Kill)()
	out, rerr := io.ReadAll(proc.Stdout())
	werr := proc.Wait()
	out = append(out, proc.StderrTail()...)
	return out, cmp.Or(werr, rerr)
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}
