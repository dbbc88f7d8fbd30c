package ci

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary doubles as a stand-in for go and gobench-dyn in the
// action's scripts: run through a link named go or gobench-dyn with
// stubLogEnv set, it records its arguments and plays the part.
const (
	stubLogEnv    = "CI_TEST_STUB_LOG"
	stubExitEnv   = "CI_TEST_STUB_EXIT"   // exit status of gobench-dyn run
	stubStderrEnv = "CI_TEST_STUB_STDERR" // what gobench-dyn run prints on stderr
	stubRealEnv   = "CI_TEST_STUB_REAL"   // if set, go install links this binary instead
	realGoEnv     = "CI_TEST_REAL_GO"     // the go command the go stand-in passes the rest to
	// stubVerdictsEnv is the verdicts JSON gobench-dyn run writes to
	// --json, if set.
	stubVerdictsEnv = "CI_TEST_STUB_VERDICTS"
)

func TestMain(m *testing.M) {
	if log := os.Getenv(stubLogEnv); log != "" {
		os.Exit(stubMain(log, filepath.Base(os.Args[0]), os.Args[1:]))
	}
	code := m.Run()
	for _, dir := range []string{builtDir, actionlintDir} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// A stubCall is one invocation of a stand-in.
type stubCall struct {
	Name string   `json:"name"`
	Args []string `json:"args"`
	Dir  string   `json:"dir"`
	Env  []string `json:"env,omitempty"`
}

func stubMain(log, name string, args []string) int {
	dir, _ := os.Getwd()
	call := stubCall{Name: name, Args: args, Dir: dir}
	if name == "go" {
		call.Env = []string{"GOBIN=" + os.Getenv("GOBIN")}
	}
	line, _ := json.Marshal(call)
	f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stub:", err)
		return 3
	}
	fmt.Fprintf(f, "%s\n", line)
	f.Close()

	switch {
	case name == "go" && (len(args) == 0 || args[0] != "install"):
		// gobench-dyn itself runs go list and go test -c.
		cmd := exec.Command(os.Getenv(realGoEnv), args...)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode()
			}
			fmt.Fprintln(os.Stderr, "stub go:", err)
			return 3
		}
		return 0
	case name == "go":
		if len(args) != 2 {
			fmt.Fprintln(os.Stderr, "stub go: want install PKG@VERSION")
			return 3
		}
		target := os.Getenv(stubRealEnv)
		if target == "" {
			target, _ = os.Executable()
		}
		if err := os.Symlink(target, filepath.Join(os.Getenv("GOBIN"), "gobench-dyn")); err != nil {
			fmt.Fprintln(os.Stderr, "stub go:", err)
			return 1
		}
		return 0
	case name != "gobench-dyn":
		fmt.Fprintln(os.Stderr, "stub: unknown name", name)
		return 3
	case len(args) > 0 && args[0] == "--help":
		return 0
	case len(args) > 0 && args[0] == "run":
		code, _ := strconv.Atoi(os.Getenv(stubExitEnv))
		fmt.Fprint(os.Stderr, os.Getenv(stubStderrEnv))
		if code == 2 {
			return code // bad input: nothing written
		}
		files := flagValues(args)
		write := func(flag, content string) {
			if path := files[flag]; path != "" {
				_ = os.WriteFile(path, []byte(content), 0o600)
			}
		}
		write("-o", "BenchmarkStub-2 \t 100 \t 10.0 ns/op\n")
		write("--baseline-out", "BenchmarkStub-2 \t 100 \t 9.0 ns/op\n")
		write("--raw", "{\"stub\":true}\n")
		if doc := os.Getenv(stubVerdictsEnv); doc != "" {
			write("--json", doc)
		}
		return code
	case len(args) > 0 && args[0] == "report":
		files := flagValues(args)
		_ = os.WriteFile(files["--markdown"], []byte("| stub report |\n"), 0o600)
		_ = os.WriteFile(files["--html"], []byte("<!DOCTYPE html>\n"), 0o600)
		return 0
	}
	fmt.Fprintln(os.Stderr, "stub gobench-dyn: unexpected", args)
	return 3
}

// flagValues returns the values of the flags before "--" that take a file.
func flagValues(args []string) map[string]string {
	v := map[string]string{}
	for i := 0; i+1 < len(args) && args[i] != "--"; i++ {
		switch args[i] {
		case "-o", "--raw", "--baseline-out", "--json", "--markdown", "--html":
			v[args[i]] = args[i+1]
		}
	}
	return v
}

