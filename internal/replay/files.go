package replay

import (
	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Pool pools the recorded runs of files into one run to replay, with the
// first header, and returns the full warmup to leave out of the full
// result: fullWarmup when set, else JMHFullWarmup if any file is the
// study's JMH CSV, else −1, the warmup as recorded.
func Pool(files []*runfile.File, fullWarmup int, set bool) (*record.Run, int) {
	run := &record.Run{}
	sawJMH := false
	for _, f := range files {
		sawJMH = sawJMH || f.Format == runfile.JMH
		if run.Header == nil {
			run.Header = f.Run.Header
		}
		run.Slices = append(run.Slices, f.Run.Slices...)
	}
	switch {
	case set:
	case sawJMH:
		fullWarmup = JMHFullWarmup
	default:
		fullWarmup = -1
	}
	return run, fullWarmup
}
