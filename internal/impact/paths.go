package impact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A PathKind says how a path the change touches can reach a benchmark.
type PathKind string

// The kinds of changed paths. Every path the change touches is one of
// them; none is left out.
const (
	// PathSource is a Go file compiled into a local package of either
	// version: it reaches what executes, or can call, a declaration of
	// it that differs.
	PathSource PathKind = "declarations"
	// PathPackageFile is an assembly, C or embedded file of a local
	// package: it reaches every benchmark whose test binary links the
	// package.
	PathPackageFile PathKind = "package file"
	// PathModule is go.mod, go.sum or vendor/modules.txt of a module the
	// build uses, or the workspace's go.work or go.work.sum: it decides
	// the code of every dependency, so it reaches everything.
	PathModule PathKind = "module file"
	// PathRead is any other file: it reaches a benchmark whose process
	// opens or stats it, opens a directory that holds it, or reads
	// another file of its directory, as the test binary's file log
	// (-test.testlogfile, the log go test's cache rests on) shows.
	PathRead PathKind = "read file"
	// PathUnused is a module file of a module no build of either
	// version uses.
	PathUnused PathKind = "unused module file"
	// PathUnknown is a path whose content the analysis cannot compare
	// (a submodule, a directory): it reaches everything.
	PathUnknown PathKind = "unknown"
)

// A Path is one path the change touches, and what it reaches.
type Path struct {
	// Path is relative to the repository's top level, with slashes.
	Path string
	Kind PathKind
	// Why says what the kind rests on, or what in the path differs.
	Why string
	// Reaches names the benchmarks it reaches ("package.Benchmark"):
	// for a Go file, those whose reason names one of its declarations.
	Reaches []string
}

// changedPaths returns the paths that differ between the two trees: the
// caller's list, or every file below the roots compared by content.
func (a *analysis) changedPaths() ([]string, error) {
	if a.opts.Changed != nil {
		out := make([]string, 0, len(a.opts.Changed))
		for _, p := range a.opts.Changed {
			out = append(out, path.Clean(filepath.ToSlash(p)))
		}
		slices.Sort(out)
		return slices.Compact(out), nil
	}
	head, err := hashTree(a.head.root)
	if err != nil {
		return nil, err
	}
	base, err := hashTree(a.base.root)
	if err != nil {
		return nil, err
	}
	var out []string
	for p, h := range head {
		if b, ok := base[p]; !ok || b != h {
			out = append(out, p)
		}
	}
	for p := range base {
		if _, ok := head[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

// hashTree hashes every file below root but git's own, by path relative
// to root; a link hashes as its target's name.
func hashTree(root string) (map[string][32]byte, error) {
	out := map[string][32]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		var data []byte
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			data = []byte("link " + target)
		} else if data, err = os.ReadFile(p); err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = sha256.Sum256(data)
		return nil
	})
	return out, err
}

// A fileRole is what a local package makes of one of its files.
type fileRole int

const (
	roleNone fileRole = iota
	roleSource
	rolePackage
)

// roles returns what the local packages of t make of their files, by
// path relative to the root.
func (t *tree) roles() map[string]fileRole {
	out := map[string]fileRole{}
	set := func(files []string, r fileRole) {
		for _, f := range files {
			if rel, err := t.rel(f); err == nil && out[rel] < r {
				out[rel] = r
			}
		}
	}
	for _, p := range t.local {
		set(p.GoFiles, roleSource)
		set(p.CompiledGoFiles, roleSource)
		set(p.OtherFiles, rolePackage)
		set(p.EmbedFiles, rolePackage)
	}
	// An embedded Go file acts on the package as a whole, as an
	// embedded file of any other kind does.
	for _, p := range t.local {
		set(p.EmbedFiles, rolePackage)
	}
	return out
}

// packageDirs returns the directories of t's local packages, relative to
// the root.
func (t *tree) packageDirs() []string {
	var dirs []string
	for _, p := range t.local {
		if len(p.GoFiles) == 0 {
			continue
		}
		if rel, err := t.rel(filepath.Dir(p.GoFiles[0])); err == nil {
			dirs = append(dirs, rel)
		}
	}
	slices.Sort(dirs)
	return slices.Compact(dirs)
}

