package apiscore

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// hangingStarter records what it starts; its processes write a line and
// then block until killed, as a coverage binary would that a second
// Ctrl-C must stop.
type hangingStarter struct {
	bin, dir string
	args     []string
	killed   chan struct{}
}

func (s *hangingStarter) Start(bin, dir string, args []string) (rmit.Process, error) {
	s.bin, s.dir, s.args = bin, dir, args
	r, w := io.Pipe()
	go func() {
		_, _ = io.WriteString(w, "PASS\n")
		<-s.killed
		w.Close()
	}()
	return &hangingProcess{out: r, killed: s.killed}, nil
}

type hangingProcess struct {
	out    io.Reader
	killed chan struct{}
}

func (p *hangingProcess) Stdout() io.Reader  { return p.out }
func (p *hangingProcess) StderrTail() string { return "" }
func (p *hangingProcess) Kill() {
	select {
	case <-p.killed:
	default:
		close(p.killed)
	}
}
func (p *hangingProcess) Wait() error { <-p.killed; return context.Canceled }

// TestCoverageRunsThroughStarter checks that the coverage binaries start
// through the Starter seam, so that an abort reaches them, and that the
// end of the context kills them.
func TestCoverageRunsThroughStarter(t *testing.T) {
	s := &hangingStarter{killed: make(chan struct{})}
	e := &evaluation{opts: Options{Starter: s}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := e.profile(ctx, &rmit.Package{Binary: "/bin/pkg.test", Dir: "/src/pkg"}, "/tmp/cover.out", "-test.bench=^BenchmarkX$")
		done <- err
	}()
	cancel()
	err := <-done
	require.ErrorIs(t, err, rmit.ErrInterrupted)
	assert.Equal(t, "/bin/pkg.test", s.bin)
	assert.Equal(t, "/src/pkg", s.dir)
	assert.True(t, strings.HasPrefix(strings.Join(s.args, " "), "-test.run=^$ -test.coverprofile=/tmp/cover.out -test.bench="), "%v", s.args)
}
