package record

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// A MergeInput is one raw file read whole for Merge, its records kept in
// file order.
type MergeInput struct {
	File   string
	Header *Header
	// Records holds the *Slice and *Event records after the header, in
	// file order, and Lines the line number of each.
	Records []any
	Lines   []int
	// Complete reports whether the file ended normally, with an end event
	// and no interruption.
	Complete bool
}

// ReadMergeInput reads the raw file at path for Merge. A torn last line is
// dropped with a warning, as Read does.
func ReadMergeInput(path string) (*MergeInput, []Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return ReadMergeInputFrom(f, path)
}

// MergeFiles reads the raw files at paths and merges them, as Merge does,
// passing every warning to warn as it comes. An error names the file it
// is about; a merge that Merge refuses says so.
func MergeFiles(paths []string, warn func(Warning)) (*Merged, error) {
	var inputs []*MergeInput
	for _, path := range paths {
		in, warns, err := ReadMergeInput(path)
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s: %v", path, pe.Err)
			}
			return nil, err
		}
		for _, w := range warns {
			warn(w)
		}
		inputs = append(inputs, in)
	}
	merged, warns, err := Merge(inputs)
	if err != nil {
		return nil, fmt.Errorf("merge refused: %w", err)
	}
	for _, w := range warns {
		warn(w)
	}
	return merged, nil
}

// ReadMergeInputFrom reads a raw file from r, named file in messages.
func ReadMergeInputFrom(r io.Reader, file string) (*MergeInput, []Warning, error) {
	rd := NewReader(r, file)
	in := &MergeInput{File: file}
	var end completion
	for rd.Scan() {
		switch rec := rd.Record().(type) {
		case *Header:
			in.Header = rec
			continue
		case *Event:
			end.see(rec)
			if rec.Event == EventDiscarded {
				in.discard(rec)
			}
		}
		in.Records = append(in.Records, rd.Record())
		in.Lines = append(in.Lines, rd.Line())
	}
	if err := rd.Err(); err != nil {
		return nil, nil, err
	}
	in.Complete = end.complete(rd)
	return in, end.warnings(rd, file, "merged", len(in.Records)+1), nil
}

// discard drops the records of the iteration that ev names, as Read does.
func (in *MergeInput) discard(ev *Event) {
	tmp := &Run{}
	keep := in.Records[:0]
	lines := in.Lines[:0]
	for i, rec := range in.Records {
		tmp.Slices, tmp.Events = tmp.Slices[:0], tmp.Events[:0]
		switch r := rec.(type) {
		case *Slice:
			tmp.Slices = append(tmp.Slices, *r)
		case *Event:
			tmp.Events = append(tmp.Events, *r)
		}
		discard(tmp, ev)
		if len(tmp.Slices)+len(tmp.Events) == 0 {
			continue
		}
		keep = append(keep, rec)
		lines = append(lines, in.Lines[i])
	}
	in.Records, in.Lines = keep, lines
}

// A Merged is the result of Merge: one header and the records of every
// input.
type Merged struct {
	Header  *Header
	Records []any // *Slice and *Event
}

// Write writes m as a raw file to w.
func (m *Merged) Write(w io.Writer) error {
	rw := NewWriter(w)
	if err := rw.Write(m.Header); err != nil {
		return err
	}
	for _, rec := range m.Records {
		if err := rw.Write(rec); err != nil {
			return err
		}
	}
	return nil
}

// mergeIgnored lists the Header.Options keys that may differ between the
// files of one merge: they place a job or name its outputs, and do not
// change what a measurement means.
var mergeIgnored = map[string]bool{
	"shard":       true,
	"shard-times": true,
	"instance":    true,
	"seed":        true,
	"raw":         true,
	"out":         true,
	"progress":    true,
	"timeout":     true,
	"budget":      true,
	"budget-auto": true,
}

// a claim is one (instance, shard) part of the suite that an input holds:
// the input itself, or each source of an input that is a merged file.
type claim struct {
	input int
	src   Source
}

func (c claim) where(inputs []*MergeInput) string {
	f := inputs[c.input].File
	if c.src.File != f {
		f = fmt.Sprintf("%s (from %s)", f, c.src.File)
	}
	if c.src.Shard != "" {
		f += " shard " + c.src.Shard
	}
	return f
}

