package leftover

import (
	"os"
	"path/filepath"
	"strconv"
)

// KillGroups kills the process groups named in dir, a directory that
// rmit.ExecStarter.GroupDir pointed at in a run now gone: the test
// binaries that run left running and whatever they started. bin is where
// that run kept its test binaries. A group whose number now belongs to
// some other process is left alone.
func KillGroups(dir, bin string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	if real, err := filepath.EvalSymlinks(bin); err == nil {
		bin = real
	}
	for _, e := range entries {
		pgid, err := strconv.Atoi(e.Name())
		if err != nil || pgid <= 1 {
			continue
		}
		killGroup(pgid, bin)
	}
}
