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
