package rmit

import (
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
	assert.Empty(t, running.reaped, "KillRunning returned before the killed binary was reaped")
	running.mu.Unlock()
	<-waited

	_, err = ExecStarter{}.Start("sleep", t.TempDir(), []string{"60"})
	assert.ErrorIs(t, err, ErrInterrupted)
}
