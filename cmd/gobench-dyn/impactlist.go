package main

import (
	"context"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// listImpact prints, for run --baseline REV --impact list, which
// benchmarks the change reaches and why, and what finding out took.
func listImpact(opts *RunOptions) error {
	return opts.interruptible(func(ctx context.Context, env session.Env) error {
		rep, err := session.Impact(ctx, opts.session, session.Outputs{Log: opts.IO.ErrOut}, env)
		if err != nil {
			return runExit(opts, nil, err)
		}
		return rep.WriteList(opts.IO.Out)
	})
}
