package ci

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// actionlintModule is the pinned actionlint that checks the workflows.
const actionlintModule = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12"

// workflows are the example workflows of this directory.
var workflows = []string{"bench.yml", "shard.yml", "history.yml"}

var (
	actionlintOnce sync.Once
	actionlintDir  string // removed by TestMain
	actionlintBin  string
	actionlintErr  error
)

// actionlint installs the pinned actionlint once per test binary, through
// the module proxy, in a directory of its own: go install of a pinned
// version leaves go.mod alone. It skips the test when that is impossible,
// typically offline.
func actionlint(t *testing.T) string {
	t.Helper()
	actionlintOnce.Do(func() {
		actionlintDir, actionlintErr = os.MkdirTemp("", "actionlint-")
		if actionlintErr != nil {
			return
		}
		bin := filepath.Join(actionlintDir, "bin")
		cmd := exec.Command("go", "install", actionlintModule)
		cmd.Dir = actionlintDir
		cmd.Env = append(os.Environ(), "GOBIN="+bin, "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			actionlintErr = &installError{err: err, out: out}
			return
		}
		actionlintBin = filepath.Join(bin, "actionlint")
	})
	if actionlintErr != nil {
		t.Skipf("actionlint cannot be installed (offline?), so the workflows are not linted: %v", actionlintErr)
	}
	return actionlintBin
}

type installError struct {
	err error
	out []byte
}

func (e *installError) Error() string {
	return "go install " + actionlintModule + ": " + e.err.Error() + "\n" + string(e.out)
}

// lint runs actionlint on files in dir; shellcheck also checks the run
// scripts when it is installed.
func lint(t *testing.T, dir string, files ...string) {
	t.Helper()
	cmd := exec.Command(actionlint(t), append([]string{"-no-color"}, files...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	assert.NoError(t, err, "actionlint %s:\n%s", strings.Join(files, " "), out)
}

func TestWorkflowsActionlint(t *testing.T) {
	for _, wf := range workflows {
		t.Run(wf, func(t *testing.T) {
			lint(t, ".", wf)
		})
	}
}

// TestWorkflowUsesAction lints bench.yml as if it used the action of this
// repository ("uses: ./"), so that actionlint checks the inputs it passes
// against action.yml, in a scratch repository holding the two files.
func TestWorkflowUsesAction(t *testing.T) {
	bin := actionlint(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed; actionlint finds local actions in a repository")
	}
	wf, err := os.ReadFile("bench.yml")
	require.NoError(t, err)
	const published = "uses: gobench-dyn/gobench-dyn@v1"
	require.Contains(t, string(wf), published)
	local := bytes.ReplaceAll(wf, []byte(published), []byte("uses: ./"))

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".github", "workflows"), 0o700))
	action, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "action.yml"), action, 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".github", "workflows", "bench.yml"), local, 0o600))
	out, err := exec.Command(git, "init", "-q", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)

	cmd := exec.Command(bin, "-no-color", filepath.Join(".github", "workflows", "bench.yml"))
	cmd.Dir = dir
	out, err = cmd.CombinedOutput()
	assert.NoError(t, err, "actionlint:\n%s", out)

	// The check is live: an input action.yml does not declare is caught.
	bad := bytes.Replace(local, []byte("budget:"), []byte("time-budget:"), 1)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".github", "workflows", "bench.yml"), bad, 0o600))
	cmd = exec.Command(bin, "-no-color", filepath.Join(".github", "workflows", "bench.yml"))
	cmd.Dir = dir
	out, err = cmd.CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), `input "time-budget" is not defined`)
}

// workflow is the part of a workflow file the structural checks read.
type workflow struct {
	Name string                 `yaml:"name"`
	On   map[string]any         `yaml:"on"`
	Jobs map[string]workflowJob `yaml:"jobs"`
}

type workflowJob struct {
	RunsOn string         `yaml:"runs-on"`
	Steps  []workflowStep `yaml:"steps"`
}

