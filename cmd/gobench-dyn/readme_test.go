package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The README's table documents every flag of run, with its default; a
// flag added without a row fails here.
func TestREADMEDocumentsEveryRunFlag(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	require.NoError(t, err)
	readme := string(b)
	start := strings.Index(readme, "## `run` flags and defaults")
	require.GreaterOrEqual(t, start, 0)
	table := readme[start:]
	table = table[:strings.Index(table[3:], "\n## ")+3]
	newRunCmd().Flags().VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" {
			return
		}
		assert.Contains(t, table, "--"+f.Name, "README's run flag table lacks --%s", f.Name)
	})
}
