package rmit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"syscall"
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
// process group, so that killing one also kills anything it started.
type ExecStarter struct{}

// Start implements Starter.
func (ExecStarter) Start(bin, dir string, args []string) (Process, error) {
	return startExec(exec.Command(bin, args...), dir)
}

// startExec starts cmd in dir in a process group of its own, with its
// standard output piped and the tail of its standard error kept.
func startExec(cmd *exec.Cmd, dir string) (*execProcess, error) {
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &execProcess{cmd: cmd, stderr: newTailBuffer(8 << 10)}
	cmd.Stderr = p.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.stdout = out
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
	if running.reaped == nil {
		running.reaped = map[int]chan struct{}{}
	}
	running.reaped[cmd.Process.Pid] = make(chan struct{})
	return p, nil
}

// execProcess is a Process started by ExecStarter.
type execProcess struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr *tailBuffer
}

func (p *execProcess) Stdout() io.Reader  { return p.stdout }
func (p *execProcess) StderrTail() string { return p.stderr.String() }

// Kill kills the whole process group: a negative pid signals the group.
func (p *execProcess) Kill() { _ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL) }

func (p *execProcess) Wait() error {
	err := p.cmd.Wait()
	// Reap any leftovers in the group, for example children of a
	// benchmark that outlive it.
	p.Kill()
	running.mu.Lock()
	if ch, ok := running.reaped[p.cmd.Process.Pid]; ok {
		close(ch)
		delete(running.reaped, p.cmd.Process.Pid)
	}
	running.mu.Unlock()
	return err
}

// running holds the test binaries running now, by process group ID, each
// with a channel closed once Wait has reaped it, so that an abort can kill
// them without waiting for the runner, and still exit only once they are
// gone.
var running struct {
	mu      sync.Mutex
	reaped  map[int]chan struct{}
	aborted bool
}

// KillRunning kills the process group of every test binary still running
// and stops any more from starting. It is for a process about to exit at
// once, such as on a second interrupt, which must not leave benchmarks
// behind: it returns once the runner has reaped every killed binary, or
// after wait, whichever is first. A SIGKILL is not instant; a binary not
// yet scheduled to die would otherwise outlive the exit of the run.
func KillRunning(wait time.Duration) {
	running.mu.Lock()
	running.aborted = true
	var gone []chan struct{}
	for pid, ch := range running.reaped {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		gone = append(gone, ch)
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

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
