package rmit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A Starter starts test binaries. The runner and discovery start every
// process through one, so that a run can be driven by a fake that prints
// benchmark output without building or running anything.
type Starter interface {
	// Start starts bin with args in dir.
	Start(bin, dir string, args []string) (Process, error)
}

// A Process is a started test binary.
type Process interface {
	// Stdout is the binary's standard output, read as it is written.
	Stdout() io.Reader
	// StderrTail returns the last few kilobytes the binary wrote to its
	// standard error, for failure reports.
	StderrTail() string
	// Kill kills the binary and anything it started. It may be called
	// more than once, also after the binary has exited.
	Kill()
	// Wait waits for the binary to exit and returns its exit error.
	Wait() error
}

// ExecStarter starts test binaries as real processes, each in its own
// process group where the system has them, so that killing one also kills
// anything it started. On Linux a binary is also killed when the process
// that started it dies, even by SIGKILL.
type ExecStarter struct {
	// GroupDir, when set, is a directory that holds an empty file named
	// after the process group of every binary running now. A run killed
	// before it could kill its binaries leaves their names there, for the
	// next run to kill what is left of them (package leftover).
	GroupDir string
}

// outputGrace is how long a test binary's output may stay open after the
// binary has exited: something it started that keeps the output open
// (a daemon, a grandchild in a session of its own) then no longer holds
// up the iteration. A binary that exits has written all its output, so
// this bounds only the reading of what was already written.
const outputGrace = 2 * time.Second

// Start implements Starter.
func (s ExecStarter) Start(bin, dir string, args []string) (Process, error) {
	return s.startExec(exec.Command(bin, args...), dir)
}

