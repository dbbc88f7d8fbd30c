package inject

import (
	"os"
	"path/filepath"
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
