package reportfile

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/usage"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// A report on standard output takes the place of the table; a file is
// written whole.
func TestWriteAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.md")
	var out bytes.Buffer
	require.NoError(t, WriteAll(&out, text("table\n"), File{"--json", "-", text("{}\n")}, File{"--markdown", path, text("# r\n")}))
	assert.Equal(t, "{}\n", out.String())
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "# r\n", string(b))
}

// Two reports on standard output, and a file that cannot be created, are
// bad input, named by their flags.
func TestBadReportFiles(t *testing.T) {
	err := Check(File{Flag: "--json", Path: "-"}, File{Flag: "--html", Path: "-"})
	require.NotNil(t, usage.As(err))
	assert.EqualError(t, err, "--json - and --html -: only one report can go to standard output")
	err = Write("--out", filepath.Join(t.TempDir(), "none", "x"), text(""))
	require.NotNil(t, usage.As(err))
	assert.Contains(t, err.Error(), "--out: ")
}
