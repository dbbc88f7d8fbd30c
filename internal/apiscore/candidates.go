// Package apiscore computes the API benchmarking score of a benchmark suite
// (Laaber & Leitner, MSR'18): the share of a package's exported functions
// whose injected slowdown some benchmark of the suite detects.
//
// It finds the candidates and how much each benchmark exercises them from
// coverage profiles, measures the suite's maxSpread on the unchanged code
// to size the slowdown, and for each candidate runs only the benchmarks
// that reach it, the slowed version interleaved with the unchanged one.
package apiscore

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gobench-dyn/gobench-dyn/internal/coverage"
	"github.com/gobench-dyn/gobench-dyn/internal/inject"
)

// A Candidate is an exported function or method whose slowdown the suite
// might detect.
type Candidate struct {
	Package string // import path
	Name    string // "Parse" or "Type.Method"
	File    string // absolute path of the file that declares it
	// Body spans the function body, braces included; coverage blocks
	// inside it count for the function. Zero for a function without body.
	Body coverage.Span
	// HasBody is false for functions implemented in assembly.
	HasBody bool
}

// String returns the candidate as the report names it.
func (c *Candidate) String() string { return c.Package + "." + c.Name }

// Candidates returns the exported functions and methods of exported
// types declared in the non-test Go files of the packages patterns match,
// resolved in dir, in declaration order.
func Candidates(ctx context.Context, dir string, patterns, buildFlags []string) ([]*Candidate, error) {
	cfg := &packages.Config{
		Context:    ctx,
		Dir:        dir,
		Mode:       packages.NeedName | packages.NeedFiles | packages.NeedSyntax,
		BuildFlags: buildFlags,
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	var cs []*Candidate
	for _, p := range pkgs {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
		for _, f := range p.Syntax {
			file := p.Fset.Position(f.Pos()).Filename
			if !slices.Contains(p.GoFiles, file) {
				continue // cgo's generated files
			}
			cs = append(cs, fileCandidates(p.PkgPath, p.Fset, file, f)...)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), strings.Join(errs, "; "))
	}
	return cs, nil
}

func fileCandidates(pkg string, fset *token.FileSet, file string, f *ast.File) []*Candidate {
	var cs []*Candidate
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !fd.Name.IsExported() {
			continue
		}
		if fd.Recv != nil && !ast.IsExported(inject.RecvType(fd.Recv.List[0].Type)) {
			continue
		}
		c := &Candidate{Package: pkg, Name: inject.FuncName(fd), File: filepath.Clean(file), HasBody: fd.Body != nil}
		if fd.Body != nil {
			s, e := fset.Position(fd.Body.Lbrace), fset.Position(fd.Body.Rbrace)
			c.Body.StartLine, c.Body.StartCol, c.Body.EndLine, c.Body.EndCol = s.Line, s.Column, e.Line, e.Column+1
		}
		cs = append(cs, c)
	}
	return cs
}
