package optime

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func sampleConfig() *ConfigFile {
	return &ConfigFile{
		Schema:  ConfigSchema,
		Created: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC),
		Sources: []Source{{ID: 1, File: "runs/full run.jsonl", Seed: 42, Start: time.Date(2026, 2, 28, 10, 0, 0, 5, time.UTC)}},
		Entries: []Entry{
			{Package: "example.com/m/z", Benchmark: "BenchmarkZ-8", SuiteRuns: 3, Iterations: 5, Slices: 5, Warmup: 0, Metric: CV, Threshold: 0.01, Value: 0.0234567, Stable: false, Sources: []int{1}},
			{Package: "example.com/m/a", Benchmark: "BenchmarkA/size=10_#01-8", SuiteRuns: 1, Iterations: 3, Slices: 1, Warmup: 2, Metric: CV, Threshold: 0.01, Value: 0.0012, Stable: true, Sources: []int{1}},
		},
	}
}

const sampleText = `# gobench-dyn configuration: per benchmark, suite runs (s), iterations per suite run (i),
# measurement slices per iteration (d) and warmup slices, for gobench-dyn run --config.
gobench-dyn-config schema=1 created=2026-03-01T12:00:00Z
source id=1 file="runs/full run.jsonl" seed=42 start=2026-02-28T10:00:00.000000005Z
bench pkg=example.com/m/a name=BenchmarkA/size=10_#01-8 s=1 i=3 d=1 warmup=2 metric=cv threshold=0.01 value=0.0012 stable=true source=1
bench pkg=example.com/m/z name=BenchmarkZ-8 s=3 i=5 d=5 warmup=0 metric=cv threshold=0.01 value=0.02346 stable=false source=1
`

func TestConfigWrite(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, sampleConfig().Write(&buf))
	assert.Equal(t, sampleText, buf.String())

	cf, err := ParseConfig(strings.NewReader(buf.String()), "c.conf")
	require.NoError(t, err)
	want := sampleConfig()
	want.sort()
	want.Entries[1].Value = 0.02346 // four significant digits
	assert.Equal(t, want, cf)
}

func TestConfigLookup(t *testing.T) {
	cf := sampleConfig()
	e, ok := cf.Lookup("example.com/m/z", "BenchmarkZ-8")
	require.True(t, ok)
	assert.Equal(t, Config{3, 5, 5}, e.Config())
	e, ok = cf.Lookup("example.com/m/a", "BenchmarkA/size=10_#01-4")
	require.True(t, ok, "another GOMAXPROCS suffix")
	assert.Equal(t, 2, e.Warmup)
	_, ok = cf.Lookup("example.com/m/a", "BenchmarkZ-8")
	assert.False(t, ok)
	_, ok = cf.Lookup("example.com/m/a", "BenchmarkA/size=1_#01-8")
	assert.False(t, ok)
}

func TestNewConfigFile(t *testing.T) {
	res := &Result{Metric: RMAD, Threshold: 0.01, Choices: []Choice{
		{Package: "p", Name: "B", Config: Config{1, 3, 1}, Full: Config{3, 5, 5}, Warmup: 1, Value: 0.001, Stable: true, Sources: []int{2}},
		{Package: "p", Name: "A", Config: Config{3, 5, 5}, Full: Config{3, 5, 5}, Value: 0.5, Sources: []int{2}},
	}}
	cf := NewConfigFile(res, []Source{{ID: 2, File: "x.jsonl"}}, time.Time{})
	require.Len(t, cf.Entries, 2)
	assert.Equal(t, "A", cf.Entries[0].Benchmark)
	assert.Equal(t, Entry{Package: "p", Benchmark: "B", SuiteRuns: 1, Iterations: 3, Slices: 1, Warmup: 1, Metric: RMAD, Threshold: 0.01, Value: 0.001, Stable: true, Sources: []int{2}}, cf.Entries[1])
	var buf bytes.Buffer
	require.NoError(t, cf.Write(&buf))
	assert.Contains(t, buf.String(), "gobench-dyn-config schema=1\n")
}

