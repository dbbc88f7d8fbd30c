// Package rmit runs Go benchmark suites in randomized multiple interleaved
// trials: it builds each package's test binary once, discovers and
// calibrates the leaf benchmarks, shuffles their iterations into suite runs
// with a seeded generator, runs every iteration as a fresh process of the
// test binary, and streams each slice to the caller as it finishes.
//
// rmit knows processes and time, not statistics: how long each benchmark
// runs is decided by a Policy.
package rmit

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A Package is a Go package whose benchmarks are to be run.
type Package struct {
	ImportPath string
	Dir        string // the package directory: iterations run there
	// Version is record.VersionHead for the code under test or
	// record.VersionBaseline for the baseline build.
	Version string
	// Binary is the path of the compiled test binary, once built.
	Binary string
	// Hash identifies the test binary's content.
	Hash string
	// CodeID identifies the code the test binary runs, whatever its
	// layout (setCodeIDs); "" when not asked for (PrepareOptions.CodeIDs)
	// or not known.
	CodeID string
	// Layouts are the links of the test binary with randomised code
	// layouts, Binary the first of them; empty when it was linked once.
	Layouts []Layout
	// TestArgs follow the harness's own flags in every run of the test
	// binary, as go test -args passes them: flags of the package's
	// TestMain, or -test.short.
	TestArgs []string
	// Hooked says that the binary was built with the overlay of
	// TurnHook, which a family measured together needs (Family).
	Hooked bool
	// LinkTime is the wall time one more link of the test binary took
	// while preparing, when some of Layouts are left to be linked as
	// the run goes on; zero when every link was made while preparing.
	// A resumed run measures its own.
	LinkTime time.Duration
	// linkLayout links the i-th of Layouts, which Prepare left to be
	// linked when a process first draws it, and returns its binary; the
	// first eager were linked while preparing.
	linkLayout func(i int) (string, error)
	eager      int
	// relink links the layouts after the first of them with the linker
	// alone.
	relink *relinker
}

// A Note says why a package or benchmark was left out.
type Note struct {
	Package string
	Msg     string
}

func (n Note) String() string { return n.Package + ": " + n.Msg }

// ListOptions configures how package patterns are resolved.
type ListOptions struct {
	Dir        string   // the directory go list runs in; "" is the current one
	BuildFlags []string // -tags, -race, -overlay and the like, as for go test
	Env        []string // extra environment, for example GOFLAGS; nil inherits
}

// listedPackage is the subset of go list -json output we need.
type listedPackage struct {
	ImportPath   string
	Dir          string
	TestGoFiles  []string
	XTestGoFiles []string
	Error        *struct{ Err string }
}

// List resolves package patterns as go test does, through go list: "./...",
// import paths, and packages of dependency modules. Packages without test
// files are left out with a note: they can hold no benchmarks. A pattern
// that matches nothing, or a package that cannot be loaded, is an error
// naming it.
func List(ctx context.Context, patterns []string, opts ListOptions) ([]*Package, []Note, error) {
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	args := []string{"list", "-e", "-json=ImportPath,Dir,TestGoFiles,XTestGoFiles,Error"}
	args = append(args, opts.BuildFlags...)
	args = append(args, "--")
	args = append(args, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = opts.Dir
	if opts.Env != nil {
		cmd.Env = append(cmd.Environ(), opts.Env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, nil, fmt.Errorf("go list %s: %s", strings.Join(patterns, " "), workspaceHint(goSumFix(msg)))
	}
	var pkgs []*Package
	var notes []Note
	var loadErrs []string
	dec := json.NewDecoder(&stdout)
	for {
		var lp listedPackage
		if err := dec.Decode(&lp); err == io.EOF {
			break
		} else if err != nil {
			return nil, nil, fmt.Errorf("reading go list output: %w", err)
		}
		if lp.Error != nil && lp.Dir == "" {
			loadErrs = append(loadErrs, strings.TrimSpace(lp.Error.Err))
			continue
		}
		if len(lp.TestGoFiles)+len(lp.XTestGoFiles) == 0 {
			notes = append(notes, Note{lp.ImportPath, "no test files, skipped"})
			continue
		}
		pkgs = append(pkgs, &Package{ImportPath: lp.ImportPath, Dir: lp.Dir})
	}
	if len(loadErrs) > 0 {
		return pkgs, notes, errors.New(workspaceHint(goSumFix(strings.Join(loadErrs, "\n"))))
	}
	// go list prints warnings such as "matched no packages" on stderr.
	for line := range strings.Lines(stderr.String()) {
		if line = strings.TrimSpace(line); line != "" {
			notes = append(notes, Note{"go list", line})
		}
	}
	return pkgs, notes, nil
}

// FindModules returns the directories at or below dir that hold a
// go.mod, as go work use -r finds them: directories named testdata or
// vendor, or starting with a dot or an underscore, are left out, as the
// go command leaves them out of ./... . The directories are absolute and
// sorted, dir's own first when it is a module.
func FindModules(dir string) ([]string, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var mods []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
			mods = append(mods, p)
		}
		return nil
	})
	return mods, err
}
