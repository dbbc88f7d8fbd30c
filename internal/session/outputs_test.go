package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A results file that cannot be written is refused before the run, in
// the words of its flag.
func TestResultsFileRefusedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	_, err := OpenResults("out", filepath.Join(dir, "none", "out.txt"), nil, &Cleanups{})
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Contains(t, err.Error(), "--out: ")
}
