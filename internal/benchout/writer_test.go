package benchout

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/perf/benchfmt"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func slice(pkg, bench string, sr, it, sl int, warmup bool, ns float64) record.Slice {
	return record.Slice{
		Package: pkg, Benchmark: bench, SuiteRun: sr, Iteration: it, Slice: sl, Warmup: warmup, N: 1000,
		Values: map[string]float64{"ns/op": ns, "B/op": 16, "allocs/op": 1, "widgets/op": 2},
	}
}

// countingWriter records every Write call.
type countingWriter struct{ writes []string }

func (c *countingWriter) Write(b []byte) (int, error) {
	c.writes = append(c.writes, string(b))
	return len(b), nil
}

func TestWriteSlice(t *testing.T) {
	var out countingWriter
	w := NewWriter(&out)
	a := Package{GOOS: "linux", GOARCH: "amd64", Path: "example.com/a", CPU: "Some CPU @ 2.0GHz"}
	b := Package{GOOS: "linux", GOARCH: "amd64", Path: "example.com/b"}
	for _, s := range []struct {
		pkg Package
		s   record.Slice
	}{
		{a, slice("example.com/a", "BenchmarkX-8", 1, 1, 1, true, 99)},
		{a, slice("example.com/a", "BenchmarkX-8", 1, 1, 2, false, 100)},
		{a, slice("example.com/a", "BenchmarkX-8", 1, 1, 3, false, 101.5)},
		{b, slice("example.com/b", "BenchmarkY/size=16-8", 1, 1, 1, false, 1.5e6)},
		{a, slice("example.com/a", "BenchmarkX-8", 1, 2, 1, false, 102)},
	} {
		require.NoError(t, w.WriteSlice(s.pkg, &s.s))
	}
	want := "goos: linux\ngoarch: amd64\npkg: example.com/a\ncpu: Some CPU @ 2.0GHz\n\n" +
		"BenchmarkX-8\t    1000\t       100.0 ns/op\t         2.000 widgets/op\t      16 B/op\t       1 allocs/op\n" +
		"BenchmarkX-8\t    1000\t       101.5 ns/op\t         2.000 widgets/op\t      16 B/op\t       1 allocs/op\n" +
		"\npkg: example.com/b\ncpu:\n\n" +
		"BenchmarkY/size=16-8\t    1000\t   1500000 ns/op\t         2.000 widgets/op\t      16 B/op\t       1 allocs/op\n" +
		"\npkg: example.com/a\ncpu: Some CPU @ 2.0GHz\n\n" +
		"BenchmarkX-8\t    1000\t       102.0 ns/op\t         2.000 widgets/op\t      16 B/op\t       1 allocs/op\n"
	assert.Equal(t, want, strings.Join(out.writes, ""))
	// One write per result, labels included, so an interrupt never
	// leaves half a line.
	assert.Len(t, out.writes, 4)
	assert.True(t, strings.HasPrefix(out.writes[2], "\npkg: example.com/b\n"))

	err := w.WriteSlice(a, &record.Slice{Benchmark: "BenchmarkZ", Slice: 3, Iteration: 2})
	assert.ErrorContains(t, err, "slice 3 of BenchmarkZ iteration 2 has no values")
}

func testRun() *record.Run {
	r := &record.Run{Header: &record.Header{GOOS: "linux", GOARCH: "arm64", CPU: "cpu0"}}
	// RMIT order: interleaved packages, benchmarks and suite runs.
	r.Slices = append(r.Slices, []record.Slice{
		slice("p/b", "BenchmarkSort/size=1024", 1, 1, 1, false, 30),
		slice("p/a", "BenchmarkZ", 1, 1, 1, true, 10),
		slice("p/a", "BenchmarkZ", 1, 1, 2, false, 11),
		slice("p/b", "BenchmarkSort/size=16", 1, 1, 1, false, 10),
		slice("p/b", "BenchmarkSort/size=128", 2, 1, 1, false, 20),
		slice("p/b", "BenchmarkSort/size=16", 2, 1, 1, false, 12),
		slice("p/b", "BenchmarkSort/size=128", 1, 1, 1, false, 21),
		slice("p/a", "BenchmarkZ", 1, 2, 1, false, 13),
		slice("p/a", "BenchmarkA", 2, 1, 1, false, 14),
	}...)
	return r
}

