package benchout

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the captured outputs in testdata/golden")

// render describes an item in one line, leaving out what changes from run
// to run (timings, the cpu label, stack addresses).
func render(it Item) string {
	switch it := it.(type) {
	case *Result:
		units := make([]string, len(it.Values))
		for i, v := range it.Values {
			units[i] = v.Unit
		}
		return fmt.Sprintf("result %s %d %s", it.Name, it.N, strings.Join(units, " "))
	case *Config:
		return "config " + it.Key
	case *Log:
		return fmt.Sprintf("log %s %s %d", it.Status, it.Name, len(it.Lines))
	case *Panic:
		return "panic " + it.Message
	case *Status:
		return "status " + it.Text
	case *Incomplete:
		return "incomplete " + it.Name
	case *Output:
		if len(it.Text) > 40 {
			return fmt.Sprintf("output %.10s…(%d KiB)", it.Text, len(it.Text)>>10)
		}
		return "output " + it.Text
	}
	return fmt.Sprintf("unknown %T", it)
}

func parseAll(t *testing.T, r io.Reader) []Item {
	t.Helper()
	p := NewParser(r)
	var items []Item
	for p.Scan() {
		items = append(items, p.Item())
	}
	require.NoError(t, p.Err())
	return items
}

func renderAll(items []Item) []string {
	var out []string
	for _, it := range items {
		if c, ok := it.(*Config); ok && c.Key == "cpu" {
			continue // not every machine prints one
		}
		out = append(out, render(it))
	}
	return out
}

var labels = []string{"config goos", "config goarch", "config pkg"}

func with(parts ...any) []string {
	var out []string
	for _, p := range parts {
		switch p := p.(type) {
		case string:
			out = append(out, p)
		case []string:
			out = append(out, p...)
		}
	}
	return out
}

const mem = "ns/op B/op allocs/op"

// quirkCases are runs of the benchmarks in testdata/quirks, each with
// -test.count=2 -test.benchtime=100x -test.cpu=2 -test.benchmem, and what
// the parser must make of their output.
var quirkCases = []struct {
	name  string // capture in testdata/golden/<name>.txt
	bench string
	merge bool // stderr goes to the same stream as stdout
	want  []string
}{
	{"print", "BenchmarkPrint", false, with(
		// The b.N = 1 run comes before the labels, then the prints land
		// between the name and the result fields.
		"output hello from the benchmark", labels,
		"output hello from the benchmark", "result BenchmarkPrint-2 100 "+mem,
		"output hello from the benchmark", "output hello from the benchmark", "result BenchmarkPrint-2 100 "+mem,
		"status PASS")},
	{"nonewline", "BenchmarkPrintNoNewline", false, with(
		"output partial 7", labels,
		"output partial 7", "result BenchmarkPrintNoNewline-2 100 "+mem,
		"output partial 7 partial 7", "result BenchmarkPrintNoNewline-2 100 "+mem,
		"status PASS")},
	{"longline", "BenchmarkLongLine", false, with(
		labels,
		"result BenchmarkLongLine-2 100 "+mem,
		"output xxxxxxxxxx…(63 KiB)", "result BenchmarkLongLine-2 100 "+mem,
		"status PASS")},
	{"log", "BenchmarkLog", false, with(
		labels,
		"result BenchmarkLog-2 100 "+mem, "log BENCH BenchmarkLog-2 2",
		"result BenchmarkLog-2 100 "+mem, "log BENCH BenchmarkLog-2 2",
		"status PASS")},
	{"fatal", "BenchmarkFatal", false, with(
		labels,
		"result BenchmarkFatal-2 100 "+mem, "log BENCH BenchmarkFatal-2 2",
		// The failure of the b.N = 1 run shares the line of the name,
		// and the binary still says PASS.
		"log FAIL BenchmarkFatal 3", "log FAIL BenchmarkFatal-2 6",
		"status PASS")},
	{"fatalfirst", "BenchmarkFatalFirst", false, with(
		"log FAIL BenchmarkFatalFirst 1", "status FAIL")},
	{"panic", "BenchmarkPanic", false, with(
		labels,
		"result BenchmarkPanic-2 100 "+mem,
		"incomplete BenchmarkPanic-2")},
	{"panicmerged", "BenchmarkPanic", true, with(
		labels,
		"result BenchmarkPanic-2 100 "+mem,
		"panic panic: boom on call 3",
		"incomplete BenchmarkPanic-2")},
	{"skip", "BenchmarkSkip", false, with("status PASS")},
	{"metrics", "BenchmarkMetrics", false, with(
		labels,
		"result BenchmarkMetrics-2 100 ns/op MB/s hit-ratio nan/op widgets/op B/op allocs/op",
		"result BenchmarkMetrics-2 100 ns/op MB/s hit-ratio nan/op widgets/op B/op allocs/op",
		"status PASS")},
	{"names", "BenchmarkNames", false, with(
		labels,
		"result BenchmarkNames/size=16-2 100 "+mem, "result BenchmarkNames/size=16-2 100 "+mem,
		"result BenchmarkNames/with_space-2 100 "+mem, "result BenchmarkNames/with_space-2 100 "+mem,
		"result BenchmarkNames/a+b(c)-2 100 "+mem, "result BenchmarkNames/a+b(c)-2 100 "+mem,
		"result BenchmarkNames/héllo-2 100 "+mem, "result BenchmarkNames/héllo-2 100 "+mem,
		"result BenchmarkNames/size=16#01-2 100 "+mem, "result BenchmarkNames/size=16#01-2 100 "+mem,
		"status PASS")},
	{"loop", "BenchmarkLoop", false, with(
		labels,
		"result BenchmarkLoop-2 100 "+mem, "result BenchmarkLoop-2 100 "+mem,
		"status PASS")},
}

