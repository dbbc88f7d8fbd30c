// Package warmupcache keeps each benchmark's learned warmup between runs,
// by the code its test binary runs, so that a later run of the same code
// does not look for it again.
//
// Under the Interval criterion a benchmark's first process warms up until
// a slice is no longer much faster than the one before it, and its later
// processes take what it found. Looking costs the first process one to
// four slices more than the warmup it finds, and a suite of a hundred
// benchmarks a tenth of a run (docs/EVALUATION.md, "A warmup learned
// once"). Code that did not change warms up as it did, so a run takes
// the warmup an earlier run learned on a test binary of the same code
// (rmit.Package.CodeID, whatever its code layout), at the same slice
// time; any change to the package or what it links is other code, which
// learns again.
package warmupcache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
)

// Dir is a directory of learned warmups, one file per test binary.
type Dir string

// Default returns the directory runs keep their learned warmups in: the
// user's cache directory's gobench-dyn/warmup.
func Default() (Dir, error) {
	user, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return Dir(filepath.Join(user, "gobench-dyn", "warmup")), nil
}

// A Binary names one test binary whose benchmarks learned their warmups:
// its package's import path, what identifies the code it runs
// (rmit.Package.CodeID) and the slice time the warmups are counted in.
type Binary struct {
	Package, Code string
	SliceTime     time.Duration
}

// MaxWarmup is the most slices of warmup a file may hold for a benchmark:
// more is not a warmup a run learned.
const MaxWarmup = 10000

// version changes when what a file holds changes meaning.
const version = 2

// file is what the cache holds of one binary.
type file struct {
	Version   int            `json:"version"`
	Package   string         `json:"pkg"`
	Code      string         `json:"code"`
	SliceNs   int64          `json:"slice_ns"`
	Warmups   map[string]int `json:"warmups"`
	WrittenAt time.Time      `json:"written_at"`
}

// path is the file of b: named by a hash of all that identifies it, so
// that a binary of other content, or another slice time, has its own.
func (d Dir) path(b Binary) string {
	h := sha256.Sum256(fmt.Appendf(nil, "%d\n%s\n%s\n%d\n", version, b.Package, b.Code, b.SliceTime))
	return filepath.Join(string(d), hex.EncodeToString(h[:16])+".json")
}

// Read returns the learned warmup of each benchmark of b, in slices, by
// benchmark name (with its GOMAXPROCS suffix); none when the cache holds
// nothing of b. A file that does not read as one written for b is an
// error that names it.
func (d Dir) Read(b Binary) (map[string]int, error) {
	path := d.path(b)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parse(path, data, b)
}

// parse reads data, the file at path, as the cache's file of b.
func parse(path string, data []byte, b Binary) (map[string]int, error) {
	var f file
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case f.Version != version:
		return nil, fmt.Errorf("%s: version %d, not %d", path, f.Version, version)
	case f.Package != b.Package || f.Code != b.Code || f.SliceNs != int64(b.SliceTime):
		return nil, fmt.Errorf("%s: written for %s (code %s, slices of %v), not %s (code %s, slices of %v)",
			path, f.Package, f.Code, time.Duration(f.SliceNs), b.Package, b.Code, b.SliceTime)
	}
	for _, name := range slices.Sorted(maps.Keys(f.Warmups)) {
		if w := f.Warmups[name]; w < 1 || w > MaxWarmup {
			return nil, fmt.Errorf("%s: %s: warmup of %d slices, not 1 to %d", path, name, w, MaxWarmup)
		}
	}
	return f.Warmups, nil
}

// Write stores warmups, in slices by benchmark name, for b, beside what
// the cache holds of b's other benchmarks. The file is replaced whole, so
// that a run that reads it at the same time reads the old one or the new
// one.
func (d Dir) Write(b Binary, warmups map[string]int) error {
	if len(warmups) == 0 {
		return nil
	}
	merged, err := d.Read(b)
	if err != nil {
		// A file that does not read is replaced by what this run
		// learned.
		merged = nil
	}
	if merged == nil {
		merged = map[string]int{}
	}
	for name, w := range warmups {
		if w < 1 || w > MaxWarmup {
			return fmt.Errorf("warmup cache: %s: warmup of %d slices, not 1 to %d", name, w, MaxWarmup)
		}
		merged[name] = w
	}
	data, err := json.MarshalIndent(file{Version: version, Package: b.Package, Code: b.Code, SliceNs: int64(b.SliceTime), Warmups: merged, WrittenAt: time.Now().UTC()}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(d.path(b), append(data, '\n'))
}
