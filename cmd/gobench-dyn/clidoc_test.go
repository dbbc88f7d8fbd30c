package main

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/cobra/doc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// updateDocs rewrites docs/cli from the commands' own help:
//
//	go generate ./cmd/gobench-dyn
var updateDocs = flag.Bool("update-docs", false, "rewrite docs/cli from the commands")

// genDocs writes the command reference, one Markdown file per command, into
// dir.
func genDocs(t *testing.T, dir string) {
	t.Helper()
	root := newRootCmd(systemIO())
	root.DisableAutoGenTag = true // no date: the files change only with the commands
	require.NoError(t, doc.GenMarkdownTree(root, dir))
}

// TestCLIDocsUpToDate checks that docs/cli is what the commands' help says
// today: a flag added, renamed or explained anew without regenerating the
// reference fails here.
func TestCLIDocsUpToDate(t *testing.T) {
	want := filepath.Join(moduleRoot(t), "docs", "cli")
	if *updateDocs {
		require.NoError(t, os.RemoveAll(want))
		require.NoError(t, os.MkdirAll(want, 0o755))
		genDocs(t, want)
	}
	got := t.TempDir()
	genDocs(t, got)
	gen, err := filepath.Glob(filepath.Join(got, "*.md"))
	require.NoError(t, err)
	have, err := filepath.Glob(filepath.Join(want, "*.md"))
	require.NoError(t, err)
	require.Len(t, have, len(gen), "docs/cli has other files than the commands: run go generate ./cmd/gobench-dyn")
	for _, g := range gen {
		b, err := os.ReadFile(g)
		require.NoError(t, err)
		w, err := os.ReadFile(filepath.Join(want, filepath.Base(g)))
		require.NoError(t, err, "docs/cli lacks %s: run go generate ./cmd/gobench-dyn", filepath.Base(g))
		assert.Equal(t, string(b), string(w), "docs/cli/%s is stale: run go generate ./cmd/gobench-dyn", filepath.Base(g))
	}
}
