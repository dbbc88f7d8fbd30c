package main

import (
	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// bindExplainFlags binds the flags of run --explain to opts.
func bindExplainFlags(fs *pflag.FlagSet, opts *RunOptions) {
	fs.BoolVar(&opts.Explain, "explain", false, "with --baseline, profile both versions of each regression and improvement after the verdicts and show where the change went (docs/GATE.md)")
	fs.DurationVar(&opts.ExplainTime, "explain-time", session.DefaultExplainTime, "with --explain, the most time profiling one benchmark's two versions takes")
	fs.StringVar(&opts.ExplainDir, "explain-dir", "", "with --explain, where the profiles go (default: explain/ beside --out, --raw or --json, else gobench-dyn-explain)")
}

// checkExplainFlags checks the flags of --explain and sets where its
// profiles go.
func (o *RunOptions) checkExplainFlags(fs *pflag.FlagSet) error {
	dir, err := session.ExplainDir(o.Explain, o.Baseline, o.ExplainTime, o.ExplainDir, fs.Changed, o.Out, o.Raw, o.JSON)
	if err != nil {
		return exitUsage(err)
	}
	o.ExplainDir = dir
	return nil
}
