package main

import (
	"bufio"
	"io"
	"os"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// verdictsFile is where run --baseline --json writes the comparison in the
// verdicts schema: stdout for "-", or a file created before the run, so
// that a bad path fails before anything is measured, and put in place
// once the verdicts are in. A run that ends before any comparison leaves
// no file: a CI step that finds none knows the run failed.
type verdictsFile struct {
	path   string
	stdout io.Writer
	file   *atomicfile.File
}

// openVerdicts opens the --json output of opts, or returns nil without
// one.
func openVerdicts(opts *RunOptions, cleanups *session.Cleanups) (*verdictsFile, error) {
	switch opts.JSON {
	case "":
		return nil, nil
	case "-":
		return &verdictsFile{path: "stdout", stdout: opts.IO.Out}, nil
	}
	if fi, err := os.Stat(opts.JSON); err == nil && fi.IsDir() {
		return nil, usageErr("--json: %s is a directory", opts.JSON)
	}
	f, err := createAbandoned(opts.JSON, cleanups)
	if err != nil {
		return nil, usageErr("--json: %w", err)
	}
	return &verdictsFile{path: opts.JSON, file: f}, nil
}

// write writes c as the verdicts and, for a file, puts it in place.
func (v *verdictsFile) write(c *gate.Result, o gate.JSONOptions) error {
	if v.stdout != nil {
		if err := c.WriteJSON(v.stdout, o); err != nil {
			return failErr("--json: writing %s: %w", v.path, err)
		}
		return nil
	}
	bw := bufio.NewWriter(v.file)
	err := c.WriteJSON(bw, o)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = v.file.Commit()
	}
	if err != nil {
		v.file.Abandon()
		return failErr("--json: writing %s: %w", v.path, err)
	}
	return nil
}

// checkVerdictsFlag checks --json against the other outputs of a run.
func (o *RunOptions) checkVerdictsFlag() error {
	switch {
	case o.JSON == "":
		return nil
	case o.Baseline == "":
		return usageErr("--json: only meaningful with --baseline")
	case o.JSON == "-" && (o.Out == "" || o.Out == "-"):
		return usageErr("--json -: the benchstat-format results go to stdout too; send them to a file with -o")
	case o.JSON == o.Out || o.JSON == o.Raw || o.JSON == o.BaselineOut:
		return usageErr("--json %s: the file of another output", o.JSON)
	}
	return nil
}

// verdictsOf returns what the verdicts JSON of a run says beyond its
// comparison.
func (o *RunOptions) verdictsOf(res *session.Result) gate.JSONOptions {
	return gate.JSONOptions{FailOn: o.session.FailOn, Partial: res.Interrupted(), Explanation: func(pkg, bench, unit string) any {
		// A nil *Explained in an interface is not nil: none is
		// returned as nil itself.
		if e := res.Explanation(pkg, bench, unit); e != nil {
			return e
		}
		return nil
	}}
}
