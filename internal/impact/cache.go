package impact

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
)

// cacheVersion changes when what the cache holds changes meaning.
const cacheVersion = "impact-coverage-3"

// makeCacheKey returns the key of the baseline's coverage: everything that
// decides what its build executes, the commit, go.mod and go.sum, the
// toolchain, the target and the flags, and what runs. "" caches nothing:
// without a commit the sources are not pinned.
func (a *analysis) makeCacheKey(ctx context.Context) string {
	if a.opts.BaseRev == "" {
		return ""
	}
	goVersion, err := exec.CommandContext(ctx, "go", "env", "GOVERSION", "GOOS", "GOARCH", "GOFLAGS", "GOEXPERIMENT", "CGO_ENABLED").Output()
	if err != nil {
		return ""
	}
	h := sha256.New()
	rel, _ := filepath.Rel(a.base.root, a.opts.BaseDir)
	fmt.Fprintf(h, "%s\n%s\n%s\n%s\n%s\n", cacheVersion, a.opts.BaseRev, goVersion, runtime.GOARCH, rel)
	for _, s := range [][]string{a.opts.Patterns, a.opts.BuildFlags, a.opts.TestArgs, {a.opts.Bench}} {
		fmt.Fprintf(h, "%d %q\n", len(s), strings.Join(s, "\x00"))
	}
	h.Write([]byte(a.base.moduleFiles()))
	return hex.EncodeToString(h.Sum(nil))
}

// cacheEntry is one benchmark's executed functions, and a top-level
// benchmark's leaves, as the cache file holds them. A leaf has its own
// entry once its coverage was needed.
type cacheEntry struct {
	Package   string      `json:"pkg"`
	Benchmark string      `json:"bench"`
	Executed  [][2]string `json:"executed"`
	Leaves    []string    `json:"leaves,omitempty"`
	// Reads are the repository's files its process opened or stat'd,
	// as [op, path]; Logged says the file log was complete.
	Reads  [][2]string `json:"reads,omitempty"`
	Logged bool        `json:"logged,omitempty"`
}

func (a *analysis) cachePath(key string) (string, error) {
	dir := a.opts.CacheDir
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(user, "gobench-dyn", "impact")
	}
	return filepath.Join(dir, key+".json"), nil
}

// readCache returns the coverage cached under key, if any. A file that
// does not read is ignored: the coverage is measured again.
func (a *analysis) readCache(key string) (map[benchKey]*profiled, bool) {
	path, err := a.cachePath(key)
	if err != nil {
		return nil, false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var entries []cacheEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		fmt.Fprintf(a.opts.Log, "gobench-dyn: impact: ignoring the coverage cache %s: %v\n", path, err)
		return nil, false
	}
	out := map[benchKey]*profiled{}
	for _, e := range entries {
		p := &profiled{Executed: make([]declKey, len(e.Executed)), Leaves: e.Leaves, Logged: e.Logged}
		for i, x := range e.Executed {
			p.Executed[i] = declKey{x[0], x[1]}
		}
		for _, x := range e.Reads {
			p.Reads = append(p.Reads, fileAccess{Op: x[0], Path: x[1]})
		}
		out[benchKey{e.Package, e.Benchmark}] = p
	}
	return out, true
}

// writeCache stores the coverage under key.
func (a *analysis) writeCache(key string, got map[benchKey]*profiled) error {
	path, err := a.cachePath(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	entries := []cacheEntry{}
	for k, p := range got {
		e := cacheEntry{Package: k[0], Benchmark: k[1], Executed: [][2]string{}, Leaves: p.Leaves, Logged: p.Logged}
		for _, x := range p.Executed {
			e.Executed = append(e.Executed, [2]string{x.Pkg, x.Name})
		}
		for _, x := range p.Reads {
			e.Reads = append(e.Reads, [2]string{x.Op, x.Path})
		}
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(x, y cacheEntry) int {
		return cmp.Or(cmp.Compare(x.Package, y.Package), cmp.Compare(x.Benchmark, y.Benchmark))
	})
	data, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data)
}
