// Package leftover names the temporary files and directories of a process
// after it, and removes those whose process is gone: what a run killed by
// SIGKILL, the out-of-memory killer or a lost machine could not remove
// itself.
//
// A name holds the pid of the process that made it and, on Linux, its pid
// namespace, so that a process never takes another's live files for
// leftovers, even when containers share a temporary directory.
package leftover

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// tag is what a name made by this process holds after its prefix: the
// pid and the pid namespace, each followed by a dash.
func tag() string { return fmt.Sprintf("%d-%d-", os.Getpid(), namespace()) }

// MkdirTemp creates a new directory in the system's temporary directory,
// named prefix, the tag of this process and a random part, and returns
// its path.
func MkdirTemp(prefix string) (string, error) {
	return os.MkdirTemp("", prefix+tag())
}

// CreateTemp creates a new file in dir, named prefix, the tag of this
// process and a random part, opened for reading and writing.
func CreateTemp(dir, prefix string) (*os.File, error) {
	return os.CreateTemp(dir, prefix+tag()+"*")
}

// owner returns the pid and namespace in name, made with prefix by
// MkdirTemp or CreateTemp, or false for a name made otherwise.
func owner(name, prefix string) (pid int, ns uint64, ok bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, 0, false
	}
	parts := strings.SplitN(rest, "-", 3)
	if len(parts) != 3 {
		return 0, 0, false
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 {
		return 0, 0, false
	}
	ns, err = strconv.ParseUint(parts[1], 10, 64)
	if err != nil {
		return 0, 0, false
	}
	return pid, ns, true
}

// Sweep removes the entries of dir that MkdirTemp or CreateTemp made with
// prefix for a process of this pid namespace that is gone. It calls
// before, if not nil, with the path of each before removing it, for what
// the entry holds that removing it does not undo. It returns the paths it
// removed. An entry it cannot judge or remove is left alone.
func Sweep(dir, prefix string, before func(path string)) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		pid, ns, ok := owner(e.Name(), prefix)
		if !ok || ns != namespace() || pid == os.Getpid() || alive(pid) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if before != nil {
			before(path)
		}
		if os.RemoveAll(path) == nil {
			removed = append(removed, path)
		}
	}
	return removed
}