// Merge combines raw files of the same suite, run as shards, as instances,
// or both, into one.
//
// Instances stay the outermost level: every slice and event of the result
// names its instance, taken from the file's header when the record names
// none. Files without an instance name that are the shards of one run form
// one unnamed instance; other unnamed files become one instance each, named
// after the file, with a warning.
//
// Merge refuses, with a reason naming the files, to mix data that cannot be
// pooled: different schemas, platforms (GOOS/GOARCH) or result-shaping
// options (Header.Options other than shard, shard-times, instance, seed,
// raw, out, progress, timeout and budget); two files holding the same shard of one
// instance, or shards of different counts; one instance name coming from
// two hosts; and a benchmark measured in two files of the same instance.
// It warns where Go versions, CPUs, tools or test binaries differ, where a
// file is partial, and where an instance lacks some of its shards.
//
// The merged header holds the values every file agrees on (zero where
// they differ), the earliest start, and Sources, one per file (or per source
// of an already merged file). The result is complete, with an end event, if
// every file was.
func Merge(inputs []*MergeInput) (*Merged, []Warning, error) {
	if len(inputs) == 0 {
		return nil, nil, fmt.Errorf("no raw files to merge")
	}
	seenFile := map[string]bool{}
	for _, in := range inputs {
		if seenFile[in.File] {
			return nil, nil, fmt.Errorf("%s is given twice", in.File)
		}
		seenFile[in.File] = true
	}
	if err := checkHeaders(inputs); err != nil {
		return nil, nil, err
	}
	var warns []Warning
	rename, claims, w, err := nameInstances(inputs)
	if err != nil {
		return nil, nil, err
	}
	warns = append(warns, w...)
	w, err = checkClaims(inputs, claims)
	if err != nil {
		return nil, nil, err
	}
	warns = append(warns, w...)
	if err := checkOverlap(inputs, rename); err != nil {
		return nil, nil, err
	}
	warns = append(warns, platformWarnings(inputs)...)

	m := &Merged{Header: mergeHeader(inputs, claims)}
	order := make([]int, len(inputs))
	for i := range order {
		order[i] = i
	}
	first := func(i int) claim { return claims[slices.IndexFunc(claims, func(c claim) bool { return c.input == i })] }
	slices.SortStableFunc(order, func(a, b int) int {
		ca, cb := first(a), first(b)
		return cmp.Or(cmp.Compare(ca.src.Instance, cb.src.Instance), cmp.Compare(shardNum(ca.src.Shard), shardNum(cb.src.Shard)))
	})
	complete := true
	var end time.Time
	for _, i := range order {
		in := inputs[i]
		complete = complete && in.Complete
		inst := instanceOf(in, rename[i])
		for _, rec := range in.Records {
			switch r := rec.(type) {
			case *Slice:
				s := *r
				s.Instance = inst(s.Instance)
				m.Records = append(m.Records, &s)
			case *Event:
				if r.Event == EventEnd {
					// One end event closes the merged file, and only
					// if every input ended.
					if r.Time.After(end) {
						end = r.Time
					}
					continue
				}
				e := *r
				e.Instance = inst(e.Instance)
				m.Records = append(m.Records, &e)
			}
		}
	}
	if complete {
		m.Records = append(m.Records, &Event{Type: TypeEvent, Event: EventEnd, Time: end})
	}
	return m, warns, nil
}

// instanceOf returns the function that names the instance of a record of
// in: the record's own, else the file's header's, else the name given to
// the file's unnamed instance.
func instanceOf(in *MergeInput, unnamed string) func(string) string {
	return func(s string) string {
		switch {
		case s != "":
			return s
		case in.Header.Instance != "":
			return in.Header.Instance
		}
		return unnamed
	}
}

func shardNum(s string) int {
	k, _, _ := strings.Cut(s, "/")
	n, _ := strconv.Atoi(k)
	return n
}

