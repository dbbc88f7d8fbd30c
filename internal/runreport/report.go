package runreport

import (
	"context"
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// Files are the outputs of run as its flags name them, which RunAndReport
// opens before anything runs, so that a bad path fails at once rather than
// after an hour of measurements.
type Files struct {
	// Out and BaselineOut receive the benchstat-format results of the
	// code under test and of the baseline (--out, --baseline-out); ""
	// and "-" are Stdout for Out and nowhere for BaselineOut.
	Out, BaselineOut string
	// JSON receives the verdicts of a baseline run (--json); "-" is
	// Stdout, "" none.
	JSON string
	// Stdout is standard output; Log receives notes, progress, the
	// summary and the comparison.
	Stdout, Log io.Writer
	// History, if set, is called once the outputs are open: it checks
	// the store the run's summaries go to (--history) and returns what
	// adds the records of a run that completes, or nil for none.
	History func(ctx context.Context) (add func(run *record.Run, log io.Writer) error, err error)
}

// RunAndReport runs the session of opts as session.Run does, with the
// outputs of files, then adds the run to the history, and writes the
// summary, the comparison with its explanations, and the verdicts. The
// result is that of session.Run; the error is its or else the first of
// the steps after it, each of which is taken even when one before failed,
// so that a failed write hides nothing that was measured.
func RunAndReport(ctx context.Context, opts session.Options, files Files, env session.Env) (*session.Result, error) {
	if env.Cleanups == nil {
		env.Cleanups = &session.Cleanups{}
		defer env.Cleanups.Run()
	}
	outs, verdicts, err := files.open(opts.Baseline != "", env.Cleanups)
	if err != nil {
		return nil, err
	}
	var addHistory func(*record.Run, io.Writer) error
	if files.History != nil {
		if addHistory, err = files.History(ctx); err != nil {
			return nil, err
		}
	}
	res, err := session.Run(ctx, opts, outs, env)
	if err == nil && res != nil && !res.Interrupted() && addHistory != nil {
		err = addHistory(res.Head, files.Log)
	}
	if res == nil {
		return res, err
	}
	WriteSummary(files.Log, res)
	if res.Comparison == nil {
		return res, err
	}
	fmt.Fprintln(files.Log)
	if res.Interrupted() {
		fmt.Fprintln(files.Log, "PARTIAL: the verdicts reached on the slices measured before the run stopped; the exit status does not rest on them")
	}
	keep := func(werr error) {
		if werr != nil && err == nil {
			err = werr
		}
	}
	keep(res.Comparison.WriteText(files.Log))
	keep(WriteExplanations(files.Log, res))
	if verdicts != nil {
		keep(verdicts.write("json", res.Comparison, verdictsJSON(res)))
	}
	return res, err
}

// open opens the results files, the baseline's only for a baseline run,
// and the verdicts file.
func (f *Files) open(baseline bool, cleanups *session.Cleanups) (session.Outputs, *verdictsFile, error) {
	outs := session.Outputs{Log: f.Log}
	out, err := session.OpenResults("out", f.Out, f.Stdout, cleanups)
	if err != nil {
		return outs, nil, err
	}
	outs.Results = out
	if baseline {
		base, err := session.OpenResults("baseline-out", f.BaselineOut, io.Discard, cleanups)
		if err != nil {
			return outs, nil, err
		}
		outs.Baseline = base
	}
	verdicts, err := openVerdicts("json", f.JSON, f.Stdout, cleanups)
	return outs, verdicts, err
}

// verdictsJSON returns what the verdicts JSON of the run r says beyond
// its comparison.
func verdictsJSON(r *session.Result) gate.JSONOptions {
	return gate.JSONOptions{FailOn: r.Options.FailOn, Partial: r.Interrupted(), Explanation: func(pkg, bench, unit string) any {
		// A nil *Explained in an interface is not nil: none is
		// returned as nil itself.
		if e := r.Explanation(pkg, bench, unit); e != nil {
			return e
		}
		return nil
	}}
}
