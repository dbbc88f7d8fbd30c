package impact

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/gobench-dyn/gobench-dyn/internal/inject"
)

// A declKey names a package-level declaration across the two trees:
// "F" or "T.M" for a function or method, "type T", "var v" or "const c"
// for the others, and fileLevel+"name.go" for what a file holds outside
// named declarations (init functions, blank variables, directives, a cgo
// preamble), which acts on the whole package.
type declKey struct {
	Pkg, Name string
}

const fileLevel = "file "

func (k declKey) String() string { return k.Pkg + "." + k.Name }

// A tree is one version of the repository as package loading saw it.
type tree struct {
	// root is the repository's top-level directory: every package whose
	// sources lie below it is local, whichever module holds it (the
	// main module, a workspace module, a module replaced by a local
	// path, a vendored copy).
	root string
	// work is the go.work file the go command uses in the tree, or "".
	work string
	pkgs []*packages.Package
	// local are the packages whose sources lie in the tree, by ID.
	local map[string]*packages.Package
	// declFiles names the file of each declaration declHashes saw, by
	// path relative to the root.
	declFiles map[declKey]string
}

// isLocal reports whether dir lies in the tree: its code can differ
// between the versions, where the code of dependencies is fixed by
// go.mod and go.sum.
func (t *tree) isLocal(dir string) bool {
	return within(t.root, dir)
}

// within reports whether path is dir or lies below it.
func within(dir, path string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}

// load loads the packages patterns match in cfg.Dir with their tests and
// everything they import. root is the repository's top-level directory;
// "" takes the main module's (the first, in a workspace).
func load(cfg *packages.Config, patterns []string, root string) (*tree, error) {
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	t := &tree{root: realPath(root), pkgs: pkgs, local: map[string]*packages.Package{}}
	var errs []string
	main := ""
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if p.Module != nil && p.Module.Main && main == "" {
			main = p.Module.Dir
		}
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading %s: %s", strings.Join(patterns, " "), strings.Join(errs[:min(len(errs), 5)], "; "))
	}
	if main == "" {
		return nil, fmt.Errorf("loading %s: no package of the main module", strings.Join(patterns, " "))
	}
	if t.root == "" {
		t.root = realPath(main)
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.GoFiles) > 0 && t.isLocal(realPath(filepath.Dir(p.GoFiles[0]))) {
			t.local[p.ID] = p
		}
	})
	return t, nil
}

