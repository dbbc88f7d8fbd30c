package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchproc"
)

// benchstatView is how benchstat, with its default flags, lays out the
// results of some files: one table per distinct value of -table .config,
// one row per -row .fullname and one column per -col .file. It is built
// with benchstat's own libraries, benchfmt and benchproc, as its main
// function builds it (golang.org/x/perf/cmd/benchstat).
type benchstatView struct {
	// columns holds, per table and row, the columns (files) that have
	// results in it.
	columns map[string]map[string]map[string]bool
}

// readBenchstatView reads paths as "benchstat paths..." does.
func readBenchstatView(t *testing.T, paths ...string) benchstatView {
	t.Helper()
	filter, err := benchproc.NewFilter("*")
	require.NoError(t, err)
	var parser benchproc.ProjectionParser
	tableBy, _, err := parser.ParseWithUnit(".config", filter)
	require.NoError(t, err)
	rowBy, err := parser.Parse(".fullname", filter)
	require.NoError(t, err)
	colBy, err := parser.Parse(".file", filter)
	require.NoError(t, err)
	v := benchstatView{columns: map[string]map[string]map[string]bool{}}
	files := benchfmt.Files{Paths: paths, AllowLabels: true}
	for files.Scan() {
		switch rec := files.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("benchstat would warn: %v", rec)
		case *benchfmt.Result:
			if ok, _ := filter.Apply(rec); !ok {
				continue
			}
			table, row, col := tableBy.Project(rec).String(), rowBy.Project(rec).String(), colBy.Project(rec).String()
			if v.columns[table] == nil {
				v.columns[table] = map[string]map[string]bool{}
			}
			if v.columns[table][row] == nil {
				v.columns[table][row] = map[string]bool{}
			}
			v.columns[table][row][col] = true
		}
	}
	require.NoError(t, files.Err())
	return v
}

// assertOneComparison checks that benchstat reading old and new compares
// them: every table has both files as columns of every row, so that
// benchstat prints old, new and the delta side by side, rather than a
// table of one column per file.
func assertOneComparison(t *testing.T, old, new string) {
	t.Helper()
	v := readBenchstatView(t, old, new)
	require.NotEmpty(t, v.columns, "no results")
	for table, rows := range v.columns {
		for row, cols := range rows {
			assert.Len(t, cols, 2, "benchstat %s %s: table %q row %q has columns %v, not both files", old, new, table, row, cols)
		}
	}
}

// The compare recipe of docs/CI.md, the bench-compare target of its
// Makefile and the benchstat command it gives for the two files, run as
// written on a repository whose last commit changes nothing: benchstat
// must see one comparison of the two versions. The Makefile of this
// repository must say the same.
func TestCIDocCompareRecipe(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, "docs", "CI.md"))
	require.NoError(t, err)
	recipe := makeRecipe(t, string(doc), "bench-compare")
	after := string(doc)[strings.Index(string(doc), "```make\n"):]
	m := regexp.MustCompile("`benchstat (\\S+) (\\S+)`").FindStringSubmatch(after)
	require.NotNil(t, m, "docs/CI.md gives the benchstat command of the compare recipe")
	oldFile, newFile := m[1], m[2]

	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	require.NoError(t, err)
	vars := map[string]string{"BASE_OUT": "bench-base.txt", "OUT": "bench.txt", "RAW": "bench.jsonl"}
	own := expand(makeRecipe(t, "```make\n"+string(makefile)+"```\n", "bench-compare"), vars)
	assert.Equal(t, expand(recipe, vars), own, "the bench-compare of docs/CI.md is the Makefile's")

	repo := gitRepo(t, 1000, 1000)
	args := expand(recipe, map[string]string{"PKGS": "./...", "BASE": "HEAD~1"})
	args = strings.TrimPrefix(args, "$(GOBENCH_DYN) ")
	fields := strings.Fields(strings.ReplaceAll(args, "$(ARGS)", ""))
	// The last commit changes nothing, which by default measures
	// nothing: --impact off measures both versions all the same.
	fields = append(fields, "--stop", "none", "--slice-time", "5ms", "--suite-runs", "2", "--slices", "3", "--seed", "1", "--progress", "off", "--impact", "off")
	_, stderr, code := gobenchDyn(t, repo, fields...)
	require.Equal(t, 0, code, stderr)
	assertOneComparison(t, filepath.Join(repo, oldFile), filepath.Join(repo, newFile))
}

// makeRecipe returns the first command of target in the first make code
// block of text.
func makeRecipe(t *testing.T, text, target string) string {
	t.Helper()
	start := strings.Index(text, "```make\n")
	require.GreaterOrEqual(t, start, 0, "no make block")
	block := text[start:]
	block = block[:strings.Index(block[3:], "```")+3]
	lines := strings.Split(block, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, target+":") && i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
	}
	t.Fatalf("no target %s", target)
	return ""
}

// expand replaces $(NAME) by vars[NAME] where vars has it.
func expand(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "$("+k+")", v)
	}
	return s
}
