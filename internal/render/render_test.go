package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPercent(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		p    Percent
		x    float64
		want string
	}{
		{Percent{Digits: 1}, 0.0534, "5.3%"},
		{Percent{Digits: 1}, -0.0534, "-5.3%"},
		{Percent{Digits: 2, Sign: true}, 0, "+0.00%"},
		{Percent{Digits: 2, Sign: true}, 0.1234, "+12.34%"},
		{Percent{Digits: 2, Sign: true}, -0.1234, "-12.34%"},
		{Percent{Digits: 1, Trim: true}, 0.05, "5%"},
		{Percent{Digits: 1, Trim: true}, 0.055, "5.5%"},
		{Percent{Digits: 4, Trim: true}, 0.999, "99.9%"},
		{Percent{Digits: 4, Trim: true}, 0.99, "99%"},
		{Percent{Digits: 4, Trim: true}, 1, "100%"},
		{Percent{Digits: 2, Steps: []Step{{0.1, 1}}}, 0.05, "5.00%"},
		{Percent{Digits: 2, Steps: []Step{{0.1, 1}}}, -0.25, "-25.0%"},
		{Percent{Digits: 1}, nan, "?"},
		{Percent{Digits: 1, NaN: "—"}, nan, "—"},
		{Percent{Digits: 1}, inf, "∞"},
		{Percent{Digits: 1, Sign: true}, inf, "+∞"},
		{Percent{Digits: 1, Sign: true}, -inf, "-∞"},
	} {
		assert.Equal(t, c.want, c.p.Format(c.x), "%+v of %v", c.p, c.x)
	}
	assert.Equal(t, "99.9%", Confidence(0.999))
	assert.Equal(t, "95%", Confidence(0.95))
}

func TestPrecision(t *testing.T) {
	assert.Equal(t, "±4.1%; about 14 processes for ±2%", Precision(0.041, 0.02, 14))
	assert.Equal(t, "±1.3%", Precision(0.013, 0.02, 14), "the target is reached")
	assert.Equal(t, "±0.05%", Precision(0.0005, 0, 0))
	assert.Equal(t, "±35%", Precision(0.351, 0, 0))
	assert.Equal(t, "", Precision(math.NaN(), 0, 0))
	assert.Equal(t, "±35%; over 100 processes for ±3%", Precision(0.35, 0.03, 10001))
	assert.Equal(t, "±20%; over 100 processes for ±3%", Precision(0.2, 0.03, 811), "no projection that no run would reach")
	assert.Equal(t, "±8%; about 100 processes for ±3%", Precision(0.08, 0.03, 100))
	assert.Equal(t, "±3.04%; about 10 processes for ±3%", Precision(0.0304, 0.03, 10), "just past the target")
	assert.Equal(t, "±3%", Precision(0.0299, 0.03, 3))
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                     "0s",
		1234 * time.Nanosecond:                "1µs",
		1234 * time.Microsecond:               "1ms",
		1234 * time.Millisecond:               "1.2s",
		65*time.Second + 200*time.Millisecond: "1m5s",
		2*time.Hour + 89*time.Second:          "2h1m0s",
	} {
		assert.Equal(t, want, Duration(d), "%v", time.Duration(d))
	}
}

func TestTable(t *testing.T) {
	var b bytes.Buffer
	tw := Table(&b)
	fmt.Fprintf(tw, "name\tvalue\nBenchmarkLonger\t1\n")
	require.NoError(t, tw.Flush())
	assert.Equal(t, "name             value\nBenchmarkLonger  1\n", b.String())
}

// TestMarkdownNames escapes benchmark names that would break a table or
// turn into markup in a GitHub job summary: each keeps its text, and none
// leaves an unescaped special character behind.
func TestMarkdownNames(t *testing.T) {
	for name, want := range map[string]string{
		"Parse/<script>":      `Parse/\<script\>`,
		"Parse/a`b":           "Parse/a\\`b",
		"Parse/x|y":           `Parse/x\|y`,
		"Parse/*bold*_it_":    `Parse/\*bold\*\_it\_`,
		`Parse/back\slash`:    `Parse/back\\slash`,
		"Parse/[link](x)":     `Parse/\[link\](x)`,
		"Parse/~~old~~&amp;":  `Parse/\~\~old\~\~\&amp;`,
		"Parse/@team $x$":     `Parse/\@team \$x\$`,
		"Parse/two\nlines\r ": "Parse/two lines  ",
		"Parse/plain-name_8":  `Parse/plain-name\_8`,
	} {
		assert.Equal(t, want, Markdown(name), "%q", name)
	}
}

func TestMarkdownCode(t *testing.T) {
	assert.Equal(t, "`Parse/<small>`", MarkdownCode("Parse/<small>"))
	assert.Equal(t, "`` Parse/a`b ``", MarkdownCode("Parse/a`b"))
	assert.Equal(t, "``` `a``b` ```", MarkdownCode("`a``b`"))
	assert.Equal(t, "`  x  `", MarkdownCode(" x "), "one space on each side is stripped when read")
	assert.Equal(t, "`x|y`", MarkdownCode("x|y"))
	assert.Equal(t, "`x\\|y`", MarkdownCodeCell("x|y"))
	assert.Equal(t, "`` a`b\\|c ``", MarkdownCodeCell("a`b|c"))
}

func TestScale(t *testing.T) {
	s := NewScale("ns/op", 1517.4, math.NaN())
	assert.Equal(t, "sec/op", s.Unit())
	assert.Equal(t, "1.517µ", s.Format(1517.4))
	assert.Equal(t, "1.517µs", s.Value(1517.4))
	assert.Equal(t, "—", s.Value(math.NaN()))
	assert.Equal(t, "512.0B", NewScale("B/op", 512).Value(512))
	assert.Equal(t, "3.000", NewScale("allocs/op", 3).Value(3))
	assert.Equal(t, "0.000", NewScale("ns/op").Format(0), "no values: no prefix")
}

func TestJSONFloat(t *testing.T) {
	b, err := json.Marshal([]JSONFloat{1.5, JSONFloat(math.NaN()), JSONFloat(math.Inf(1)), JSONFloat(math.Inf(-1)), 0})
	require.NoError(t, err)
	assert.Equal(t, "[1.5,null,null,null,0]", string(b))
}

func TestPlural(t *testing.T) {
	assert.Equal(t, "1 path", Plural(1, "path"))
	assert.Equal(t, "3 paths", Plural(3, "path"))
	assert.Equal(t, "2 processes", Plural(2, "process"))
	assert.Equal(t, "0 processes", Plural(0, "process"))
}
