package gate

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// A benchmark the change cannot reach is reported unaffected in every
// output, counted apart, and never as "no change".
func TestUnaffectedIsItsOwnOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 41))
	r := &record.Run{}
	addBench(r, "BenchmarkX", "ns/op", record.VersionBaseline, simulate(rng, 1000, 10, 2, 0.001, 0.001))
	addBench(r, "BenchmarkX", "ns/op", record.VersionHead, simulate(rng, 1000, 10, 2, 0.001, 0.001))
	r.Events = append(r.Events,
		record.Event{Event: record.EventUnaffected, Package: "example.com/p", Benchmark: "BenchmarkY", Reason: UnaffectedNote},
		// Measured all the same: the measurement decides.
		record.Event{Event: record.EventUnaffected, Package: "example.com/p", Benchmark: "BenchmarkX", Reason: UnaffectedNote})
	base, head := Split(r)
	res, err := Runs(base, head, testOptions())
	require.NoError(t, err)
	require.Len(t, res.Comparisons, 2)
	assert.Equal(t, NoChange, res.Comparisons[0].Verdict)
	assert.Equal(t, Unaffected, res.Comparisons[1].Verdict)
	assert.Equal(t, "BenchmarkY", res.Comparisons[1].Benchmark)
	assert.Equal(t, "1 no change, 1 unaffected", res.Summary())
	assert.False(t, res.Failed(FailOn{FailTime, FailInconclusive}), "not measured is not inconclusive")

	var text bytes.Buffer
	require.NoError(t, res.WriteText(&text))
	line := lineWith(text.String(), "Y ")
	assert.Contains(t, line, "unaffected")
	assert.NotContains(t, line, "no change")
	assert.Contains(t, text.String(), "unaffected: 1 benchmark, not measured: it executes no code and reads no file that differs")

	var md bytes.Buffer
	require.NoError(t, res.WriteMarkdown(&md))
	assert.Contains(t, lineWith(md.String(), "`Y`"), "unaffected")

	var js bytes.Buffer
	require.NoError(t, res.WriteJSON(&js, JSONOptions{}))
	var out struct {
		Comparisons []struct {
			Bench   string   `json:"bench"`
			Verdict string   `json:"verdict"`
			Change  *float64 `json:"change"`
		} `json:"comparisons"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &out))
	assert.Equal(t, "unaffected", out.Comparisons[1].Verdict)
	assert.Nil(t, out.Comparisons[1].Change)
}

func lineWith(s, sub string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
