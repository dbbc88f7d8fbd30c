package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command that writes a report names each format's file with the
// same flag, --json, --markdown or --html FILE, "-" for standard output.
func TestReportFlagsOneConvention(t *testing.T) {
	var seen int
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, name := range []string{"json", "markdown", "html"} {
			f := c.Flags().Lookup(name)
			if f == nil {
				continue
			}
			seen++
			assert.Equal(t, "string", f.Value.Type(), "%s --%s takes a file", c.CommandPath(), name)
			assert.Contains(t, strings.ToLower(f.Usage), "`file`", "%s --%s", c.CommandPath(), name)
			assert.Regexp(t, `\(- (for|or bare)`, f.Usage, "%s --%s names standard output", c.CommandPath(), name)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(systemIO()))
	assert.GreaterOrEqual(t, seen, 11, "report flags of run, compare, replay, abs, steady, history and report")
}

// compare --json and --markdown were switches that printed the format
// instead of the table: given bare they still do, and never take the next
// argument for a file; --json=FILE writes the file and prints the table.
func TestCompareReportFlagsKeepOldSpelling(t *testing.T) {
	old, slow := filepath.Join("testdata", "compare", "old.txt"), filepath.Join("testdata", "compare", "slow.txt")
	out, errOut, code := inProcess("compare", "--json", old, slow)
	assert.Equal(t, 1, code, errOut)
	assert.True(t, json.Valid([]byte(out)), out)

	out, errOut, code = inProcess("compare", "--markdown", old, slow)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "### Benchmarks: 1 regression")

	file := filepath.Join(t.TempDir(), "verdicts.json")
	out, errOut, code = inProcess("compare", "--json="+file, old, slow)
	assert.Equal(t, 1, code, errOut)
	assert.Contains(t, out, "regression", "the table on standard output")
	assert.False(t, json.Valid([]byte(out)))
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.True(t, json.Valid(data))

	_, errOut, code = inProcess("compare", "--json", "--markdown", old, slow)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "--json - and --markdown -: only one report can go to standard output")
}
