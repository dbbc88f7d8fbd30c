package main

import (
	"context"
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
	return rep.WriteList(opts.IO.Out)
}