func TestParserGolden(t *testing.T) {
	for _, c := range quirkCases {
		t.Run(c.name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", "golden", c.name+".txt"))
			require.NoError(t, err)
			defer f.Close()
			assert.Equal(t, c.want, renderAll(parseAll(t, f)))
		})
	}
}

// TestParserLive runs the quirks benchmarks in a real test binary and
// parses its output as it streams in.
func TestParserLive(t *testing.T) {
	if testing.Short() && !*update {
		t.Skip("builds a test binary")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "quirks"))
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "quirks.test")
	build := exec.Command("go", "test", "-c", "-trimpath", "-o", bin, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	for _, c := range quirkCases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, "-test.run=^$", "-test.bench=^"+c.bench+"$",
				"-test.count=2", "-test.benchtime=100x", "-test.cpu=2", "-test.benchmem")
			cmd.Dir = dir
			r, w, err := os.Pipe()
			require.NoError(t, err)
			var stderr bytes.Buffer
			cmd.Stdout = w
			cmd.Stderr = &stderr
			if c.merge {
				cmd.Stderr = w
			}
			require.NoError(t, cmd.Start())
			w.Close()
			var captured bytes.Buffer
			items := parseAll(t, io.TeeReader(r, &captured))
			r.Close()
			_ = cmd.Wait() // failing and panicking cases exit non-zero
			assert.Equal(t, c.want, renderAll(items), "stdout:\n%s\nstderr:\n%s", captured.String(), stderr.String())
			if *update {
				require.NoError(t, os.WriteFile(filepath.Join("testdata", "golden", c.name+".txt"), captured.Bytes(), 0o644))
			}
		})
	}
}