// A job runs the steps of the action as the GitHub runner does, in
// directories of its own, and keeps what they leave behind.
type job struct {
	t         *testing.T
	action    *actionMeta
	dir       string // private to the job: runner temp, stubs, files
	workspace string
	stubBin   string
	stubLog   string
	summary   string
	env       []string
	outputs   map[string]map[string]string // step id → outputs
}

func newJob(t *testing.T) *job {
	dir := t.TempDir()
	j := &job{
		t:         t,
		action:    loadAction(t),
		dir:       dir,
		workspace: filepath.Join(dir, "workspace"),
		stubBin:   filepath.Join(dir, "stubbin"),
		stubLog:   filepath.Join(dir, "calls.jsonl"),
		summary:   filepath.Join(dir, "summary.md"),
		outputs:   map[string]map[string]string{},
	}
	for _, d := range []string{j.workspace, j.stubBin, filepath.Join(dir, "runner-temp")} {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
	self, err := os.Executable()
	require.NoError(t, err)
	require.NoError(t, os.Symlink(self, filepath.Join(j.stubBin, "go")))
	realGo, err := exec.LookPath("go")
	require.NoError(t, err)
	j.env = []string{
		"PATH=" + j.stubBin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		stubLogEnv + "=" + j.stubLog,
		realGoEnv + "=" + realGo,
		"GITHUB_STEP_SUMMARY=" + j.summary,
		"GITHUB_WORKSPACE=" + j.workspace,
		"RUNNER_TEMP=" + filepath.Join(dir, "runner-temp"),
	}
	return j
}

var (
	inputExprRE  = regexp.MustCompile(`^\$\{\{ inputs\.([A-Za-z0-9_-]+) \}\}$`)
	outputExprRE = regexp.MustCompile(`^\$\{\{ steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+) \}\}$`)
)

// eval evaluates the one kind of expression the action passes to scripts:
// a whole value that is an input or a step output.
func (j *job) eval(expr string, inputs map[string]string) string {
	if m := inputExprRE.FindStringSubmatch(expr); m != nil {
		if v, ok := inputs[m[1]]; ok {
			return v
		}
		in, ok := j.action.Inputs[m[1]]
		require.True(j.t, ok, "undeclared input %s", m[1])
		if in.Default == nil {
			return ""
		}
		return *in.Default
	}
	if m := outputExprRE.FindStringSubmatch(expr); m != nil {
		return j.outputs[m[1]][m[2]]
	}
	j.t.Fatalf("expression %q is more than one input or step output", expr)
	return ""
}

// runStep runs the script of step id with inputs, as a composite action
// step with shell: bash runs, and returns its exit status and output.
func (j *job) runStep(id string, inputs map[string]string, extraEnv ...string) (int, string) {
	t := j.t
	s := j.action.step(t, id)
	require.Equal(t, "bash", s.Shell)
	script := filepath.Join(j.dir, id+".sh")
	require.NoError(t, os.WriteFile(script, []byte(s.Run), 0o600))
	outFile := filepath.Join(j.dir, id+".out")
	require.NoError(t, os.WriteFile(outFile, nil, 0o600))

	env := append(append([]string{}, j.env...), "GITHUB_OUTPUT="+outFile)
	env = append(env, extraEnv...)
	for k, v := range s.Env {
		env = append(env, k+"="+j.eval(v, inputs))
	}
	// The runner's command line for shell: bash.
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = j.workspace
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		require.True(t, ok, "step %s: %v", id, err)
		code = ee.ExitCode()
	}

	data, err := os.ReadFile(outFile)
	require.NoError(t, err)
	outs := map[string]string{}
	for line := range strings.Lines(string(data)) {
		k, v, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "=")
		require.True(t, ok, "step %s: bad output line %q", id, line)
		outs[k] = v
	}
	j.outputs[id] = outs
	return code, string(out)
}

// calls returns the stand-ins' invocations so far.
func (j *job) calls() []stubCall {
	f, err := os.Open(j.stubLog)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(j.t, err)
	defer f.Close()
	var calls []stubCall
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c stubCall
		require.NoError(j.t, json.Unmarshal(sc.Bytes(), &c))
		calls = append(calls, c)
	}
	require.NoError(j.t, sc.Err())
	return calls
}