type workflowStep struct {
	ID   string            `yaml:"id"`
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

func readWorkflow(t *testing.T, path string) *workflow {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var wf workflow
	require.NoError(t, yaml.Unmarshal(data, &wf), path)
	return &wf
}

// TestWorkflowStructure checks what any workflow needs, without actionlint.
func TestWorkflowStructure(t *testing.T) {
	for _, name := range workflows {
		t.Run(name, func(t *testing.T) {
			wf := readWorkflow(t, name)
			assert.NotEmpty(t, wf.Name)
			assert.NotEmpty(t, wf.On, "on: names the events")
			require.NotEmpty(t, wf.Jobs)
			for id, j := range wf.Jobs {
				assert.NotEmpty(t, j.RunsOn, "job %s: runs-on", id)
				require.NotEmpty(t, j.Steps, "job %s: steps", id)
				for i, s := range j.Steps {
					assert.True(t, (s.Uses == "") != (s.Run == ""), "job %s step %d: exactly one of uses and run", id, i+1)
					assert.NotContains(t, s.Run, "${{ github.head_ref", "job %s step %d: a branch name is attacker-chosen text", id, i+1)
				}
			}
		})
	}
}

// TestBenchWorkflow checks that bench.yml uses the action as its comment
// says: on pull requests, after a full-history checkout and Go, against
// the base branch, within a budget, passing only inputs the action has.
func TestBenchWorkflow(t *testing.T) {
	wf := readWorkflow(t, "bench.yml")
	assert.Contains(t, wf.On, "pull_request")
	require.Len(t, wf.Jobs, 1)
	a := loadAction(t)
	for _, j := range wf.Jobs {
		idx := map[string]int{}
		for i, s := range j.Steps {
			if at := strings.Index(s.Uses, "@"); at > 0 {
				idx[s.Uses[:at]] = i
			}
			if s.Uses == "./" {
				idx["gobench-dyn/gobench-dyn"] = i
			}
		}
		require.Contains(t, idx, "actions/checkout")
		require.Contains(t, idx, "actions/setup-go")
		require.Contains(t, idx, "gobench-dyn/gobench-dyn")
		checkout, bench := j.Steps[idx["actions/checkout"]], j.Steps[idx["gobench-dyn/gobench-dyn"]]
		assert.Equal(t, "actions/checkout@v4", checkout.Uses)
		assert.Equal(t, "0", checkout.With["fetch-depth"], "the baseline needs the history")
		assert.Equal(t, "actions/setup-go@v5", j.Steps[idx["actions/setup-go"]].Uses)
		assert.Less(t, idx["actions/checkout"], idx["gobench-dyn/gobench-dyn"])
		assert.Less(t, idx["actions/setup-go"], idx["gobench-dyn/gobench-dyn"])

		assert.Equal(t, "merge-base:origin/${{ github.base_ref || github.event.repository.default_branch }}", bench.With["baseline"],
			"the merge base, for pull requests and pushes alike")
		assert.NotEmpty(t, bench.With["budget"])
		for k := range bench.With {
			assert.Contains(t, a.Inputs, k, "bench.yml passes an input action.yml does not declare")
		}
		// Outputs the workflow reads must exist: GitHub gives an empty
		// string for a misspelt one.
		require.NotEmpty(t, bench.ID)
		data, err := os.ReadFile("bench.yml")
		require.NoError(t, err)
		refs := regexp.MustCompile(`steps\.`+regexp.QuoteMeta(bench.ID)+`\.outputs\.([A-Za-z0-9_-]+)`).FindAllStringSubmatch(string(data), -1)
		require.NotEmpty(t, refs)
		for _, m := range refs {
			assert.Contains(t, a.Outputs, m[1], "bench.yml reads an output action.yml does not declare")
		}
	}
}

// makeDryRun returns the commands make would run for target, with vars
// set on the command line.
func makeDryRun(t *testing.T, target string, vars ...string) string {
	t.Helper()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Skip("make is not installed")
	}
	cmd := exec.Command(mk, append([]string{"--no-print-directory", "-n", target}, vars...)...)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "MAKEFLAGS=")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "make -n %s:\n%s", target, out)
	return strings.TrimSpace(string(out))
}

