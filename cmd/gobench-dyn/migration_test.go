package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/MIGRATION.md gives, for each go test flag a team uses, its
// equivalent; every flag of run it names must exist, so that the guide
// does not rot as flags change.
func TestMigrationGuideFlags(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "MIGRATION.md"))
	require.NoError(t, err)
	doc := string(b)
	rows := map[string]string{}
	for l := range strings.Lines(doc) {
		cells := strings.Split(l, "|")
		if len(cells) > 3 && strings.HasPrefix(strings.TrimSpace(cells[1]), "`-") {
			rows[strings.Fields(strings.Trim(strings.TrimSpace(cells[1]), "`"))[0]] = cells[2]
		}
	}
	for _, f := range []string{"-bench", "-benchtime", "-count", "-cpu", "-tags", "-args", "-short", "-timeout", "-benchmem"} {
		assert.Contains(t, rows, f, "the guide has a row for go test %s", f)
	}
	run := NewCmdRun(systemIO(), nil)
	for _, m := range regexp.MustCompile("(?:^|[ `(])--([a-z][a-z-]+)").FindAllStringSubmatch(doc, -1) {
		if m[1] == "unshallow" { // git's
			continue
		}
		assert.NotNil(t, run.Flags().Lookup(m[1]), "docs/MIGRATION.md names --%s, which run does not have", m[1])
	}
	assert.Contains(t, rows["-short"], "-- -test.short")
}
