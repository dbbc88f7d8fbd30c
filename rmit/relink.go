package rmit

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A relinker links further layouts of one package's test binary by
// running the linker alone, with the command line go test -c ran for
// its first further layout.
//
// Only the link differs between layouts, and go test -c spends a fixed
// part of each on loading the packages and checking its cache around the
// linker (docs/GATE.md, "Links by the linker alone"). In a comparison of
// a package with few benchmarks the links are much of the run, so the
// second and later links skip the go command. Whatever
// goes wrong (the go command printed no link, or the linker fails) falls
// back to go test -c, which links the same binary the slow way.
type relinker struct {
	once sync.Once
	cmd  *linkCommand // nil: link with go test -c
}

// A linkCommand is the linker's command line, read from go test -c -x.
type linkCommand struct {
	tool string
	args []string
	env  []string // the go command's environment, which the linker reads
	dir  string
	out  int // index in args of the -o value
	seed int // index in args of the -randlayout flag
}

// link links p's test binary once more into the new directory out, with
// flags (the build flags of seed), and returns the binary's path. The
// first call of a package captures the linker's command line; the later
// ones run it with their own seed and output.
func (l *relinker) link(ctx context.Context, p *Package, dir, out string, seed uint64, flags []string) (string, error) {
	if err := os.Mkdir(out, 0o700); err != nil {
		return "", &BuildError{Package: p, Output: err.Error()}
	}
	bin := filepath.Join(out, binaryName(0, p))
	captured, bin0, err := false, "", error(nil)
	l.once.Do(func() {
		captured = true
		bin0, l.cmd, err = captureLink(ctx, p, dir, out, bin, seed, flags)
	})
	if captured {
		return bin0, err
	}
	if l.cmd != nil {
		if l.cmd.run(ctx, seed, bin) == nil {
			return bin, nil
		}
		_ = os.Remove(bin)
	}
	return goTestLink(ctx, p, dir, filepath.Join(out, "go"), flags)
}

// goTestLink links p's test binary with go test -c, into out.
func goTestLink(ctx context.Context, p *Package, dir, out string, flags []string) (string, error) {
	c := *p
	done, _, fails := Build(ctx, []*Package{&c}, BuildOptions{Dir: dir, BuildFlags: flags, OutDir: out, Parallel: 1})
	switch {
	case len(fails) > 0:
		return "", fails[0]
	case len(done) == 0:
		return "", &BuildError{Package: p, Output: "the link with -randlayout produced no test binary"}
	}
	return done[0].Binary, nil
}

// captureLink links p's test binary with go test -c -x into bin, keeping
// the go command's work directory under out, and returns the binary and
// the linker's command line it ran: nil when it cannot be read back.
func captureLink(ctx context.Context, p *Package, dir, out, bin string, seed uint64, flags []string) (string, *linkCommand, error) {
	work := filepath.Join(out, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		return "", nil, &BuildError{Package: p, Output: err.Error()}
	}
	args := append([]string{"test", "-c", "-x", "-work", "-o", bin}, flags...)
	args = append(args, p.ImportPath)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(cmd.Environ(), "GOTMPDIR="+work)
	var x bytes.Buffer
	cmd.Stdout, cmd.Stderr = &x, &x
	if err := cmd.Run(); err != nil {
		// The commands -x printed would bury the go command's message:
		// the link is made again without them.
		bin, err := goTestLink(ctx, p, dir, filepath.Join(out, "go"), flags)
		return bin, nil, err
	}
	if _, err := os.Stat(bin); err != nil {
		return "", nil, &BuildError{Package: p, Output: "the link with -randlayout produced no test binary"}
	}
	lc, err := parseLinkCommand(x.Bytes(), seed)
	if err != nil {
		return bin, nil, nil
	}
	env, err := goEnv(ctx, dir)
	if err != nil {
		return bin, nil, nil
	}
	lc.env = append(append(os.Environ(), env...), lc.env...)
	lc.dir = dir
	return bin, lc, nil
}

// run links the binary of seed into bin.
func (c *linkCommand) run(ctx context.Context, seed uint64, bin string) error {
	args := slices.Clone(c.args)
	args[c.out] = bin
	args[c.seed] = "-randlayout=" + strconv.FormatUint(seed, 10)
	cmd := exec.CommandContext(ctx, c.tool, args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%v: %s", err, out)
	}
	return nil
}

