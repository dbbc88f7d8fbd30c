package session

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// TestSummarySaysWhichPairsRanPastTheCap: with looks past the cap, the
// summary counts the pairs that ran past it and those that stopped there
// undecided, and says nothing when none did.
func TestSummarySaysWhichPairsRanPastTheCap(t *testing.T) {
	o := &Options{Baseline: "HEAD~1", SuiteRuns: gate.ExtendedLastLook, ExtendPast: gate.DefaultLastLook, Budget: 6 * time.Minute}
	o.Stop.Criterion = stopper.Interval
	o.Compare = gate.DefaultOptions()
	start := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	sum := rmit.Summary{Start: start, End: start.Add(time.Minute), Benchmarks: 8, Stopped: 8, AtCap: 2}
	var text bytes.Buffer
	(&Result{Summary: &sum, Options: o, PastCap: 3, Head: &record.Run{}}).WriteSummary(&text)
	assert.Contains(t, text.String(), "  --budget: 3 pairs ran past 40 process pairs, up to 90, because their interval excluded zero: the change was shown, not yet its size against ±3%; 1 stopped undecided at 40\n")

	text.Reset()
	sum.AtCap = 0
	(&Result{Summary: &sum, Options: o, Head: &record.Run{}}).WriteSummary(&text)
	assert.NotContains(t, text.String(), "ran past")
}
