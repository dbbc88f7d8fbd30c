package benchout

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/gobench-dyn/gobench-dyn/internal/stats"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	// Named apart from the tests' render helper.
	rendering "github.com/gobench-dyn/gobench-dyn/internal/render"
)

// A Package is the file-level configuration of one package's results: the
// labels go test prints before them. Empty labels are left out, as go test
// leaves out a cpu it cannot name.
type Package struct {
	GOOS   string
	GOARCH string
	Path   string // the import path, printed as "pkg"
	CPU    string
}

// PackageOf returns the labels of package path on the machine h describes.
// h may be nil.
func PackageOf(h *record.Header, path string) Package {
	if h == nil {
		return Package{Path: path}
	}
	return Package{GOOS: h.GOOS, GOARCH: h.GOARCH, Path: path, CPU: h.CPU}
}

// VersionKey is the file-level configuration key that tells the code under
// test from its baseline, when a run interleaves both. Compare them with
// "benchstat -col version".
const VersionKey = "version"

// VersionHeadLabel is the version label of the code under test when a run
// also holds a baseline.
const VersionHeadLabel = "head"

// A Writer writes measurement slices in the Go benchmark format, one result
// line per slice as it comes in, so that an interrupted run loses nothing.
// It writes the labels of a package whenever the package changes, always
// with the same keys: goos, goarch, pkg and cpu, so that benchstat puts the
// results of two runs on the same machine in one table.
type Writer struct {
	w   *benchfmt.Writer
	out io.Writer
	buf bytes.Buffer
	// Versioned adds the version key to every result: the slice's
	// version, or VersionHeadLabel for the code under test. Set it when
	// the run interleaves a baseline.
	Versioned bool
	// pkg is the import path of the last result written.
	pkg string
}

// NewWriter returns a Writer writing to w. Every result line is written
// with one call to w.Write.
func NewWriter(w io.Writer) *Writer {
	wr := &Writer{out: w}
	wr.w = benchfmt.NewWriter(&wr.buf)
	return wr
}

// WriteSlice writes one slice of package pkg. Warmup slices are not
// results, and are skipped.
func (w *Writer) WriteSlice(pkg Package, s *record.Slice) error {
	if s.Warmup {
		return nil
	}
	if len(s.Values) == 0 {
		return fmt.Errorf("benchout: slice %d of %s iteration %d has no values", s.Slice, s.Benchmark, s.Iteration)
	}
	res := &benchfmt.Result{
		Name:  benchfmt.Name(strings.TrimPrefix(s.Benchmark, "Benchmark")),
		Iters: int(s.N),
	}
	for _, kv := range [][2]string{{"goos", pkg.GOOS}, {"goarch", pkg.GOARCH}, {"pkg", pkg.Path}, {"cpu", pkg.CPU}} {
		if kv[1] != "" {
			res.Config = append(res.Config, benchfmt.Config{Key: kv[0], Value: []byte(kv[1]), File: true})
		}
	}
	if w.Versioned {
		v := cmp.Or(s.Version, VersionHeadLabel)
		res.Config = append(res.Config, benchfmt.Config{Key: VersionKey, Value: []byte(v), File: true})
	}
	units := make([]string, 0, len(s.Values))
	for u := range s.Values {
		units = append(units, u)
	}
	values := make([]value, 0, len(units))
	for _, u := range record.SortUnits(units) {
		res.Values = append(res.Values, benchfmt.Value{Value: s.Values[u], Unit: u})
		values = append(values, value{s.Values[u], u})
	}
	// benchfmt writes the labels that changed and the result line; the
	// line is then written again in go test's number format.
	w.buf.Reset()
	if err := w.w.Write(res); err != nil {
		return err
	}
	text := w.buf.Bytes()
	text = text[:bytes.LastIndexByte(text[:len(text)-1], '\n')+1]
	text = append(text, resultLine(string(res.Name), res.Iters, values)...)
	w.pkg = pkg.Path
	_, err := w.out.Write(text)
	return err
}