func TestParserMetricValues(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "golden", "metrics.txt"))
	require.NoError(t, err)
	defer f.Close()
	var n int
	for _, it := range parseAll(t, f) {
		r, ok := it.(*Result)
		if !ok {
			continue
		}
		n++
		m := r.ValueMap()
		assert.Equal(t, 42.0, m["widgets/op"])
		assert.Equal(t, 0.5, m["hit-ratio"])
		assert.True(t, math.IsNaN(m["nan/op"]))
		assert.Positive(t, m["ns/op"])
		// SetBytes(1024): MB/s = 1024 B / (ns/op) * 1e3, printed to 2 places.
		assert.InEpsilon(t, 1024/m["ns/op"]*1e3, m["MB/s"], 0.01)
		v, ok := r.Value("allocs/op")
		assert.True(t, ok)
		assert.Equal(t, 0.0, v)
		_, ok = r.Value("no/op")
		assert.False(t, ok)
	}
	assert.Equal(t, 2, n)
}

func TestParserLines(t *testing.T) {
	in := "goos: linux\n" +
		"BenchmarkA-8   \thello\n" +
		"     100\t       533.4 ns/op\n" +
		"--- FAIL: BenchmarkB-8\n" +
		"    b_test.go:3: no\n" +
		"BenchmarkC-8   \t"
	items := parseAll(t, strings.NewReader(in))
	require.Len(t, items, 5)
	assert.Equal(t, &Config{Key: "goos", Value: "linux", Line: 1}, items[0])
	assert.Equal(t, &Output{Text: "hello", Line: 2}, items[1])
	assert.Equal(t, &Result{Name: "BenchmarkA-8", N: 100, Values: []Value{{533.4, "ns/op"}}, Line: 3}, items[2])
	assert.Equal(t, &Log{Status: StatusFail, Name: "BenchmarkB-8", Lines: []string{"    b_test.go:3: no"}, Line: 4}, items[3])
	assert.True(t, items[3].(*Log).Failed())
	assert.Equal(t, &Incomplete{Name: "BenchmarkC-8", Line: 6}, items[4])
	assert.Equal(t, 4, items[3].Pos())
}

func TestParserFields(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		// benchstat-format files separate fields with single spaces.
		{"BenchmarkA 100 5 ns/op 3 B/op", []string{"result BenchmarkA 100 ns/op B/op"}},
		{"BenchmarkA 1 NaN ns/op +Inf x/op -Inf y/op", []string{"result BenchmarkA 1 ns/op x/op y/op"}},
		// Text that starts like a name but has no tab is just text.
		{"Benchmarking is fun", []string{"output Benchmarking is fun"}},
		{"BenchmarkA", nil}, // go test -v prints the bare name first
		// A unit is never a number: the count is found however the
		// text before it looks.
		{"BenchmarkA-2\t3 5 ns/op 7 100 2.5 ns/op", []string{"output 3 5 ns/op 7", "result BenchmarkA-2 100 ns/op"}},
		// A missing unit, a bad count or no values: not a result.
		{"BenchmarkA-2\t100 5", []string{"output 100 5", "incomplete BenchmarkA-2"}},
		{"BenchmarkA-2\t-100 5 ns/op", []string{"output -100 5 ns/op", "incomplete BenchmarkA-2"}},
		{"BenchmarkA-2\t99999999999999999999 5 ns/op", []string{"output 99999999999999999999 5 ns/op", "incomplete BenchmarkA-2"}},
		{"BenchmarkA-2\t100 1e999 ns/op", []string{"output 100 1e999 ns/op", "incomplete BenchmarkA-2"}},
		// A new name ends the pending one.
		{"BenchmarkA-2\t\nBenchmarkB-2\t1 2 ns/op", []string{"incomplete BenchmarkA-2", "result BenchmarkB-2 1 ns/op"}},
		// Several names on one line: go test printed the first, the
		// benchmark the others.
		{"BenchmarkA-2\tBenchmarkB\t1 2 ns/op", []string{"output BenchmarkB", "result BenchmarkA-2 1 ns/op"}},
		{"BenchmarkA-2\tBenchmarkB\tx", []string{"incomplete BenchmarkA-2", "output x", "incomplete BenchmarkB"}},
		// A config-looking line while a name is pending is the
		// benchmark's own output.
		{"BenchmarkA-2\t\nnote: x\n1 2 ns/op", []string{"output note: x", "result BenchmarkA-2 1 ns/op"}},
		{"key:\nkey:value\n", []string{"config key", "output key:value"}},
		{"--- PASS: TestX\n--- FAIL:x", []string{"output --- PASS: TestX", "output --- FAIL:x"}},
		{"ok  \tpkg\t1.0s\nFAIL\tpkg\t1.0s\n\n  \n", []string{"status ok  \tpkg\t1.0s", "status FAIL\tpkg\t1.0s"}},
		{"fatal error: concurrent map writes\n\ngoroutine 1:\nBenchmarkA\t1 2 ns/op", []string{"panic fatal error: concurrent map writes", "result BenchmarkA 1 ns/op"}},
		{"line\r\nBenchmarkA\t1 2 ns/op\r\n", []string{"output line", "result BenchmarkA 1 ns/op"}},
	} {
		got := renderAll(parseAll(t, strings.NewReader(c.in)))
		assert.Equal(t, c.want, got, "input %q", c.in)
	}
}

func TestParserBlockBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("--- FAIL: BenchmarkA\n")
	for i := range MaxBlockLines + 50 {
		fmt.Fprintf(&b, "    line %d\n", i)
	}
	b.WriteString("panic: boom\n")
	for i := range MaxBlockLines + 7 {
		fmt.Fprintf(&b, "frame %d\n", i)
	}
	items := parseAll(t, strings.NewReader(b.String()))
	require.Len(t, items, 2)
	l := items[0].(*Log)
	assert.Len(t, l.Lines, MaxBlockLines)
	assert.Equal(t, 50, l.Dropped)
	assert.Equal(t, "    line 50", l.Lines[0])
	assert.Equal(t, fmt.Sprintf("    line %d", MaxBlockLines+49), l.Lines[MaxBlockLines-1])
	p := items[1].(*Panic)
	assert.Len(t, p.Trace, MaxBlockLines)
	assert.Equal(t, 7, p.Dropped)
}

func TestParserLongLine(t *testing.T) {
	long := strings.Repeat("y", 5*MaxLineBytes)
	in := "BenchmarkA-2\t" + long + "     100\t 5 ns/op\n" + long + "\nBenchmarkB 1 2 ns/op\n"
	items := parseAll(t, strings.NewReader(in))
	require.Len(t, items, 4)
	assert.Equal(t, "result BenchmarkA-2 100 ns/op", render(items[1]))
	assert.Equal(t, "result BenchmarkB 1 ns/op", render(items[3]))
	for _, i := range []int{0, 2} {
		assert.LessOrEqual(t, len(items[i].(*Output).Text), MaxLineBytes+8)
	}
	assert.Equal(t, 3, items[3].Pos())
}

// blockingReader hands out its chunks one Read at a time and fails the
// test if the parser asks for more than it needs.
type blockingReader struct {
	chunks []string
	wanted chan int // the index of each chunk asked for
}

func (r *blockingReader) Read(b []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	r.wanted <- len(r.chunks)
	n := copy(b, r.chunks[0])
	r.chunks[0] = r.chunks[0][n:]
	if r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	return n, nil
}

