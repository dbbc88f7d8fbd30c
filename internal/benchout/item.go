package benchout

// An Item is one thing a Parser read from the output of a test binary: a
// *Result, *Config, *Log, *Panic, *Status, *Incomplete or *Output.
type Item interface {
	// Pos returns the 1-based line on which the item starts.
	Pos() int
}

// A Result is one benchmark result line: one timed run of b.N iterations.
type Result struct {
	// Name is the full benchmark name as printed, with the "Benchmark"
	// prefix and any GOMAXPROCS suffix: "BenchmarkParse/small-8".
	Name string
	// N is the number of iterations the values are averaged over.
	N int64
	// Values holds every value with its unit, in printed order.
	Values []Value
	// Line is the line holding the result fields. It can follow the line
	// that holds the name, when the benchmark printed a line of its own
	// in between.
	Line int
}

// A Value is one measurement of a Result in one unit, such as "ns/op",
// "B/op", "allocs/op", "MB/s" or a unit reported with b.ReportMetric.
type Value struct {
	Value float64
	Unit  string
}

// Pos implements Item.
func (r *Result) Pos() int { return r.Line }

// Value returns the value of r in unit, and whether r has one.
func (r *Result) Value(unit string) (float64, bool) {
	for _, v := range r.Values {
		if v.Unit == unit {
			return v.Value, true
		}
	}
	return 0, false
}

// ValueMap returns the values of r keyed by unit.
func (r *Result) ValueMap() map[string]float64 {
	m := make(map[string]float64, len(r.Values))
	for _, v := range r.Values {
		m[v.Unit] = v.Value
	}
	return m
}

// A Config is a configuration line, such as "goos: linux" or "pkg: example.com/x".
type Config struct {
	Key, Value string
	Line       int
}

// Pos implements Item.
func (c *Config) Pos() int { return c.Line }

// Statuses of a Log.
const (
	StatusFail  = "FAIL"  // the benchmark failed (b.Fatal, b.Error, ...)
	StatusSkip  = "SKIP"  // the benchmark skipped itself
	StatusBench = "BENCH" // the benchmark passed and logged
)

// A Log is a block that go test prints for one benchmark: a "--- FAIL:",
// "--- SKIP:" or "--- BENCH:" header and the indented log lines under it.
type Log struct {
	Status string // StatusFail, StatusSkip or StatusBench
	// Name is the benchmark named in the header. go test names a failure
	// in the first run of a repetition without the GOMAXPROCS suffix.
	Name string
	// Lines holds the log lines as printed, indentation included. Only the
	// last MaxBlockLines are kept; Dropped counts the lines left out.
	Lines   []string
	Dropped int
	Line    int
}

// Pos implements Item.
func (l *Log) Pos() int { return l.Line }

// Failed reports whether l reports a failed benchmark.
func (l *Log) Failed() bool { return l.Status == StatusFail }

// A Panic is a "panic:" or "fatal error:" line of the Go runtime and the
// stack trace after it. The runtime prints them on stderr, so a Parser sees
// them only when stderr goes to the same stream.
type Panic struct {
	Message string // the first line, "panic: boom"
	// Trace holds the last MaxBlockLines lines after Message; Dropped
	// counts the lines left out.
	Trace   []string
	Dropped int
	Line    int
}

// Pos implements Item.
func (p *Panic) Pos() int { return p.Line }

// A Status is the line a test binary prints as it exits, "PASS" or "FAIL",
// or the summary line of go test, "ok  \tpkg\t1.2s" or "FAIL\tpkg\t1.2s".
//
// A benchmark that fails in a repetition other than the first does not make
// the binary fail: it prints "--- FAIL:" and still ends with "PASS". Look
// for a failed Log rather than trust the Status alone.
type Status struct {
	Pass bool
	Text string
	Line int
}

// Pos implements Item.
func (s *Status) Pos() int { return s.Line }

// An Incomplete is a benchmark name that go test printed but that got
// neither a result nor a failure: the benchmark was running when the
// output ended, because the process was killed or crashed.
type Incomplete struct {
	Name string
	Line int
}

// Pos implements Item.
func (i *Incomplete) Pos() int { return i.Line }

// An Output is any other text: mostly what benchmarks print themselves.
// When a benchmark's print shares a line with a benchmark name or result,
// Text holds just that print.
type Output struct {
	Text string
	Line int
}

// Pos implements Item.
func (o *Output) Pos() int { return o.Line }
