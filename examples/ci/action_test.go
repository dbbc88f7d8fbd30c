// Package ci checks the GitHub Action (action.yml at the repository root),
// the example workflows of this directory and the Makefile: their structure,
// that no input reaches a shell script as code, and what their scripts do
// when run against a stand-in gobench-dyn.
package ci

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// repoRoot is the repository root, relative to this package.
const repoRoot = "../.."

// actionMeta is the part of action.yml this test reads. Decoding is strict:
// a key not listed here, such as a misspelt "descripton", is an error.
type actionMeta struct {
	Name        string                  `yaml:"name"`
	Description string                  `yaml:"description"`
	Author      string                  `yaml:"author"`
	Branding    map[string]string       `yaml:"branding"`
	Inputs      map[string]actionInput  `yaml:"inputs"`
	Outputs     map[string]actionOutput `yaml:"outputs"`
	Runs        struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionInput struct {
	Description string  `yaml:"description"`
	Required    *bool   `yaml:"required"`
	Default     *string `yaml:"default"`
}

type actionOutput struct {
	Description string `yaml:"description"`
	Value       string `yaml:"value"`
}

type actionStep struct {
	ID               string            `yaml:"id"`
	Name             string            `yaml:"name"`
	If               string            `yaml:"if"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Env              map[string]string `yaml:"env"`
	WorkingDirectory string            `yaml:"working-directory"`
	ContinueOnError  string            `yaml:"continue-on-error"`
}

func readYAML(t *testing.T, path string) (*yaml.Node, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal(data, &doc), path)
	return &doc, data
}

func loadAction(t *testing.T) *actionMeta {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	require.NoError(t, err)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var a actionMeta
	require.NoError(t, dec.Decode(&a), "action.yml")
	return &a
}

func (a *actionMeta) step(t *testing.T, id string) actionStep {
	t.Helper()
	for _, s := range a.Runs.Steps {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("action.yml has no step with id %q", id)
	return actionStep{}
}

func TestActionMetadata(t *testing.T) {
	a := loadAction(t)
	assert.NotEmpty(t, a.Name)
	assert.NotEmpty(t, a.Description)
	assert.Contains(t, a.Description, "actions/setup-go", "the description says Go must be set up first")
	assert.Equal(t, "composite", a.Runs.Using)

	for _, name := range []string{"packages", "stop", "budget", "baseline", "threshold", "layout", "config", "bench", "args", "version", "working-directory"} {
		assert.Contains(t, a.Inputs, name, "input %s", name)
	}
	for name, in := range a.Inputs {
		assert.NotEmpty(t, strings.TrimSpace(in.Description), "input %s has no description", name)
		required := in.Required != nil && *in.Required
		assert.True(t, required || in.Default != nil, "input %s has neither a default nor required: true", name)
	}
	assert.Equal(t, "./...", *a.Inputs["packages"].Default)
	assert.Equal(t, "latest", *a.Inputs["version"].Default)

	for _, name := range []string{"results", "raw", "report", "regression"} {
		assert.Contains(t, a.Outputs, name, "output %s", name)
	}
	for name, out := range a.Outputs {
		assert.NotEmpty(t, out.Description, "output %s has no description", name)
		assert.Regexp(t, `^\$\{\{ steps\.[a-z-]+\.outputs\.[a-z-]+ \}\}$`, out.Value, "output %s", name)
	}

	ids := map[string]bool{}
	var uploads int
	for i, s := range a.Runs.Steps {
		label := fmt.Sprintf("step %d (%s)", i+1, s.Name)
		assert.NotEmpty(t, s.Name, label)
		assert.True(t, (s.Run == "") != (s.Uses == ""), "%s: exactly one of run and uses", label)
		if s.Run != "" {
			assert.Equal(t, "bash", s.Shell, "%s: a composite run step needs shell", label)
		}
		if s.ID != "" {
			assert.False(t, ids[s.ID], "%s: duplicate id %s", label, s.ID)
			ids[s.ID] = true
		}
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") {
			uploads++
			assert.Equal(t, "actions/upload-artifact@v4", s.Uses)
			assert.Contains(t, s.If, "always()", "%s: artifacts are uploaded even when the run fails", label)
		}
	}
	assert.Equal(t, 1, uploads, "one upload-artifact step")
	// Everything after the run step must happen whatever the run did.
	after := false
	for _, s := range a.Runs.Steps {
		if after {
			assert.Regexp(t, `always\(\)|!cancelled\(\)`, s.If, "step %q runs after a failed run", s.Name)
		}
		after = after || s.ID == "run"
	}
	assert.True(t, after, "a step with id run")
}

// exprRE matches one ${{ … }} expression.
var exprRE = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// refRE matches references to inputs and to step outputs inside an
// expression.
var refRE = regexp.MustCompile(`\b(inputs)\.([A-Za-z0-9_-]+)|\bsteps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)

// outputLineRE matches how a step script writes an output: a line
// `echo "name=…"` inside a block appended to $GITHUB_OUTPUT.
var outputLineRE = regexp.MustCompile(`(?m)^\s*echo "([a-z][a-z0-9-]*)=`)

// scalars calls fn with every scalar of the tree under n and the keys that
// lead to it.
func scalars(n *yaml.Node, path []string, fn func(path []string, value string)) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for i, c := range n.Content {
			p := path
			if n.Kind == yaml.SequenceNode {
				p = append(slices.Clip(path), fmt.Sprint(i))
			}
			scalars(c, p, fn)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			scalars(n.Content[i+1], append(slices.Clip(path), n.Content[i].Value), fn)
		}
	case yaml.ScalarNode:
		fn(path, n.Value)
	}
}

