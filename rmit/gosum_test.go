package rmit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGoSumFix checks the fix line added to go's messages about missing
// go.sum entries, as go list and go test -c print them.
func TestGoSumFix(t *testing.T) {
	for _, tc := range []struct{ msg, fix string }{
		{
			"missing go.sum entry for module providing package github.com/stretchr/testify/assert; to add:\n\tgo mod download github.com/stretchr/testify",
			"go get -t github.com/stretchr/testify/assert",
		},
		{
			"# example.com/m\nm_test.go:6:2: missing go.sum entry for module providing package github.com/stretchr/testify/assert (imported by example.com/m); to add:\n\tgo get -t example.com/m\n" +
				"m_test.go:7:2: missing go.sum entry for module providing package golang.org/x/perf/benchfmt (imported by example.com/m); to add:\n\tgo get -t example.com/m\nFAIL\texample.com/m [setup failed]\n",
			"go get -t example.com/m",
		},
		{
			"m.go:3:8: missing go.sum entry for module providing package a.example/x (imported by example.com/m); to add:\n\tgo get example.com/m\n" +
				"n.go:3:8: missing go.sum entry for module providing package a.example/y (imported by example.com/n); to add:\n\tgo get example.com/n",
			"go get -t example.com/m example.com/n",
		},
	} {
		got := goSumFix(tc.msg)
		assert.Equal(t, strings.TrimRight(tc.msg, "\n")+"\nto add the missing go.sum entries, run:\n\t"+tc.fix, got)
	}
	assert.Equal(t, "m.go:3:8: undefined: x", goSumFix("m.go:3:8: undefined: x"), "other messages are left alone")
}

func TestWorkspaceHint(t *testing.T) {
	msg := "pattern ./...: directory prefix . does not contain modules listed in go.work or their selected dependencies"
	assert.Contains(t, workspaceHint(msg), "the pattern work names every package")
	assert.Equal(t, "no Go files", workspaceHint("no Go files"))
}
