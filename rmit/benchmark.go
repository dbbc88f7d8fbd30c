package rmit

import (
	"strconv"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A Config is the configuration of one benchmark: its caps on suite runs
// and iterations per suite run. Slices per iteration and warmup belong to
// the Policy.
type Config struct {
	SuiteRuns  int // s: suite runs the benchmark takes part in, at most
	Iterations int // i: iterations per suite run
}

// A Benchmark is one leaf benchmark of one package at one GOMAXPROCS
// setting, as go test names it.
type Benchmark struct {
	Package *Package
	// Name is the full name as go test prints it, with the -N GOMAXPROCS
	// suffix where go test adds one: "BenchmarkParse/small-8".
	Name string
	// Base is Name without the GOMAXPROCS suffix; LeafPattern(Base)
	// selects the benchmark.
	Base string
	// Procs is the -test.cpu value to run with; 0 leaves GOMAXPROCS alone.
	Procs int
	// ID identifies the benchmark among all benchmarks of a run,
	// versions included: Key().ID(). Policies key their state by it.
	ID string
	// N is the calibrated b.N of one slice.
	N int64
	// Probed is the ns/op discovery measured, which N was calibrated
	// from; 0 when unknown.
	Probed float64
	// Setup is about the time each call of the benchmark function spends
	// outside its timer, as its probe estimated it (building its data
	// before b.ResetTimer): what every slice costs beyond its b.N ops.
	// 0 when unknown or too small to see.
	Setup time.Duration
	// SetupN is the mean b.N of the probe's calls that Setup was seen
	// over, for a setup that grows with b.N (FitSetup).
	SetupN float64
	// Loop says that its function runs a b.Loop loop, which go test
	// ramps inside one call (GoTestLoopTime); a probe of a binary built
	// with the turn hook tells it.
	Loop bool
	// Config caps the benchmark's suite runs and iterations.
	Config Config
	// Family holds the leaves discovery ran with this one.
	Family *Family
	// Parallel says that it runs b.RunParallel: a pair of its versions is
	// measured by process pairs, not in turns.
	Parallel bool
}

// NewBenchmark returns the benchmark printed as name by pkg's test binary
// run at GOMAXPROCS procs. setCPU says whether procs came from a -cpu list
// and must be passed to the binary, or is the binary's default.
func NewBenchmark(pkg *Package, name string, procs int, setCPU bool) *Benchmark {
	b := &Benchmark{Package: pkg, Name: name, Base: SplitProcs(name, procs)}
	if setCPU {
		b.Procs = procs
	}
	b.ID = b.Key().ID()
	return b
}

// Key returns the benchmark's identity at its version.
func (b *Benchmark) Key() record.Key { return record.Key{Bench: b.Bench(), Version: b.Package.Version} }

// Bench returns the benchmark's identity, the same in both versions.
func (b *Benchmark) Bench() record.Bench {
	return record.Bench{Package: b.Package.ImportPath, Benchmark: b.Name}
}

func (b *Benchmark) String() string {
	if b.Package.Version != "" {
		return b.Bench().String() + " (" + b.Package.Version + ")"
	}
	return b.Bench().String()
}

// args returns the test binary arguments of one iteration of b running
// count slices.
func (b *Benchmark) args(count int) []string {
	a := []string{
		"-test.run=^$",
		"-test.bench=" + LeafPattern(b.Base),
		"-test.benchtime=" + strconv.FormatInt(b.N, 10) + "x",
		"-test.count=" + strconv.Itoa(count),
		"-test.benchmem",
	}
	if b.Procs > 0 {
		a = append(a, "-test.cpu="+strconv.Itoa(b.Procs))
	}
	return append(a, b.Package.TestArgs...)
}
