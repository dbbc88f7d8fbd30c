// Package overlay writes the JSON files that go build -overlay reads.
//
// gobench-dyn compiles test binaries with files of its own in place of, or
// beside, files on disk: the turn hook in the standard library's testing
// package, and the slowed copies of functions that abs measures. A user may
// pass an overlay of their own as well, and go build takes only one, so
// every overlay goes through Write, which merges them into one file.
package overlay

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// An Overlay is the content of an overlay file: each absolute path that
// go build reads maps to the file compiled in its place, or to "" for a
// file treated as deleted.
type Overlay struct {
	Replace map[string]string
}

// Read reads the overlay file at path.
func Read(path string) (*Overlay, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var o Overlay
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("%s: not an overlay file: %w", path, err)
	}
	if o.Replace == nil {
		o.Replace = map[string]string{}
	}
	return &o, nil
}

// Write writes each file's content into dir and, next to them, one overlay
// file that compiles them in place of (or beside) the files at their keys'
// paths, which must be absolute, merged with the overlay file base (none
// when base is ""). A path that both replace is an error: one of the two
// would be silently lost. It returns the overlay file's path.
func Write(dir string, files map[string][]byte, base string) (string, error) {
	replace := map[string]string{}
	if base != "" {
		b, err := Read(base)
		if err != nil {
			return "", err
		}
		for p, to := range b.Replace {
			if !filepath.IsAbs(p) {
				// go build resolves relative paths against the directory
				// it runs in, which is not ours to know here.
				return "", fmt.Errorf("%s: overlay path %s is not absolute", base, p)
			}
			if to != "" && !filepath.IsAbs(to) {
				to = filepath.Join(filepath.Dir(base), to)
			}
			replace[p] = to
		}
	}
	paths := slices.Sorted(maps.Keys(files))
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			return "", fmt.Errorf("overlay path %s is not absolute", p)
		}
		if _, ok := replace[p]; ok {
			return "", fmt.Errorf("%s replaces %s, which gobench-dyn must replace itself", base, p)
		}
		dst := filepath.Join(dir, fmt.Sprintf("%03d-%s", i, filepath.Base(p)))
		if err := os.WriteFile(dst, files[p], 0o600); err != nil {
			return "", err
		}
		replace[p] = dst
	}
	js, err := json.MarshalIndent(Overlay{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(path, js, 0o600); err != nil {
		return "", err
	}
	return path, nil
}