// TestActionExpressions checks every ${{ … }} of action.yml: inputs are
// declared and reach steps only through env, with and if (never as text of
// a shell script, where a crafted input would run as code), and every step
// output referred to is written by an earlier step.
func TestActionExpressions(t *testing.T) {
	a := loadAction(t)
	doc, _ := readYAML(t, filepath.Join(repoRoot, "action.yml"))

	written := map[string][]string{} // step id → outputs its script writes
	order := map[string]int{}
	for i, s := range a.Runs.Steps {
		if s.ID != "" {
			order[s.ID] = i
		}
		for _, m := range outputLineRE.FindAllStringSubmatch(s.Run, -1) {
			written[s.ID] = append(written[s.ID], m[1])
		}
		assert.NotContains(t, s.Run, "${{", "step %q: an expression inside a run script", s.Name)
	}

	used := map[string]bool{}
	scalars(doc, nil, func(path []string, value string) {
		where := strings.Join(path, ".")
		var exprs []string
		for _, m := range exprRE.FindAllStringSubmatch(value, -1) {
			exprs = append(exprs, m[1])
		}
		if len(path) > 0 && path[len(path)-1] == "if" {
			exprs = append(exprs, value) // if is an expression even without ${{ }}
		}
		if len(exprs) == 0 {
			return
		}
		if path[len(path)-1] == "run" {
			t.Errorf("%s: expression in a shell script: %s", where, value)
		}
		for _, e := range exprs {
			for _, m := range refRE.FindAllStringSubmatch(e, -1) {
				if m[1] == "inputs" {
					used[m[2]] = true
					assert.Contains(t, a.Inputs, m[2], "%s: undeclared input", where)
					field := path[len(path)-1]
					if len(path) >= 2 {
						field = path[len(path)-2]
					}
					ok := path[len(path)-1] == "if" || field == "env" || field == "with"
					assert.True(t, ok, "%s: inputs.%s used outside env, with and if", where, m[2])
					continue
				}
				id, out := m[3], m[4]
				require.Contains(t, written, id, "%s: no step %q writes outputs", where, id)
				assert.Contains(t, written[id], out, "%s: step %q does not write output %q", where, id, out)
				if path[0] == "runs" {
					var self int
					_, err := fmt.Sscan(path[2], &self)
					require.NoError(t, err, where)
					assert.Less(t, order[id], self, "%s: step %q runs later", where, id)
				}
			}
		}
	})
	for name := range a.Inputs {
		assert.True(t, used[name], "input %s is declared but never used", name)
	}
}

// TestActionLocalPaths checks that the files the action's steps refer to
// beside action.yml exist.
func TestActionLocalPaths(t *testing.T) {
	a := loadAction(t)
	pathRE := regexp.MustCompile(`\$\{?GITHUB_ACTION_PATH\}?/([A-Za-z0-9_./-]+)`)
	for _, s := range a.Runs.Steps {
		refs := pathRE.FindAllStringSubmatch(s.Run, -1)
		for _, v := range s.Env {
			refs = append(refs, regexp.MustCompile(`github\.action_path \}\}/([A-Za-z0-9_./-]+)`).FindAllStringSubmatch(v, -1)...)
		}
		for _, m := range refs {
			assert.FileExists(t, filepath.Join(repoRoot, m[1]), "step %q", s.Name)
		}
		if strings.HasPrefix(s.Uses, "./") {
			assert.FileExists(t, filepath.Join(repoRoot, s.Uses, "action.yml"), "step %q", s.Name)
		}
	}
}

// TestActionScriptsShellcheck runs shellcheck, when installed, on every
// script of the action (actionlint checks the scripts of workflows, not of
// composite actions).
func TestActionScriptsShellcheck(t *testing.T) {
	sc, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	for _, s := range loadAction(t).Runs.Steps {
		if s.Run == "" {
			continue
		}
		cmd := exec.Command(sc, "--shell=bash", "--severity=style", "-")
		cmd.Stdin = strings.NewReader(s.Run)
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "step %q:\n%s", s.Name, out)
	}
}
