package main

import (
	"path/filepath"

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
	switch {
	case o.Explain && o.Baseline == "":
		return usageErr("--explain: only meaningful with --baseline")
	case fs.Changed("explain-time") && !o.Explain:
		return usageErr("--explain-time: only meaningful with --explain")
	case fs.Changed("explain-dir") && !o.Explain:
		return usageErr("--explain-dir: only meaningful with --explain")
	case o.ExplainTime <= 0:
		return usageErr("--explain-time: must be positive, got %v", o.ExplainTime)
	case fs.Changed("explain-dir") && o.ExplainDir == "":
		return usageErr("--explain-dir: empty directory name")
	}
	if o.ExplainDir == "" {
		o.ExplainDir = session.DefaultExplainDir
		for _, f := range []string{o.Out, o.Raw, o.JSON} {
			if f != "" && f != "-" {
				o.ExplainDir = filepath.Join(filepath.Dir(f), "explain")
				break
			}
		}
	}
	return nil
}
