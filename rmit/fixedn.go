package rmit

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// FixedNEnv is the environment variable that gives a test binary built
// with the turn hook a b.N of its own for each benchmark it names: one
// line per benchmark, "N name", the name as go test prints it without the
// GOMAXPROCS suffix. A benchmark it does not name runs at
// -test.benchtime. It is how a family of sub-benchmarks runs in one
// process, the way go test runs it, while each sibling keeps the b.N
// calibrated for it alone.
const FixedNEnv = "GOBENCH_DYN_N"

// WarmNEnv is the environment variable that gives a worker built with the
// turn hook a b.N of its own for the first repetition of each benchmark
// it names, one line per benchmark as in FixedNEnv: its warmup slice,
// which a shorter b.N than FixedNEnv's ends sooner. The repetitions after
// it run at FixedNEnv's b.N.
const WarmNEnv = "GOBENCH_DYN_WARMN"

// RepsEnv is the environment variable that gives a test binary built with
// the turn hook the number of -test.count repetitions each benchmark it
// names runs: one line per benchmark, "count name", as in FixedNEnv. A
// benchmark it does not name runs all of -test.count. A family's process
// runs -test.count for the member that needs the most slices; without it,
// every other member would run as many, and a member past its policy's
// last slice, or no longer scheduled, would run them for nothing.
const RepsEnv = "GOBENCH_DYN_REPS"

// ErrNoFixedNHook is why the hook that fixes b.N per benchmark cannot
// patch a Go installation's testing package: it has no (*B).Run of the
// shape the hook knows.
var ErrNoFixedNHook = errors.New("the testing package of this Go release has no B.Run the per-benchmark b.N hook can patch")

// subRun finds the place in testing's (*B).Run where a sub-benchmark,
// named and set up, takes its first run (run1, which the fixed-count
// b.Loop already runs in full), and nothing of its timing has started.
// Top-level benchmarks go through it too: the testing package runs them
// as sub-benchmarks of its main one.
var subRun = regexp.MustCompile(`\n(\t+)if sub\.run1\(\) \{\n`)

// addFixedN patches src, testing/benchmark.go of the Go installation at
// goroot, to read FixedNEnv, and adds the file that does it to files.
func addFixedN(goroot string, src []byte, files map[string][]byte) ([]byte, error) {
	m := subRun.FindSubmatchIndex(src)
	if m == nil {
		return nil, fmt.Errorf("turn hook: %w", ErrNoFixedNHook)
	}
	out := applyEdits(src, []sourceEdit{{m[0] + 1, m[0] + 1, string(src[m[2]:m[3]]) + "gobenchdynFixN(sub)\n"}})
	files[filepath.Join(goroot, "src", "testing", "zz_gobenchdyn_fixedn.go")] = []byte(fixedNSource)
	return out, nil
}

// firstRun1 finds go test's one-op run in B.run1, and fullRun the timed
// run of a fixed b.N in B.launch that follows it.
var (
	firstRun1 = regexp.MustCompile(`\n(\t+)b\.runN\(1\)\n`)
	fullRun   = regexp.MustCompile(`\n(\t+)if b\.benchTime\.n > 1 \{\n(\t+)b\.runN\(b\.benchTime\.n\)\n`)
)

// addFirstCall patches src so that, in a worker, a benchmark FixedNEnv
// names runs its first call at its fixed b.N: run1 then is the first
// slice's timed run, and launch does not call the function again for it.
// go test runs one op first to learn whether the function has
// sub-benchmarks, which discovery knows of a named one; for a benchmark
// whose every call pays a setup, that op cost a whole setup in every
// process. A release without these two lines is left as it is.
func addFirstCall(src []byte) []byte {
	one, full := firstRun1.FindSubmatchIndex(src), fullRun.FindSubmatchIndex(src)
	if one == nil || full == nil {
		return src
	}
	return applyEdits(src, []sourceEdit{
		{one[0], one[1], "\n" + string(src[one[2]:one[3]]) + "b.runN(gobenchdynFirstN(b))\n"},
		{full[0], full[1], "\n" + string(src[full[2]:full[3]]) + "if b.benchTime.n > 1 && !gobenchdynRanFull(b) {\n" +
			string(src[full[4]:full[5]]) + "b.runN(b.benchTime.n)\n"},
	})
}

// warmupN returns the b.N of the first warmup slice of a process whose
// slices run at n: half of it, rounded up. The slices after a warmup of
// half a slice read as they do after a whole one, and a whole one cost
// up to half of a run's slice time (docs/EVALUATION.md, "Half a slice of
// warmup").
func warmupN(n int64) int64 {
	return (n + 1) / 2
}

// FixedNValue returns the value of FixedNEnv that runs each benchmark of
// bs at its own b.N.
func FixedNValue(bs []*Benchmark) string {
	var sb strings.Builder
	for _, b := range bs {
		writeNamed(&sb, b.N, b)
	}
	return sb.String()
}

