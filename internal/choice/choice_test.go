package choice

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type color string

func TestParse(t *testing.T) {
	got, err := Parse("color", "green", color("red"), "green", "blue")
	require.NoError(t, err)
	assert.Equal(t, color("green"), got)

	got, err = Parse("color", "Green", color("red"), "green", "blue")
	assert.EqualError(t, err, `unknown color "Green" (want red, green or blue)`)
	assert.Equal(t, color(""), got)

	_, err = Parse("color", "", color("red"))
	assert.EqualError(t, err, `unknown color "" (want red)`)
}

func TestParseFunc(t *testing.T) {
	name := func(n int) string { return "n" + strconv.Itoa(n) }
	got, err := ParseFunc("number", "n2", name, 1, 2, 3)
	require.NoError(t, err)
	assert.Equal(t, 2, got)

	got, err = ParseFunc("number", "2", name, 1, 2)
	assert.EqualError(t, err, `unknown number "2" (want n1 or n2)`)
	assert.Zero(t, got)
}

func TestList(t *testing.T) {
	assert.Equal(t, "", List())
	assert.Equal(t, "a", List("a"))
	assert.Equal(t, "a or b", List("a", "b"))
	assert.Equal(t, "a, b, c or d", List("a", "b", "c", "d"))
}
