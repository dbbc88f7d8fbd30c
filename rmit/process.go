package rmit

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// A process is one running test binary in its own process group, so that
// killing it also kills anything it started.
type process struct {
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr *tailBuffer

	mu     sync.Mutex
	killed string // why we killed it, if we did
}

// startProcess starts bin with args in dir.
func startProcess(bin, dir string, args []string) (*process, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	p := &process{cmd: cmd, stderr: newTailBuffer(8 << 10)}
	cmd.Stderr = p.stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p.stdout = out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	running.Store(cmd.Process.Pid, struct{}{})
	return p, nil
}

// running holds the process group IDs of the test binaries running now,
// so that an abort can kill them without waiting for the runner.
var running sync.Map

// KillRunning kills the process group of every test binary still
// running. It is for a process about to exit at once, such as on a second
// interrupt, which must not leave benchmarks behind.
func KillRunning() {
	running.Range(func(pid, _ any) bool {
		_ = syscall.Kill(-pid.(int), syscall.SIGKILL)
		return true
	})
}

// kill kills the whole process group, recording why. Only the first
// reason is kept.
func (p *process) kill(why string) {
	p.mu.Lock()
	if p.killed == "" {
		p.killed = why
	}
	p.mu.Unlock()
	// A negative pid signals the process group.
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
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
	err := p.cmd.Wait()
	// Reap any leftovers in the group, for example children of a
	// benchmark that outlive it.
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	running.Delete(p.cmd.Process.Pid)
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
