package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// UOpTimeColumns is the header of a µOpTime Go measurement file, one row
// per one-second go test run.
var UOpTimeColumns = []string{
	"m_id", "n", "ns_per_op",
	"bed_setup", "it_setup", "sr_setup", "ir_setup",
	"bed_pos", "it_pos", "sr_pos", "ir_pos",
	"b_name",
}

// UOpTimeTool is the Tool of the header that ReadUOpTime gives the runs it
// reads, telling them apart from runs recorded by gobench-dyn.
const UOpTimeTool = "uoptime-csv"

// ReadUOpTime reads a µOpTime Go measurement file (the replication
// package's go_data_path/<project>-<version>.csv) into a run.
//
// Each row becomes one measurement slice: the instance is ir_pos (as a
// decimal string), the suite run sr_pos, the iteration it_pos and the slice
// bed_pos, with N = n and the unit ns/op. The package of every benchmark is
// the file's base name without ".csv", for example "toml-v2.0.2", because
// the file names no Go package. The configured maximum of each level (the
// *_setup columns) goes into the header options "instances", "suite-runs",
// "iterations" and "slices".
//
// A malformed row is a *record.SyntaxError naming the file and line.
func ReadUOpTime(path string) (*record.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseUOpTime(f, path)
}

// ParseUOpTime reads a µOpTime Go measurement file from r. file names r in
// error messages and gives the package name, as in ReadUOpTime.
func ParseUOpTime(r io.Reader, file string) (*record.Run, error) {
	pkg := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if pkg == "" || pkg == "." {
		pkg = "uoptime"
	}
	u := &uopTimeRows{file: file, pkg: pkg, run: &record.Run{Complete: true}, seen: map[uopTimePosition]int{}, ids: map[int64]int{}}
	if err := readRows(r, file, "µOpTime", UOpTimeColumns, u.synErr, u.add); err != nil {
		return nil, err
	}
	if len(u.run.Slices) == 0 {
		return nil, u.synErr(1, "no measurements after the header")
	}
	u.run.Header = &record.Header{
		Type:   record.TypeHeader,
		Schema: record.Schema,
		Tool:   UOpTimeTool,
		Options: map[string]string{
			"slices":     strconv.FormatInt(u.setup[0], 10),
			"iterations": strconv.FormatInt(u.setup[1], 10),
			"suite-runs": strconv.FormatInt(u.setup[2], 10),
			"instances":  strconv.FormatInt(u.setup[3], 10),
			"slice-time": "1s",
		},
	}
	return u.run, nil
}

// uopTimePosition is where a row of a µOpTime file sits in its study.
type uopTimePosition struct {
	bench          string
	ir, sr, it, sl int
}

// uopTimeRows checks the rows of one µOpTime file against each other and
// collects them as slices.
type uopTimeRows struct {
	file, pkg string
	run       *record.Run
	setup     [4]int64 // bed, it, sr, ir, as in the first row
	seen      map[uopTimePosition]int
	ids       map[int64]int
}

func (u *uopTimeRows) synErr(line int, format string, args ...any) error {
	return &record.SyntaxError{File: u.file, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// add checks row, read at line, and appends it as a slice.
func (u *uopTimeRows) add(row []string, line int) error {
	ints, ns, name, err := u.fields(row, line)
	if err != nil {
		return err
	}
	if first, dup := u.ids[ints[0]]; dup {
		return u.synErr(line, "m_id %d repeats line %d", ints[0], first)
	}
	u.ids[ints[0]] = line
	if len(u.run.Slices) == 0 {
		copy(u.setup[:], ints[3:7])
	}
	for j := range 4 {
		col := 3 + j
		if ints[col] != u.setup[j] {
			return u.synErr(line, "%s is %d, but %d on the first row", UOpTimeColumns[col], ints[col], u.setup[j])
		}
		if pos := ints[col+4]; pos > u.setup[j] {
			return u.synErr(line, "%s %d exceeds %s %d", UOpTimeColumns[col+4], pos, UOpTimeColumns[col], u.setup[j])
		}
	}
	if ints[7] > math.MaxInt32 || ints[8] > math.MaxInt32 || ints[9] > math.MaxInt32 || ints[10] > math.MaxInt32 {
		return u.synErr(line, "position out of range")
	}
	p := uopTimePosition{name, int(ints[10]), int(ints[9]), int(ints[8]), int(ints[7])}
	if first, dup := u.seen[p]; dup {
		return u.synErr(line, "%s: instance %d, suite run %d, iteration %d, slice %d repeats line %d", name, p.ir, p.sr, p.it, p.sl, first)
	}
	u.seen[p] = line
	u.run.Slices = append(u.run.Slices, record.Slice{
		Type:      record.TypeSlice,
		Package:   u.pkg,
		Benchmark: name,
		Instance:  strconv.Itoa(p.ir),
		SuiteRun:  p.sr,
		Iteration: p.it,
		Slice:     p.sl,
		N:         ints[1],
		Values:    map[string]float64{"ns/op": ns},
	})
	return nil
}

// fields parses the fields of row, read at line: its positive integers
// (every column but ns_per_op and b_name), its ns/op and its benchmark.
func (u *uopTimeRows) fields(row []string, line int) (ints [11]int64, ns float64, name string, err error) {
	if len(row) != len(UOpTimeColumns) {
		return ints, 0, "", u.synErr(line, "%d fields, want %d", len(row), len(UOpTimeColumns))
	}
	for i := 0; i < 11; i++ {
		if i == 2 {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(row[i]), 10, 64)
		if err != nil {
			return ints, 0, "", u.synErr(line, "%s %q is not an integer", UOpTimeColumns[i], row[i])
		}
		if v < 1 {
			return ints, 0, "", u.synErr(line, "%s is %d, want ≥ 1", UOpTimeColumns[i], v)
		}
		ints[i] = v
	}
	ns, err = strconv.ParseFloat(strings.TrimSpace(row[2]), 64)
	if err != nil || math.IsNaN(ns) || math.IsInf(ns, 0) || ns < 0 {
		return ints, 0, "", u.synErr(line, "ns_per_op %q is not a finite non-negative number", row[2])
	}
	if name = strings.TrimSpace(row[11]); name == "" {
		return ints, 0, "", u.synErr(line, "b_name is empty")
	}
	return ints, ns, name, nil
}

// readRows reads a CSV file of the given kind whose header must be
// columns, and hands each row to add with its line; synErr words the
// errors about the file's own content.
func readRows(r io.Reader, file, kind string, columns []string, synErr func(line int, format string, args ...any) error, add func(row []string, line int) error) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked by add, to word the error
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return synErr(1, "empty file: want a %s CSV header", kind)
	}
	if err != nil {
		return csvErr(file, err)
	}
	if !equalFields(head, columns) {
		return synErr(1, "header is %q, want %q", strings.Join(head, ","), strings.Join(columns, ","))
	}
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvErr(file, err)
		}
		line, _ := cr.FieldPos(0)
		if err := add(row, line); err != nil {
			return err
		}
	}
}

func equalFields(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		f := strings.TrimSpace(got[i])
		if i == 0 {
			f = strings.TrimPrefix(f, "\ufeff") // a byte order mark from spreadsheet exports
		}
		if f != want[i] {
			return false
		}
	}
	return true
}

// csvErr turns an encoding/csv error into a SyntaxError at its line.
func csvErr(file string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &record.SyntaxError{File: file, Line: pe.Line, Msg: pe.Err.Error()}
	}
	return fmt.Errorf("%s: %w", file, err)
}
