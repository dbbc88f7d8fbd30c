package session

import (
	"errors"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCleanupsRunNewestFirstAndOnce(t *testing.T) {
	var c Cleanups
	var got []string
	c.Add(func() { got = append(got, "a") })
	undoB := c.Add(func() { got = append(got, "b") })
	c.Add(func() { got = append(got, "c") })
	undoB()
	c.Run()
	assert.Equal(t, []string{"b", "c", "a"}, got)
}

// After Run, as on an abort about to exit, nothing new is made and what is
// added is undone at once, so nothing outlives the exit.
func TestCleanupsAfterRunCreateNothing(t *testing.T) {
	var c Cleanups
	made := 0
	_, err := c.Create(func() (func(), error) { made++; return func() { made-- }, nil })
	require.NoError(t, err)
	c.Run()
	assert.Equal(t, 0, made)

	_, err = c.Create(func() (func(), error) { made++; return func() {}, nil })
	assert.ErrorIs(t, err, rmit.ErrInterrupted)
	assert.Equal(t, 0, made, "create is not called")

	undone := false
	c.Add(func() { undone = true })
	assert.True(t, undone)
}

func TestCleanupsCreateFailureRegistersNothing(t *testing.T) {
	var c Cleanups
	boom := errors.New("boom")
	_, err := c.Create(func() (func(), error) { return nil, boom })
	assert.ErrorIs(t, err, boom)
	c.Run() // a nil undo would panic here
}
