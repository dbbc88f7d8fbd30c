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
}

// StartWorker implements TurnStarter.
func (s ExecStarter) StartWorker(bin, dir string, args []string, free int) (Worker, error) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), TurnEnv+"="+strconv.Itoa(max(free, 1)))
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

var grant = []byte{turnGrant}

func (w *execWorker) Grant() error {
	_, err := w.grants.Write(grant)
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