func TestWriteRun(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteRun(&buf, testRun()))
	want := "goos: linux\ngoarch: arm64\npkg: p/a\ncpu: cpu0\n\n" +
		"BenchmarkA 1000 14.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkZ 1000 11.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkZ 1000 13.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"\npkg: p/b\n\n" +
		"BenchmarkSort/size=16 1000 10.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=16 1000 12.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=128 1000 21.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=128 1000 20.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=1024 1000 30.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n"
	assert.Equal(t, want, squeeze(buf.String()))
}

func TestWriteRunVersions(t *testing.T) {
	r := testRun()
	r.Slices = r.Slices[:3]
	base := slices.Clone(r.Slices)
	for i := range base {
		base[i].Version = record.VersionBaseline
	}
	r.Slices = append(r.Slices, base...)
	var buf bytes.Buffer
	require.NoError(t, WriteRun(&buf, r))
	want := "goos: linux\ngoarch: arm64\npkg: p/a\ncpu: cpu0\nversion: baseline\n\n" +
		"BenchmarkZ 1000 11.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"\nversion: head\n\n" +
		"BenchmarkZ 1000 11.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"\npkg: p/b\nversion: baseline\n\n" +
		"BenchmarkSort/size=1024 1000 30.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"\nversion: head\n\n" +
		"BenchmarkSort/size=1024 1000 30.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n"
	assert.Equal(t, want, squeeze(buf.String()))
}

// A run of the baseline alone, as run --baseline-out writes it, carries
// no version key: its file and the code under test's pair in benchstat.
func TestWriteRunBaselineAloneHasNoVersion(t *testing.T) {
	r := testRun()
	for i := range r.Slices {
		r.Slices[i].Version = record.VersionBaseline
	}
	var base, head bytes.Buffer
	require.NoError(t, WriteRun(&base, r))
	require.NoError(t, WriteRun(&head, testRun()))
	assert.NotContains(t, base.String(), "version:")
	assert.Equal(t, head.String(), base.String())
}

// TestWriteRunPrecision: each benchmark's results end with the interval
// its stop event holds, on a line benchfmt (so benchstat) skips; a
// benchmark merged from two instances gets none, since neither instance's
// interval describes the merged results.
func TestWriteRunPrecision(t *testing.T) {
	r := testRun()
	stop := func(pkg, bench, inst string, pr *record.Precision) record.Event {
		return record.Event{Event: record.EventStop, Package: pkg, Benchmark: bench, Instance: inst, Precision: pr}
	}
	r.Events = []record.Event{
		stop("p/a", "BenchmarkZ", "", &record.Precision{RelHalfWidth: 0.014, Confidence: 0.95, Target: 0.03, Processes: 3}),
		stop("p/b", "BenchmarkSort/size=16", "", &record.Precision{RelHalfWidth: 0.6, Confidence: 0.95, Target: 0.03, Processes: 353}),
		stop("p/a", "BenchmarkA", "", nil), // --stop none: no interval
		stop("p/b", "BenchmarkSort/size=1024", "", &record.Precision{RelHalfWidth: 0.01, Confidence: 0.95, Target: 0.03}),
		stop("p/b", "BenchmarkSort/size=1024", "two", &record.Precision{RelHalfWidth: 0.01, Confidence: 0.95, Target: 0.03}),
	}
	r.Slices = append(r.Slices, slice("p/b", "BenchmarkSort/size=1024", 1, 1, 1, false, 31))
	r.Slices[len(r.Slices)-1].Instance = "two"
	var buf bytes.Buffer
	require.NoError(t, WriteRun(&buf, r))
	want := "goos: linux\ngoarch: arm64\npkg: p/a\ncpu: cpu0\n\n" +
		"BenchmarkA 1000 14.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkZ 1000 11.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkZ 1000 13.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"# BenchmarkZ: mean over 2 processes: too few processes to tell its precision\n" +
		"\npkg: p/b\n\n" +
		"BenchmarkSort/size=16 1000 10.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=16 1000 12.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"# BenchmarkSort/size=16: mean over 2 processes: too few processes to tell its precision\n" +
		"BenchmarkSort/size=128 1000 21.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=128 1000 20.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=1024 1000 30.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=1024 1000 31.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n"
	assert.Equal(t, want, squeeze(buf.String()))

	rd := benchfmt.NewReader(bytes.NewReader(buf.Bytes()), "out.txt")
	n := 0
	for rd.Scan() {
		_, ok := rd.Result().(*benchfmt.Result)
		require.True(t, ok, "%v", rd.Result())
		n++
	}
	require.NoError(t, rd.Err())
	assert.Equal(t, len(r.Slices)-1, n, "every slice but the warmup, and nothing else")

	// On a stream, a benchmark of another package than the last result's
	// is named with its import path.
	var stream bytes.Buffer
	w := NewWriter(&stream)
	a := slice("p/a", "BenchmarkZ", 1, 1, 1, false, 11)
	require.NoError(t, w.WriteSlice(Package{Path: "p/a"}, &a))
	for _, ev := range r.Events[:2] {
		require.NoError(t, w.WritePrecision(&ev, 4, stats.Speeds{}))
	}
	assert.Equal(t, "# BenchmarkZ: mean over 4 processes ±1.4% (95%)\n"+
		"# p/b.BenchmarkSort/size=16: mean over 4 processes ±60% (95%); over 100 processes for ±3%\n",
		stream.String()[strings.Index(stream.String(), "#"):])
}