func TestParseConfigErrors(t *testing.T) {
	const head = "gobench-dyn-config schema=1\nsource id=1 file=f\n"
	const b = "bench pkg=p name=B s=1 i=3 d=1 warmup=0 metric=cv threshold=0.01 source=1"
	tests := []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 1, "no gobench-dyn-config header"},
		{"not first", "# c\n" + b + "\n", 2, "want a gobench-dyn-config header"},
		{"newer", "gobench-dyn-config schema=2\n", 1, "schema 2 is newer"},
		{"schema 0", "gobench-dyn-config schema=0\n", 1, "schema is 0"},
		{"no schema", "gobench-dyn-config\n", 1, "missing key schema"},
		{"second header", head + "gobench-dyn-config schema=1\n", 3, "second"},
		{"created", "gobench-dyn-config schema=1 created=yesterday\n", 1, "RFC 3339"},
		{"unknown kind", head + "run s=1\n", 3, `unknown line kind "run"`},
		{"unknown key", head + b + " cmd=rm\n", 3, "unknown key cmd"},
		{"missing key", head + strings.Replace(b, " d=1", "", 1) + "\n", 3, "missing key d"},
		{"zero s", head + strings.Replace(b, "s=1", "s=0", 1) + "\n", 3, "s is 0"},
		{"negative d", head + strings.Replace(b, "d=1", "d=-2", 1) + "\n", 3, "d is -2"},
		{"negative warmup", head + strings.Replace(b, "warmup=0", "warmup=-1", 1) + "\n", 3, "warmup is -1"},
		{"not int", head + strings.Replace(b, "i=3", "i=three", 1) + "\n", 3, `i "three" is not an integer`},
		{"metric", head + strings.Replace(b, "metric=cv", "metric=kld", 1) + "\n", 3, `unknown metric "kld"`},
		{"threshold", head + strings.Replace(b, "threshold=0.01", "threshold=0", 1) + "\n", 3, "threshold 0 is not a positive"},
		{"nan threshold", head + strings.Replace(b, "threshold=0.01", "threshold=NaN", 1) + "\n", 3, "not a number"},
		{"value", head + b + " value=-1\n", 3, "value -1 is negative"},
		{"stable", head + b + " stable=yes\n", 3, `stable "yes"`},
		{"undefined source", head + strings.Replace(b, "source=1", "source=2", 1) + "\n", 3, "source 2 is not defined"},
		{"bad source list", head + strings.Replace(b, "source=1", "source=1,", 1) + "\n", 3, "not a list of source IDs"},
		{"duplicate", head + b + "\n\n" + b + "\n", 5, "already configured on line 3"},
		{"duplicate source", head + "source id=1 file=g\n", 3, "source 1 is already defined on line 2"},
		{"source seed", "gobench-dyn-config schema=1\nsource id=1 file=f seed=-1\n", 2, "seed"},
		{"source file", "gobench-dyn-config schema=1\nsource id=1\n", 2, "missing key file"},
		{"repeated key", head + b + " s=2\n", 3, "key s given twice"},
		{"not key=value", head + "bench pkg=p name\n", 3, `field "name" is not key=value`},
		{"bad quote", head + `bench pkg="p name=B` + "\n", 3, "bad quoted value"},
		{"after quote", head + `bench pkg="p"x name=B` + "\n", 3, "text after quoted value"},
		{"empty value", head + strings.Replace(b, "pkg=p", `pkg=""`, 1) + "\n", 3, "pkg is empty"},
		{"kind is field", "schema=1\n", 1, "want a line kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig(strings.NewReader(tt.in), "dir/c.conf")
			var se *record.SyntaxError
			require.True(t, errors.As(err, &se), "error %v is not a SyntaxError", err)
			assert.Equal(t, "dir/c.conf", se.File)
			assert.Equal(t, tt.line, se.Line)
			assert.Contains(t, se.Msg, tt.msg)
		})
	}
}

func TestReadConfigFile(t *testing.T) {
	_, err := ReadConfigFile("testdata/no-such-file")
	assert.Error(t, err)
}

// FuzzParseConfig checks that the parser never panics, that every error
// is located, and that whatever it accepts writes out in a form that reads
// back the same.
func FuzzParseConfig(f *testing.F) {
	f.Add(sampleText)
	f.Add("gobench-dyn-config schema=1\n")
	f.Add("gobench-dyn-config schema=1\nsource id=3 file=\"a\\tb\"\nbench pkg=p name=\"a b\" s=1 i=1 d=1 warmup=0 metric=rciw-mean-t threshold=1e-3 value=+Inf source=3\n")
	f.Fuzz(func(t *testing.T, in string) {
		cf, err := ParseConfig(strings.NewReader(in), "f")
		if err != nil {
			var se *record.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a SyntaxError", err)
			}
			if se.Line < 1 {
				t.Fatalf("error at line %d", se.Line)
			}
			return
		}
		var once, twice bytes.Buffer
		if err := cf.Write(&once); err != nil {
			t.Fatal(err)
		}
		back, err := ParseConfig(bytes.NewReader(once.Bytes()), "f")
		if err != nil {
			t.Fatalf("written file does not read back: %v\n%s", err, once.String())
		}
		if err := back.Write(&twice); err != nil {
			t.Fatal(err)
		}
		if once.String() != twice.String() {
			t.Fatalf("write is not stable:\n%s\n---\n%s", once.String(), twice.String())
		}
	})
}
