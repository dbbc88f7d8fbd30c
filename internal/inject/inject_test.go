package inject

import (
	"bufio"
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/overlay"
)

func TestRewriteKeepsLinesAndInsertsOneDefer(t *testing.T) {
	src := []byte("package p\n\n// F is f.\nfunc F(x int) int {\n\treturn x\n}\n\nfunc (t *T[K]) M() {}\n\ntype T[K any] struct{}\n")
	out, pkg, err := Rewrite("p.go", src, "F")
	require.NoError(t, err)
	assert.Equal(t, "p", pkg)
	assert.Equal(t, bytes.Count(src, []byte("\n")), bytes.Count(out, []byte("\n")), "line numbers must not move")
	assert.Contains(t, string(out), "func F(x int) int { defer gobenchdynABSSpin(gobenchdynABSNow());\n\treturn x\n}")
	assert.Equal(t, 1, strings.Count(string(out), "defer"))

	out, _, err = Rewrite("p.go", src, "T.M")
	require.NoError(t, err)
	assert.Contains(t, string(out), "func (t *T[K]) M() { defer gobenchdynABSSpin(gobenchdynABSNow());}")
	_, err = parser.ParseFile(token.NewFileSet(), "p.go", out, 0)
	require.NoError(t, err)
}

func TestRewriteRejects(t *testing.T) {
	src := []byte("package p\n\nfunc Asm(x int) int\n\nfunc F() {}\n")
	_, _, err := Rewrite("p.go", src, "Asm")
	require.ErrorIs(t, err, ErrNoBody)
	assert.Contains(t, err.Error(), "p.go:3:1")
	_, _, err = Rewrite("p.go", src, "G")
	require.ErrorContains(t, err, "no function G")
	_, _, err = Rewrite("p.go", []byte("package"), "F")
	require.Error(t, err)
}

func TestFuncName(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", "package p\nfunc A(){}\nfunc (T) B(){}\nfunc (*T) C(){}\nfunc (m *M[K, V]) D(){}\nfunc (x (T)) E(){}\n", 0)
	require.NoError(t, err)
	var names []string
	for _, d := range f.Decls {
		names = append(names, FuncName(d.(*ast.FuncDecl)))
	}
	assert.Equal(t, []string{"A", "T.B", "T.C", "M.D", "T.E"}, names)
}

// TestInjectedProgram compiles the slow fixture with its exported functions
// rewritten for v = 1 through an overlay and runs it. Lower bounds hold by
// construction (the spin waits until the call lasted twice its own time,
// less the clock cost, far under 0.1 ms), so they do not depend on load;
// the recursion bound only tells linear from compounded slowdown (up to
// 2⁶ at depth 6), with a wide margin.
func TestInjectedProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	dir, err := filepath.Abs("testdata/slow")
	require.NoError(t, err)
	path := filepath.Join(dir, "slow.go")
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	var pkg string
	for _, name := range []string{"Sleep1", "Rec", "Panics", "Gen", "Box.Get"} {
		src, pkg, err = Rewrite(path, src, name)
		require.NoError(t, err, name)
	}
	tmp := t.TempDir()
	ov, err := overlay.Write(tmp, map[string][]byte{
		path:                           src,
		filepath.Join(dir, HelperFile): Helper(pkg, 1),
	}, "")
	require.NoError(t, err)
	cmd := exec.Command("go", "run", "-overlay="+ov, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	got := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		got[k] = v
	}
	ns := func(k string) float64 {
		v, err := strconv.ParseFloat(got[k], 64)
		require.NoError(t, err, "%s in %s", k, out)
		return v
	}
	assert.GreaterOrEqual(t, ns("sleep1"), 1.9e6, "a 1ms call slowed by v=1 lasts at least 2ms, less the clock cost")
	assert.GreaterOrEqual(t, ns("rec"), 11.4e6, "six 1ms levels slowed by v=1 last at least 12ms, less the clock cost")
	assert.Less(t, ns("rec")/ns("plainrec"), 8.0, "recursion must not compound the slowdown")
	assert.Equal(t, "boom", got["recovered"], "a panic goes through unchanged")
	assert.Equal(t, "3 4", got["generic"])
}

func TestHelperIsGoSource(t *testing.T) {
	_, err := parser.ParseFile(token.NewFileSet(), HelperFile, Helper("p", 2.5), 0)
	require.NoError(t, err)
	assert.Contains(t, string(Helper("p", 2.5)), "const gobenchdynABSFactor = 2.5")
}

// The helper is added to modules of any age: it builds at the language
// version go 1.16, before generics and the min and max built-ins.
func TestHelperBuildsAtOldLanguageVersions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/old\n\ngo 1.16\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "old.go"), []byte("package old\n\n// F is slowed.\nfunc F() int { s := gobenchdynABSNow(); defer gobenchdynABSSpin(s); return 1 }\n"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, HelperFile), Helper("old", 0.5), 0o600))
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
}
