package session

import (
	"errors"
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/internal/benchout"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// write completes the results files of res, which obs observed, marking
// them partial when the run stopped early. Its error joins the output
// failure that stopped the run, if any, with that of the commit.
func (r *run) write(obs *observer, res *Result) error {
	var markErr error
	if res.Summary.Interrupted {
		markErr = r.markPartial(obs, res.Stopped)
	}
	// A mark that could not be streamed matters only if the commit, which
	// writes the mark on its first line, fails too.
	if err := r.commit(obs); err != nil {
		if res.Stopped != nil && !errors.Is(err, res.Stopped) {
			err = errors.Join(res.Stopped, err)
		}
		return errors.Join(err, markErr)
	}
	return nil
}

// commit completes the results files, each version's results grouped by
// package and benchmark in the order they were found, and closes the raw
// file.
func (r *run) commit(obs *observer) error {
	// The results files get one line per process of a duet, as they do
	// per slice of any other iteration. An Output's error names the
	// output.
	if err := r.outs.Results.Commit(obs.head.WithDuetsMerged(), obs.order); err != nil {
		return err
	}
	if r.outs.Baseline != nil {
		if err := r.outs.Baseline.Commit(obs.baseline.WithDuetsMerged(), obs.order); err != nil {
			return err
		}
	}
	if err := r.raw.Close(); err != nil {
		return fmt.Errorf("raw records: %w", err)
	}
	return nil
}

// markPartial says in the results of a run that stopped early, inside
// them, that they are partial, and why: on the first line of the results
// as committed, and after the lines streamed so far, which stand in for
// them should the commit fail. Readers of the benchmark format skip the
// line. It returns the error of writing that line.
func (r *run) markPartial(obs *observer, why error) error {
	note := "interrupted; the results are partial"
	if why != nil {
		note = "stopped: " + why.Error() + "; the results are partial"
	}
	if r.opts.Raw != "" {
		note += "; --resume " + r.opts.Raw + " completes them"
	}
	ev := record.Event{Event: record.EventInterrupt, Reason: note, Time: r.now()}
	obs.head.Events = append(obs.head.Events, ev)
	obs.baseline.Events = append(obs.baseline.Events, ev)
	_, err := io.WriteString(r.outs.Results, benchout.NoteLine(note))
	if r.outs.Baseline != nil {
		_, berr := io.WriteString(r.outs.Baseline, benchout.NoteLine(note))
		err = errors.Join(err, berr)
	}
	return err
}
