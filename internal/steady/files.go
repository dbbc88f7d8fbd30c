package steady

import (
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
