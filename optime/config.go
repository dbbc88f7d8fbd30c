package optime

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// ConfigSchema is the version of the configuration file format this
// package writes. ParseConfig rejects files with a newer schema.
const ConfigSchema = 1

// A ConfigFile holds the minimal configurations of a suite, as "gobench-dyn
// optimize" writes them and "gobench-dyn run --config" obeys them.
//
// # Format
//
// The file is text, one record per line, so that a change to one
// benchmark's configuration is a one-line diff:
//
//	# comment
//	gobench-dyn-config schema=1 created=2026-03-01T12:00:00Z
//	source id=1 file=full.jsonl seed=42 start=2026-02-28T10:00:00Z
//	bench pkg=example.com/m/p name=BenchmarkParse/small-8 s=1 i=3 d=1 warmup=1 metric=rmad threshold=0.01 value=0.002 stable=true source=1
//
// The header line comes first and carries the schema; created, the time
// the file was written, is the only field that changes on every run. Each
// source line names a recorded run the entries were computed from, with
// its seed and start time. Each bench line sets one benchmark's suite runs
// (s), iterations per suite run (i), measurement slices per iteration (d)
// and warmup slices per iteration, and records the metric, threshold and
// metric value that chose them, whether that value met the threshold, and
// the IDs of its source runs (comma-separated). Bench lines are sorted by
// package and name. A value is written bare, or as a Go quoted string if
// it is empty or holds spaces, quotes or unprintable characters.
//
// # What a configuration file can cause
//
// A configuration file only sets counts: how many suite runs, iterations,
// measurement slices and warmup slices "run" gives each benchmark that it
// already selected. It names no commands, paths, flags or environment, it
// cannot add benchmarks or packages to a run, and an entry for a benchmark
// that does not exist is ignored. Its worst effect is a run that takes
// longer or gives less stable results than intended.
type ConfigFile struct {
	Schema  int       // ConfigSchema when written by this package
	Created time.Time // zero: not written
	Sources []Source
	Entries []Entry
}

// A Source is a recorded run that entries were computed from.
type Source struct {
	ID    int    // ≥ 1, unique in the file
	File  string // the raw or dataset file, as given to optimize
	Seed  uint64 // the run's schedule seed, from its header
	Start time.Time
}

// An Entry is the configuration of one benchmark.
type Entry struct {
	Package    string
	Benchmark  string // the leaf name as go test prints it
	SuiteRuns  int    // s ≥ 1
	Iterations int    // i ≥ 1, per suite run
	Slices     int    // d ≥ 1, measurement slices per iteration
	Warmup     int    // ≥ 0, warmup slices per iteration
	Metric     Metric
	Threshold  float64
	// Value is the metric of the chosen configuration, rounded to four
	// significant digits when written.
	Value float64
	// Stable reports whether Value met the threshold; an unstable entry
	// keeps the full configuration of its source run.
	Stable  bool
	Sources []int // IDs of Sources
}

// Config returns the entry's (s, i, d).
func (e Entry) Config() Config { return Config{e.SuiteRuns, e.Iterations, e.Slices} }

// NewConfigFile returns the configuration file of r, with the given
// sources, entries sorted by package and benchmark.
func NewConfigFile(r *Result, sources []Source, created time.Time) *ConfigFile {
	cf := &ConfigFile{Schema: ConfigSchema, Created: created, Sources: slices.Clone(sources)}
	for _, c := range r.Choices {
		cf.Entries = append(cf.Entries, Entry{
			Package:    c.Package,
			Benchmark:  c.Name,
			SuiteRuns:  c.Config.SuiteRuns,
			Iterations: c.Config.Iterations,
			Slices:     c.Config.Slices,
			Warmup:     c.Warmup,
			Metric:     r.Metric,
			Threshold:  r.Threshold,
			Value:      c.Value,
			Stable:     c.Stable,
			Sources:    slices.Clone(c.Sources),
		})
	}
	cf.sort()
	return cf
}

func (cf *ConfigFile) sort() {
	slices.SortStableFunc(cf.Sources, func(a, b Source) int { return cmp.Compare(a.ID, b.ID) })
	slices.SortStableFunc(cf.Entries, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Package, b.Package), cmp.Compare(a.Benchmark, b.Benchmark))
	})
}

