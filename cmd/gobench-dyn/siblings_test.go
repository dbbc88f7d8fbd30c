package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// TestSiblingsAsGoTest runs the real command on testdata/siblings, whose
// benchmarks go test -bench . accepts although some of their leaves fail
// alone (a parent that reads a sibling's result, a sub-benchmark that
// skips unless its sibling ran, a second b.Run of the same name that
// checks the first), beside a parent b.Cleanup and a TestMain that counts
// benchmarks, and a package go test rejects. Each package passes under
// run and run --baseline, paired either way, exactly when it passes under
// go test -bench .
func TestSiblingsAsGoTest(t *testing.T) {
	t.Parallel()
	repo := t.TempDir()
	require.NoError(t, os.CopyFS(repo, os.DirFS(absDir(t, "testdata/siblings"))))
	gittest.Git(t, repo, "init", "-q")
	gittest.CommitAll(t, repo, "one")
	together := []string{"BenchmarkParentReads", "BenchmarkSkipsAlone", "BenchmarkSameName"}
	// One suite run: a family is found in the first. The baseline is the
	// same commit, so every benchmark is measured only with --impact off.
	quick := []string{"--stop", "none", "--slice-time", "5ms", "--suite-runs", "1", "--slices", "2", "--seed", "1", "--progress", "off"}
	variants := map[string][]string{
		"run":                              quick,
		"run --baseline":                   append([]string{"--baseline", "HEAD", "--impact", "off", "--turns", "10"}, quick...),
		"run --baseline --pairing process": append([]string{"--baseline", "HEAD", "--impact", "off", "--pairing", "process"}, quick...),
	}
	for _, pkg := range []string{".", "./broken"} {
		if testing.Short() {
			t.Skip("end-to-end: builds and runs benchmarks")
		}
		goTest := exec.Command("go", "test", "-run", "^$", "-bench", ".", "-benchtime", "1x", pkg)
		goTest.Dir = repo
		out, err := goTest.CombinedOutput()
		passes := err == nil
		require.Equal(t, pkg == ".", passes, "go test -bench . %s:\n%s", pkg, out)
		for name, args := range variants {
			if !passes && slices.Contains(args, "process") {
				continue // one way of pairing suffices to fail
			}
			t.Run(pkg+" "+name, func(t *testing.T) {
				results := filepath.Join(t.TempDir(), "new.txt")
				_, stderr, code := gobenchDyn(t, repo, append([]string{"run", pkg, "-o", results}, args...)...)
				if !passes {
					assert.Equal(t, 1, code, "go test -bench . fails, and so does gobench-dyn:\n%s", stderr)
					assert.Contains(t, stderr, "the parent always fails")
					return
				}
				require.Equal(t, 0, code, "go test -bench . passes, and so does gobench-dyn:\n%s", stderr)
				counts := readBenchResults(t, results)
				for _, leaf := range []string{"ParentReads/count", "ParentReads/again", "SkipsAlone/prepare", "SkipsAlone/use",
					"ParentCleanup/size=50", "ParentCleanup/size=150", "SameName/case", "SameName/case#01", "Alone"} {
					assert.Positive(t, sumPrefix(counts, leaf+"-"), "%s has results: %v", leaf, counts)
				}
				for _, top := range together {
					assert.Regexp(t, `siblings\.`+top+`: 2 benchmarks, `+rmit.FamilyNote, stderr)
				}
				assert.NotContains(t, stderr, "BenchmarkParentCleanup: 2 benchmarks, "+rmit.FamilyNote, "its leaves pass alone")
			})
		}
	}
}

// TestAbsSiblingsAsGoTest runs abs with the real command on a module whose
// leaves go test -bench . accepts although three of them fail alone (a
// parent that reads a sibling's result, a sub-benchmark that skips unless
// its sibling ran). abs exits 0 as go test does, reports no failure,
// finds every leaf reaching Hot, those that fail alone included, and
// none of the idle one, which reaches nothing, measures both versions of
// their families together, and sees Hot's slowdown, ten times its own
// time, in each of them.
func TestAbsSiblingsAsGoTest(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs benchmarks")
	}
	dir := absDir(t, "../../internal/apiscore/testdata/siblings")
	goTest := exec.Command("go", "test", "-run", "^$", "-bench", ".", "-benchtime", "1x", ".")
	goTest.Dir = dir
	out, err := goTest.CombinedOutput()
	require.NoError(t, err, "go test -bench . passes:\n%s", out)

	js := filepath.Join(t.TempDir(), "abs.json")
	_, stderr, code := gobenchDyn(t, dir, "abs", "--func", "^Hot$", "--slowdown", "9", "--slice-time", "5ms", "--suite-runs", "20",
		"--turn-time", "1ms", "--turns", "20", "--seed", "1", "--json", js, ".")
	require.Equal(t, 0, code, "go test -bench . passes, and abs runs:\n%s", stderr)
	assert.NotContains(t, stderr, "coverage of")
	assert.Regexp(t, `siblings\.BenchmarkParentReads: 3 benchmarks `+rmit.FamilyNote, stderr)
	assert.Regexp(t, `siblings\.BenchmarkSkipsAlone: 2 benchmarks `+rmit.FamilyNote, stderr)
	b, err := os.ReadFile(js)
	require.NoError(t, err)
	var rep struct {
		Functions []struct {
			Name       string `json:"name"`
			Note       string `json:"note"`
			Benchmarks []struct {
				Name string  `json:"name"`
				Low  float64 `json:"low"`
			} `json:"benchmarks"`
		} `json:"functions"`
	}
	require.NoError(t, json.Unmarshal(b, &rep))
	require.Len(t, rep.Functions, 1)
	hot := rep.Functions[0]
	assert.Empty(t, hot.Note, "no iteration failed")
	var names []string
	for _, r := range hot.Benchmarks {
		names = append(names, regexp.MustCompile(`-\d+$`).ReplaceAllString(r.Name, ""))
		assert.Greater(t, r.Low, 1.0, "%s: a slowdown of +900%% shows beyond +100%%", r.Name)
	}
	assert.ElementsMatch(t, []string{"BenchmarkParentReads/count", "BenchmarkParentReads/again", "BenchmarkSkipsAlone/prepare", "BenchmarkSkipsAlone/use"}, names)
}
