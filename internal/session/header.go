package session

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// headerOptions returns the options that shape the results, for the raw
// file's header: a resumed run must match them. plan is the sequential
// plan the run compares with, which it derives from them.
func headerOptions(o *Options, plan gate.Plan) map[string]string {
	cpus := make([]string, len(o.CPU))
	for i, c := range o.CPU {
		cpus[i] = strconv.Itoa(c)
	}
	// The shape of a duet iteration, recorded only for runs that have
	// duets.
	var duet Options
	if o.duets() {
		duet.TurnTime, duet.Turns = o.TurnTime, o.Turns
	}
	m := record.RunOptions{
		Bench:         o.Bench,
		Stop:          o.Stop.Criterion.String(),
		Threshold:     o.Stop.Threshold,
		Window:        o.Stop.Window,
		Warmup:        o.Stop.WarmupMin,
		WarmupMax:     o.Stop.WarmupMax,
		Slices:        o.Stop.Measure,
		MinIterations: o.Stop.MinIterations,
		SuiteRuns:     o.SuiteRuns,
		Iterations:    o.Iterations,
		SliceTime:     o.SliceTime,
		Budget:        o.Budget,
		AutoBudget:    o.autoBudget(),
		Config:        o.ConfigFile,
		Baseline:      o.Baseline,
		EarlyVerdict:  o.Sequential,
		Sequential:    o.Sequential,
		Looks:         looks(plan),
		Spending:      spending(plan),
		Confirm:       plan.Confirm && plan.Sequential(),
		Pairing:       pairing(o),
		TurnTime:      duet.TurnTime,
		Turns:         duet.Turns.Turns,
		TurnWarmup:    time.Duration(duet.Turns.Warmup) * duet.TurnTime,
		MinChange:     o.Compare.Threshold,
		Rule:          string(o.Compare.Rule),
		Correction:    string(o.Compare.Correction),
		FailOn:        strings.Join(o.FailOn, ","),
		Confidence:    o.Compare.Confidence,
		Tags:          o.Tags,
		CPU:           strings.Join(cpus, ","),
		Race:          o.Race,
	}.Encode()
	if len(o.TestArgs) > 0 {
		// Only when given, so that runs recorded before test binary
		// arguments existed resume as they are.
		m["args"] = quoteArgs(o.TestArgs)
	}
	if l := layoutOption(o); l != "" {
		m["layouts"] = l
	}
	return m
}

// quoteArgs writes args on one line, each quoted as Go quotes strings.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}

// newHeader returns the raw file header of a run of pkgs on this machine,
// comparing its versions with plan.
func newHeader(o *Options, plan gate.Plan, pkgs []*rmit.Package, now time.Time) *record.Header {
	host, _ := os.Hostname()
	h := &record.Header{
		Tool:      o.Tool,
		GoVersion: runtime.Version(),
		GOOS:      runtime.GOOS,
		GOARCH:    runtime.GOARCH,
		CPU:       cpuModel(),
		NumCPU:    runtime.NumCPU(),
		Host:      host,
		Seed:      o.Seed,
		Start:     now.UTC(),
		Binaries:  map[string]string{},
		Options:   headerOptions(o, plan),
		Instance:  o.Instance,
	}
	if !o.Shard.IsZero() {
		h.Shard = o.Shard.String()
	}
	for _, p := range pkgs {
		key := p.ImportPath
		if p.Version != record.VersionHead {
			key = p.Version + ":" + key
		}
		h.Binaries[key] = p.Hash
	}
	h.Layouts = headerLayouts(pkgs)
	return h
}

// cpuModel returns the CPU model name as go test prints it, or "".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// spending records how a sequential plan spends its level, or nothing.
func spending(p gate.Plan) string {
	if !p.Sequential() {
		return ""
	}
	return string(p.Spending)
}

// pairing records how a baseline run pairs its versions, or nothing.
func pairing(o *Options) string {
	switch {
	case o.Baseline == "":
		return ""
	case o.Pairing == PairTogether:
		return string(PairTogether)
	case o.duets():
		return string(PairSlices)
	}
	return string(PairProcesses)
}

// looks records the looks of a sequential plan, or nothing.
func looks(p gate.Plan) string {
	if !p.Sequential() {
		return ""
	}
	return p.String()
}