// WritePrecision writes the interval of a benchmark's mean that its stop
// event ev holds, over its processes, as a line of its own after the
// benchmark's results:
//
//	# BenchmarkSum/size=16-2: mean over 4 processes ±1.4% (95%)
//	# BenchmarkWork-2: mean over 4 processes ±62% (95%); over 100 processes for ±3%
//	# BenchmarkParse-2: mean over 2 processes: too few processes to tell its precision
//	# BenchmarkBuild-2: mean over 4 processes ±2.1% (95%); not steady after 20 ops: the first ops cost 3.1× the last
//	# BenchmarkEqual-2: mean over 4 processes ±86% (95%); over 100 processes for ±3%; two speeds: 3 processes at 442.5ns–461.5ns and 1 at 1.376µs, 3.0× apart
//
// The last is for the speeds of its processes, when they read at two
// (stats.Speeds.Two); a caller that does not look passes none.
//
// benchfmt, and so benchstat, skips the line, which a person reading the
// file sees beside the results. It is not a configuration line: benchstat
// makes a table of each distinct set of configuration values, so a key
// whose value differs per benchmark would put every benchmark in a table
// of its own, and the ± benchstat prints is its own, over the slices. A
// benchmark of another package than the last result's is named with its
// import path, as when the benchmarks that ran to the cap all end a
// stream. It writes nothing when ev holds no precision.
func (w *Writer) WritePrecision(ev *record.Event, processes int, speeds stats.Speeds) error {
	if ev == nil || ev.Precision.String() == "" {
		return nil
	}
	name := ev.Benchmark
	if ev.Package != w.pkg {
		name = ev.Package + "." + name
	}
	line := fmt.Sprintf("# %s: mean over %d processes %s", name, processes, ev.Precision)
	if processes < rendering.FewestProcesses {
		line = fmt.Sprintf("# %s: mean over %d processes: too few processes to tell its precision", name, processes)
	}
	if ev.Unsettled != nil {
		line += "; " + ev.Unsettled.String()
	}
	if speeds.Two() {
		line += "; two speeds: " + rendering.TwoSpeeds(speeds.Fast, speeds.Slow, speeds.Gap)
	}
	_, err := fmt.Fprintln(w.out, line)
	return err
}

// WriteRun writes the measurement slices of r to w, grouped by package and
// benchmark: packages in import path order, the baseline before the code
// under test, benchmarks in natural name order (size=16 before size=128),
// and each benchmark's slices in the order they were measured.
func WriteRun(w io.Writer, r *record.Run) error {
	return WriteInOrder(w, r, nil)
}

// WriteInOrder is WriteRun with packages and benchmarks in the order of
// their first appearance in order, as the benchmarks were found in the
// source, rather than the order an interleaved schedule measured them in.
// The versions of a key in order are ignored: the baseline still comes
// before the code under test. A run holding both versions labels each
// result with VersionKey; a run of one version, whichever, has no label. Packages and benchmarks order leaves out
// follow in WriteRun's order.
func WriteInOrder(w io.Writer, r *record.Run, order []record.Key) error {
	pkgRank, benchRank := map[string]int{}, map[record.Bench]int{}
	for _, k := range order {
		if _, ok := pkgRank[k.Package]; !ok {
			pkgRank[k.Package] = len(pkgRank)
		}
		if _, ok := benchRank[k.Bench]; !ok {
			benchRank[k.Bench] = len(benchRank)
		}
	}
	// rank places what order names first, in its order, and the rest
	// after it.
	rank := func(m map[string]int, k string) int {
		if i, ok := m[k]; ok {
			return i
		}
		return len(m)
	}
	brank := func(s *record.Slice) int {
		if i, ok := benchRank[s.Key().Bench]; ok {
			return i
		}
		return len(benchRank)
	}
	var idx []int
	versions := map[string]bool{}
	for i := range r.Slices {
		if !r.Slices[i].Warmup {
			idx = append(idx, i)
			versions[r.Slices[i].Version] = true
		}
	}
	// Only a file holding both versions tells them apart by a key: a
	// file of one version carries none, so that the baseline's file and
	// the code under test's, written apart, pair in "benchstat old new"
	// (benchstat makes a table of each distinct set of file keys).
	versioned := len(versions) > 1
	slices.SortStableFunc(idx, func(i, j int) int {
		a, b := &r.Slices[i], &r.Slices[j]
		return cmp.Or(
			cmp.Compare(rank(pkgRank, a.Package), rank(pkgRank, b.Package)),
			cmp.Compare(a.Package, b.Package),
			-cmp.Compare(a.Version, b.Version), // "baseline" before ""
			cmp.Compare(brank(a), brank(b)),
			naturalCompare(a.Benchmark, b.Benchmark),
			cmp.Compare(a.Instance, b.Instance),
			cmp.Compare(a.SuiteRun, b.SuiteRun),
			cmp.Compare(a.Iteration, b.Iteration),
			cmp.Compare(a.Slice, b.Slice),
		)
	})
	if note := partial(r); note != "" {
		if _, err := io.WriteString(w, NoteLine(note)); err != nil {
			return err
		}
	}
	for _, ev := range r.Events {
		// A benchmark a baseline run did not measure has no result
		// line: a note names it, so that its absence is not read as a
		// failure or a gap.
		if ev.Event == record.EventUnaffected {
			if _, err := io.WriteString(w, NoteLine(fmt.Sprintf("unaffected %s %s: %s", ev.Package, ev.Benchmark, ev.Reason))); err != nil {
				return err
			}
		}
	}
	bw := NewWriter(w)
	bw.Versioned = versioned
	stops := stopsOf(r)
	procs, instances := Processes{}, map[string]bool{}
	for n, i := range idx {
		s := &r.Slices[i]
		if err := bw.WriteSlice(PackageOf(r.Header, s.Package), s); err != nil {
			return err
		}
		procs.Add(s)
		instances[s.Instance] = true
		if n+1 < len(idx) && r.Slices[idx[n+1]].Key() == s.Key() {
			continue
		}
		// After the benchmark's last result, its precision, when one
		// run measured it all.
		if evs := stops[s.Key()]; len(evs) == 1 && len(instances) == 1 {
			// A run of two versions pairs their processes, and its
			// comparison reads what their speeds do to it.
			var speeds stats.Speeds
			if !versioned {
				speeds = procs.Speeds()
			}
			if err := bw.WritePrecision(evs[0], len(procs), speeds); err != nil {
				return err
			}
		}
		clear(procs)
		clear(instances)
	}
	return nil
}