func (j *job) callsOf(name, sub string) []stubCall {
	var out []stubCall
	for _, c := range j.calls() {
		if c.Name == name && (sub == "" || len(c.Args) > 0 && c.Args[0] == sub) {
			out = append(out, c)
		}
	}
	return out
}

func (j *job) readSummary() string {
	data, err := os.ReadFile(j.summary)
	if os.IsNotExist(err) {
		return ""
	}
	require.NoError(j.t, err)
	return string(data)
}

// actionResult is what one use of the action leaves.
type actionResult struct {
	installLog, runLog, summaryLog, verdictLog string
	verdict                                    int  // exit status of the last step
	verdictRan                                 bool // whether the last step's condition held
	outputs                                    map[string]string
}

// runAction runs the action's script steps in order, with the run step's
// gobench-dyn stand-in exiting with runExit after printing runStderr. The
// upload step is a uses step and is not run.
func (j *job) runAction(inputs map[string]string, runExit int, runStderr string) actionResult {
	t := j.t
	var r actionResult
	code, out := j.runStep("paths", inputs)
	require.Equal(t, 0, code, "install step:\n%s", out)
	r.installLog = out

	code, out = j.runStep("run", inputs, fmt.Sprintf("%s=%d", stubExitEnv, runExit), stubStderrEnv+"="+runStderr)
	require.Equal(t, 0, code, "the run step succeeds whatever gobench-dyn did, so that the summary and the artifact follow:\n%s", out)
	r.runLog = out

	code, out = j.runStep("summary", inputs)
	require.Equal(t, 0, code, "summary step:\n%s", out)
	r.summaryLog = out

	// The condition of the last step, evaluated by hand: the metadata
	// test checks that it is the one written here.
	require.Equal(t, "${{ always() && steps.run.outputs.exit-code != '' && steps.run.outputs.exit-code != '0' }}", j.action.step(t, "verdict").If)
	if ec := j.outputs["run"]["exit-code"]; ec != "" && ec != "0" {
		r.verdictRan = true
		r.verdict, r.verdictLog = j.runStep("verdict", inputs)
	}

	r.outputs = map[string]string{}
	for name, o := range j.action.Outputs {
		r.outputs[name] = j.eval(o.Value, inputs)
	}
	return r
}

func TestActionDefaults(t *testing.T) {
	j := newJob(t)
	r := j.runAction(nil, 0, "")

	goCalls := j.callsOf("go", "")
	require.Len(t, goCalls, 1)
	assert.Equal(t, []string{"install", "github.com/gobench-dyn/gobench-dyn/cmd/gobench-dyn@latest"}, goCalls[0].Args)
	gobin := strings.TrimPrefix(goCalls[0].Env[0], "GOBIN=")
	assert.True(t, strings.HasPrefix(gobin, filepath.Join(j.dir, "runner-temp")), "installs into the runner's temporary directory, not %s", gobin)

	runs := j.callsOf("gobench-dyn", "run")
	require.Len(t, runs, 1)
	out := r.outputs
	assert.Equal(t, []string{"run", "-o", out["results"], "--raw", out["raw"], "./..."}, runs[0].Args)
	assert.Equal(t, j.workspace, runs[0].Dir)
	assert.False(t, strings.HasPrefix(out["results"], j.workspace), "outputs stay out of the checkout")

	assert.Equal(t, "0", out["exit-code"])
	assert.Equal(t, "false", out["regression"])
	assert.FileExists(t, out["results"])
	assert.FileExists(t, out["raw"])
	assert.FileExists(t, out["report"])
	assert.FileExists(t, out["markdown"])
	assert.Contains(t, r.runLog, "BenchmarkStub", "the results are shown in the log")

	reports := j.callsOf("gobench-dyn", "report")
	require.Len(t, reports, 1)
	assert.Equal(t, []string{"report", "--markdown", out["markdown"], "--html", out["report"], "--", out["raw"]}, reports[0].Args)
	summary := j.readSummary()
	assert.Contains(t, summary, "succeeded")
	assert.Contains(t, summary, "| stub report |")
	assert.False(t, r.verdictRan)

	// The artifact is the directory holding every file above.
	up := j.action.Runs.Steps[stepUsing(j.action, "actions/upload-artifact@v4")]
	assert.Equal(t, "${{ steps.paths.outputs.out }}", up.With["path"])
	for _, name := range []string{"results", "raw", "report", "markdown"} {
		assert.Equal(t, j.outputs["paths"]["out"], filepath.Dir(out[name]), name)
	}
}

