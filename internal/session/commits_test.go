package session

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func TestBenchPattern(t *testing.T) {
	p := BenchPattern([]record.Bench{{Benchmark: "BenchmarkA/size=1-8"}, {Benchmark: "BenchmarkB-8"}, {Benchmark: "BenchmarkA/x.y-8"}})
	assert.Equal(t, `^(BenchmarkA|BenchmarkB|BenchmarkB-8)$/^(size=1|size=1-8|x\.y|x\.y-8)$`, p)
	for _, name := range []string{"BenchmarkB", "BenchmarkA"} {
		assert.Regexp(t, strings.Split(p, "/")[0], name)
	}
}