// loneFixedN returns the value of FixedNEnv for a process of b alone: b
// at its own b.N, and at b.N = 1 each sibling whose name is the first
// levels of b's. b's pattern matches such a sibling in part, and go test
// runs it once, as the parent it might be; a b.Loop loop would run it at
// b's b.N, for a result nobody reads, however slow its op.
func loneFixedN(b *Benchmark) string {
	var sb strings.Builder
	writeNamed(&sb, b.N, b)
	if f := familyOf(b); f != nil {
		for _, m := range f.Members {
			if strings.HasPrefix(b.Base, m.Base+"/") {
				writeNamed(&sb, 1, m)
			}
		}
	}
	return sb.String()
}

// repsValue returns the value of RepsEnv for a family process of bs in
// which runs, by name, are the members it measures: each runs its count
// of slices, no more, and a sibling it does not measure runs once, as its
// parent may need it to.
func repsValue(bs []*Benchmark, runs map[string]*memberRun) string {
	var sb strings.Builder
	for _, b := range bs {
		n := 1
		if mr := runs[b.Name]; mr != nil {
			n = mr.count
		}
		writeNamed(&sb, int64(n), b)
	}
	return sb.String()
}

// namedValue returns the value of FixedNEnv, or of WarmNEnv, that gives b
// alone v.
func namedValue(v int64, b *Benchmark) string {
	var sb strings.Builder
	writeNamed(&sb, v, b)
	return sb.String()
}

// writeNamed writes the line "v name" for b.
func writeNamed(sb *strings.Builder, v int64, b *Benchmark) {
	sb.WriteString(strconv.FormatInt(v, 10))
	sb.WriteByte(' ')
	sb.WriteString(b.Base)
	sb.WriteByte('\n')
}

// fixedNSource is the file the overlay adds to package testing.
const fixedNSource = `// Code generated by gobench-dyn for its own builds; it is not in any
// source tree.

package testing

import (
	"os"
	"strconv"
	"strings"
)

// gobenchdynN holds, when gobench-dyn runs a family of sub-benchmarks in
// one process, the b.N of each benchmark it names, read from ` + FixedNEnv + `.
var gobenchdynN = gobenchdynParseN(os.Getenv("` + FixedNEnv + `"))

func gobenchdynParseN(s string) map[string]int {
	m := map[string]int{}
	for _, line := range strings.Split(s, "\n") {
		n, name, ok := strings.Cut(line, " ")
		if v, err := strconv.Atoi(n); ok && err == nil && v > 0 {
			m[name] = v
		}
	}
	return m
}

// gobenchdynReps holds, when gobench-dyn runs a family of sub-benchmarks
// in one process, the -test.count repetitions of each benchmark it names,
// read from ` + RepsEnv + `.
var gobenchdynReps = gobenchdynParseN(os.Getenv("` + RepsEnv + `"))

// gobenchdynRepsDone reports whether b has run the repetitions gobench-dyn
// gave it, so that repetition rep and the ones after it are left out.
func gobenchdynRepsDone(b *B, rep int) bool {
	n, ok := gobenchdynReps[b.name]
	return ok && rep >= n
}

// gobenchdynWarmN holds, in a worker, the b.N of the first repetition of
// each benchmark it names, read from ` + WarmNEnv + `.
var gobenchdynWarmN = gobenchdynParseN(os.Getenv("` + WarmNEnv + `"))

// gobenchdynFixN gives b its own fixed b.N, if gobench-dyn named it, or
// the b.N of its warmup, in a worker, when it named one.
func gobenchdynFixN(b *B) {
	if n, ok := gobenchdynN[b.name]; ok {
		b.benchTime.n = n
	}
	if n, ok := gobenchdynWarmN[b.name]; ok && gobenchdynFree > 0 {
		b.benchTime.n = n
	}
}

// gobenchdynAfterWarmup gives b, after its first repetition, its own
// fixed b.N back if it ran that repetition at its warmup's, and reports
// whether it did.
func gobenchdynAfterWarmup(b *B) bool {
	n, ok := gobenchdynN[b.name]
	if _, warm := gobenchdynWarmN[b.name]; !ok || !warm || b.benchTime.n == n {
		return false
	}
	b.benchTime.n = n
	return true
}

// gobenchdynFirstN is the b.N of b's run1: its fixed b.N when b is a
// benchmark gobench-dyn named, run by a worker, and 1, as go test runs
// it, otherwise.
func gobenchdynFirstN(b *B) int {
	if _, named := gobenchdynN[b.name]; named && gobenchdynFree > 0 && b.benchTime.n > 1 {
		return b.benchTime.n
	}
	return 1
}

// gobenchdynRanFull reports whether b's run1 ran its fixed b.N already.
func gobenchdynRanFull(b *B) bool {
	return b.N > 1 && b.N == b.benchTime.n
}
`
