package inject

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Files returns the overlay contents that slow down the function called
// name in the Go file at path by the factor v: the rewritten file at its
// own path, and the helper file next to it.
func Files(path, name string, v float64) (map[string][]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	out, pkg, err := Rewrite(path, src, name)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		path: out,
		filepath.Join(filepath.Dir(path), HelperFile): Helper(pkg, v),
	}, nil
}

// WriteOverlay writes each file's content into dir and, next to them, the
// JSON file that go build -overlay reads to compile them in place of (or
// beside) the files at their keys' paths, which must be absolute. It
// returns the JSON file's path.
func WriteOverlay(dir string, files map[string][]byte) (string, error) {
	replace := map[string]string{}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for i, p := range paths {
		if !filepath.IsAbs(p) {
			return "", fmt.Errorf("overlay path %s is not absolute", p)
		}
		dst := filepath.Join(dir, fmt.Sprintf("%03d-%s", i, filepath.Base(p)))
		if err := os.WriteFile(dst, files[p], 0o600); err != nil {
			return "", err
		}
		replace[p] = dst
	}
	js, err := json.MarshalIndent(struct{ Replace map[string]string }{replace}, "", "\t")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "overlay.json")
	return path, os.WriteFile(path, js, 0o600)
}
