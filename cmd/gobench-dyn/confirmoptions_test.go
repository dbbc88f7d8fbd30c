package main

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// history --confirm runs what run --baseline HEAD runs with history's
// slice time, timeout, cap and tags and every other flag at its default:
// the options it builds in code are those run's flags give.
func TestConfirmOptionsAreRunBaselineDefaults(t *testing.T) {
	for _, h := range []HistoryOptions{
		{SliceTime: defaultSliceTime, Timeout: defaultTimeout},
		{SliceTime: 20 * time.Millisecond, Timeout: time.Minute, SuiteRuns: 7, Tags: "integration"},
	} {
		got, err := session.ConfirmOptions(h.SliceTime, h.Timeout, h.SuiteRuns, h.Tags, "gobench-dyn "+toolVersion())
		require.NoError(t, err)

		args := []string{"--baseline", "HEAD", "--slice-time", h.SliceTime.String(), "--timeout", h.Timeout.String(), "--progress", "off"}
		if h.SuiteRuns > 0 {
			args = append(args, "--suite-runs", fmt.Sprint(h.SuiteRuns))
		}
		if h.Tags != "" {
			args = append(args, "--tags", h.Tags)
		}
		ro := &RunOptions{Stop: stopper.Default(stopper.Interval)}
		fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
		fs.SetOutput(io.Discard)
		bindRunFlags(fs, ro)
		require.NoError(t, fs.Parse(args))
		require.NoError(t, ro.validate(fs))
		assert.Equal(t, ro.session, got, "%v", args)
	}

	for flag, h := range map[string]HistoryOptions{
		"slice-time": {SliceTime: 0, Timeout: defaultTimeout},
		"timeout":    {SliceTime: defaultSliceTime, Timeout: -time.Second},
		"suite-runs": {SliceTime: defaultSliceTime, Timeout: defaultTimeout, SuiteRuns: 2},
	} {
		_, err := session.ConfirmOptions(h.SliceTime, h.Timeout, h.SuiteRuns, h.Tags, "gobench-dyn "+toolVersion())
		u := usage.As(err)
		require.NotNil(t, u, "%s: %v", flag, err)
		assert.Equal(t, flag, u.Flag)
	}
}
