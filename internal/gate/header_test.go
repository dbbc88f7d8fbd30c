package gate

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// TestFromHeaderKeepsThePlan reads back the comparison a run recorded:
// its looks, how they spend the level and whether they are confirmed, so
// that judging its records again decides as the run did, and leaves the
// defaults where the header says nothing or cannot be read.
func TestFromHeaderKeepsThePlan(t *testing.T) {
	h := &record.Header{Options: record.RunOptions{
		MinChange: 0.05, Confidence: 0.95, Rule: "ci", Correction: "holm",
		Sequential: true, Looks: "5,8,12", Spending: "pocock", Confirm: true,
	}.Encode()}
	o := FromHeader(h, DefaultOptions())
	assert.Equal(t, 0.05, o.Threshold)
	assert.Equal(t, 0.95, o.Confidence)
	assert.Equal(t, CorrectionHolm, o.Correction)
	assert.Equal(t, []int{5, 8, 12}, o.Plan.Looks)
	assert.Equal(t, SpendPocock, o.Plan.Spending)
	assert.True(t, o.Plan.Confirm)

	// A run recorded before the confirmation was: judged without it.
	h.Options["confirm"] = "maybe"
	assert.False(t, FromHeader(h, DefaultOptions()).Plan.Confirm)
	delete(h.Options, "confirm")
	assert.False(t, FromHeader(h, DefaultOptions()).Plan.Confirm)

	assert.Equal(t, DefaultOptions(), FromHeader(nil, DefaultOptions()))
	assert.Equal(t, DefaultOptions(), FromHeader(&record.Header{}, DefaultOptions()))
}
