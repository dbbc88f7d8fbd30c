package history

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/reportfile"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// The commands of gobench-dyn history are carried out here, so that the
// command line only binds flags and maps errors to exit statuses: bad
// flags and input are usage errors naming the flag, an interrupted
// confirmation is an *InterruptedError, and any other error is a failure.
// Failures are formatted with %v, not wrapped, so that a usage error deep
// in a cause never turns a runtime failure into bad input.

// A Request is what gobench-dyn history asks of a history, as its flags
// give it.
type Request struct {
	// Store is the history: a store, or a JSON Lines export.
	Store string
	// Bench, Since and Machine select what is analysed (Query); Method,
	// PValue, MinChange, Window and MinSeg how (Options).
	Bench     string
	Since     string
	Machine   string
	Method    string
	PValue    float64
	MinChange float64
	Window    int
	MinSeg    int
	// JSON, Markdown and HTML name the report files ("-" for Out).
	JSON     string
	Markdown string
	HTML     string
	// Fail makes regressions an error.
	Fail bool
	// Confirm measures new change points again.
	Confirm bool

	// Measurer measures the confirmations; when nil, NewMeasurer is
	// asked for one.
	Measurer Measurer
	// NewMeasurer returns the Measurer of --confirm and what releases it.
	// It is called once the analysis is done, and only with Confirm, so
	// that what it holds (a signal handler, worktrees) lives only while
	// the confirmations run.
	NewMeasurer func() (m Measurer, release func(), err error)
	// Now tells the time of confirmations; nil is time.Now.
	Now func() time.Time

	// Out receives the table or a report sent to "-"; Log the warnings.
	Out, Log io.Writer
}

// An InterruptedError is a confirmation cut short by ctx: the outcomes
// measured before it are kept in the store.
type InterruptedError struct {
	Confirmed int
	Store     string
}

// Error says how many outcomes were kept, and where, since the user
// reads it as the command's last line.
func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted: %d change points confirmed before, kept in %s", e.Confirmed, e.Store)
}

// Run analyses the history of req, confirms its new change points when
// asked, and writes the outputs. The outputs are written even when a
// confirmation failed, since the analysis holds what was kept.
func Run(ctx context.Context, req *Request) error {
	q, opts, err := req.parse()
	if err != nil {
		return err
	}
	src, store, err := OpenSource(req.Store)
	if err != nil {
		return usage.Errorf("", "%v", err)
	}
	if store != nil {
		defer store.Close()
	}
	if req.HTML != "" {
		q.KeepSeries, q.Plots = true, MaxPlots
	}
	a, err := Analyze(ctx, src, q, opts)
	if err != nil {
		return analyzeErr(req.Store, err)
	}
	a.WarnUnplaced(req.Log, req.Store)
	if store != nil {
		known, err := store.Confirmations(ctx)
		if err != nil {
			return fmt.Errorf("%s: %v", req.Store, err)
		}
		a.Attach(known)
	}
	var confirmErr error
	if req.Confirm {
		confirmErr = req.confirm(ctx, a, store)
	}
	if err := reportfile.WriteAll(req.Out, a.WriteText, req.reports(a)...); err != nil {
		return err
	}
	if confirmErr != nil {
		return confirmErr
	}
	if req.Fail {
		if n := a.Regressions(req.Confirm); n > 0 {
			return fmt.Errorf("%d regressions in the history", n)
		}
	}
	return nil
}

// parse checks the flags, naming the first bad one.
func (req *Request) parse() (Query, Options, error) {
	var q Query
	opts := DefaultOptions()
	m, err := ParseMethod(req.Method)
	if err != nil {
		return q, opts, usage.Errorf("method", "%v", err)
	}
	switch {
	case !(req.PValue > 0 && req.PValue < 1):
		return q, opts, usage.ValueErrorf("pvalue", req.PValue, "want a probability between 0 and 1, such as 0.001")
	case !(req.MinChange >= 0 && req.MinChange < 1):
		return q, opts, usage.ValueErrorf("min-change", req.MinChange, "want a relative change in [0, 1), such as 0.02")
	case req.Window < 4:
		return q, opts, usage.ValueErrorf("window", req.Window, "want at least 4 points")
	case req.MinSeg < 1:
		return q, opts, usage.ValueErrorf("min-segment", req.MinSeg, "want at least 1")
	case req.Confirm && IsJSONL(req.Store):
		return q, opts, usage.Errorf("confirm", "%s is a JSON Lines export; confirmations are kept in a store (history import it first)", req.Store)
	}
	if err := reportfile.Check(req.reports(nil)...); err != nil {
		return q, opts, err
	}
	if req.Bench != "" {
		if q.Bench, err = regexp.Compile(req.Bench); err != nil {
			return q, opts, usage.ValueErrorf("bench", fmt.Sprintf("%q", req.Bench), "%v", err)
		}
	}
	q.Since, q.Machine = req.Since, req.Machine
	opts.Method, opts.PValue, opts.MinChange, opts.Window, opts.MinSegment = m, req.PValue, req.MinChange, req.Window, req.MinSeg
	return q, opts, nil
}

// reports returns the report files of req, written from a (nil when
// they are only checked).
func (req *Request) reports(a *Analysis) []reportfile.File {
	files := []reportfile.File{{Flag: "--json", Path: req.JSON}, {Flag: "--markdown", Path: req.Markdown}, {Flag: "--html", Path: req.HTML}}
	if a != nil {
		files[0].Write, files[1].Write, files[2].Write = a.WriteJSON, a.WriteMarkdown, a.WriteHTML
	}
	return files
}

// analyzeErr tells a --since that names no commit, a bad flag, from a
// history that cannot be read.
func analyzeErr(store string, err error) error {
	var nc *NoCommitError
	if errors.As(err, &nc) {
		return usage.Errorf("since", "%v", err)
	}
	return fmt.Errorf("%s: %v", store, err)
}

// confirm measures the new change points of a again and keeps each
// outcome in the store as it comes. A cancelled ctx stops the run in
// progress; the outcomes already kept stay.
func (req *Request) confirm(ctx context.Context, a *Analysis, store *Store) error {
	m := req.Measurer
	if m == nil {
		if req.NewMeasurer == nil {
			return errors.New("--confirm: nothing to measure with")
		}
		var release func()
		var err error
		if m, release, err = req.NewMeasurer(); err != nil {
			return err
		}
		defer release()
	}
	now := req.Now
	if now == nil {
		now = time.Now
	}
	made, err := Confirm(ctx, a, m, now)
	if serr := store.SaveConfirmations(ctx, made); serr != nil {
		return fmt.Errorf("%s: %v", req.Store, serr)
	}
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)):
		return &InterruptedError{Confirmed: len(made), Store: req.Store}
	case err != nil:
		return fmt.Errorf("--confirm: %v", err)
	}
	return nil
}
