package apiscore

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteABSPage(t *testing.T) {
	a := &absPage{Slowdown: "40%", Source: "measured", Threshold: "20%", Rule: "gate", Score: "33%", Detected: 1,
		Functions: []absFunction{
			{Package: "m/p", Name: "Parse", Verdict: "detected", Benchmarks: []absBench{
				{Name: "BenchmarkParse-8", Change: "+35.0%", Interval: "[+30.0%, +41.0%]", Verdict: "regression"},
				{Name: "BenchmarkLex-8", Change: "+1.0%", Interval: "[-2.0%, +4.0%]", Verdict: "no change"},
			}},
			{Package: "m/p", Name: "T.<M>", Verdict: "not reachable", Note: "no benchmark runs it in its timed loop"},
		},
		Spreads: []absSpread{{Package: "m/p", Benchmark: "BenchmarkParse-8", MaxSpread: "5%", Runs: 5}},
	}
	var buf bytes.Buffer
	require.NoError(t, writeABSPage(&buf, a))
	page := buf.String()
	assert.Contains(t, page, "<title>API benchmarking score</title>")
	assert.Contains(t, page, "--bad:#d62728", "the report's style sheet, inline")
	assert.Contains(t, page, `<b>33%</b><span>score: 1 of 2 functions detected</span>`)
	assert.Contains(t, page, `<span class="badge v-detected">detected</span></td><td class="name"><code>BenchmarkParse-8</code></td><td>&#43;35.0%</td><td class="muted">[&#43;30.0%, &#43;41.0%]</td><td class="name"><span class="badge v-regression">regression</span>`)
	assert.Contains(t, page, `<code>BenchmarkLex-8</code></td><td>&#43;1.0%</td>`)
	assert.Contains(t, page, `<code>T.&lt;M&gt;</code>`, "names are escaped")
	assert.Contains(t, page, `<span class="badge v-not-reachable">not reachable</span></td><td class="name muted" colspan="4">no benchmark runs it in its timed loop`)
	assert.Contains(t, page, `<tr><td class="name"><code>BenchmarkParse-8</code> <span class="muted">m/p</span></td><td>5%</td><td>5</td></tr>`)
	assert.NotContains(t, page, "http://")
	assert.NotContains(t, page, "https://")
}