// stepUsing returns the index of the step that uses uses, or -1.
func stepUsing(a *actionMeta, uses string) int {
	for i, s := range a.Runs.Steps {
		if s.Uses == uses {
			return i
		}
	}
	return -1
}

// TestActionInputsAreNotCode gives every input a value that would run a
// command, expand a glob or split into several arguments if a script
// treated it as shell text.
func TestActionInputsAreNotCode(t *testing.T) {
	j := newJob(t)
	work := filepath.Join(j.workspace, "my module")
	require.NoError(t, os.MkdirAll(work, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(work, "main.go"), nil, 0o600))
	inputs := map[string]string{
		"version":           "v1.2.3 $(touch pwned-version)",
		"packages":          "./a/...\n  ./b/...\t* $(touch pwned-packages)",
		"bench":             "A|B;touch pwned-bench",
		"stop":              "cv`touch pwned-stop`",
		"budget":            "10m",
		"baseline":          "origin/main",
		"threshold":         "0.05",
		"layout":            "fixed $(touch pwned-layout)",
		"config":            "my config.json",
		"args":              "--slice-time 200ms\n--fail-on time,allocs",
		"working-directory": work,
	}
	r := j.runAction(inputs, 0, "")

	goCalls := j.callsOf("go", "")
	require.Len(t, goCalls, 1)
	assert.Equal(t, []string{"install", "github.com/gobench-dyn/gobench-dyn/cmd/gobench-dyn@v1.2.3 $(touch pwned-version)"}, goCalls[0].Args)

	runs := j.callsOf("gobench-dyn", "run")
	require.Len(t, runs, 1)
	out := r.outputs
	assert.Equal(t, []string{
		"run", "-o", out["results"], "--raw", out["raw"],
		"--bench", "A|B;touch pwned-bench",
		"--stop", "cv`touch pwned-stop`",
		"--budget", "10m",
		"--config", "my config.json",
		"--baseline", "origin/main", "--baseline-out", out["baseline-results"], "--json", out["verdicts"], "--min-change", "0.05",
		"--layout", "fixed $(touch pwned-layout)",
		"--explain", "--explain-dir", filepath.Join(j.outputs["paths"]["out"], "explain"),
		"./a/...", "./b/...", "*", "$(touch", "pwned-packages)",
		"--slice-time", "200ms", "--fail-on", "time,allocs",
	}, runs[0].Args)
	assert.Equal(t, work, runs[0].Dir)
	assert.FileExists(t, out["baseline-results"])

	err := filepath.WalkDir(j.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), "pwned") {
			t.Errorf("an input ran as a command: %s exists", path)
		}
		return err
	})
	require.NoError(t, err)
}

// A package input that starts with "-" is not read as a flag of run: the
// step refuses it, exit status 2, without running anything.
func TestActionPackageLikeAFlag(t *testing.T) {
	j := newJob(t)
	r := j.runAction(map[string]string{"packages": "./... --baseline=HEAD"}, 0, "")
	assert.Equal(t, "2", r.outputs["exit-code"])
	assert.Empty(t, j.callsOf("gobench-dyn", "run"))
	assert.Contains(t, r.runLog, "packages: --baseline=HEAD is not a package pattern")
}

// verdictsDoc is a verdicts document (docs/VERDICTS.md) holding one
// comparison per verdict given, failing the gate where fails says.
func verdictsDoc(partial bool, verdicts map[string]bool) string {
	var cs []string
	failed := false
	for v, fails := range verdicts {
		cs = append(cs, fmt.Sprintf(`{"bench":"BenchmarkStub-2","unit":"ns/op","verdict":%q,"fails":%t}`, v, fails))
		failed = failed || fails
	}
	return fmt.Sprintf(`{"schema_version":1,"comparisons":[%s],"failed":%t,"partial":%t}`, strings.Join(cs, ","), failed, partial)
}

