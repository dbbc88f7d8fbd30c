package main

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

// exitCode runs args in process and returns the exit status.
func exitCode(args ...string) int {
	code, _, _ := inProcess(args...)
	return code
}

// exitOf returns the exit status and message a command's error stands
// for: 0 and "" for none; any other error must be an exitError.
func exitOf(t *testing.T, err error) (int, string) {
	t.Helper()
	if err == nil {
		return 0, ""
	}
	var ex *exitError
	require.True(t, errors.As(err, &ex), "%v", err)
	return ex.code, ex.msg
}
