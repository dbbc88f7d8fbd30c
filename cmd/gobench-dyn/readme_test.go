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

// The README documents every flag of every command with its default: run's
// in its own table, the others' in "Flags of the other commands". A flag
// added without a row fails here.
func TestREADMEDocumentsEveryFlag(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	require.NoError(t, err)
	section := func(title string) string {
		s := string(b)
		start := strings.Index(s, title)
		require.GreaterOrEqual(t, start, 0, "README has no %q", title)
		s = s[start+len(title):]
		if end := strings.Index(s, "\n## "); end >= 0 {
			s = s[:end]
		}
		return s
	}
	runTable, others := section("## `run` flags and defaults"), section("## Flags of the other commands")
	checked := 0
	for _, cmd := range newRootCmd(systemIO()).Commands() {
		table := others
		if cmd.Name() == "run" {
			table = runTable
		}
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Name == "help" {
				return
			}
			assert.Contains(t, table, "--"+f.Name, "README documents no --%s of %s", f.Name, cmd.Name())
			checked++
		})
	}
	assert.Greater(t, checked, 50, "the commands' flags were found")
}