// The outputs come from the verdicts file, not from the log: a log that
// says nothing of a regression does not hide the one the verdicts hold.
func TestActionRegression(t *testing.T) {
	j := newJob(t)
	j.env = append(j.env, stubVerdictsEnv+"="+verdictsDoc(false, map[string]bool{"regression": true, "no change": false}))
	inputs := map[string]string{"baseline": "origin/main"}
	r := j.runAction(inputs, 1, "gobench-dyn: exit 1\n")

	assert.Equal(t, "1", r.outputs["exit-code"])
	assert.Equal(t, "true", r.outputs["regression"])
	assert.Contains(t, j.readSummary(), "**Regression** against the baseline origin/main")
	assert.Contains(t, j.readSummary(), "| stub report |", "the report is written before the step fails")
	assert.FileExists(t, r.outputs["report"])
	require.True(t, r.verdictRan)
	assert.Equal(t, 1, r.verdict, "the regression fails the action")
	assert.Contains(t, r.verdictLog, "::error")

	log, err := os.ReadFile(j.outputs["paths"]["log"])
	require.NoError(t, err)
	assert.Contains(t, string(log), "gobench-dyn: exit 1", "the log goes into the artifact")
	assert.FileExists(t, r.outputs["verdicts"], "the verdicts go into the artifact")
	assert.Equal(t, j.outputs["paths"]["out"], filepath.Dir(r.outputs["verdicts"]))
}

// With a baseline the run explains its decided changes unless the explain
// input says false, and the job summary shows the explanations the
// verdicts file holds, five functions each, names in code spans.
func TestActionExplanation(t *testing.T) {
	explained := `{"schema_version":1,"failed":true,"partial":false,"comparisons":[
	  {"bench":"BenchmarkParse-2","unit":"ns/op","verdict":"regression","fails":true,
	   "explanation":{"profile":"cpu","unit":"ns/op","base":1000,"head":2000,"change":1000,
	     "flat":[{"function":"example.com/m.burn","change":900,"share":0.9},{"function":"a|b` + "`" + `c","change":-5,"share":null},
	       {"function":"f3","change":3,"share":0},{"function":"f4","change":2,"share":0},{"function":"f5","change":1,"share":0},{"function":"f6","change":0.5,"share":0}],
	     "base_profile":"/runner/out/explain/m.BenchmarkParse-2.cpu.base.pprof","head_profile":"/runner/out/explain/m.BenchmarkParse-2.cpu.head.pprof"}},
	  {"bench":"BenchmarkOther-2","unit":"ns/op","verdict":"no change","fails":false}]}`
	j := newJob(t)
	j.env = append(j.env, stubVerdictsEnv+"="+explained)
	r := j.runAction(map[string]string{"baseline": "origin/main"}, 1, "")
	runs := j.callsOf("gobench-dyn", "run")
	require.Len(t, runs, 1)
	assert.Contains(t, strings.Join(runs[0].Args, " "), "--explain --explain-dir "+filepath.Join(j.outputs["paths"]["out"], "explain"))
	summary := j.readSummary()
	assert.Contains(t, summary, "### Where the changes went")
	assert.Contains(t, summary, "**`BenchmarkParse-2`** `ns/op`: regression, 1000 → 2000 ns/op in the cpu profiles")
	assert.Contains(t, summary, "| +900 | 90% | `example.com/m.burn` |")
	assert.Contains(t, summary, "| -5 | — | `abc` |", "no backtick or pipe breaks the table")
	assert.Contains(t, summary, "`f5`")
	assert.NotContains(t, summary, "`f6`", "five functions")
	assert.Contains(t, summary, "`m.BenchmarkParse-2.cpu.base.pprof`")
	assert.NotContains(t, summary, "BenchmarkOther", "only explained changes")
	assert.Contains(t, summary, "`explain/explain.html` in the artifact")
	assert.Equal(t, "true", r.outputs["regression"])

	j = newJob(t)
	j.runAction(map[string]string{"baseline": "origin/main", "explain": "false"}, 0, "")
	runs = j.callsOf("gobench-dyn", "run")
	require.Len(t, runs, 1)
	assert.NotContains(t, runs[0].Args, "--explain")
	assert.NotContains(t, j.readSummary(), "Where the changes went")
}

// A strict gate that fails on an inconclusive comparison says so; a
// regression that does not fail the gate (a unit fail-on leaves out) is
// no regression of the step.
func TestActionInconclusiveFromVerdicts(t *testing.T) {
	j := newJob(t)
	j.env = append(j.env, stubVerdictsEnv+"="+verdictsDoc(false, map[string]bool{"inconclusive": true, "regression": false}))
	r := j.runAction(map[string]string{"baseline": "origin/main", "fail-on": "time,inconclusive"}, 1, "gobench-dyn: regression against --baseline origin/main\n")
	assert.Equal(t, "false", r.outputs["regression"], "the log's words count for nothing")
	assert.Equal(t, "true", r.outputs["inconclusive"])
	assert.Contains(t, j.readSummary(), "**Inconclusive**")
	require.True(t, r.verdictRan)
	assert.Equal(t, 1, r.verdict)
}

