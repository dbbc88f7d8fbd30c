package runreport

import (
	"bufio"
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// verdictsFile is where the comparison goes in the verdicts schema
// (run --baseline --json): stdout for "-", or a file created before the
// run, so that a bad path fails before anything is measured, and put in
// place once the verdicts are in. A run that ends before any comparison
// leaves no file: a CI step that finds none knows the run failed.
type verdictsFile struct {
	path   string
	stdout io.Writer
	file   *atomicfile.File
}

// openVerdicts opens the verdicts file path of flag, stdout for "-", or
// returns nil for "".
func openVerdicts(flag, path string, stdout io.Writer, cleanups *session.Cleanups) (*verdictsFile, error) {
	switch path {
	case "":
		return nil, nil
	case "-":
		return &verdictsFile{path: "stdout", stdout: stdout}, nil
	}
	f, err := cleanups.CreateOutput(flag, path)
	if err != nil {
		return nil, err
	}
	return &verdictsFile{path: path, file: f}, nil
}

// write writes c as the verdicts and, for a file, puts it in place. Its
// error names flag.
func (v *verdictsFile) write(flag string, c *gate.Result, o gate.JSONOptions) error {
	if v.stdout != nil {
		if err := c.WriteJSON(v.stdout, o); err != nil {
			return fmt.Errorf("--%s: writing %s: %w", flag, v.path, err)
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
		return fmt.Errorf("--%s: writing %s: %w", flag, v.path, err)
	}
	return nil
}