// procsSuffix is the -GOMAXPROCS suffix go test appends to benchmark names.
var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// Lookup returns the entry of benchmark bench in package pkg. A name that
// matches no entry exactly matches one that differs only in its -N
// GOMAXPROCS suffix, so that a file written on one machine serves another
// with a different CPU count.
func (cf *ConfigFile) Lookup(pkg, bench string) (Entry, bool) {
	for _, e := range cf.Entries {
		if e.Package == pkg && e.Benchmark == bench {
			return e, true
		}
	}
	base := procsSuffix.ReplaceAllString(bench, "")
	for _, e := range cf.Entries {
		if e.Package == pkg && procsSuffix.ReplaceAllString(e.Benchmark, "") == base {
			return e, true
		}
	}
	return Entry{}, false
}

// Write writes cf in the configuration file format. Entries are written
// sorted, whatever their order in cf.
func (cf *ConfigFile) Write(w io.Writer) error {
	sorted := *cf
	sorted.Sources = slices.Clone(cf.Sources)
	sorted.Entries = slices.Clone(cf.Entries)
	sorted.sort()
	schema := cf.Schema
	if schema == 0 {
		schema = ConfigSchema
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# gobench-dyn configuration: per benchmark, suite runs (s), iterations per suite run (i),")
	fmt.Fprintln(bw, "# measurement slices per iteration (d) and warmup slices, for gobench-dyn run --config.")
	fmt.Fprintf(bw, "%s schema=%d", headerKind, schema)
	if !cf.Created.IsZero() {
		fmt.Fprintf(bw, " created=%s", cf.Created.UTC().Format(time.RFC3339))
	}
	fmt.Fprintln(bw)
	for _, s := range sorted.Sources {
		fmt.Fprintf(bw, "source id=%d file=%s seed=%d", s.ID, quoteValue(s.File), s.Seed)
		if !s.Start.IsZero() {
			fmt.Fprintf(bw, " start=%s", s.Start.UTC().Format(time.RFC3339Nano))
		}
		fmt.Fprintln(bw)
	}
	for _, e := range sorted.Entries {
		ids := make([]string, len(e.Sources))
		for i, id := range e.Sources {
			ids[i] = strconv.Itoa(id)
		}
		fmt.Fprintf(bw, "bench pkg=%s name=%s s=%d i=%d d=%d warmup=%d metric=%s threshold=%s",
			quoteValue(e.Package), quoteValue(e.Benchmark), e.SuiteRuns, e.Iterations, e.Slices, e.Warmup,
			e.Metric, strconv.FormatFloat(e.Threshold, 'g', -1, 64))
		if !math.IsNaN(e.Value) {
			// A metric of too few values has none; the key is optional.
			fmt.Fprintf(bw, " value=%s", strconv.FormatFloat(e.Value, 'g', 4, 64))
		}
		fmt.Fprintf(bw, " stable=%t source=%s\n", e.Stable, quoteValue(strings.Join(ids, ",")))
	}
	return bw.Flush()
}

const headerKind = "gobench-dyn-config"

// quoteValue returns v bare when it reads back as itself, else quoted.
func quoteValue(v string) string {
	if v == "" || strings.HasPrefix(v, `"`) {
		return strconv.Quote(v)
	}
	for _, r := range v {
		if unicode.IsSpace(r) || r == utf8.RuneError || !strconv.IsPrint(r) {
			return strconv.Quote(v)
		}
	}
	return v
}

// ReadConfigFile reads the configuration file at path.
func ReadConfigFile(path string) (*ConfigFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseConfig(f, path)
}

// ParseConfig reads a configuration file from r; file names r in errors.
// A malformed line, an unknown key or line kind, a missing key, a schema
// newer than ConfigSchema, an unknown metric, a non-positive s, i or d, a
// reference to an undefined source, or a benchmark listed twice is a
// *record.SyntaxError naming the file and line.
func ParseConfig(r io.Reader, file string) (*ConfigFile, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	cf := &ConfigFile{}
	sawHeader := false
	sourceLine := map[int]int{}
	benchLine := map[record.Bench]int{}
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fail := func(format string, args ...any) error {
			return &record.SyntaxError{File: file, Line: line, Msg: fmt.Sprintf(format, args...)}
		}
		if !utf8.ValidString(text) {
			return nil, fail("invalid UTF-8")
		}
		kind, fields, err := splitLine(text)
		if err != nil {
			return nil, fail("%v", err)
		}
		if !sawHeader && kind != headerKind {
			return nil, fail("first line is %q, want a %s header: not a gobench-dyn configuration file", kind, headerKind)
		}
		switch kind {
		case headerKind:
			if sawHeader {
				return nil, fail("second %s header", headerKind)
			}
			sawHeader = true
			if cf.Schema, cf.Created, err = parseHeader(fields); err != nil {
				return nil, fail("%v", err)
			}
		case "source":
			src, err := parseSource(fields, sourceLine)
			if err != nil {
				return nil, fail("%v", err)
			}
			sourceLine[src.ID] = line
			cf.Sources = append(cf.Sources, src)
		case "bench":
			e, err := parseEntry(fields, sourceLine)
			if err != nil {
				return nil, fail("%v", err)
			}
			k := record.Bench{Package: e.Package, Benchmark: e.Benchmark}
			if first, dup := benchLine[k]; dup {
				return nil, fail("%s %s is already configured on line %d", e.Package, e.Benchmark, first)
			}
			benchLine[k] = line
			cf.Entries = append(cf.Entries, e)
		default:
			return nil, fail("unknown line kind %q (want source or bench)", kind)
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &record.SyntaxError{File: file, Line: line + 1, Msg: "line longer than 1 MiB"}
		}
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if !sawHeader {
		return nil, &record.SyntaxError{File: file, Line: max(line, 1), Msg: "no " + headerKind + " header: not a gobench-dyn configuration file"}
	}
	return cf, nil
}

// parseHeader reads the fields of the header line.
func parseHeader(f fieldMap) (schema int, created time.Time, err error) {
	if err := f.only("schema", "created"); err != nil {
		return 0, created, err
	}
	if schema, err = f.int("schema", 1, math.MaxInt32); err != nil {
		return 0, created, err
	}
	if schema > ConfigSchema {
		return 0, created, fmt.Errorf("schema %d is newer than this gobench-dyn reads (%d); upgrade gobench-dyn", schema, ConfigSchema)
	}
	created, err = f.time("created")
	return schema, created, err
}

// parseSource reads the fields of a source line; defined holds the
// sources already defined, by the line that defines them.
func parseSource(f fieldMap, defined map[int]int) (Source, error) {
	var s Source
	if err := f.only("id", "file", "seed", "start"); err != nil {
		return s, err
	}
	var err error
	if s.ID, err = f.int("id", 1, math.MaxInt32); err != nil {
		return s, err
	}
	if first, dup := defined[s.ID]; dup {
		return s, fmt.Errorf("source %d is already defined on line %d", s.ID, first)
	}
	if s.File, err = f.str("file"); err != nil {
		return s, err
	}
	if v, ok := f["seed"]; ok {
		if s.Seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			return s, fmt.Errorf("seed %q is not an unsigned integer", v)
		}
	}
	s.Start, err = f.time("start")
	return s, err
}