// An interrupted run's verdicts rest on part of the run: they set no
// output, and the exit status (130) fails the step.
func TestActionPartialVerdicts(t *testing.T) {
	j := newJob(t)
	j.env = append(j.env, stubVerdictsEnv+"="+verdictsDoc(true, map[string]bool{"regression": true}))
	r := j.runAction(map[string]string{"baseline": "origin/main"}, 130, "gobench-dyn: interrupted\n")
	assert.Equal(t, "130", r.outputs["exit-code"])
	assert.Equal(t, "false", r.outputs["regression"])
	assert.Equal(t, "false", r.outputs["inconclusive"])
	require.True(t, r.verdictRan)
	assert.Equal(t, 130, r.verdict)
}

func TestActionFailedBenchmark(t *testing.T) {
	j := newJob(t)
	j.env = append(j.env, stubVerdictsEnv+"="+verdictsDoc(false, map[string]bool{"no change": false}))
	r := j.runAction(map[string]string{"baseline": "origin/main"}, 1, "gobench-dyn: 1 benchmark failed (with --keep-going, failures do not change the exit status)\n")
	assert.Equal(t, "1", r.outputs["exit-code"])
	assert.Equal(t, "false", r.outputs["regression"], "a failed benchmark is not a regression")
	assert.Contains(t, j.readSummary(), "**Failed:**")
	require.True(t, r.verdictRan)
	assert.Equal(t, 1, r.verdict)
}

func TestActionBadInput(t *testing.T) {
	j := newJob(t)
	r := j.runAction(map[string]string{"stop": "sometimes"}, 2, "gobench-dyn: --stop: unknown criterion \"sometimes\"\n")
	assert.Equal(t, "2", r.outputs["exit-code"])
	assert.Equal(t, "false", r.outputs["regression"])
	assert.Empty(t, j.callsOf("gobench-dyn", "report"), "no records, no report")
	summary := j.readSummary()
	assert.Contains(t, summary, "exited with status 2")
	assert.Contains(t, summary, "--stop: unknown criterion", "the summary shows the log when there is no report")
	require.True(t, r.verdictRan)
	assert.Equal(t, 2, r.verdict, "the exit status is passed on")
}

func TestActionEmptyVersion(t *testing.T) {
	j := newJob(t)
	j.runAction(map[string]string{"version": ""}, 0, "")
	goCalls := j.callsOf("go", "")
	require.Len(t, goCalls, 1)
	assert.Equal(t, []string{"install", "github.com/gobench-dyn/gobench-dyn/cmd/gobench-dyn@latest"}, goCalls[0].Args)
}

func TestActionThresholdWithoutBaseline(t *testing.T) {
	j := newJob(t)
	r := j.runAction(map[string]string{"threshold": "0.1"}, 0, "")
	runs := j.callsOf("gobench-dyn", "run")
	require.Len(t, runs, 1)
	assert.NotContains(t, runs[0].Args, "--min-change")
	assert.NotContains(t, runs[0].Args, "--baseline-out")
	assert.Contains(t, r.runLog, "::warning")
}

var (
	builtOnce sync.Once
	builtDir  string
	builtBin  string
	builtErr  error
)

// gobenchDyn builds the gobench-dyn command of this module once per test
// binary and returns its path.
func gobenchDyn(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		if builtDir, builtErr = os.MkdirTemp("", "gobench-dyn-ci-"); builtErr != nil {
			return
		}
		builtBin = filepath.Join(builtDir, "gobench-dyn")
		cmd := exec.Command("go", "build", "-o", builtBin, "./cmd/gobench-dyn")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			builtErr = fmt.Errorf("go build ./cmd/gobench-dyn: %v\n%s", err, out)
		}
	})
	require.NoError(t, builtErr)
	return builtBin
}

