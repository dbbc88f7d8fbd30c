package impact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
)

// cacheVersion changes when what the cache holds changes meaning.
const cacheVersion = "impact-coverage-1"

// cacheKey returns the key of the baseline's coverage: everything that
// decides what its build executes, the commit, go.mod and go.sum, the
// toolchain, the target and the flags, and what runs. "" caches nothing:
// without a commit the sources are not pinned.
func (a *analysis) cacheKey(ctx context.Context) string {
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

// cacheEntry is one benchmark's executed functions, as the cache file
// holds them.
type cacheEntry struct {
	Package   string      `json:"pkg"`
	Benchmark string      `json:"bench"`
	Executed  [][2]string `json:"executed"`
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
func (a *analysis) readCache(key string) (map[[2]string][]declKey, bool) {
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
	out := map[[2]string][]declKey{}
	for _, e := range entries {
		ks := make([]declKey, len(e.Executed))
		for i, x := range e.Executed {
			ks[i] = declKey{x[0], x[1]}
		}
		out[[2]string{e.Package, e.Benchmark}] = ks
	}
	return out, true
}

// writeCache stores the coverage under key.
func (a *analysis) writeCache(key string, got map[[2]string][]declKey) error {
	path, err := a.cachePath(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	entries := []cacheEntry{}
	for _, b := range a.rep.Benchmarks {
		ks, ok := got[[2]string{b.Package, b.Name}]
		if !ok {
			continue
		}
		e := cacheEntry{Package: b.Package, Benchmark: b.Name, Executed: [][2]string{}}
		for _, k := range ks {
			e.Executed = append(e.Executed, [2]string{k.Pkg, k.Name})
		}
		entries = append(entries, e)
	}
	data, err := json.Marshal(entries)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data)
}
