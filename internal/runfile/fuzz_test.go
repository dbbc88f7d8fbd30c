package runfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// FuzzReadFile feeds any bytes to the input layer: it reads them or
// fails with an error located by line, and never panics.
func FuzzReadFile(f *testing.F) {
	for _, s := range []string{rawFile, textFile, jmhFile, uoptimeFile, seriesFile, "", "\ufeff{", "[", "m_id"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "in")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		file, _, err := ReadFile(path)
		if err != nil {
			var se *record.SyntaxError
			if !errors.As(err, &se) && Detect(data) != Series && Detect(data) != Text {
				t.Fatalf("%v: not a syntax error", err)
			}
			return
		}
		if file.Run == nil && file.Series == nil {
			t.Fatal("no error and nothing read")
		}
	})
}