// classify accounts for every changed path: each gets its kind, and a
// module file the build uses, or a path the analysis cannot compare,
// makes every benchmark affected, naming the path. It returns the paths
// read files are decided for once their processes' file logs are known.
func (a *analysis) classify(changed []string) (reads []int) {
	roles := a.base.roles()
	for p, r := range a.head.roles() {
		roles[p] = max(roles[p], r)
	}
	modDirs := slices.Concat(a.base.moduleDirs(), a.head.moduleDirs())
	pkgDirs := slices.Concat(a.base.packageDirs(), a.head.packageDirs())
	for _, p := range changed {
		x := Path{Path: p}
		dir, name := path.Dir(p), path.Base(p)
		switch {
		case roles[p] == roleSource:
			x.Kind = PathSource
		case roles[p] == rolePackage:
			x.Kind, x.Why = PathPackageFile, "assembly, C or an embedded file: it counts for every binary that links its package"
		case name == "go.mod" || name == "go.sum" || name == "go.work" || name == "go.work.sum" || strings.HasSuffix(p, "vendor/modules.txt"):
			mod := dir
			if name == "modules.txt" {
				mod = path.Dir(path.Dir(p))
			}
			if slices.Contains(modDirs, mod) || slices.ContainsFunc(pkgDirs, func(d string) bool { return inDir(mod, d) }) {
				x.Kind, x.Why = PathModule, "it decides the code of dependencies"
				if a.rep.Everything == "" {
					a.rep.Everything = p + " differs, which decides the code of dependencies"
				}
			} else {
				x.Kind, x.Why = PathUnused, "no build of either version uses its module"
			}
		case strings.HasSuffix(p, "_test.go") && slices.Contains(pkgDirs, dir):
			x.Kind, x.Why = PathSource, "a test file of a package whose test binary does not run"
		case a.isDir(p):
			x.Kind, x.Why = PathUnknown, "a directory or submodule, whose content is not compared"
			if a.rep.Everything == "" {
				a.rep.Everything = p + " differs, a directory or submodule whose content is not compared"
			}
		default:
			x.Kind = PathRead
			reads = append(reads, len(a.rep.Paths))
		}
		a.rep.Paths = append(a.rep.Paths, x)
	}
	return reads
}