// Processes holds the processes of one benchmark whose slices a
// precision line follows (Writer.WritePrecision): each with the ns/op
// of its measurement slices, in order.
type Processes map[record.Process][]float64

// Add counts the process of slice s, and its ns/op when s is a
// measurement slice that has one.
func (p Processes) Add(s *record.Slice) {
	k := s.Process()
	if ns, ok := s.Values["ns/op"]; ok && !s.Warmup {
		p[k] = append(p[k], ns)
	} else if _, seen := p[k]; !seen {
		p[k] = nil
	}
}

// Speeds returns the processes split at the widest gap between their
// means (stats.SpeedsOf).
func (p Processes) Speeds() stats.Speeds { return stats.SpeedsOf(slices.Collect(maps.Values(p))) }

// NoteLine returns a line of the results that a person reads and
// benchfmt, and so benchstat, skips, such as the one that says that the
// results are partial:
//
//	# gobench-dyn: interrupted; the results are partial; --resume raw.jsonl completes them
func NoteLine(note string) string {
	return "# gobench-dyn: " + strings.ReplaceAll(note, "\n", " ") + "\n"
}

// partial returns why r is partial, from its last interrupted event, or ""
// when it is not: it has none, or the run went on after it.
func partial(r *record.Run) string {
	note := ""
	for _, ev := range r.Events {
		switch ev.Event {
		case record.EventInterrupt:
			note = ev.Reason
		case record.EventResumed, record.EventEnd:
			note = ""
		}
	}
	return note
}

// stopsOf returns the stop events of r that hold a precision, per
// benchmark. A benchmark merged from several instances has one per
// instance, none of which describes the merged results.
func stopsOf(r *record.Run) map[record.Key][]*record.Event {
	stops := map[record.Key][]*record.Event{}
	for i := range r.Events {
		ev := &r.Events[i]
		if ev.Event == record.EventStop && ev.Precision != nil {
			stops[ev.Key()] = append(stops[ev.Key()], ev)
		}
	}
	return stops
}

// naturalCompare orders strings as people read them: runs of digits by
// their numeric value, everything else byte by byte. Strings that differ
// only in leading zeros fall back to byte order.
func naturalCompare(a, b string) int {
	return cmp.Or(natural(a, b), strings.Compare(a, b))
}

func natural(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(na), len(nb)), cmp.Compare(na, nb)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digits returns the length of the run of ASCII digits that starts s.
func digits(s string) int {
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
