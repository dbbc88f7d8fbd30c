package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// reachSource has one benchmark that executes helper and one that does
// not, and one with a leaf of each kind; all report a fixed ns/op, so
// that verdicts do not depend on the machine.
const reachSource = `package reach

func helper(n int) int { return n + 1 }

func other(n int) int { return n - 1 }
`

const reachTest = `package reach

import "testing"

var sink int

func BenchmarkReached(b *testing.B) {
	for range b.N {
		sink = helper(3)
	}
	b.ReportMetric(1000, "ns/op")
}

func BenchmarkUnreached(b *testing.B) {
	for range b.N {
		sink = other(3)
	}
	b.ReportMetric(1000, "ns/op")
}

func BenchmarkParent(b *testing.B) {
	b.Run("reached", BenchmarkReached)
	b.Run("unreached", BenchmarkUnreached)
}
`

// reachRepo makes a repository whose last commit applies change to the
// files of the first.
func reachRepo(t *testing.T, change map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	files := map[string]string{"go.mod": "module example.com/reach\n\ngo 1.26\n", "reach.go": reachSource, "reach_test.go": reachTest}
	for _, fs := range []map[string]string{files, change} {
		for name, content := range fs {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
		}
		gittest.CommitAll(t, dir, "version")
	}
	return dir
}

// TestImpactSkipsWhatTheChangeCannotReach runs the real command on a
// change to helper: the benchmark that executes it is measured, the
// other is reported unaffected, in the summary, the comparison, the raw
// records and the baseline's results, and with --impact off both are
// measured. Of BenchmarkParent, which reaches helper through one leaf,
// only that leaf is measured. A change to a file no benchmark's process
// reads (documentation) measures nothing and exits 0.
func TestImpactSkipsWhatTheChangeCannotReach(t *testing.T) {
	t.Parallel()
	args := []string{"run", "--baseline", "HEAD~1", "--stop", "none", "--slice-time", "5ms", "--suite-runs", "2", "--slices", "2",
		"--seed", "1", "--progress", "off"}
	repo := reachRepo(t, map[string]string{"reach.go": strings.Replace(reachSource, "n + 1", "n + 2", 1)})

	t.Run("on", func(t *testing.T) {
		dir := t.TempDir()
		raw, base, verdicts := filepath.Join(dir, "raw.jsonl"), filepath.Join(dir, "old.txt"), filepath.Join(dir, "verdicts.json")
		_, stderr, code := gobenchDyn(t, repo, append(args, "--raw", raw, "--baseline-out", base, "--json", verdicts)...)
		require.Equal(t, 0, code, stderr)
		doc, err := os.ReadFile(verdicts)
		require.NoError(t, err)
		validVerdicts(t, verdictsSchema(t), doc)
		var verdictsDoc struct {
			Comparisons []struct{ Bench, Verdict string }
		}
		require.NoError(t, json.Unmarshal(doc, &verdictsDoc))
		benches := map[string]bool{}
		for _, c := range verdictsDoc.Comparisons {
			benches[rmit.SplitProcs(c.Bench, runtime.GOMAXPROCS(0))] = true
			assert.Equal(t, strings.Contains(c.Bench, "Unreached") || strings.Contains(c.Bench, "/unreached"), c.Verdict == "unaffected", "%s: %s", c.Bench, c.Verdict)
		}
		assert.Equal(t, map[string]bool{"BenchmarkReached": true, "BenchmarkUnreached": true, "BenchmarkParent/reached": true, "BenchmarkParent/unreached": true}, benches)
		assert.Regexp(t, `(?m)^Reached\S*\s.*no change`, stderr)
		assert.Regexp(t, `(?m)^Parent/reached\S*\s.*no change`, stderr)
		assert.Regexp(t, `(?m)^Unreached\s.*unaffected`, stderr)
		assert.Regexp(t, `(?m)^Parent/unreached\S*\s.*unaffected`, stderr)
		assert.NotRegexp(t, `(?m)nreached\S*\s.*no change`, stderr, "not measured is never no change")
		assert.Contains(t, stderr, "of the leaves of those it reaches, 1 unaffected")
		assert.Contains(t, stderr, "unaffected: 2 benchmarks not measured: they execute no code and read no file that differs from --baseline HEAD~1")
		rawText, err := os.ReadFile(raw)
		require.NoError(t, err)
		assert.Contains(t, string(rawText), `"event":"unaffected","pkg":"example.com/reach","bench":"BenchmarkUnreached"`)
		assert.NotContains(t, string(rawText), `"bench":"BenchmarkUnreached-`, "it was not measured")
		assert.Regexp(t, `"event":"unaffected","pkg":"example.com/reach","bench":"BenchmarkParent/unreached(-\d+)?"`, string(rawText))
		assert.NotContains(t, string(rawText), `"type":"slice","pkg":"example.com/reach","bench":"BenchmarkParent/unreached`, "it was not measured")
		baseText, err := os.ReadFile(base)
		require.NoError(t, err)
		assert.Contains(t, string(baseText), "# gobench-dyn: unaffected example.com/reach BenchmarkUnreached: not measured")
		measured := readBenchResults(t, base)
		require.Len(t, measured, 2, "only the reached benchmark and leaf were measured: %v", measured)
		for name, n := range measured {
			assert.Regexp(t, "Reached|/reached", name)
			assert.Positive(t, n)
		}

		report, stderrReport, code := gobenchDyn(t, repo, "report", "--markdown", "-", raw)
		require.Equal(t, 0, code, stderrReport)
		assert.Regexp(t, "(?m)^\\| `Unreached` .*\\| unaffected \\|$", report)
	})
	t.Run("off", func(t *testing.T) {
		_, stderr, code := gobenchDyn(t, repo, append(args, "--impact", "off")...)
		require.Equal(t, 0, code, stderr)
		assert.Regexp(t, `(?m)^Unreached\S*\s.*no change`, stderr)
		assert.NotContains(t, stderr, "unaffected")
	})
	t.Run("docs", func(t *testing.T) {
		docs := reachRepo(t, map[string]string{"README.md": "Documentation.\n"})
		_, stderr, code := gobenchDyn(t, docs, args...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stderr, "0 measurement slices")
		assert.Contains(t, stderr, "3 unaffected")
		assert.Contains(t, stderr, "1 path differs: README.md (read file, reaches none)", "no benchmark's process reads it")
	})
	t.Run("bad flag", func(t *testing.T) {
		_, stderr, code := gobenchDyn(t, repo, append(args, "--impact", "maybe")...)
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "--impact")
	})
}