// isDir reports whether p is a directory in either tree.
func (a *analysis) isDir(p string) bool {
	for _, t := range []*tree{a.head, a.base} {
		if fi, err := os.Lstat(filepath.Join(t.root, filepath.FromSlash(p))); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// inDir reports whether the slash path p is dir or lies below it.
func inDir(dir, p string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// A fileAccess is one line of a test binary's file log: what it did
// ("open", "stat") to which path, relative to the repository's top
// level. Paths outside the repository are left out.
type fileAccess struct {
	Op, Path string
}

// readLog reads the file log a test binary wrote with -test.testlogfile,
// following its changes of directory from dir, where it started. It
// returns false when there is no complete log.
func (t *tree) readLog(file, dir string) ([]fileAccess, bool) {
	data, err := os.ReadFile(file)
	if err != nil || !bytes.HasPrefix(data, []byte("# test log\n")) {
		return nil, false
	}
	cwd := realPath(dir)
	var out []fileAccess
	for line := range strings.Lines(string(data)) {
		op, name, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		if !ok || op == "getenv" || strings.HasPrefix(op, "#") {
			// The environment is the same for both versions: it
			// cannot differ between them.
			continue
		}
		if !filepath.IsAbs(name) {
			name = filepath.Join(cwd, name)
		}
		name = filepath.Clean(name)
		if op == "chdir" {
			cwd = name
			continue
		}
		rel, err := filepath.Rel(t.root, name)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		out = append(out, fileAccess{Op: op, Path: filepath.ToSlash(rel)})
	}
	return out, true
}

// readsPath says how the accesses of a process can reach the changed
// path p, or returns "". Opening p or a directory that holds it reads it;
// reading another file of its directory counts too, since another op may
// pick another file there (inputs named by a table, a glob).
func readsPath(log []fileAccess, p string) string {
	dir := path.Dir(p)
	for _, e := range log {
		switch {
		case e.Path == p:
			return "it reads " + p
		case e.Op == "open" && e.Path != p && inDir(e.Path, p):
			return "it opens " + e.Path + ", which holds " + p
		case path.Dir(e.Path) == dir && dir != ".":
			return "it reads " + e.Path + ", beside " + p
		}
	}
	return ""
}

// decideReads marks the benchmarks the changed read files at reads reach:
// those whose file log shows they read them, and every benchmark whose
// log is unknown. Such a benchmark is decided as a whole, all its leaves
// affected: the log is of its top-level process.
func (a *analysis) decideReads(reads []int, profiles map[benchKey]*profiled) {
	for _, i := range reads {
		x := &a.rep.Paths[i]
		for j := range a.rep.Benchmarks {
			b := &a.rep.Benchmarks[j]
			why := ""
			switch p := profiles[benchKey{b.Package, b.Name}]; {
			case p == nil || !p.Logged:
				why = "what its process reads is unknown"
			default:
				why = readsPath(p.Reads, x.Path)
			}
			if why == "" {
				continue
			}
			x.Reaches = append(x.Reaches, b.Package+"."+b.Name)
			if !b.Affected {
				b.Affected, b.Why = true, why
			} else if !strings.Contains(b.Why, why) {
				b.Why += "; " + why
			}
			b.reach = false
		}
		if len(x.Reaches) == 0 {
			x.Why = "no benchmark's process reads it, its directory or a file beside it"
		}
	}
}

// sourceReaches fills in, for each changed Go file, what differs in it
// and the benchmarks it reaches: those that execute, or can call, a
// declaration of it that the analysis found changed, and those that link
// a package in which it differs outside declarations. A benchmark can
// reach several files; its reason names one of them.
func (a *analysis) sourceReaches() {
	for i := range a.rep.Paths {
		x := &a.rep.Paths[i]
		if x.Kind != PathSource {
			continue
		}
		var names []string
		targets, wide := map[declKey]bool{}, map[string]bool{}
		for _, t := range []*tree{a.base, a.head} {
			for k, f := range t.declFiles {
				if f != x.Path {
					continue
				}
				if a.changed[k] {
					targets[k] = true
				}
				if !a.differs[k] {
					continue
				}
				name := k.String()
				if strings.HasPrefix(k.Name, fileLevel) {
					// Reasons name the package: "it links P, which
					// differs outside declarations".
					name = k.Pkg
					wide[k.Pkg] = true
				}
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
		}
		slices.Sort(names)
		switch {
		case len(names) == 0 && x.Why != "":
		case len(names) == 0:
			x.Why = "no declaration differs"
		case len(names) == 1:
			x.Why = names[0] + " differs"
		case len(names) <= 3:
			x.Why = strings.Join(names, ", ") + " differ"
		default:
			x.Why = fmt.Sprintf("%s and %d more declarations differ", strings.Join(names[:3], ", "), len(names)-3)
		}
		var reach map[declKey]string
		if len(targets) > 0 && a.reaches != nil {
			reach = a.reachesAny(targets)
		}
		for _, b := range a.rep.Benchmarks {
			if !b.Affected {
				continue
			}
			links := slices.ContainsFunc(a.baseDeps[b.Package], func(p string) bool { return wide[p] && a.wide[p] })
			runs := slices.ContainsFunc(b.ran, func(k declKey) bool { _, ok := reach[k]; return ok })
			if links || runs {
				x.Reaches = append(x.Reaches, b.Package+"."+b.Name)
			}
		}
	}
}

// goWork returns the go.work file the go command uses in dir, or "".
func goWork(ctx context.Context, dir string, env []string) string {
	cmd := exec.CommandContext(ctx, "go", "env", "GOWORK")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	w := strings.TrimSpace(string(out))
	if w == "off" {
		return ""
	}
	return w
}
