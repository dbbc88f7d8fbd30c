package rmit

import (
	"regexp"
	"slices"
	"strings"
)

// missingSum finds go's "missing go.sum entry" messages: the package whose
// module has no entry and, when there is one, the package importing it.
var missingSum = regexp.MustCompile(`missing go\.sum entry for module providing package ([^\s;()]+)(?: \(imported by ([^\s;()]+)\))?`)

// goSumFix returns msg, and when msg tells of missing go.sum entries, a
// last line with the command that adds them: go get -t with the packages
// to benchmark. go's own hint (go mod download, or go get without -t) may
// leave out what a test binary needs: the test dependencies' entries.
func goSumFix(msg string) string {
	var pkgs []string
	for _, m := range missingSum.FindAllStringSubmatch(msg, -1) {
		pkg := m[1]
		if m[2] != "" {
			pkg = m[2]
		}
		if !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
	}
	if len(pkgs) == 0 {
		return msg
	}
	return strings.TrimRight(msg, "\n") + "\nto add the missing go.sum entries, run:\n\tgo get -t " + strings.Join(pkgs, " ")
}

// workspaceHint adds to go list's message about a pattern outside every
// module of a workspace how to name them all: at a workspace's root,
// ./... matches no module unless the root is one.
func workspaceHint(msg string) string {
	if !strings.Contains(msg, "does not contain modules listed in go.work") {
		return msg
	}
	return strings.TrimRight(msg, "\n") + "\nin a workspace, the pattern work names every package of its modules (go help packages)"
}
