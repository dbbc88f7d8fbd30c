package packagerules

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// watchModule makes go test's cache of a rule depend on every Go file of
// the module. packages.Load reads them through go list, another process,
// whose reads the cache does not see: a pass cached before a change that
// breaks a rule would otherwise be reported again after it.
func watchModule(t *testing.T) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(path, ".go") || d.Name() == "go.mod"):
			_, err = os.Stat(path)
		}
		return err
	})
	require.NoError(t, err)
}