// TestImpactListAcrossModules lists, with --all-modules, the impact of a
// change to the root module of a repository whose sdk module replaces it
// by ../ and whose other module does not: the log names both analysed
// modules with what the change reaches in each, and the module whose
// build cannot compile the change as not measured.
func TestImpactListAcrossModules(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	sdkTest := `package sdk

import (
	"testing"

	"example.com/reach"
)

var sink int

func BenchmarkSDK(b *testing.B) {
	for range b.N {
		sink = reach.Exported(3)
	}
}
`
	otherTest := `package other

import "testing"

var sink int

func BenchmarkOther(b *testing.B) {
	for range b.N {
		sink++
	}
}
`
	source := reachSource + "\nfunc Exported(n int) int { return helper(n) }\n"
	for _, files := range []map[string]string{{
		"go.mod": "module example.com/reach\n\ngo 1.26\n", "reach.go": source, "reach_test.go": reachTest,
		"sdk/go.mod":      "module example.com/sdk\n\ngo 1.26\n\nrequire example.com/reach v0.0.0\n\nreplace example.com/reach => ../\n",
		"sdk/sdk_test.go": sdkTest,
		"other/go.mod":    "module example.com/other\n\ngo 1.26\n", "other/other_test.go": otherTest,
	}, {"reach.go": strings.Replace(source, "n + 1", "n + 2", 1)}} {
		for name, content := range files {
			path := filepath.Join(dir, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		}
		gittest.CommitAll(t, dir, "version")
	}
	stdout, stderr, code := gobenchDyn(t, dir, "run", "--baseline", "HEAD~1", "--impact", "list", "--all-modules", "--progress", "off", "./...")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `impact in module \.: 2 of 3 top-level benchmarks can reach the change, 1 unaffected`, stderr)
	assert.Regexp(t, `impact in module sdk: 1 of 1 top-level benchmark can reach the change, 0 unaffected`, stderr)
	assert.Regexp(t, `impact in module other: the change touches no code its build compiles \(from other\): not measured`, stderr)
	assert.Contains(t, stdout+stderr, "BenchmarkSDK")
}

// TestAModuleThatDoesNotLoadLeavesTheOthers runs, with --all-modules, a
// repository where one module's go.mod does not parse and another's test
// needs a module its go.sum lacks: each fails as a package that does not
// build does, and the third module is measured. Listing the impact of a
// change to the module that does not parse names it as not analysed,
// measured whole, where it used to end the list.
func TestAModuleThatDoesNotLoadLeavesTheOthers(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gittest.Git(t, dir, "init", "-q")
	bench := func(pkg, imports, body string) string {
		return "package " + pkg + "\n\nimport (\n\t\"testing\"\n" + imports + ")\n\nvar sink int\n\nfunc Benchmark" + strings.ToUpper(pkg[:1]) + pkg[1:] + "(b *testing.B) {\n\tfor range b.N {\n\t\t" + body + "\n\t}\n}\n"
	}
	for _, files := range []map[string]string{{
		"good/go.mod": "module example.com/good\n\ngo 1.26\n", "good/good_test.go": bench("good", "", "sink++"),
		"broken/go.mod":         "module example.com/broken\n\ngo 1.26\n\nrequire example.com/nowhere v1.0.0\n",
		"broken/broken_test.go": bench("broken", "\n\t\"example.com/nowhere\"\n", "sink += nowhere.F()"),
		"bad/go.mod":            "module example.com/bad\n\ngo 1.26\n\nrequire (\n", "bad/bad_test.go": bench("bad", "", "sink++"),
	}, {"bad/bad_test.go": bench("bad", "", "sink += 2")}} {
		for name, content := range files {
			path := filepath.Join(dir, filepath.FromSlash(name))
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		}
		gittest.CommitAll(t, dir, "version")
	}
	stdout, stderr, code := gobenchDyn(t, dir, "run", "--all-modules", "--stop", "none", "--suite-runs", "1", "--slices", "1", "--warmup", "0", "--slice-time", "5ms", "--progress", "off", "./...")
	assert.Equal(t, 1, code, stderr)
	assert.Contains(t, stderr, "FAILED module bad: its packages could not be loaded\n")
	assert.Contains(t, stderr, "go.mod:6: syntax error")
	assert.Contains(t, stderr, "FAILED example.com/broken: build failed\n")
	assert.Contains(t, stdout, "BenchmarkGood")

	stdout, stderr, code = gobenchDyn(t, dir, "run", "--baseline", "HEAD~1", "--impact", "list", "--all-modules", "--progress", "off", "./...")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `(?s)impact in module bad: .*syntax error \([^\n]*\); every benchmark is measured\n`, stderr)
	assert.Regexp(t, `(?m)^bad\s+every benchmark measured\s+not analysed: `, stdout)
	assert.Contains(t, stdout, "with 1 module not analysed")
}
