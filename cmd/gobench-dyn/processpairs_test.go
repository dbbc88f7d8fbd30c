package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A benchmark the raw records say was measured by process pairs says so
// in its verdict: in the text and Markdown, and in the JSON's pairing and
// reason.
func TestVerdictSaysProcessPairs(t *testing.T) {
	text, _, _ := runCompare(t, nil, "old.jsonl", "bypairs.jsonl")
	assert.Contains(t, text, "measured by process pairs: 400ms outside the timer per call outweighs turns of at most 64ms")

	md, _, _ := runCompare(t, func(o *CompareOptions) { o.Markdown = "-" }, "old.jsonl", "bypairs.jsonl")
	assert.Contains(t, md, "measured by process pairs: 400ms outside the timer per call")

	out, _, _ := runCompare(t, func(o *CompareOptions) { o.JSON = "-" }, "old.jsonl", "bypairs.jsonl")
	var doc struct {
		Comparisons []struct{ Bench, Unit, Pairing, Reason string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.NotEmpty(t, doc.Comparisons)
	for _, c := range doc.Comparisons {
		assert.Equal(t, "process", c.Pairing, c.Unit)
		assert.Contains(t, c.Reason, "measured by process pairs", c.Unit)
	}

	plain, _, _ := runCompare(t, func(o *CompareOptions) { o.JSON = "-" }, "old.jsonl", "slow.jsonl")
	assert.NotContains(t, plain, `"pairing"`)
}
