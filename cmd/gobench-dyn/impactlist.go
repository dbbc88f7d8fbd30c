package main

import (
	"context"
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// listImpact prints, for run --baseline REV --impact list, which
// benchmarks the change reaches and why, and what finding out took.
func listImpact(opts *RunOptions) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	env := opts.Env
	if env.Cleanups == nil {
		env.Cleanups = &session.Cleanups{}
	}
	defer env.Cleanups.Run()
	defer onInterrupt(cancel, opts.IO.ErrOut, env.Cleanups)()
	rep, err := session.Impact(ctx, opts.session, session.Outputs{Log: opts.IO.ErrOut}, env)
	if err != nil {
		return runExit(opts, nil, err)
	}
	tw := render.Table(opts.IO.Out)
	fmt.Fprintf(tw, "package\tbenchmark\toutcome\twhy\n")
	for _, b := range append(rep.Benchmarks, rep.New...) {
		outcome := "unaffected"
		if b.Affected {
			outcome = "measured"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Package, b.Name, outcome, b.Why)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(opts.IO.Out, "\n%d of %d benchmarks reached, %d unaffected; %d declarations differ; diff %s, coverage %s (cached: %v), call graph %s\n",
		len(rep.Benchmarks)-len(rep.Unaffected())+len(rep.New), len(rep.Benchmarks)+len(rep.New), len(rep.Unaffected()), len(rep.Changed),
		render.Duration(rep.Diff), render.Duration(rep.Coverage), rep.Cached, render.Duration(rep.CallGraph))
	return err
}
