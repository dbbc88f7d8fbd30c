package steady

import (
	"os"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/runfile"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

// FromFiles returns the series of files: raw records, or published series
// whose every value is seconds per operation averaged over an iteration of
// iteration. A raw file without ns/op values is bad input.
func FromFiles(files []*runfile.File, iteration time.Duration) ([]Input, error) {
	var ins []Input
	for _, f := range files {
		if f.Format == runfile.Series {
			ins = append(ins, PublishedInput(f.Path, f.Series, iteration.Seconds()))
			continue
		}
		in := Inputs(f.Run)
		if len(in) == 0 {
			return nil, usage.Errorf("", "%s: no ns/op measurements", f.Path)
		}
		ins = append(ins, in...)
	}
	return ins, nil
}

// SplitArgs tells the arguments of steady apart: regular files to read,
// or packages to probe. Mixing them is bad input, since one run either
// reads series or measures them.
func SplitArgs(args []string) (files, pkgs []string, err error) {
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() {
			files = append(files, a)
		} else {
			pkgs = append(pkgs, a)
		}
	}
	if len(files) > 0 && len(pkgs) > 0 {
		return nil, nil, usage.Errorf("", "%s is not a file: give files or packages, not both", pkgs[0])
	}
	return files, pkgs, nil
}