func checkHeaders(inputs []*MergeInput) error {
	h0, f0 := inputs[0].Header, inputs[0].File
	for _, in := range inputs[1:] {
		h := in.Header
		if h.Schema != h0.Schema {
			return fmt.Errorf("%s has schema %d but %s has schema %d: merge files written with the same raw format", in.File, h.Schema, f0, h0.Schema)
		}
		if h.GOOS != h0.GOOS || h.GOARCH != h0.GOARCH {
			return fmt.Errorf("%s ran on %s/%s but %s on %s/%s: results of different platforms cannot be pooled", in.File, h.GOOS, h.GOARCH, f0, h0.GOOS, h0.GOARCH)
		}
		keys := slices.Sorted(maps.Keys(h0.Options))
		for k := range h.Options {
			if _, ok := h0.Options[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			if mergeIgnored[k] {
				continue
			}
			v0, ok0 := h0.Options[k]
			v, ok := h.Options[k]
			switch {
			case !ok:
				return fmt.Errorf("%s was run without option %s, but %s with %s=%s: merge only runs with the same options", in.File, k, f0, k, v0)
			case !ok0:
				return fmt.Errorf("%s was run with %s=%s, but %s without it: merge only runs with the same options", in.File, k, v, f0)
			case v != v0:
				return fmt.Errorf("%s was run with %s=%s, but %s with %s=%s: merge only runs with the same options", in.File, k, v, f0, k, v0)
			}
		}
	}
	return nil
}

// nameInstances lists the claims of every input and gives each input's
// unnamed instance a name: "" while there is a single unnamed instance (one
// file, or the shards of one run), the file's name otherwise.
func nameInstances(inputs []*MergeInput) ([]string, []claim, []Warning, error) {
	var claims []claim
	for i, in := range inputs {
		if len(in.Header.Sources) > 0 {
			for _, s := range in.Header.Sources {
				claims = append(claims, claim{i, s})
			}
			continue
		}
		h := in.Header
		claims = append(claims, claim{i, Source{
			File: in.File, Instance: h.Instance, Shard: h.Shard, Host: h.Host,
			GoVersion: h.GoVersion, CPU: h.CPU, Seed: h.Seed, Start: h.Start, Complete: in.Complete,
		}})
	}
	var sharded, whole []int // inputs with unnamed claims
	for _, c := range claims {
		if c.src.Instance != "" {
			continue
		}
		if c.src.Shard != "" {
			if !slices.Contains(sharded, c.input) {
				sharded = append(sharded, c.input)
			}
		} else if !slices.Contains(whole, c.input) {
			whole = append(whole, c.input)
		}
	}
	rename := make([]string, len(inputs))
	if len(whole)+min(len(sharded), 1) <= 1 {
		return rename, claims, nil, nil
	}
	// Several unnamed instances: name each whole one after its file. The
	// unnamed shards stay one unnamed instance.
	names := fileNames(inputs, whole)
	taken := map[string]bool{}
	for _, c := range claims {
		taken[c.src.Instance] = true
	}
	var list []string
	for j, i := range whole {
		name := names[j]
		for n := 2; taken[name]; n++ {
			name = fmt.Sprintf("%s~%d", names[j], n)
		}
		taken[name] = true
		rename[i] = name
		list = append(list, fmt.Sprintf("%s as %q", inputs[i].File, name))
	}
	for k := range claims {
		if c := &claims[k]; c.src.Instance == "" && rename[c.input] != "" {
			c.src.Instance = rename[c.input]
		}
	}
	w := Warning{File: inputs[whole[0]].File, Msg: fmt.Sprintf("%d files name no instance; merged them as distinct instances: %s (name them with --instance)", len(whole), strings.Join(list, ", "))}
	return rename, claims, []Warning{w}, nil
}

// fileNames returns short distinct names for the files of inputs idx: the
// base names without extension, with as many parent directories as it
// takes to tell them apart, as when artifacts are downloaded into one
// directory each.
func fileNames(inputs []*MergeInput, idx []int) []string {
	parts := make([][]string, len(idx))
	for j, i := range idx {
		p := strings.Split(filepath.ToSlash(filepath.Clean(inputs[i].File)), "/")
		last := p[len(p)-1]
		if ext := filepath.Ext(last); ext != "" && ext != last {
			p[len(p)-1] = strings.TrimSuffix(last, ext)
		}
		parts[j] = p
	}
	names := make([]string, len(idx))
	for depth := 1; ; depth++ {
		seen := map[string]int{}
		longest := 0
		for j, p := range parts {
			names[j] = strings.Join(p[max(0, len(p)-depth):], "/")
			seen[names[j]]++
			longest = max(longest, len(p))
		}
		if len(seen) == len(names) || depth >= longest {
			return names
		}
	}
}

func checkClaims(inputs []*MergeInput, claims []claim) ([]Warning, error) {
	byInst := map[string][]claim{}
	var insts []string
	for _, c := range claims {
		if _, ok := byInst[c.src.Instance]; !ok {
			insts = append(insts, c.src.Instance)
		}
		byInst[c.src.Instance] = append(byInst[c.src.Instance], c)
	}
	var warns []Warning
	for _, inst := range insts {
		cs := byInst[inst]
		name := fmt.Sprintf("instance %q", inst)
		if inst == "" {
			name = "the unnamed instance"
		}
		shards := map[int]claim{}
		count := 0
		var counted claim
		for j, c := range cs {
			if c.src.Shard == "" {
				for _, d := range cs[:j] {
					if d.src.Shard == "" && c.src.Host != "" && d.src.Host != "" && c.src.Host != d.src.Host {
						return nil, fmt.Errorf("%s comes from two hosts, %s (%s) and %s (%s): give each machine its own --instance", name, d.src.Host, d.where(inputs), c.src.Host, c.where(inputs))
					}
				}
				continue
			}
			k, n := shardNum(c.src.Shard), 0
			if _, after, ok := strings.Cut(c.src.Shard, "/"); ok {
				n, _ = strconv.Atoi(after)
			}
			if count == 0 {
				count, counted = n, c
			} else if n != count {
				return nil, fmt.Errorf("%s mixes shards of %d (%s) and of %d (%s): merge the shards of one partition", name, count, counted.where(inputs), n, c.where(inputs))
			}
			if d, dup := shards[k]; dup {
				hint := ""
				if inst == "" {
					hint = "; if they are replicas, give each its own --instance"
				}
				return nil, fmt.Errorf("%s and %s both hold shard %s of %s%s", d.where(inputs), c.where(inputs), c.src.Shard, name, hint)
			}
			shards[k] = c
		}
		if count > 0 && len(shards) < count {
			var missing []string
			for k := 1; k <= count; k++ {
				if _, ok := shards[k]; !ok {
					missing = append(missing, fmt.Sprintf("%d/%d", k, count))
				}
			}
			warns = append(warns, Warning{File: counted.src.File, Msg: fmt.Sprintf("%s lacks shard %s: the benchmarks of those shards are missing", name, strings.Join(missing, ", "))})
		}
	}
	return warns, nil
}

// checkOverlap refuses a benchmark measured in two files for one instance:
// its samples would mix two partitions, or count one run twice.
func checkOverlap(inputs []*MergeInput, rename []string) error {
	type key struct{ inst, pkg, bench string }
	type at struct{ input, line int }
	owner := map[key]at{}
	for i, in := range inputs {
		inst := instanceOf(in, rename[i])
		for j, rec := range in.Records {
			s, ok := rec.(*Slice)
			if !ok {
				continue
			}
			k := key{inst(s.Instance), s.Package, s.Benchmark}
			o, seen := owner[k]
			switch {
			case !seen:
				owner[k] = at{i, in.Lines[j]}
			case o.input != i:
				name := fmt.Sprintf("instance %q", k.inst)
				if k.inst == "" {
					name = "the unnamed instance"
				}
				return fmt.Errorf("%s:%d: benchmark %s %s of %s is also in %s:%d: a benchmark must come from one shard of each instance",
					in.File, in.Lines[j], s.Package, s.Benchmark, name, inputs[o.input].File, o.line)
			}
		}
	}
	return nil
}

// platformWarnings reports the differences between files that do not stop
// a merge but can move results: Go version, CPU, tool and test binaries.
func platformWarnings(inputs []*MergeInput) []Warning {
	var warns []Warning
	differ := func(what string, value func(*Header) string) {
		var vals []string
		first := map[string]string{}
		for _, in := range inputs {
			v := value(in.Header)
			if _, ok := first[v]; !ok {
				first[v] = in.File
				vals = append(vals, v)
			}
		}
		if len(vals) < 2 {
			return
		}
		var list []string
		for _, v := range vals {
			list = append(list, fmt.Sprintf("%q in %s", v, first[v]))
		}
		warns = append(warns, Warning{File: inputs[0].File, Msg: fmt.Sprintf("%s differs between the merged files: %s", what, strings.Join(list, ", "))})
	}
	differ("the Go version", func(h *Header) string { return h.GoVersion })
	differ("the CPU", func(h *Header) string { return h.CPU })
	differ("the CPU count", func(h *Header) string { return strconv.Itoa(h.NumCPU) })
	differ("the gobench-dyn version", func(h *Header) string { return h.Tool })

	bins := map[string]string{}
	binFile := map[string]string{}
	for _, in := range inputs {
		for _, pkg := range slices.Sorted(maps.Keys(in.Header.Binaries)) {
			hash := in.Header.Binaries[pkg]
			if prev, ok := bins[pkg]; !ok {
				bins[pkg], binFile[pkg] = hash, in.File
			} else if prev != hash {
				warns = append(warns, Warning{File: in.File, Msg: fmt.Sprintf("the test binary of %s differs from the one in %s: the files may not have measured the same code", pkg, binFile[pkg])})
			}
		}
	}
	return warns
}

// mergeHeader returns the header of the merged file.
func mergeHeader(inputs []*MergeInput, claims []claim) *Header {
	common := func(value func(*Header) string) string {
		v := value(inputs[0].Header)
		for _, in := range inputs[1:] {
			if value(in.Header) != v {
				return ""
			}
		}
		return v
	}
	h0 := inputs[0].Header
	h := &Header{
		Type:      TypeHeader,
		Schema:    h0.Schema,
		Tool:      common(func(h *Header) string { return h.Tool }),
		GoVersion: common(func(h *Header) string { return h.GoVersion }),
		GOOS:      h0.GOOS,
		GOARCH:    h0.GOARCH,
		CPU:       common(func(h *Header) string { return h.CPU }),
		Host:      common(func(h *Header) string { return h.Host }),
		Start:     h0.Start,
	}
	if common(func(h *Header) string { return strconv.Itoa(h.NumCPU) }) != "" {
		h.NumCPU = h0.NumCPU
	}
	if common(func(h *Header) string { return strconv.FormatUint(h.Seed, 10) }) != "" {
		h.Seed = h0.Seed
	}
	inst, shard := claims[0].src.Instance, claims[0].src.Shard
	for _, c := range claims[1:] {
		if c.src.Instance != inst {
			inst = ""
		}
		if c.src.Shard != shard {
			shard = ""
		}
	}
	h.Instance, h.Shard = inst, shard
	for _, in := range inputs {
		if in.Header.Start.Before(h.Start) {
			h.Start = in.Header.Start
		}
	}
	h.Options, h.Binaries = mergeOptions(inputs)
	for _, c := range claims {
		h.Sources = append(h.Sources, c.src)
	}
	slices.SortStableFunc(h.Sources, func(a, b Source) int {
		return cmp.Or(cmp.Compare(a.Instance, b.Instance), cmp.Compare(shardNum(a.Shard), shardNum(b.Shard)), cmp.Compare(a.File, b.File))
	})
	return h
}

// mergeOptions returns the options and binaries of the merged header.
// Options other than the ignored ones are equal in every file; an ignored
// one is kept only where every file agrees on it. A package's binary is
// the first file's.
func mergeOptions(inputs []*MergeInput) (options, binaries map[string]string) {
	differing := map[string]bool{}
	for _, in := range inputs {
		for k, v := range in.Header.Options {
			if options == nil {
				options = map[string]string{}
			}
			if old, ok := options[k]; ok && old != v {
				differing[k] = true
			}
			options[k] = v
		}
		for k, v := range in.Header.Binaries {
			if binaries == nil {
				binaries = map[string]string{}
			}
			if _, ok := binaries[k]; !ok {
				binaries[k] = v
			}
		}
	}
	for _, in := range inputs {
		for k := range options {
			if _, ok := in.Header.Options[k]; !ok {
				differing[k] = true
			}
		}
	}
	maps.DeleteFunc(options, func(k, _ string) bool { return differing[k] })
	return options, binaries
}
