package session

import (
	"slices"
	"sync"
)

// Cleanups are what must be undone even when a second interrupt aborts
// the run at once: temporary directories, worktrees, unfinished results
// files. The zero value is ready to use.
type Cleanups struct {
	mu  sync.Mutex
	fns map[int]func()
	n   int
}

// Add registers fn to run at the end of the run or on abort, and returns
// a function that runs it once and unregisters it.
func (c *Cleanups) Add(fn func()) (run func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
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
	c.mu.Unlock()
	slices.Sort(ids)
	slices.Reverse(ids)
	for _, id := range ids {
		fns[id]()
	}
}