// startExec starts cmd in dir in a process group of its own, with its
// standard output piped and the tail of its standard error kept.
func (s ExecStarter) startExec(cmd *exec.Cmd, dir string) (*execProcess, error) {
	cmd.Dir = dir
	setGroup(cmd)
	cmd.WaitDelay = outputGrace
	// Output goes through a pipe of our own rather than StdoutPipe, so
	// that Wait can run while the output is read: Wait then closes the
	// binary's output outputGrace after it exits, whoever holds it open.
	pr, pw := io.Pipe()
	p := &execProcess{cmd: cmd, stdout: pr, stderr: newTailBuffer(8 << 10), exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = pw, p.stderr
	// Starting under the lock means an abort either sees this process
	// or makes the start fail: none slips past it.
	running.mu.Lock()
	defer running.mu.Unlock()
	if running.aborted {
		return nil, ErrInterrupted
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if s.GroupDir != "" {
		p.groupFile = filepath.Join(s.GroupDir, strconv.Itoa(cmd.Process.Pid))
		if err := os.WriteFile(p.groupFile, nil, 0o600); err != nil {
			p.groupFile = ""
		}
	}
	if running.procs == nil {
		running.procs = map[*execProcess]bool{}
	}
	running.procs[p] = true
	go p.reap(pw)
	return p, nil
}

// execProcess is a Process started by ExecStarter.
type execProcess struct {
	cmd       *exec.Cmd
	stdout    *io.PipeReader
	stderr    *tailBuffer
	groupFile string        // the file in ExecStarter.GroupDir naming its group, or ""
	exited    chan struct{} // closed once reap has reaped it
	err       error         // its exit error, once exited is closed
}

func (p *execProcess) Stdout() io.Reader  { return p.stdout }
func (p *execProcess) StderrTail() string { return p.stderr.String() }

// Kill kills the binary and the rest of its process group.
func (p *execProcess) Kill() { killGroup(p.cmd.Process) }

// reap waits for the binary to exit and its output to close, then kills
// what is left of its group, for example children of a benchmark that
// outlive it, and ends the output the runner reads.
func (p *execProcess) reap(out *io.PipeWriter) {
	err := p.cmd.Wait()
	if errors.Is(err, exec.ErrWaitDelay) {
		// The binary exited cleanly; something it started held its
		// output open past outputGrace.
		err = nil
	}
	p.Kill()
	if p.groupFile != "" {
		os.Remove(p.groupFile)
	}
	p.err = err
	out.Close()
	running.mu.Lock()
	delete(running.procs, p)
	running.mu.Unlock()
	close(p.exited)
}

// Wait waits for the binary to exit and returns its exit error.
func (p *execProcess) Wait() error {
	<-p.exited
	return p.err
}

// running holds the test binaries running now, so that an abort can kill
// them without waiting for the runner, and still exit only once they are
// gone.
var running struct {
	mu      sync.Mutex
	procs   map[*execProcess]bool
	aborted bool
}

// KillRunning kills the process group of every test binary still running
// and stops any more from starting. It is for a process about to exit at
// once, such as on a second interrupt, which must not leave benchmarks
// behind: it returns once every killed binary is reaped, or after wait,
// whichever is first. A SIGKILL is not instant; a binary not yet
// scheduled to die would otherwise outlive the exit of the run.
func KillRunning(wait time.Duration) {
	running.mu.Lock()
	running.aborted = true
	var gone []chan struct{}
	for p := range running.procs {
		p.Kill()
		gone = append(gone, p.exited)
	}
	running.mu.Unlock()
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for _, ch := range gone {
		select {
		case <-ch:
		case <-deadline.C:
			return
		}
	}
}

// A process is one started test binary, with why the runner killed it.
type process struct {
	proc   Process
	stdout io.Reader
	stderr fmt.Stringer

	mu     sync.Mutex
	killed string // why we killed it, if we did
}

// stderrTail adapts Process.StderrTail to fmt.Stringer.
type stderrTail struct{ p Process }

func (t stderrTail) String() string { return t.p.StderrTail() }

// startProcess starts bin with args in dir through s, or as a real
// process when s is nil.
func startProcess(s Starter, bin, dir string, args []string) (*process, error) {
	if s == nil {
		s = ExecStarter{}
	}
	p, err := s.Start(bin, dir, args)
	if err != nil {
		return nil, err
	}
	return &process{proc: p, stdout: p.Stdout(), stderr: stderrTail{p}}, nil
}

// kill kills the process, recording why. Only the first reason is kept.
func (p *process) kill(why string) {
	p.mu.Lock()
	if p.killed == "" {
		p.killed = why
	}
	p.mu.Unlock()
	p.proc.Kill()
}

// killedFor returns why the process was killed, or "".
func (p *process) killedFor() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.killed
}

// watch kills the process when ctx is done or timeout passes, until the
// returned stop function is called.
func (p *process) watch(ctx context.Context, timeout time.Duration) (stop func()) {
	done := make(chan struct{})
	var once sync.Once
	go func() {
		var timer <-chan time.Time
		if timeout > 0 {
			t := time.NewTimer(timeout)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-done:
		case <-ctx.Done():
			p.kill("interrupted")
		case <-timer:
			p.kill("timeout")
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}

// wait waits for the process to exit and returns its error, if any, that
// we did not cause by killing it.
func (p *process) wait() error {
	err := p.proc.Wait()
	var ee *exec.ExitError
	if p.killedFor() != "" && errors.As(err, &ee) {
		return nil
	}
	return err
}

// tailBuffer keeps the last max bytes written to it, and the first lines
// that say why a Go program died ("panic: ", "fatal error: "), which the
// stack traces printed after them would push out of the tail.
type tailBuffer struct {
	mu     sync.Mutex
	max    int
	buf    []byte
	line   []byte // the start of the line being written
	causes []string
}

// maxCauses bounds the cause lines kept, and maxCauseLine their length.
const (
	maxCauses    = 3
	maxCauseLine = 512
)

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	for rest := p; len(rest) > 0; {
		chunk, after, nl := bytes.Cut(rest, []byte{'\n'})
		if room := maxCauseLine - len(t.line); room > 0 {
			t.line = append(t.line, chunk[:min(len(chunk), room)]...)
		}
		if nl {
			if len(t.causes) < maxCauses && isCause(string(t.line)) {
				t.causes = append(t.causes, string(t.line))
			}
			t.line = t.line[:0]
		}
		rest = after
	}
	return len(p), nil
}

// String returns the tail, after the cause lines it no longer holds.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	tail := string(t.buf)
	var lost []string
	for _, c := range t.causes {
		if !strings.Contains(tail, c) {
			lost = append(lost, c)
		}
	}
	if len(lost) == 0 {
		return tail
	}
	return strings.Join(lost, "\n") + "\n…\n" + tail
}

// isCause reports whether line is one the Go runtime prints as a program
// dies, which says why.
func isCause(line string) bool {
	return strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ")
}

// withCause adds to the reason of a failure the first line of output
// that says why the program died, if it printed one: "exit status 2:
// fatal error: out of memory" rather than a bare exit status and a tail
// of goroutine frames.
func withCause(reason, output string) string {
	for line := range strings.Lines(output) {
		if line = strings.TrimRight(line, "\r\n"); isCause(line) {
			return reason + ": " + line
		}
	}
	return reason
}
