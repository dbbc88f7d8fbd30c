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
	outcome := func(affected bool) string {
		if affected {
			return "measured"
		}
		return "unaffected"
	}
	for _, b := range append(rep.Benchmarks, rep.New...) {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", b.Package, b.Name, outcome(b.Affected), b.Why)
		if b.Affected {
			for _, l := range b.Leaves {
				fmt.Fprintf(tw, "%s\t  %s\t%s\t%s\n", b.Package, l.Name, outcome(l.Affected), l.Why)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	leaves := ""
	if n := len(rep.UnaffectedLeaves()); n > 0 {
		leaves = fmt.Sprintf(", and %d leaves of those reached", n)
	}
	_, err = fmt.Fprintf(opts.IO.Out, "\n%d of %d benchmarks reached, %d unaffected%s; %d declarations differ; diff %s, coverage %s (cached: %v), call graph %s, leaves %s\n",
		len(rep.Benchmarks)-len(rep.Unaffected())+len(rep.New), len(rep.Benchmarks)+len(rep.New), len(rep.Unaffected()), leaves, len(rep.Changed),
		render.Duration(rep.Diff), render.Duration(rep.Coverage), rep.Cached, render.Duration(rep.CallGraph), render.Duration(rep.Leaves))
	return err
}
