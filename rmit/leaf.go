package rmit

import (
	"regexp"
	"strconv"
	"strings"
)

// LeafPattern returns a -test.bench pattern that selects exactly the leaf
// benchmark with the given name, as go test prints it without the -N
// GOMAXPROCS suffix: "BenchmarkX/size=16" gives `^BenchmarkX$/^size=16$`.
//
// go test matches each level of a slash-separated pattern against the
// same level of the name, after rewriting spaces to underscores and
// numbering duplicates with #01, #02, …; the printed name already carries
// both, so quoting each printed level selects the leaf and nothing else.
func LeafPattern(name string) string {
	levels := strings.Split(name, "/")
	for i, l := range levels {
		levels[i] = "^" + regexp.QuoteMeta(l) + "$"
	}
	return strings.Join(levels, "/")
}

// SplitProcs splits the GOMAXPROCS suffix off a printed benchmark name.
// go test appends "-N" to every name when it runs with GOMAXPROCS N other
// than 1, so the suffix is stripped only when it equals procs.
func SplitProcs(name string, procs int) (base string) {
	if procs == 1 {
		return name
	}
	suffix := "-" + strconv.Itoa(procs)
	if b, ok := strings.CutSuffix(name, suffix); ok && b != "" {
		return b
	}
	return name
}

// WithProcs returns the printed name of base run at GOMAXPROCS procs.
func WithProcs(base string, procs int) string {
	if procs == 1 {
		return base
	}
	return base + "-" + strconv.Itoa(procs)
}