// TestParserStreams checks that a result and a failure block are handed
// out as soon as they are complete, without reading the next chunk of
// output, which a running benchmark has not printed yet.
func TestParserStreams(t *testing.T) {
	r := &blockingReader{
		chunks: []string{
			"goos: linux\nBenchmarkA-2   \t",
			"     100\t 5 ns/op\n",
			"BenchmarkA-2   \t--- FAIL: BenchmarkA\n    a_test.go:1: no\n",
			"BenchmarkA-2   \t",
		},
		wanted: make(chan int, 10),
	}
	p := NewParser(r)
	next := func() string {
		require.True(t, p.Scan())
		return render(p.Item())
	}
	assert.Equal(t, "config goos", next())
	assert.Equal(t, "result BenchmarkA-2 100 ns/op", next())
	assert.Len(t, r.wanted, 2, "read ahead of the result")
	assert.Equal(t, "log FAIL BenchmarkA 1", next())
	assert.Len(t, r.wanted, 3, "read ahead of the failure")
	assert.Equal(t, "incomplete BenchmarkA-2", next())
	assert.False(t, p.Scan())
	assert.Nil(t, p.Item())
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestParserReadError(t *testing.T) {
	p := NewParser(io.MultiReader(strings.NewReader("BenchmarkA-2\t"), errReader{}))
	require.True(t, p.Scan())
	assert.Equal(t, "incomplete BenchmarkA-2", render(p.Item()))
	assert.False(t, p.Scan())
	assert.ErrorIs(t, p.Err(), io.ErrUnexpectedEOF)
}

func FuzzParser(f *testing.F) {
	for _, c := range quirkCases {
		if b, err := os.ReadFile(filepath.Join("testdata", "golden", c.name+".txt")); err == nil && len(b) < 4096 {
			f.Add(b, uint16(0))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, maxLine uint16) {
		limit := MaxLineBytes
		if maxLine > 0 {
			limit = max(int(maxLine), 32)
		}
		p := newParser(bytes.NewReader(in), limit)
		lines := bytes.Count(in, []byte("\n")) + 1
		items := 0
		for p.Scan() {
			items++
			// Every item comes from one line at least, and a line
			// gives at most a few (text, then a result or a label).
			require.LessOrEqual(t, items, 4*lines)
			require.LessOrEqual(t, p.Item().Pos(), lines)
			switch it := p.Item().(type) {
			case *Result:
				require.True(t, strings.HasPrefix(it.Name, "Benchmark"))
				require.NotEmpty(t, it.Values)
				require.GreaterOrEqual(t, it.N, int64(0))
				for _, v := range it.Values {
					require.NotEmpty(t, v.Unit)
					require.False(t, isNumber(v.Unit))
				}
			case *Output:
				require.LessOrEqual(t, len(it.Text), limit+8)
			case *Log:
				require.LessOrEqual(t, len(it.Lines), MaxBlockLines)
			case *Panic:
				require.LessOrEqual(t, len(it.Trace), MaxBlockLines)
			}
		}
		require.NoError(t, p.Err())
	})
}

// TestParserAcceptsOnlyTheResultAskedFor feeds the output of a benchmark
// that prints lines shaped like results, of itself or of another name,
// with another N: with Accept, they are its prints, and its real result
// still reaches it.
func TestParserAcceptsOnlyTheResultAskedFor(t *testing.T) {
	out := "goos: linux\n" +
		"BenchmarkFake-2   \tBenchmarkFake-2 1 999 ns/op\n" +
		"BenchmarkOther-2\t1\t5 ns/op\n" +
		"    5000\t       123.0 ns/op\n" +
		"BenchmarkFake-2   \t    5000\t       124.0 ns/op\n" +
		"PASS\n"
	p := NewParser(strings.NewReader(out))
	p.Accept = func(name string, n int64) bool { return name == "BenchmarkFake-2" && n == 5000 }
	var results []string
	var prints []string
	for p.Scan() {
		switch it := p.Item().(type) {
		case *Result:
			v, _ := it.Value("ns/op")
			results = append(results, fmt.Sprintf("%s %d %g", it.Name, it.N, v))
		case *Output:
			prints = append(prints, it.Text)
		case *Incomplete:
			t.Errorf("incomplete %s", it.Name)
		}
	}
	require.NoError(t, p.Err())
	assert.Equal(t, []string{"BenchmarkFake-2 5000 123", "BenchmarkFake-2 5000 124"}, results)
	assert.Equal(t, []string{"BenchmarkFake-2 1 999 ns/op", "BenchmarkOther-2\t1\t5 ns/op"}, prints)

	// Without Accept, the print is taken for the result, as go test's
	// own output gives no way to tell.
	items := renderAll(parseAll(t, strings.NewReader(out)))
	assert.Contains(t, items, "result BenchmarkFake-2 1 ns/op")
}
