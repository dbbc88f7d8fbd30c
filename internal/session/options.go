package session

import (
	"context"
	"io"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/progress"
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// Options are the choices of one run, validated: the flags of
// gobench-dyn run.
type Options struct {
	// Patterns are the packages, as go test resolves them.
	Patterns []string
	// TestArgs are passed to every test binary of both versions, after
	// the harness's own flags, as go test -args passes them.
	TestArgs []string
	// Dir is where the packages are resolved; "" is the current directory.
	Dir string
	// Bench selects benchmarks as go test -bench does, and CPU lists
	// the GOMAXPROCS values to run each at (none: the default).
	Bench string
	CPU   []int
	// Tags, Race and Overlay are passed to go test -c.
	Tags    string
	Race    bool
	Overlay string

	// Stop is the stopping policy's configuration; SuiteRuns and
	// Iterations cap every benchmark without a configuration file entry.
	Stop       stopper.Config
	SuiteRuns  int
	Iterations int
	// ExtendPast, when above zero, is the suite run past which a
	// sequential baseline run's undecided pairs run on, up to
	// SuiteRuns, only while their interval excludes zero
	// (gate.Plan.Extend).
	ExtendPast int
	// SliceTime is the target length of one slice, Timeout the longest
	// an iteration may take, and Budget the longest the whole run may
	// take (0: no limit).
	SliceTime time.Duration
	Timeout   time.Duration
	Budget    time.Duration
	// AutoBudget, when Budget is zero, gives a run that measures one
	// version under a stop criterion, without a configuration file, a
	// budget of about one go test -bench pass of its benchmarks: its
	// preparation plus rmit.GoTestTime of their calibration (--budget
	// auto). That budget cuts no benchmark before its minimum processes.
	AutoBudget bool
	// Seed is the schedule seed; without SeedSet a random one is drawn
	// (or a resumed run's is taken).
	Seed    uint64
	SeedSet bool

	// WarmupCache is the directory where a run of one version keeps the
	// warmups its benchmarks learned, by the code its test binaries run, and takes those an
	// earlier run learned (warmupcache); "" keeps and takes none.
	WarmupCache string

	// ConfigFile holds per-benchmark configurations from gobench-dyn
	// optimize; MinDistinct pads the suite runs it leaves thin.
	ConfigFile  string
	MinDistinct int

	// Raw is the file every slice is recorded to as it is measured; ""
	// records nothing. Resume, when set, is the raw file of an
	// interrupted run to continue and append to; it must equal Raw.
	Raw    string
	Resume string
	// Force replaces a raw file that holds an unfinished run, which
	// is otherwise refused, and resumes a run recorded on another
	// machine.
	Force bool

	// Baseline is a git revision built and interleaved with the code
	// under test; Sequential stops each pair once its comparison is
	// decided (regression, improvement or no change) and runs the
	// undecided on to the cap. Compare and FailOn say how the two are
	// compared and what fails; the run compares them paired by suite run.
	Baseline   string
	Sequential bool
	// Confirm, with Sequential, measures every change the looks find
	// again on fresh pairs and counts it only when they agree, so that
	// the chance of any false alarm is bounded per run (gate.Confirm).
	Confirm bool
	Compare gate.Options
	FailOn  gate.FailOn
	// Pairing says how the two versions of a baseline run are paired,
	// PairSlices when empty. Turns is the shape of each duet iteration
	// and TurnTime the target length of one turn, the slice time of a
	// duet, for which b.N is calibrated.
	Pairing  Pairing
	Turns    rmit.TurnPlan
	TurnTime time.Duration
	// Layouts links each version's test binaries this many times with
	// randomised code layouts while preparing (a run of one version, at
	// most a benchmark's least processes), and up to MaxLayouts when its
	// processes draw them; each process runs one (rmit.Layout). 0 links
	// each once.
	Layouts int
	// Impact, with a baseline, measures only the benchmarks the change
	// can reach (package impact) and reports the others unaffected.
	Impact bool
	// AllModules resolves Patterns in every module at or below Dir
	// (each directory with a go.mod, as go work use -r finds them), each
	// module as a run from its own directory would, and measures them
	// all in one run.
	AllModules bool
	// Explain, with a baseline, profiles both versions of every
	// decided change after the verdicts, for at most ExplainTime per
	// benchmark, and writes the profiles to ExplainDir.
	Explain     bool
	ExplainTime time.Duration
	ExplainDir  string

	// Shard is the part of the suite this job runs (zero: all of it),
	// and Instance names the machine in the records.
	Shard      shard.Spec
	Instance   string
	ShardTimes string // an earlier raw run whose times balance the shards

	// Progress says when to draw a live progress bar on Outputs.Log.
	Progress progress.Mode
	// Tool names the program and its version, for the raw header.
	Tool string
}

// Outputs are where a run writes its results, opened before it starts
// so that a bad path fails before any measurement.
type Outputs struct {
	// Results receives the benchstat-format results of the code under
	// test, and Baseline those of the baseline (may be nil). They are
	// committed once the run ends, interrupted or not.
	Results, Baseline Output
	// Log receives notes, warnings, progress and the summary.
	Log io.Writer
}

// An Output is a results file, complete once committed.
type Output interface {
	io.Writer
	// Commit completes the output when the run ends. run holds every
	// slice written to it, and order the benchmarks as they were found
	// in the source, for an output that rewrites itself in that order.
	Commit(run *record.Run, order []record.Key) error
}

// Env holds the seams through which a run reaches the outside world. The
// zero Env builds and runs real processes.
type Env struct {
	// Starter starts test binaries.
	Starter rmit.Starter
	// Prepare builds, discovers and calibrates the benchmarks of one
	// version; nil is rmit.Prepare.
	Prepare func(ctx context.Context, opts rmit.PrepareOptions) (*rmit.Suite, error)
	// Checkout checks out rev of the repository holding dir into a
	// temporary worktree under parent and returns the directory in it
	// matching dir; nil uses package worktree.
	Checkout func(ctx context.Context, dir, rev, parent string) (*Checkout, error)
	// TurnOverlay writes the build overlay of the turn hook; nil is
	// rmit.TurnOverlay.
	TurnOverlay func(ctx context.Context, dir, outDir, base string) (string, error)
	// Clock tells the time; nil is time.Now.
	Clock func() time.Time
	// Cleanups collects what must be undone even if the process exits
	// abruptly; nil keeps a private list.
	Cleanups *Cleanups
}

// A Checkout is a baseline checked out in a temporary worktree.
type Checkout struct {
	Dir    string // the directory matching the run's Dir
	Rev    string // the commit checked out
	Remove func() error
	// Changes are the uncommitted changes of the code under test, as
	// git status prints them: with any, the run compares the working
	// tree, not a commit, with the baseline.
	Changes []string
	// Root and HeadRoot are the repository's top level in the checkout
	// and in the code under test; Paths, the paths relative to them
	// that differ between the two. The impact analysis accounts for
	// each; with no roots, it compares the main module's files.
	Root, HeadRoot string
	Paths          []string
}

// A Pairing is how a baseline run pairs the two versions of a benchmark.
type Pairing string

// The pairings.
const (
	// PairSlices runs each pair of iterations as one duet: both
	// versions' test binaries alive together, taking their slices in
	// turns, so that each pair of slices sees the same moment of the
	// machine.
	PairSlices Pairing = "slice"
	// PairProcesses runs the two versions' processes one right after
	// the other in every suite run, and pairs their means.
	PairProcesses Pairing = "process"
	// PairTogether runs each pair as a duet whose two test binaries take
	// their turns at once, each on its own CPU (duet benchmarking).
	PairTogether Pairing = "duet"
)

// autoBudget reports whether o gives the run about one go test -bench
// pass as its budget: a run of one version that stops each benchmark by
// a criterion, the job go test -bench did before it. A comparison, a
// static configuration and a configuration file already fix what they
// measure.
func (o *Options) autoBudget() bool {
	return o.AutoBudget && o.Budget == 0 && o.Baseline == "" && o.Stop.Criterion != stopper.None && o.ConfigFile == ""
}

// duets reports whether o runs a baseline's pairs as duet iterations:
// both versions' processes alive at once, taking turns.
func (o *Options) duets() bool {
	return o.Baseline != "" && (o.Pairing == "" || o.Pairing == PairSlices || o.Pairing == PairTogether)
}