// The precision line of a benchmark of a run of one version whose
// processes read at two speeds says so with both; a run of two versions
// pairs their processes, and its lines leave it out.
func TestPrecisionLineSaysTwoSpeeds(t *testing.T) {
	r := &record.Run{Header: &record.Header{}}
	for p, ns := range []float64{440, 463, 450, 1372} {
		r.Slices = append(r.Slices, slice("p", "BenchmarkEqual", p+1, 1, 1, true, 4*ns), slice("p", "BenchmarkEqual", p+1, 1, 2, false, ns))
	}
	r.Events = []record.Event{{Event: record.EventStop, Package: "p", Benchmark: "BenchmarkEqual",
		Precision: &record.Precision{RelHalfWidth: 0.86, Confidence: 0.95, Target: 0.03, Processes: 353}}}
	var buf bytes.Buffer
	require.NoError(t, WriteRun(&buf, r))
	assert.Contains(t, buf.String(), "# BenchmarkEqual: mean over 4 processes ±86% (95%); over 100 processes for ±3%; two speeds: 3 processes at 440.0ns–463.0ns and 1 at 1.372µs, 3.0× apart\n")

	base := slices.Clone(r.Slices)
	for i := range base {
		base[i].Version = record.VersionBaseline
	}
	r.Slices = append(r.Slices, base...)
	buf.Reset()
	require.NoError(t, WriteRun(&buf, r))
	assert.Contains(t, buf.String(), "# BenchmarkEqual: mean over 4 processes ±86% (95%); over 100 processes for ±3%\n")
	assert.NotContains(t, buf.String(), "two speeds")
}

// TestWriteRunReadable reads the output back the way benchstat does, and
// with the Parser, and checks that two runs carry the same keys.
func TestWriteRunReadable(t *testing.T) {
	r := testRun()
	r.Slices[2].Values["nan/op"] = math.NaN()
	var one, two bytes.Buffer
	require.NoError(t, WriteRun(&one, r))
	r2 := testRun()
	r2.Header.CPU = "" // a machine that cannot name its CPU
	r2.Slices = r2.Slices[3:]
	require.NoError(t, WriteRun(&two, r2))

	keys := func(b []byte) (map[string]bool, int) {
		rd := benchfmt.NewReader(bytes.NewReader(b), "out.txt")
		set := map[string]bool{}
		n := 0
		for rd.Scan() {
			res, ok := rd.Result().(*benchfmt.Result)
			require.True(t, ok, "%v", rd.Result())
			n++
			for _, c := range res.Config {
				if c.File {
					set[c.Key] = true
				}
			}
		}
		require.NoError(t, rd.Err())
		return set, n
	}
	k1, n1 := keys(one.Bytes())
	assert.Equal(t, 8, n1)
	assert.Equal(t, map[string]bool{"goos": true, "goarch": true, "pkg": true, "cpu": true}, k1)
	k2, n2 := keys(two.Bytes())
	assert.Equal(t, 6, n2)
	assert.Equal(t, map[string]bool{"goos": true, "goarch": true, "pkg": true}, k2)

	// The Parser reads the files it wrote, NaN included.
	var results []*Result
	for _, it := range parseAll(t, bytes.NewReader(one.Bytes())) {
		if res, ok := it.(*Result); ok {
			results = append(results, res)
		}
	}
	require.Len(t, results, 8)
	assert.Equal(t, "BenchmarkA", results[0].Name)
	assert.Equal(t, int64(1000), results[0].N)
	v, ok := results[1].Value("nan/op")
	assert.True(t, ok)
	assert.True(t, math.IsNaN(v))
}

