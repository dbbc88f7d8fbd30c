package rmit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
)

// A BuildError is a package whose test binary did not compile. Output is
// the compiler's own message.
type BuildError struct {
	Package *Package
	Output  string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("%s: build failed:\n%s", e.Package.ImportPath, strings.TrimRight(e.Output, "\n"))
}

// BuildOptions configures the compilation of test binaries.
type BuildOptions struct {
	Dir        string   // the directory go test -c runs in (the module of the code under test)
	BuildFlags []string // passed to go test -c: -tags, -race, -overlay, …
	OutDir     string   // where binaries go; should be private to the run
	Env        []string // extra environment; nil inherits
	// Parallel bounds concurrent builds; 0 means the number of CPUs.
	Parallel int
}

// Build compiles each package's test binary once with go test -c, several
// at a time. It returns the packages that built, with Binary and Hash set,
// and one BuildError per package that did not. A package whose build
// produces no binary has no test files for this configuration and is
// dropped with a note.
func Build(ctx context.Context, pkgs []*Package, opts BuildOptions) (built []*Package, notes []Note, failed []*BuildError) {
	par := opts.Parallel
	if par <= 0 {
		par = runtime.NumCPU()
	}
	type result struct {
		ok   bool
		note string
		err  *BuildError
	}
	results := make([]result, len(pkgs))
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i, p := range pkgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			bin := filepath.Join(opts.OutDir, binaryName(i, p))
			args := append([]string{"test", "-c", "-o", bin}, opts.BuildFlags...)
			args = append(args, p.ImportPath)
			cmd := exec.CommandContext(ctx, "go", args...)
			cmd.Dir = opts.Dir
			if opts.Env != nil {
				cmd.Env = append(cmd.Environ(), opts.Env...)
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				msg := out.String()
				if msg == "" {
					msg = err.Error()
				}
				results[i] = result{err: &BuildError{Package: p, Output: goSumFix(msg)}}
				return
			}
			h, err := hashFile(bin)
			if os.IsNotExist(err) {
				results[i] = result{note: "no test files, skipped"}
				return
			} else if err != nil {
				results[i] = result{err: &BuildError{Package: p, Output: err.Error()}}
				return
			}
			p.Binary, p.Hash = bin, h
			results[i] = result{ok: true}
		}()
	}
	wg.Wait()
	for i, r := range results {
		switch {
		case r.ok:
			built = append(built, pkgs[i])
		case r.err != nil:
			failed = append(failed, r.err)
		default:
			notes = append(notes, Note{pkgs[i].ImportPath, r.note})
		}
	}
	return built, notes, failed
}

// binaryName names the test binary of p, the i-th package of a build.
func binaryName(i int, p *Package) string {
	return fmt.Sprintf("%03d-%s.test", i, filepath.Base(p.ImportPath))
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}
