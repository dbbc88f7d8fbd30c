package session

import (
	"os"
	"slices"
	"sync"

	"github.com/gobench-dyn/gobench-dyn/internal/atomicfile"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// Cleanups are what must be undone even when a second interrupt aborts
// the run at once: temporary directories, worktrees, unfinished results
// files. The zero value is ready to use.
type Cleanups struct {
	mu   sync.Mutex
	fns  map[int]func()
	n    int
	done bool // Run has run: what is added now is undone at once
}

// Add registers fn to run at the end of the run or on abort, and returns
// a function that runs it once and unregisters it. Once Run has run, fn
// runs at once.
func (c *Cleanups) Add(fn func()) (run func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.add(fn)
}

// Create calls create, which makes something that undo removes, and
// registers undo, both under the lock that Run takes: an abort that
// exits right after Run then either removes what create made or keeps it
// from being made, never leaving it behind. Once Run has run, create is
// not called and the error is rmit.ErrInterrupted. create must be quick, as an
// abort waits for it.
func (c *Cleanups) Create(create func() (undo func(), err error)) (run func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return nil, rmit.ErrInterrupted
	}
	undo, err := create()
	if err != nil {
		return nil, err
	}
	return c.add(undo), nil
}

// CreateFile starts writing path in place of the old file
// (atomicfile.Create), with its abandonment registered in the same step,
// so that an abort at any moment leaves no temporary file behind.
func (c *Cleanups) CreateFile(path string) (*atomicfile.File, error) {
	var f *atomicfile.File
	_, err := c.Create(func() (func(), error) {
		var err error
		f, err = atomicfile.Create(path)
		if err != nil {
			return nil, err
		}
		return f.Abandon, nil
	})
	return f, err
}

// CreateOutput creates the output file path that flag names, as
// CreateFile does, refusing at once a directory in its place: the file is
// only renamed into place at the end, and a run should learn now, not
// after measuring, that it cannot be. Its errors name flag.
func (c *Cleanups) CreateOutput(flag, path string) (*atomicfile.File, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, usage.Errorf(flag, "%s is a directory", path)
	}
	f, err := c.CreateFile(path)
	if err != nil {
		return nil, usage.Errorf(flag, "%w", err)
	}
	return f, nil
}

// add is Add with c.mu held.
func (c *Cleanups) add(fn func()) (run func()) {
	if c.done {
		fn()
		return func() {}
	}
	if c.fns == nil {
		c.fns = map[int]func(){}
	}
	id := c.n
	c.n++
	once := sync.OnceFunc(fn)
	c.fns[id] = once
	return func() {
		c.mu.Lock()
		delete(c.fns, id)
		c.mu.Unlock()
		once()
	}
}

// Run runs every registered cleanup, newest first.
func (c *Cleanups) Run() {
	c.mu.Lock()
	ids := make([]int, 0, len(c.fns))
	for id := range c.fns {
		ids = append(ids, id)
	}
	fns := c.fns
	c.fns = nil
	c.done = true
	c.mu.Unlock()
	slices.Sort(ids)
	slices.Reverse(ids)
	for _, id := range ids {
		fns[id]()
	}
}
