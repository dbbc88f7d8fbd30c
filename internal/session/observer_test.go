package session

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// TestStopWhy: the progress line of an early stop says why, and for a
// benchmark out of reach how far it got and what it would need.
func TestStopWhy(t *testing.T) {
	assert.Equal(t, "stable", stopWhy(&record.Event{Met: true}))
	assert.Equal(t, "verdict decided", stopWhy(&record.Event{Reason: record.ReasonSettled}))
	assert.Equal(t, "out of reach at ±23% (95%); over 100 processes for ±3%", stopWhy(&record.Event{
		Reason:    record.ReasonOutOfReach,
		Precision: &record.Precision{RelHalfWidth: 0.231, Confidence: 0.95, Target: 0.03, Processes: 177},
	}), "no projection that no run would reach")
	assert.Equal(t, "out of reach at ±9% (95%); about 40 processes for ±3%", stopWhy(&record.Event{
		Reason:    record.ReasonOutOfReach,
		Precision: &record.Precision{RelHalfWidth: 0.09, Confidence: 0.95, Target: 0.03, Processes: 40},
	}))
	assert.Equal(t, "out of reach of its target", stopWhy(&record.Event{Reason: record.ReasonOutOfReach}))
	assert.Equal(t, "not stable, stopped by a limit", stopWhy(&record.Event{Reason: record.ReasonCriterionMet}))
}