// TestActionRealRun runs the action's steps with the real gobench-dyn on
// one example benchmark, so that the arguments the scripts build are ones
// run and report accept, and report reads what run writes.
func TestActionRealRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark")
	}
	bin := gobenchDyn(t)
	root, err := filepath.Abs(repoRoot)
	require.NoError(t, err)
	j := newJob(t)
	j.env = append(j.env, stubRealEnv+"="+bin)
	inputs := map[string]string{
		"packages":          "./examples/stable",
		"bench":             "SortInts",
		"stop":              "none",
		"args":              "--suite-runs 1 --slices 2 --warmup 0 --slice-time 5ms --seed 1",
		"working-directory": root,
	}
	r := j.runAction(inputs, 0, "")
	assert.Equal(t, "0", r.outputs["exit-code"], r.runLog)
	assert.Equal(t, "false", r.outputs["regression"])

	results, err := os.ReadFile(r.outputs["results"])
	require.NoError(t, err)
	assert.Regexp(t, `(?m)^BenchmarkSortInts\S*\s+\d+\s+[\d.]+ ns/op`, string(results))
	html, err := os.ReadFile(r.outputs["report"])
	require.NoError(t, err, r.summaryLog)
	assert.Contains(t, string(html), "<html")
	summary := j.readSummary()
	assert.Contains(t, summary, "succeeded")
	assert.Contains(t, summary, "SortInts", "the Markdown report is in the summary")
	assert.False(t, r.verdictRan)
}

// TestActionRealRegression runs the action with the real gobench-dyn on a
// scratch repository whose working tree does eight times the work of its
// last commit, with baseline HEAD: the run must find the regression, and
// the action must say so in its output and fail. The benchmark reports its
// work as its ns/op, so that the verdict is the same on a loaded machine,
// where a few iterations of real timings can hide even an eightfold
// slowdown.
func TestActionRealRegression(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs two versions of a benchmark")
	}
	bin := gobenchDyn(t)
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	write := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(repo, name), []byte(content), 0o600))
	}
	gitRun := func(args ...string) {
		cmd := exec.Command(git, append([]string{"-c", "user.name=ci", "-c", "user.email=ci@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v:\n%s", args, out)
	}
	work := func(rounds int) string {
		return fmt.Sprintf("package work\n\n// Rounds is how much work Sum does.\nconst Rounds = %d\n\n"+
			"// Sum adds up the first Rounds integers.\nfunc Sum() (s int) {\n\tfor i := range Rounds {\n\t\ts += i ^ s>>3\n\t}\n\treturn s\n}\n", rounds)
	}
	write("go.mod", "module example.com/work\n\ngo 1.24\n")
	write("work.go", work(1000))
	write("work_test.go", "package work\n\nimport \"testing\"\n\nvar sink int\n\n"+
		"func BenchmarkSum(b *testing.B) {\n\tfor range b.N {\n\t\tsink += Sum()\n\t}\n\tb.ReportMetric(Rounds, \"ns/op\")\n}\n")
	gitRun("init", "-q", ".")
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "baseline")
	write("work.go", work(8000))

	j := newJob(t)
	j.env = append(j.env, stubRealEnv+"="+bin)
	inputs := map[string]string{
		"packages":  ".",
		"baseline":  "HEAD",
		"threshold": "0.2",
		"stop":      "none",
		// Six suite runs of one iteration: a paired comparison counts
		// suite runs, and six give its interval 5 degrees of freedom.
		"args":              "--suite-runs 6 --iterations 1 --slices 3 --warmup 1 --slice-time 10ms --seed 1",
		"working-directory": repo,
	}
	r := j.runAction(inputs, 0, "")
	assert.Equal(t, "1", r.outputs["exit-code"], r.runLog)
	assert.Equal(t, "true", r.outputs["regression"], r.runLog)
	assert.FileExists(t, r.outputs["baseline-results"])
	assert.FileExists(t, r.outputs["report"], r.summaryLog)
	summary := j.readSummary()
	t.Logf("job summary:\n%s", summary)
	assert.Contains(t, summary, "**Regression** against the baseline HEAD")
	assert.Contains(t, summary, "BenchmarkSum")
	// Explained by default: Sum does eight times the work, and its
	// profiles say so.
	assert.Contains(t, summary, "### Where the changes went")
	assert.Regexp(t, "\\| \\+\\S+ \\| \\d+% \\| `example.com/work.Sum` \\|", summary)
	require.True(t, r.verdictRan)
	assert.Equal(t, 1, r.verdict)
}
