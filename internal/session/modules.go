package session

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// A module is one module the run resolves its patterns in: its directory
// in the code under test, and its index among the run's modules, which
// keeps the files built for each apart.
type module struct {
	dir   string
	index int
}

// modules returns the modules of the run: the run's directory, or with
// AllModules every module at or below it.
func (r *run) modules() ([]module, error) {
	if !r.opts.AllModules {
		return []module{{dir: r.opts.Dir}}, nil
	}
	dir := cmp.Or(r.opts.Dir, ".")
	dirs, err := rmit.FindModules(dir)
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, usage.Errorf("all-modules", "no go.mod at or below %s", dir)
	}
	mods := make([]module, len(dirs))
	for i, d := range dirs {
		mods[i] = module{dir: d, index: i}
	}
	return mods, nil
}

// suffix names the files built for the module: "" for the first, so that
// a run of one module names them as it always has.
func (m module) suffix() string {
	if m.index == 0 {
		return ""
	}
	return fmt.Sprintf("-%d", m.index)
}

// name is the module's directory as the log names it, relative to the
// run's directory.
func (m module) name(runDir string) string {
	base, err := filepath.Abs(cmp.Or(runDir, "."))
	if err != nil {
		return m.dir
	}
	rel, err := filepath.Rel(base, m.dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return m.dir
	}
	return rel
}

// baseDir returns the module's directory in the checkout: co.Dir for the
// run's own directory, and the same path relative to the repository's top
// level for the others.
func (m module) baseDir(co *Checkout, all bool) (string, error) {
	if !all || co.Root == "" || co.HeadRoot == "" {
		return co.Dir, nil
	}
	dir := m.dir
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	top := co.HeadRoot
	if r, err := filepath.EvalSymlinks(top); err == nil {
		top = r
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("%s is outside the repository %s", dir, co.HeadRoot)
	}
	return filepath.Join(co.Root, rel), nil
}

// buildDirs returns the directories of the modules whose files the build
// of the module in dir can compile, relative to the repository's top
// level root: the module itself, the modules it replaces by a local path,
// and those of the go.work above it with theirs, transitively.
func buildDirs(root, dir string) ([]string, error) {
	for _, p := range []*string{&root, &dir} {
		if r, err := filepath.EvalSymlinks(*p); err == nil {
			*p = r
		}
	}
	seen := map[string]bool{}
	var visit func(dir string) error
	addReplaces := func(from string, reps []*modfile.Replace) error {
		for _, r := range reps {
			if r.New.Version == "" && modfile.IsDirectoryPath(r.New.Path) {
				if err := visit(filepath.Join(from, filepath.FromSlash(r.New.Path))); err != nil {
					return err
				}
			}
		}
		return nil
	}
	visit = func(dir string) error {
		dir = filepath.Clean(dir)
		if seen[dir] {
			return nil
		}
		seen[dir] = true
		name := filepath.Join(dir, "go.mod")
		data, err := os.ReadFile(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		f, err := modfile.Parse(name, data, nil)
		if err != nil {
			return err
		}
		return addReplaces(dir, f.Replace)
	}
	if err := visit(dir); err != nil {
		return nil, err
	}
	// The go command finds go.work in the module's directory or above.
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		name := filepath.Join(d, "go.work")
		if data, err := os.ReadFile(name); err == nil {
			w, err := modfile.ParseWork(name, data, nil)
			if err != nil {
				return nil, err
			}
			seen[d] = true
			for _, u := range w.Use {
				if err := visit(filepath.Join(d, filepath.FromSlash(u.Path))); err != nil {
					return nil, err
				}
			}
			if err := addReplaces(d, w.Replace); err != nil {
				return nil, err
			}
			break
		}
		if d == root || d == filepath.Dir(d) {
			break
		}
	}
	var out []string
	for d := range seen {
		if rel, err := filepath.Rel(root, d); err == nil && !strings.HasPrefix(rel, "..") {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	slices.Sort(out)
	return out, nil
}

// outsideBuild reports whether every path of the change is Go code or a
// module file of a module other than those in dirs (buildDirs): code the
// module's build cannot compile, so that its analysis can be skipped. A
// path belongs to the deepest of the repository's modules mods that
// holds it, and a workspace file to the workspace's directory. Any other
// file may be read at run time, whichever module holds it, and leaves the
// decision to the analysis.
func outsideBuild(paths, dirs, mods []string) bool {
	for _, p := range paths {
		if !isBuildFile(p) {
			return false
		}
		owner := "."
		for _, m := range mods {
			if inDir(m, p) && len(m) > len(owner) {
				owner = m
			}
		}
		if base := path.Base(p); base == "go.work" || base == "go.work.sum" {
			owner = path.Dir(p)
		}
		if slices.Contains(dirs, owner) {
			return false
		}
	}
	return true
}

// inDir reports whether the slash path p is dir or lies below it.
func inDir(dir, p string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// isBuildFile reports whether the go command compiles or reads the file
// p as part of a build: Go, assembly and C sources, module files.
func isBuildFile(p string) bool {
	switch path.Base(p) {
	case "go.mod", "go.sum", "go.work", "go.work.sum", "modules.txt":
		return true
	}
	switch path.Ext(p) {
	case ".go", ".s", ".S", ".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".syso":
		return true
	}
	return false
}
