package rmit

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An abort returns only once the killed binary is reaped, and nothing
// starts after it.
func TestKillRunningWaitsForReapAndBlocksStarts(t *testing.T) {
	t.Cleanup(func() {
		running.mu.Lock()
		running.aborted = false
		running.mu.Unlock()
	})
	p, err := ExecStarter{}.Start("sleep", t.TempDir(), []string{"60"})
	require.NoError(t, err)
	waited := make(chan struct{})
	go func() {
		_ = p.Wait()
		close(waited)
	}()

	KillRunning(time.Minute) // bounded only for a broken build; returns on reap
	running.mu.Lock()
	assert.Empty(t, running.procs, "KillRunning returned before the killed binary was reaped")
	running.mu.Unlock()
	<-waited

	_, err = ExecStarter{}.Start("sleep", t.TempDir(), []string{"60"})
	assert.ErrorIs(t, err, ErrInterrupted)
}

// TestOutputHeldOpenEndsWithTheBinary starts a binary that leaves a child
// in a session of its own holding its output open: the output ends soon
// after the binary exits, not when the child does.
func TestOutputHeldOpenEndsWithTheBinary(t *testing.T) {
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("needs setsid:", err)
	}
	p, err := ExecStarter{}.Start("sh", t.TempDir(), []string{"-c", "setsid sleep 3600 & echo $!"})
	require.NoError(t, err)
	read := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(p.Stdout())
		read <- string(b)
	}()
	select {
	case out := <-read:
		if pid, err := strconv.Atoi(strings.TrimSpace(out)); err == nil {
			if child, err := os.FindProcess(pid); err == nil {
				_ = child.Kill()
			}
		}
	case <-time.After(time.Minute):
		t.Fatal("the output stayed open while the child held it")
	}
	assert.NoError(t, p.Wait(), "a clean exit whose output a child held open is a clean exit")
}

// TestTailKeepsTheCause writes what a Go program prints as it runs out
// of memory: the cause, then more goroutine frames than the tail holds.
// The failure reason still quotes the cause.
func TestTailKeepsTheCause(t *testing.T) {
	tb := newTailBuffer(1 << 10)
	_, _ = tb.Write([]byte("runtime: out of memory: cannot allocate 35184372088832-byte block (3997696 in use)\nfatal err"))
	_, _ = tb.Write([]byte("or: out of memory\n\ngoroutine 1 [running]:\n"))
	for range 200 {
		_, _ = tb.Write([]byte("runtime.throw({0x5a1b2c?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1101 +0x48\n"))
	}
	tail := tb.String()
	assert.True(t, strings.HasPrefix(tail, "fatal error: out of memory\n…\n"), tail[:80])
	assert.Equal(t, "exit status 2: fatal error: out of memory", withCause("exit status 2", tail))
	assert.Equal(t, "exit status 1", withCause("exit status 1", "just some output\n"))
}