func TestNaturalCompare(t *testing.T) {
	names := []string{"size=1024", "size=16", "a", "size=128", "size=016", "size=16#01", "b10", "b9", "size=", ""}
	slices.SortFunc(names, naturalCompare)
	assert.Equal(t, []string{"", "a", "b9", "b10", "size=", "size=016", "size=16", "size=16#01", "size=128", "size=1024"}, names)
}

func TestPackageOf(t *testing.T) {
	assert.Equal(t, Package{Path: "p"}, PackageOf(nil, "p"))
	assert.Equal(t, Package{GOOS: "linux", GOARCH: "amd64", Path: "p", CPU: "c"},
		PackageOf(&record.Header{GOOS: "linux", GOARCH: "amd64", CPU: "c"}, "p"))
}

// squeeze turns every run of blanks in s into one space, so that expected
// output can be written without go test's column padding.
func squeeze(s string) string {
	var b strings.Builder
	for l := range strings.Lines(s) {
		b.WriteString(strings.Join(strings.Fields(l), " "))
		if strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestWriteInOrder writes a schedule-ordered run grouped by package and
// benchmark in the order the benchmarks were found, not the schedule's or
// the names'; what the order leaves out comes last.
func TestWriteInOrder(t *testing.T) {
	order := []record.Key{
		{Bench: record.Bench{Package: "p/b", Benchmark: "BenchmarkSort/size=1024"}},
		{Bench: record.Bench{Package: "p/b", Benchmark: "BenchmarkSort/size=16"}},
		{Bench: record.Bench{Package: "p/a", Benchmark: "BenchmarkZ"}},
		{Bench: record.Bench{Package: "p/a", Benchmark: "BenchmarkZ"}, Version: record.VersionBaseline},
	}
	var buf bytes.Buffer
	require.NoError(t, WriteInOrder(&buf, testRun(), order))
	want := "goos: linux\ngoarch: arm64\npkg: p/b\ncpu: cpu0\n\n" +
		"BenchmarkSort/size=1024 1000 30.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=16 1000 10.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=16 1000 12.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=128 1000 21.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkSort/size=128 1000 20.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"\npkg: p/a\n\n" +
		"BenchmarkZ 1000 11.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkZ 1000 13.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n" +
		"BenchmarkA 1000 14.00 ns/op 2.000 widgets/op 16 B/op 1 allocs/op\n"
	assert.Equal(t, want, squeeze(buf.String()))
}

// TestWriteRunPartial checks that the results of a run that stopped early
// say so on their first line, which benchfmt skips, and that those of a
// run resumed since do not.
func TestWriteRunPartial(t *testing.T) {
	r := testRun()
	r.Events = append(r.Events, record.Event{Event: record.EventInterrupt, Reason: "interrupted; the results are partial"})
	var buf bytes.Buffer
	require.NoError(t, WriteRun(&buf, r))
	first, _, _ := strings.Cut(buf.String(), "\n")
	assert.Equal(t, "# gobench-dyn: interrupted; the results are partial", first)
	rd := benchfmt.NewReader(strings.NewReader(buf.String()), "partial.txt")
	n := 0
	for rd.Scan() {
		_, ok := rd.Result().(*benchfmt.Result)
		assert.True(t, ok, "%v", rd.Result())
		n++
	}
	assert.Equal(t, 8, n)

	r.Events = append(r.Events, record.Event{Event: record.EventResumed}, record.Event{Event: record.EventEnd})
	buf.Reset()
	require.NoError(t, WriteRun(&buf, r))
	assert.NotContains(t, buf.String(), "partial")
}