func TestMakefile(t *testing.T) {
	assert.Equal(t, "go run ./cmd/gobench-dyn run ./examples/... -o bench.txt --raw bench.jsonl", makeDryRun(t, "bench"))
	assert.Equal(t, "go run ./cmd/gobench-dyn run ./examples/stable -o bench.txt --raw bench.jsonl --stop cv --budget 5m",
		makeDryRun(t, "bench", "PKGS=./examples/stable", "ARGS=--stop cv --budget 5m"))
	assert.Contains(t, makeDryRun(t, "bench-compare"), "gobench-dyn run ./examples/... --baseline origin/main ")
	assert.Contains(t, makeDryRun(t, "bench-compare", "BASE=v1.0.0"), " --baseline v1.0.0 ")
	assert.Equal(t, "go run ./cmd/gobench-dyn report --html report.html --markdown report.md bench.jsonl", makeDryRun(t, "report"))
	assert.Equal(t, "go test ./...", makeDryRun(t, "test"))

	data, err := os.ReadFile(filepath.Join(repoRoot, "Makefile"))
	require.NoError(t, err)
	for _, target := range []string{"bench", "bench-compare", "report", "test"} {
		assert.Regexp(t, `(?m)^\.PHONY:.*\b`+target+`\b`, string(data), target)
	}
}

// TestCommandLinesParse runs the command lines of the Makefile and of the
// action with the gobench-dyn of this module and --help: cobra parses
// every flag before it sees --help, so an unknown or misspelt flag fails.
func TestCommandLinesParse(t *testing.T) {
	bin := gobenchDyn(t)
	for _, target := range []string{"bench", "bench-compare", "report"} {
		line := makeDryRun(t, target, "GOBENCH_DYN="+bin)
		require.NotContains(t, line, `'`, "split on blanks below")
		args := strings.Fields(line)
		require.Equal(t, bin, args[0])
		cmd := exec.Command(bin, append(args[1:], "--help")...)
		out, err := cmd.CombinedOutput()
		assert.NoError(t, err, "make %s: %s\n%s", target, line, out)
	}

	// The action's scripts build their arguments flag by flag; every
	// flag they name must be one of run's or report's.
	a := loadAction(t)
	for _, sub := range []string{"run", "report"} {
		var flags []string
		for _, s := range a.Runs.Steps {
			for line := range strings.Lines(s.Run) {
				if sub == "run" && strings.Contains(line, "args") && strings.Contains(line, "=(") ||
					sub == "report" && strings.Contains(line, `"$GOBENCH_DYN" report`) {
					for _, f := range strings.Fields(strings.NewReplacer("(", " ", ")", " ").Replace(line)) {
						if strings.HasPrefix(f, "-") && f != "--" && !strings.HasPrefix(f, "-n") && !strings.HasPrefix(f, "-s") {
							flags = append(flags, f)
						}
					}
				}
			}
		}
		want := map[string][]string{
			"run":    {"-o", "--raw", "--bench", "--stop", "--budget", "--config", "--baseline", "--baseline-out", "--min-change"},
			"report": {"--markdown", "--html"},
		}
		require.Subset(t, flags, want[sub], "the flags found in the scripts")
		for _, f := range flags {
			args := []string{sub, "--help"}
			if f != "-o" && !strings.HasPrefix(f, "--") {
				t.Errorf("%s: unexpected flag %q", sub, f)
				continue
			}
			value := "x"
			switch f {
			case "--stop":
				value = "cv"
			case "--budget":
				value = "1m"
			case "--min-change":
				value = "0.05"
			case "--explain":
				value = "true"
			}
			args = append(args, f+"="+value)
			out, err := exec.Command(bin, args...).CombinedOutput()
			assert.NoError(t, err, "gobench-dyn %s does not accept %s:\n%s", sub, f, out)
		}
	}
}