func parseEntry(f fieldMap, sources map[int]int) (Entry, error) {
	var e Entry
	if err := f.only("pkg", "name", "s", "i", "d", "warmup", "metric", "threshold", "value", "stable", "source"); err != nil {
		return e, err
	}
	var err error
	if e.Package, err = f.str("pkg"); err != nil {
		return e, err
	}
	if e.Benchmark, err = f.str("name"); err != nil {
		return e, err
	}
	for _, c := range []struct {
		key string
		dst *int
		min int
	}{{"s", &e.SuiteRuns, 1}, {"i", &e.Iterations, 1}, {"d", &e.Slices, 1}, {"warmup", &e.Warmup, 0}} {
		if *c.dst, err = f.int(c.key, c.min, 1<<20); err != nil {
			return e, err
		}
	}
	m, err := f.str("metric")
	if err != nil {
		return e, err
	}
	if e.Metric, err = ParseMetric(m); err != nil {
		return e, err
	}
	if e.Threshold, err = f.float("threshold"); err != nil {
		return e, err
	}
	if !(e.Threshold > 0) || math.IsInf(e.Threshold, 0) {
		return e, fmt.Errorf("threshold %v is not a positive number", e.Threshold)
	}
	if _, ok := f["value"]; ok {
		if e.Value, err = f.float("value"); err != nil {
			return e, err
		}
		if e.Value < 0 {
			return e, fmt.Errorf("value %v is negative", e.Value)
		}
	}
	if v, ok := f["stable"]; ok {
		if e.Stable, err = strconv.ParseBool(v); err != nil || (v != "true" && v != "false") {
			return e, fmt.Errorf("stable %q is not true or false", v)
		}
	}
	src, err := f.str("source")
	if err != nil {
		return e, err
	}
	for s := range strings.SplitSeq(src, ",") {
		id, err := strconv.Atoi(s)
		if err != nil || id < 1 {
			return e, fmt.Errorf("source %q is not a list of source IDs", src)
		}
		if _, ok := sources[id]; !ok {
			return e, fmt.Errorf("source %d is not defined above", id)
		}
		e.Sources = append(e.Sources, id)
	}
	return e, nil
}

