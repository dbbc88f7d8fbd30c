package session

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// The checks of run's flags that no Options field check covers, each
// naming the flag of the first bad value, so that run refuses bad flags
// before anything runs.

// CheckSelection checks what run selects and how far it may go: --bench,
// --min-distinct, --budget and the test binary arguments after "--".
func CheckSelection(bench string, minDistinct int, budget time.Duration, testArgs []string) error {
	switch {
	case bench == "":
		return usage.Errorf("bench", "empty pattern selects nothing")
	case minDistinct < 0:
		return usage.Errorf("min-distinct", "must not be negative, got %d", minDistinct)
	case budget < 0:
		return usage.Errorf("budget", "must not be negative, got %v", budget)
	}
	if err := rmit.CheckPattern(bench); err != nil {
		return usage.ValueErrorf("bench", strconv.Quote(bench), "%w", err)
	}
	if err := rmit.CheckTestArgs(testArgs); err != nil {
		return usage.Errorf("", "after --: %v; run's own flags set it (docs/MIGRATION.md)", err)
	}
	return nil
}

// CheckBaselineOutputs checks the outputs only a baseline run writes,
// --baseline-out and --json (the verdicts), against the others: out,
// raw and baselineOut are the files of --out, --raw and --baseline-out.
func CheckBaselineOutputs(baseline, json, out, raw, baselineOut string) error {
	if baselineOut != "" && baseline == "" {
		return usage.Errorf("baseline-out", "only meaningful with --baseline")
	}
	switch {
	case json == "":
		return nil
	case baseline == "":
		return usage.Errorf("json", "only meaningful with --baseline")
	case json == "-" && (out == "" || out == "-"):
		return usage.ValueErrorf("json", json, "the benchstat-format results go to stdout too; send them to a file with -o")
	case json == out || json == raw || json == baselineOut:
		return usage.ValueErrorf("json", json, "the file of another output")
	}
	return nil
}

// CheckImpact checks --impact: on, off or list, given (changed) only
// with --baseline.
func CheckImpact(impact, baseline string, changed bool) error {
	if _, err := choice.Parse("impact mode", impact, "on", "off", "list"); err != nil {
		return usage.Errorf("impact", "%w", err)
	}
	if changed && baseline == "" {
		return usage.Errorf("impact", "only meaningful with --baseline")
	}
	return nil
}

// SequentialOf returns whether a run is sequential: --sequential, or its
// deprecated name --early-verdict when given, and only with a baseline
// and a stoppage criterion. changed reports whether a flag was given.
func SequentialOf(sequential, earlyVerdict bool, changed func(flag string) bool, baseline string, stop stopper.Criterion) (bool, error) {
	flag := "sequential"
	if changed("early-verdict") {
		flag, sequential = "early-verdict", earlyVerdict
	}
	if (changed("sequential") || changed("early-verdict")) && sequential && (baseline == "" || stop == stopper.None) {
		// On by default; asking for it where it cannot act is a mistake
		// worth naming, turning it off never is.
		return false, usage.Errorf(flag, "only acts with --baseline and a --stop criterion")
	}
	return sequential && baseline != "" && stop != stopper.None, nil
}

// CheckOutputs checks that the files of --resume, --raw and --out agree,
// and returns the raw file: the one --resume appends to, when given.
func CheckOutputs(out, raw, resume string) (string, error) {
	if resume != "" {
		if raw != "" && raw != resume {
			return raw, usage.ValueErrorf("raw", raw, "--resume appends to %s", resume)
		}
		raw = resume
	}
	if out != "" && out == raw {
		return raw, usage.Errorf("", "--out and --raw name the same file %q", out)
	}
	return raw, nil
}

// ParseCPU parses a go test -cpu list, the value of --cpu.
func ParseCPU(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var cpus []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, usage.Errorf("cpu", "%q is not a positive integer", f)
		}
		cpus = append(cpus, n)
	}
	return cpus, nil
}

// A BudgetFlag is the value of run's --budget: a duration, 0 for none, or
// "auto" for about one go test -bench pass of the benchmarks measured
// (Options.AutoBudget).
type BudgetFlag struct {
	Budget time.Duration
	Auto   bool
}

// String returns the flag's value as Set reads it.
func (b *BudgetFlag) String() string {
	if b.Auto {
		return "auto"
	}
	return b.Budget.String()
}

// Set parses s into b, so that a *BudgetFlag can serve as a flag value.
func (b *BudgetFlag) Set(s string) error {
	if s == "auto" {
		*b = BudgetFlag{Auto: true}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("want a duration such as 10m, 0 for none, or auto")
	}
	*b = BudgetFlag{Budget: d}
	return nil
}

// Type names the flag value type in help output.
func (b *BudgetFlag) Type() string { return "duration|auto" }
