package rmit

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// matchLevels mimics go test's per-level matching of a -test.bench pattern.
func matchLevels(t *testing.T, pattern, name string) bool {
	t.Helper()
	pats := strings.Split(pattern, "/")
	elems := strings.Split(name, "/")
	if len(pats) != len(elems) {
		return false
	}
	for i := range pats {
		if !regexp.MustCompile(pats[i]).MatchString(elems[i]) {
			return false
		}
	}
	return true
}

func TestLeafPattern(t *testing.T) {
	names := []string{
		"BenchmarkPlain",
		"BenchmarkSizes/size=16",
		"BenchmarkMeta/a+b(c)",
		"BenchmarkMeta/[x]*.?",
		"BenchmarkSpace/with_space",
		"BenchmarkUnicode/größe=ü",
		"BenchmarkDup/dup",
		"BenchmarkDup/dup#01",
		"BenchmarkDollar/$^|",
	}
	for _, n := range names {
		p := LeafPattern(n)
		for _, other := range names {
			assert.Equal(t, n == other, matchLevels(t, p, other), "pattern %q against %q", p, other)
		}
	}
	assert.Equal(t, `^BenchmarkMeta$/^a\+b\(c\)$`, LeafPattern("BenchmarkMeta/a+b(c)"))
}

func TestSplitProcs(t *testing.T) {
	assert.Equal(t, "BenchmarkX/a", SplitProcs("BenchmarkX/a-8", 8))
	assert.Equal(t, "BenchmarkX/a-8", SplitProcs("BenchmarkX/a-8", 4))
	assert.Equal(t, "BenchmarkX-8", SplitProcs("BenchmarkX-8", 1))
	assert.Equal(t, "BenchmarkX/n-2", SplitProcs("BenchmarkX/n-2-2", 2))
	assert.Equal(t, "BenchmarkX-2", WithProcs("BenchmarkX", 2))
	assert.Equal(t, "BenchmarkX", WithProcs("BenchmarkX", 1))
}
