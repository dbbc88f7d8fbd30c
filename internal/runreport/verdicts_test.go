package runreport

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// --json - writes the verdicts, and nothing else, to stdout.
func TestVerdictsToStdout(t *testing.T) {
	var out bytes.Buffer
	v, err := openVerdicts("json", "-", &out, &session.Cleanups{})
	require.NoError(t, err)
	res, err := gate.Runs(&record.Run{}, &record.Run{}, gate.DefaultOptions())
	require.NoError(t, err)
	require.NoError(t, v.write("json", res, gate.JSONOptions{Partial: true}))
	assert.True(t, json.Valid(out.Bytes()), out.String())
	assert.Contains(t, out.String(), `"partial": true`)
}

// A verdicts file that cannot be written is refused before the run, in
// the words of its flag.
func TestVerdictsFileRefusedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	_, err := openVerdicts("json", dir, nil, &session.Cleanups{})
	assert.EqualError(t, err, "--json: "+dir+" is a directory")
}
