package rmit

import (
	"io"
	"os"
	"os/exec"
	"strconv"
)

// A TurnStarter starts test binaries as workers that take their slices in
// turns: binaries built with the overlay of TurnHook, run with TurnEnv
// set.
type TurnStarter interface {
	// StartWorker starts bin with args in dir as a worker that runs its
	// first free slices without waiting for a turn.
	StartWorker(bin, dir string, args []string, free int) (Worker, error)
}

// A Worker is a test binary that runs its first slices at once and each
// further slice only when granted.
type Worker interface {
	Process
	// Grant lets the worker run its next slice.
	Grant() error
	// Skip tells the worker that the benchmark waiting for its next
	// slice has run enough: it leaves out that benchmark's later
	// slices and goes on to the next benchmark it runs.
	Skip() error
}

// An EnvWorkerStarter starts workers with variables added to their
// environment: a family's process is one, whose members each run their
// first free slices at once and ask before each further one.
type EnvWorkerStarter interface {
	StartWorkerEnv(bin, dir string, args, env []string, free int) (Worker, error)
}

// StartWorker implements TurnStarter.
func (s ExecStarter) StartWorker(bin, dir string, args []string, free int) (Worker, error) {
	return s.StartWorkerEnv(bin, dir, args, nil, free)
}

// StartWorkerEnv implements EnvWorkerStarter.
func (s ExecStarter) StartWorkerEnv(bin, dir string, args, env []string, free int) (Worker, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(append(os.Environ(), env...), TurnEnv+"="+strconv.Itoa(max(free, 1)))
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	p, err := s.startExec(cmd, dir)
	if err != nil {
		in.Close()
		return nil, err
	}
	return &execWorker{execProcess: p, grants: in}, nil
}

// execWorker is a Worker started by ExecStarter.
type execWorker struct {
	*execProcess
	grants io.WriteCloser
}

var grant, skip = []byte{turnGrant}, []byte{turnSkip}

func (w *execWorker) Grant() error {
	_, err := w.grants.Write(grant)
	return err
}

func (w *execWorker) Skip() error {
	_, err := w.grants.Write(skip)
	return err
}

// itemStream hands out the output items of one test binary one at a time,
// as they arrive, for a runner that reads two binaries in turn. Its
// reader drains the output to the end whatever the consumer takes, so
// the binary never blocks on a full pipe.
type itemStream struct {
	items chan outputItem
	stop  chan struct{}
	err   error // the scan error, once items is closed
}

func streamOutput(r io.Reader, accept func(name string, n int64) bool) *itemStream {
	s := &itemStream{items: make(chan outputItem, 16), stop: make(chan struct{})}
	go func() {
		defer close(s.items)
		s.err = scanOutput(r, accept, func(it outputItem) bool {
			select {
			case s.items <- it:
				return false
			case <-s.stop:
				return true
			}
		})
	}()
	return s
}

// next returns the next item, or false once the output has ended.
func (s *itemStream) next() (outputItem, bool) {
	it, ok := <-s.items
	return it, ok
}

// close stops handing out items; the rest of the output is drained.
func (s *itemStream) close() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
}
