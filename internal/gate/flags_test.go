package gate

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Bad comparison flags are named as the user typed them.
func TestParseOptionsNamesTheFlag(t *testing.T) {
	_, _, err := ParseOptions("ci", "none", "time", 2, "threshold", 0.03)
	assert.EqualError(t, err, "--confidence 2: want a level between 0 and 1, such as 0.99")
	_, _, err = ParseOptions("ci", "none", "time", 0.99, "min-change", 3)
	assert.EqualError(t, err, "--min-change 3: a relative change is a fraction (0.03 = 3%); for 3% use 0.03")
	o, fail, err := ParseOptions("utest", "holm", "time,allocs", 0.95, "threshold", 0)
	assert.NoError(t, err)
	assert.Equal(t, RuleUTest, o.Rule)
	assert.Equal(t, 0.95, o.Confidence)
	assert.NotEmpty(t, fail)
}
