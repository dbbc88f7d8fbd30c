package session_test

import (
	"github.com/gobench-dyn/gobench-dyn/internal/runreport"
	"github.com/gobench-dyn/gobench-dyn/internal/session"
)

// The tests of package session check the summary of the runs they drive
// as the run command writes it. Package runreport, which writes it,
// imports session, so only this external test package can import it and
// hand its WriteSummary over.
func init() { session.WriteSummary = runreport.WriteSummary }
