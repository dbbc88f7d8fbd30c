package rmit

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCodeIDFollowsTheCode: a package's CodeID stays while its code does,
// and changes with the body of a function that is not inlined, in the
// package or in one it imports, where the test binary's main package
// keeps its build ID.
func TestCodeIDFollowsTheCode(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("go.mod", "module example.com/code\n\ngo 1.24\n")
	write("p_test.go", "package code\n\nimport \"testing\"\n\nfunc BenchmarkWork(b *testing.B) {\n\tfor b.Loop() {\n\t\tWork(3)\n\t}\n}\n")
	write("dep/dep.go", "package dep\n\n//go:noinline\nfunc F(x int) int { return x * 7 }\n")
	work := func(k string) string {
		return "package code\n\nimport \"example.com/code/dep\"\n\n//go:noinline\nfunc Work(x int) int { return dep.F(x) * " + k + " }\n"
	}
	id := func() string {
		t.Helper()
		p := &Package{ImportPath: "example.com/code"}
		require.NoError(t, setCodeIDs(context.Background(), dir, nil, []*Package{p}))
		require.NotEmpty(t, p.CodeID)
		return p.CodeID
	}
	write("p.go", work("3"))
	first := id()
	assert.Equal(t, first, id(), "the same code")
	write("p.go", work("5"))
	second := id()
	assert.NotEqual(t, first, second, "a body in the package")
	write("dep/dep.go", "package dep\n\n//go:noinline\nfunc F(x int) int { return x * 9 }\n")
	assert.NotEqual(t, second, id(), "a body in a package it imports")
}