// A fieldMap holds the key=value fields of one line.
type fieldMap map[string]string

// splitLine splits a line into its kind and key=value fields. A value is
// bare up to the next space, or a Go quoted string.
func splitLine(text string) (string, fieldMap, error) {
	kind, rest, _ := strings.Cut(text, " ")
	if strings.Contains(kind, "=") {
		return "", nil, fmt.Errorf("line starts with field %q, want a line kind", kind)
	}
	fields := fieldMap{}
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			return kind, fields, nil
		}
		key, after, ok := strings.Cut(rest, "=")
		if !ok || key == "" || strings.IndexFunc(key, unicode.IsSpace) >= 0 {
			word, _, _ := strings.Cut(rest, " ")
			return "", nil, fmt.Errorf("field %q is not key=value", word)
		}
		var val string
		if strings.HasPrefix(after, `"`) {
			q, err := strconv.QuotedPrefix(after)
			if err != nil {
				return "", nil, fmt.Errorf("%s: bad quoted value", key)
			}
			val, _ = strconv.Unquote(q)
			rest = after[len(q):]
			if rest != "" && !unicode.IsSpace(rune(rest[0])) {
				return "", nil, fmt.Errorf("%s: text after quoted value", key)
			}
		} else {
			end := strings.IndexFunc(after, unicode.IsSpace)
			if end < 0 {
				end = len(after)
			}
			val, rest = after[:end], after[end:]
		}
		if _, dup := fields[key]; dup {
			return "", nil, fmt.Errorf("key %s given twice", key)
		}
		fields[key] = val
	}
}

func (f fieldMap) only(keys ...string) error {
	var unknown []string
	for k := range f {
		if !slices.Contains(keys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fmt.Errorf("unknown key %s", strings.Join(unknown, ", "))
	}
	return nil
}

func (f fieldMap) str(key string) (string, error) {
	v, ok := f[key]
	if !ok {
		return "", fmt.Errorf("missing key %s", key)
	}
	if v == "" {
		return "", fmt.Errorf("%s is empty", key)
	}
	return v, nil
}

func (f fieldMap) int(key string, lo, hi int) (int, error) {
	v, err := f.str(key)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("%s %q is not an integer", key, v)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("%s is %d, want %d to %d", key, n, lo, hi)
	}
	return n, nil
}

func (f fieldMap) float(key string) (float64, error) {
	v, err := f.str(key)
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(x) {
		return 0, fmt.Errorf("%s %q is not a number", key, v)
	}
	return x, nil
}

// time reads an optional RFC 3339 time.
func (f fieldMap) time(key string) (time.Time, error) {
	v, ok := f[key]
	if !ok {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q is not an RFC 3339 time", key, v)
	}
	return t, nil
}