// realPath returns path absolute with its links resolved, so that a tree
// reached through a link (a temporary directory) compares with the paths
// the go command reports; as it is when it cannot.
func realPath(path string) string {
	if path == "" {
		return ""
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	return path
}

// rel returns path relative to the tree's root, with slashes.
func (t *tree) rel(path string) (string, error) {
	r, err := filepath.Rel(t.root, realPath(path))
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(r), nil
}

// files returns every file of the local packages that goes into a build,
// by import path and path relative to the root, with its content hash.
func (t *tree) files() (map[[2]string][32]byte, error) {
	out := map[[2]string][32]byte{}
	for _, p := range t.local {
		for _, f := range slices.Concat(p.GoFiles, p.OtherFiles, p.EmbedFiles) {
			rel, err := t.rel(f)
			if err != nil {
				return nil, err
			}
			k := [2]string{p.PkgPath, rel}
			if _, ok := out[k]; ok {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			out[k] = sha256.Sum256(b)
		}
	}
	return out, nil
}

// moduleFiles returns the content of the files that decide every
// dependency's code: go.mod, go.sum and vendor/modules.txt of every
// module with a local package, and the workspace's go.work and
// go.work.sum.
func (t *tree) moduleFiles() string {
	var b strings.Builder
	for _, dir := range t.moduleDirs() {
		for _, name := range []string{"go.mod", "go.sum", "go.work", "go.work.sum", "vendor/modules.txt"} {
			data, _ := os.ReadFile(filepath.Join(t.root, dir, name))
			fmt.Fprintf(&b, "%s/%s %d\n%s\n", dir, name, len(data), data)
		}
	}
	return b.String()
}

// moduleDirs returns the directories, relative to the root, of the
// modules that hold a local package, of the root itself, and of the
// workspace file in use, sorted.
func (t *tree) moduleDirs() []string {
	dirs := []string{"."}
	if t.work != "" {
		if rel, err := t.rel(filepath.Dir(t.work)); err == nil && !strings.HasPrefix(rel, "..") {
			dirs = append(dirs, rel)
		}
	}
	for _, p := range t.local {
		if m := p.Module; m != nil {
			dir := m.Dir
			if m.Replace != nil && m.Replace.Dir != "" {
				dir = m.Replace.Dir
			}
			if rel, err := t.rel(dir); err == nil && dir != "" && !strings.HasPrefix(rel, "..") {
				dirs = append(dirs, rel)
			}
		}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// testDeps returns, for each package with tests, the import paths its
// test binary links: a package new to the binary brings its own
// initialisation.
func (t *tree) testDeps() map[string][]string {
	out := map[string][]string{}
	for _, p := range t.pkgs {
		if !strings.HasSuffix(p.ID, ".test") || p.Name != "main" {
			continue
		}
		seen := map[string]bool{}
		packages.Visit([]*packages.Package{p}, func(q *packages.Package) bool {
			if seen[q.PkgPath] {
				return false
			}
			seen[q.PkgPath] = true
			return true
		}, nil)
		deps := make([]string, 0, len(seen))
		for path := range seen {
			deps = append(deps, path)
		}
		slices.Sort(deps)
		out[strings.TrimSuffix(p.PkgPath, ".test")] = deps
	}
	return out
}

// declHashes hashes every package-level declaration of the local
// packages, token by token: positions, layout and comments do not count,
// compiler directives do. Only the packages in linked count, and their
// test files only for those in tested, whose test binaries run: the
// baseline's second load brings the test variants of every local package
// and what they import, which no benchmark links.
func (t *tree) declHashes(linked, tested map[string]bool) (map[declKey][32]byte, error) {
	out := map[declKey][32]byte{}
	t.declFiles = map[declKey]string{}
	done := map[string]bool{}
	for _, p := range t.local {
		if !linked[strings.TrimSuffix(p.PkgPath, "_test")] {
			continue
		}
		for _, name := range p.GoFiles {
			if done[name] || (strings.HasSuffix(name, "_test.go") && !tested[strings.TrimSuffix(p.PkgPath, "_test")]) {
				continue
			}
			done[name] = true
			src, err := os.ReadFile(name)
			if err != nil {
				return nil, err
			}
			rel, err := t.rel(name)
			if err != nil {
				return nil, err
			}
			if err := hashFile(out, t.declFiles, p.PkgPath, name, rel, src); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// hashFile adds the declarations of one file to out, and names the file
// rel of each in files.
func hashFile(out map[declKey][32]byte, files map[declKey]string, pkg, name, rel string, src []byte) error {
	fset := token.NewFileSet()
	f, err := parseFile(fset, name, src)
	if err != nil {
		return err
	}
	file := fileLevel + filepath.Base(name)
	var level bytes.Buffer // what acts on the whole package
	// A declaration's own directives, in its doc comment or its body,
	// count for it (declTokens).
	owned := func(c *ast.CommentGroup) bool {
		for _, d := range f.Decls {
			if c.Pos() >= d.Pos() && c.End() <= d.End() {
				return true
			}
			switch d := d.(type) {
			case *ast.FuncDecl:
				if c == d.Doc {
					return true
				}
			case *ast.GenDecl:
				if c == d.Doc {
					return true
				}
			}
		}
		return false
	}
	for _, c := range f.Comments {
		// Directives outside declarations (a linkname, a cgo
		// preamble) and the build constraint.
		if owned(c) {
			continue
		}
		for _, l := range c.List {
			if isDirective(l.Text) {
				level.WriteString(l.Text + "\n")
			}
		}
	}
	for _, is := range f.Imports {
		if is.Path.Value == `"C"` && is.Doc != nil {
			level.WriteString(is.Doc.Text())
		}
		if is.Name != nil && is.Name.Name == "_" {
			level.WriteString("import _ " + is.Path.Value + "\n")
		}
	}
	tokens := func(n ast.Node, docs ...*ast.CommentGroup) []byte {
		return declTokens(fset, src, n, docs...)
	}
	add := func(name string, h []byte) {
		k := declKey{pkg, name}
		files[k] = rel
		prev, ok := out[k]
		sum := sha256.Sum256(h)
		if ok {
			// A name declared twice (in variants of one package)
			// hashes both.
			sum = sha256.Sum256(append(prev[:], sum[:]...))
		}
		out[k] = sum
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			h := tokens(d, d.Doc)
			if d.Recv == nil && d.Name.Name == "init" {
				level.Write(h)
				continue
			}
			add(inject.FuncName(d), h)
		case *ast.GenDecl:
			switch d.Tok {
			case token.IMPORT:
				// The cgo preamble is the comment on import "C".
				for _, s := range d.Specs {
					if s.(*ast.ImportSpec).Path.Value == `"C"` && d.Doc != nil {
						level.WriteString(d.Doc.Text())
					}
				}
			case token.CONST:
				// iota and implicit repetition tie a group together.
				h := tokens(d, d.Doc)
				for _, s := range d.Specs {
					for _, n := range s.(*ast.ValueSpec).Names {
						if n.Name == "_" {
							level.Write(h)
						} else {
							add("const "+n.Name, h)
						}
					}
				}
			case token.VAR:
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					h := tokens(vs, d.Doc, vs.Doc)
					if hasCall(vs) {
						// An initialiser that calls runs code at
						// initialisation, whose effects no reference
						// to the variable shows.
						level.Write(h)
					}
					for _, n := range vs.Names {
						if n.Name == "_" {
							level.Write(h)
						} else {
							add("var "+n.Name, h)
						}
					}
				}
			case token.TYPE:
				for _, s := range d.Specs {
					ts := s.(*ast.TypeSpec)
					add("type "+ts.Name.Name, tokens(ts, d.Doc, ts.Doc))
				}
			}
		}
	}
	add(file, level.Bytes())
	return nil
}

// parseFile parses a Go file with its comments.
func parseFile(fset *token.FileSet, name string, src []byte) (*ast.File, error) {
	return parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
}

// isDirective reports whether a comment is read by the toolchain.
func isDirective(text string) bool {
	return strings.HasPrefix(text, "//go:") || strings.HasPrefix(text, "//line ") ||
		strings.HasPrefix(text, "//export ") || strings.HasPrefix(text, "#cgo")
}

// hasCall reports whether a variable's initialiser calls anything.
func hasCall(vs *ast.ValueSpec) bool {
	found := false
	for _, v := range vs.Values {
		ast.Inspect(v, func(n ast.Node) bool {
			if _, ok := n.(*ast.CallExpr); ok {
				found = true
			}
			return !found
		})
	}
	return found
}

// declTokens returns the tokens of n's source, without comments, and the
// directives among the comments of docs.
func declTokens(fset *token.FileSet, src []byte, n ast.Node, docs ...*ast.CommentGroup) []byte {
	var b bytes.Buffer
	for _, d := range docs {
		if d == nil {
			continue
		}
		for _, c := range d.List {
			if isDirective(c.Text) {
				b.WriteString(c.Text + "\n")
			}
		}
	}
	tf := fset.File(n.Pos())
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	var s scanner.Scanner
	sf := token.NewFileSet().AddFile("", -1, end-start)
	s.Init(sf, src[start:end], nil, scanner.ScanComments)
	for {
		_, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			return b.Bytes()
		case tok == token.COMMENT:
			if isDirective(lit) {
				b.WriteString(lit + "\n")
			}
			continue
		case tok == token.SEMICOLON:
			lit = ""
		}
		b.WriteString(tok.String())
		if lit != "" {
			b.WriteString(" " + lit)
		}
		b.WriteByte('\n')
	}
}
