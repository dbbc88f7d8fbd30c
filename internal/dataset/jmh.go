package dataset

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// JMHColumns is the header of a preprocessed JMH measurement file of the
// dynamic-reconfiguration study (Laaber et al., FSE'20), one row per
// one-second JMH iteration.
var JMHColumns = []string{"m_id", "n", "ns_per_op", "it_setup", "fork_setup", "it_pos", "fork_pos", "b_name"}

// JMHTool is the Tool of the header that ReadJMH gives the runs it reads.
const JMHTool = "jmh-csv"

// ReadJMH reads a preprocessed JMH measurement file (the µOpTime
// replication package's laaber_preprocessed_fse20/laaber_<project>.csv)
// into a run of one suite run.
//
// A JMH fork becomes an iteration (fork_pos) and a JMH iteration a slice
// (it_pos), with N = n and the unit ns/op. Every slice is a measurement
// slice: the files keep the JVM warmup, and what counts as warmup is for
// the reader of the run to decide. b_name reads project#class.method#params;
// the project becomes the package, and class.method the benchmark name,
// followed by "/params" when there are parameters. The configured maximum
// of each level goes into the header options "iterations" (fork_setup)
// and "slices" (it_setup).
//
// A malformed row is a *record.SyntaxError naming the file and line.
func ReadJMH(path string) (*record.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseJMH(f, path)
}

// ParseJMH reads a preprocessed JMH measurement file from r; file names r
// in error messages.
func ParseJMH(r io.Reader, file string) (*record.Run, error) {
	j := &jmhRows{file: file, run: &record.Run{Complete: true}, seen: map[jmhPosition]int{}, ids: map[int64]int{}}
	if err := readRows(r, file, "JMH", JMHColumns, j.synErr, j.add); err != nil {
		return nil, err
	}
	if len(j.run.Slices) == 0 {
		return nil, j.synErr(1, "no measurements after the header")
	}
	j.run.Header = &record.Header{
		Type:   record.TypeHeader,
		Schema: record.Schema,
		Tool:   JMHTool,
		Options: map[string]string{
			"suite-runs": "1",
			"iterations": strconv.Itoa(j.setup[1]),
			"slices":     strconv.Itoa(j.setup[0]),
			"slice-time": "1s",
		},
	}
	return j.run, nil
}

// jmhPosition is where a row of a JMH file sits in its study.
type jmhPosition struct {
	name      string
	fork, itr int
}

// jmhRows checks the rows of one JMH file against each other and collects
// them as slices.
type jmhRows struct {
	file  string
	run   *record.Run
	setup [2]int // it_setup, fork_setup of the first row
	seen  map[jmhPosition]int
	ids   map[int64]int
}

func (j *jmhRows) synErr(line int, format string, args ...any) error {
	return &record.SyntaxError{File: j.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// add checks row, read at line, and appends it as a slice.
func (j *jmhRows) add(row []string, line int) error {
	n, ns, ints, err := j.fields(row, line)
	if err != nil {
		return err
	}
	if len(j.run.Slices) == 0 {
		j.setup = [2]int{ints[0], ints[1]}
	}
	for k := range 2 {
		if ints[k] != j.setup[k] {
			return j.synErr(line, "%s is %d, but %d on the first row", JMHColumns[3+k], ints[k], j.setup[k])
		}
		if ints[2+k] > j.setup[k] {
			return j.synErr(line, "%s %d exceeds %s %d", JMHColumns[5+k], ints[2+k], JMHColumns[3+k], j.setup[k])
		}
	}
	pkg, name, err := splitJMHName(strings.TrimSpace(row[7]))
	if err != nil {
		return j.synErr(line, "b_name %q: %v", row[7], err)
	}
	p := jmhPosition{pkg + "\x00" + name, ints[3], ints[2]}
	if first, dup := j.seen[p]; dup {
		return j.synErr(line, "%s: fork %d, iteration %d repeats line %d", row[7], p.fork, p.itr, first)
	}
	j.seen[p] = line
	j.run.Slices = append(j.run.Slices, record.Slice{
		Type:      record.TypeSlice,
		Package:   pkg,
		Benchmark: name,
		SuiteRun:  1,
		Iteration: p.fork,
		Slice:     p.itr,
		N:         n,
		Values:    map[string]float64{"ns/op": ns},
	})
	return nil
}

// fields parses the numbers of row, read at line: its operations, its
// ns/op, and it_setup, fork_setup, it_pos and fork_pos. It also checks
// that its m_id is new.
func (j *jmhRows) fields(row []string, line int) (n int64, ns float64, ints [4]int, err error) {
	if len(row) != len(JMHColumns) {
		return 0, 0, ints, j.synErr(line, "%d fields, want %d", len(row), len(JMHColumns))
	}
	id, err := strconv.ParseInt(strings.TrimSpace(row[0]), 10, 64)
	if err != nil || id < 0 {
		return 0, 0, ints, j.synErr(line, "m_id %q is not a non-negative integer", row[0])
	}
	if first, dup := j.ids[id]; dup {
		return 0, 0, ints, j.synErr(line, "m_id %d repeats line %d", id, first)
	}
	j.ids[id] = line
	// n is written as a float ("5600.0") but counts operations.
	nf, err := strconv.ParseFloat(strings.TrimSpace(row[1]), 64)
	if err != nil || nf < 1 || nf > math.MaxInt64/2 || nf != math.Trunc(nf) {
		return 0, 0, ints, j.synErr(line, "n %q is not a whole number ≥ 1", row[1])
	}
	ns, err = strconv.ParseFloat(strings.TrimSpace(row[2]), 64)
	if err != nil || math.IsNaN(ns) || math.IsInf(ns, 0) || ns < 0 {
		return 0, 0, ints, j.synErr(line, "ns_per_op %q is not a finite non-negative number", row[2])
	}
	for i := range ints {
		v, err := strconv.Atoi(strings.TrimSpace(row[3+i]))
		if err != nil || v < 1 || v > math.MaxInt32 {
			return 0, 0, ints, j.synErr(line, "%s %q is not an integer ≥ 1", JMHColumns[3+i], row[3+i])
		}
		ints[i] = v
	}
	return int64(nf), ns, ints, nil
}

// splitJMHName splits project#class.method#params into the project and
// the benchmark name class.method[/params].
func splitJMHName(b string) (pkg, name string, err error) {
	parts := strings.Split(b, "#")
	if len(parts) != 3 {
		return "", "", fmt.Errorf("want project#benchmark#params, got %d parts", len(parts))
	}
	pkg, name = strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	if pkg == "" || name == "" {
		return "", "", fmt.Errorf("empty project or benchmark")
	}
	if strings.ContainsAny(name, " \t") {
		return "", "", fmt.Errorf("space in benchmark name")
	}
	if params := strings.TrimSpace(parts[2]); params != "" {
		name += "/" + strings.ReplaceAll(params, " ", "_")
	}
	return pkg, name, nil
}
