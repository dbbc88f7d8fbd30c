package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/compare/verdicts.golden.json")

// verdictsSchema compiles docs/verdicts.schema.json, the schema of the
// verdicts JSON.
func verdictsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	sch, err := c.Compile(filepath.Join(moduleRoot(t), "docs", "verdicts.schema.json"))
	require.NoError(t, err)
	return sch
}

// validVerdicts checks doc against the verdicts schema.
func validVerdicts(t *testing.T, sch *jsonschema.Schema, doc []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	require.NoError(t, err, "%s", doc)
	assert.NoError(t, sch.Validate(inst))
}

// The verdicts of compare --json stay as the golden file has them; go
// test -update rewrites it after a deliberate change, which a change of
// schema_version must accompany when a field changes meaning or goes.
func TestVerdictsGolden(t *testing.T) {
	out, _, code := runCompare(t, func(o *CompareOptions) { o.JSON, o.FailOn = "-", "time,allocs" }, "old.txt", "verdicts.txt")
	assert.Equal(t, 1, code, "the allocation regression fails")
	golden := filepath.Join("testdata", "compare", "verdicts.golden.json")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, []byte(out), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out)

	var doc struct {
		SchemaVersion int      `json:"schema_version"`
		FailOn        []string `json:"fail_on"`
		Failed        bool
		Comparisons   []struct {
			Bench, Unit, Verdict, Reason string
			Fails                        bool
			Interval                     struct{ Lo, Hi float64 }
			Processes                    struct{ Old, New int }
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, gate.SchemaVersion, doc.SchemaVersion)
	assert.Equal(t, []string{"time", "allocs"}, doc.FailOn)
	assert.True(t, doc.Failed)
	verdicts := map[string]string{}
	for _, c := range doc.Comparisons {
		key := c.Bench + " " + c.Unit
		verdicts[key] = c.Verdict
		assert.NotEmpty(t, c.Reason, key)
		assert.Equal(t, 8, c.Processes.Old, key)
		assert.Equal(t, c.Verdict == "regression", c.Fails, key)
		assert.LessOrEqual(t, c.Interval.Lo, c.Interval.Hi, key)
	}
	assert.Equal(t, map[string]string{
		"BenchmarkParse/small-8 ns/op": "inconclusive", "BenchmarkFormat-8 ns/op": "improvement",
		"BenchmarkParse/small-8 B/op": "no change", "BenchmarkFormat-8 B/op": "no change",
		"BenchmarkParse/small-8 allocs/op": "no change", "BenchmarkFormat-8 allocs/op": "regression",
	}, verdicts)
}

// Every verdicts document compare writes fits the schema, and the schema
// refuses what it does not describe: a field it does not name, a verdict
// it does not list, a missing version.
func TestVerdictsSchema(t *testing.T) {
	sch := verdictsSchema(t)
	for _, pair := range [][2]string{{"old.txt", "verdicts.txt"}, {"old.txt", "same.txt"}, {"old.jsonl", "slow.jsonl"}, {"old.jsonl", "bypairs.jsonl"}, {"old.txt", "allocs.txt"}} {
		out, _, _ := runCompare(t, func(o *CompareOptions) { o.JSON = "-" }, pair[0], pair[1])
		validVerdicts(t, sch, []byte(out))
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "compare", "verdicts.golden.json"))
	require.NoError(t, err)
	validVerdicts(t, sch, golden)

	for name, edit := range map[string]func(map[string]any){
		"unknown field":   func(d map[string]any) { d["verdicts"] = 1 },
		"unknown verdict": func(d map[string]any) { d["comparisons"].([]any)[0].(map[string]any)["verdict"] = "slower" },
		"no version":      func(d map[string]any) { delete(d, "schema_version") },
		"undocumented comparison field": func(d map[string]any) {
			d["comparisons"].([]any)[0].(map[string]any)["explained"] = map[string]any{}
		},
	} {
		var doc map[string]any
		require.NoError(t, json.Unmarshal(golden, &doc))
		edit(doc)
		assert.Error(t, sch.Validate(doc), name)
	}

	// The schema lists every verdict the gate gives, and "unaffected"
	// for benchmarks a change cannot reach.
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "verdicts.schema.json"))
	require.NoError(t, err)
	for _, v := range []gate.Verdict{gate.Regression, gate.Improvement, gate.Changed, gate.NoChange, gate.Inconclusive, "unaffected"} {
		assert.Contains(t, string(data), `"`+string(v)+`"`)
	}
}

// run --baseline --json writes the verdicts of the run, in the schema,
// to a file or to stdout; the exit status stays that of the gate.
func TestRunVerdictsJSON(t *testing.T) {
	sch := verdictsSchema(t)
	repo := gitRepo(t, 1000, 8000)
	dir := t.TempDir()
	file := filepath.Join(dir, "verdicts.json")
	args := append([]string{"run", "--baseline", "HEAD~1", "--json", file, "-o", filepath.Join(dir, "new.txt")}, quickProcesses...)
	_, stderr, code := gobenchDyn(t, repo, args...)
	assert.Equal(t, 1, code, stderr)
	data, err := os.ReadFile(file)
	require.NoError(t, err, stderr)
	validVerdicts(t, sch, data)

	var doc struct {
		OldName     string `json:"old_name"`
		OldCommit   string `json:"old_commit"`
		NewName     string `json:"new_name"`
		Failed      bool
		Partial     bool
		Comparisons []struct {
			Bench, Unit, Verdict string
			Fails                bool
			Processes            struct{ Old, New int }
		}
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	assert.Equal(t, "HEAD~1", doc.OldName)
	assert.Len(t, doc.OldCommit, 40)
	assert.Equal(t, "HEAD", doc.NewName)
	assert.True(t, doc.Failed)
	assert.False(t, doc.Partial)
	got := map[string]string{}
	for _, c := range doc.Comparisons {
		if c.Unit != "ns/op" {
			continue
		}
		name := strings.TrimRight(c.Bench, "0123456789") // the -GOMAXPROCS suffix of this machine
		got[name] = c.Verdict
		assert.Equal(t, c.Verdict == "regression", c.Fails, c.Bench)
		want := 2 // processes per version
		if c.Verdict == "unaffected" {
			want = 0
		}
		assert.Equal(t, want, c.Processes.Old, c.Bench)
		assert.Equal(t, want, c.Processes.New, c.Bench)
	}
	// BenchmarkSame executes none of the changed code: it is not measured.
	assert.Equal(t, map[string]string{"BenchmarkChanged-": "regression", "BenchmarkSame": "unaffected"}, got)
}

// --json is refused where it cannot be written as asked, before anything
// runs.
func TestRunVerdictsFlag(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"run", "--json", filepath.Join(dir, "v.json")}, "--json: only meaningful with --baseline"},
		{[]string{"run", "--baseline", "HEAD", "--json", "-"}, "--json -: the benchstat-format results go to stdout too"},
		{[]string{"run", "--baseline", "HEAD", "--json", "same.txt", "-o", "same.txt"}, "--json same.txt: the file of another output"},
	} {
		_, stderr, code := inProcess(tc.args...)
		assert.Equal(t, 2, code, "%v", tc.args)
		assert.Contains(t, stderr, tc.msg, "%v", tc.args)
	}

	repo := gitRepo(t, 1000)
	_, stderr, code := gobenchDyn(t, repo, append([]string{"run", "--baseline", "HEAD", "--json", dir}, quickProcesses...)...)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "--json: "+dir+" is a directory")
	assert.NotContains(t, stderr, "benchmarks in", "nothing was built")
}