// goEnv returns the go command's environment in dir as NAME=VALUE: the
// go command sets it for the tools it runs, from its configuration
// files as much as from the process environment.
func goEnv(ctx context.Context, dir string) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "-json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var m map[string]string
	if err := json.Unmarshal(out, &m); err != nil {
		return nil, err
	}
	env := make([]string, 0, len(m))
	for k, v := range m {
		env = append(env, k+"="+v)
	}
	slices.Sort(env)
	return env, nil
}

// parseLinkCommand reads the linker's command line from the output of
// go test -x -work, whose link had the flag -randlayout=seed. The go
// command prints a tool's environment as NAME='value' (NAME="value",
// quoted as Go quotes, when the value holds a '), and each argument as
// it is, or quoted as Go quotes when it holds a space or is ambiguous;
// it writes its work directory as $WORK.
func parseLinkCommand(x []byte, seed uint64) (*linkCommand, error) {
	var work string
	var found *linkCommand
	sc := bufio.NewScanner(bytes.NewReader(x))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if w, ok := strings.CutPrefix(line, "WORK="); ok && work == "" {
			work = w
			continue
		}
		env, words, err := splitCommand(line)
		if err != nil || len(words) == 0 || strings.TrimSuffix(filepath.Base(words[0]), ".exe") != "link" || !filepath.IsAbs(words[0]) {
			continue
		}
		if found != nil {
			return nil, errors.New("go test printed more than one link")
		}
		found = &linkCommand{tool: words[0], args: words[1:], env: env, out: -1, seed: -1}
	}
	if found == nil || work == "" {
		return nil, errors.New("go test printed no link")
	}
	flag := "-randlayout=" + strconv.FormatUint(seed, 10)
	for i, a := range found.args {
		found.args[i] = strings.ReplaceAll(a, "$WORK", work)
		switch {
		case a == "-o" && i+1 < len(found.args):
			found.out = i + 1
		case a == flag && found.seed < 0:
			found.seed = i
		case a == flag, strings.HasPrefix(a, "-randlayout"):
			return nil, fmt.Errorf("the link has another layout flag %q", a)
		}
	}
	for i, e := range found.env {
		found.env[i] = strings.ReplaceAll(e, "$WORK", work)
	}
	if found.out < 0 || found.seed < 0 {
		return nil, errors.New("the link names no output or no layout")
	}
	return found, nil
}

// splitCommand splits one command line the go command printed into the
// environment assignments before it and its words.
func splitCommand(line string) (env, words []string, err error) {
	for line != "" {
		var word string
		switch {
		case line[0] == '"':
			q, err := strconv.QuotedPrefix(line)
			if err != nil {
				return nil, nil, err
			}
			word, _ = strconv.Unquote(q)
			line = line[len(q):]
		case len(words) == 0 && isAssignment(line):
			name, rest, _ := strings.Cut(line, "=")
			value, n, err := assignedValue(rest)
			if err != nil {
				return nil, nil, err
			}
			env = append(env, name+"="+value)
			line = rest[n:]
			if line != "" && line[0] != ' ' {
				return nil, nil, errors.New("no space after an assignment")
			}
			line = strings.TrimPrefix(line, " ")
			continue
		default:
			word, line, _ = strings.Cut(line, " ")
			words = append(words, word)
			continue
		}
		words = append(words, word)
		if line != "" && line[0] != ' ' {
			return nil, nil, errors.New("no space after a quoted word")
		}
		line = strings.TrimPrefix(line, " ")
	}
	return env, words, nil
}

// isAssignment reports whether s starts with NAME=' or NAME=".
func isAssignment(s string) bool {
	name, rest, ok := strings.Cut(s, "=")
	if !ok || name == "" || rest == "" || (rest[0] != '\'' && rest[0] != '"') {
		return false
	}
	for i, c := range name {
		if c != '_' && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// assignedValue reads the quoted value at the start of s and returns it
// with the length of its quoted form.
func assignedValue(s string) (string, int, error) {
	if s[0] == '"' {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return "", 0, err
		}
		v, err := strconv.Unquote(q)
		return v, len(q), err
	}
	end := strings.IndexByte(s[1:], '\'')
	if end < 0 {
		return "", 0, errors.New("unterminated value")
	}
	return s[1 : end+1], end + 2, nil
}
