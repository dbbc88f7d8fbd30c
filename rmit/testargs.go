package rmit

import (
	"fmt"
	"strings"
)

// harnessFlags are the test binary flags the harness sets itself for
// every process: an argument that set them too would change what an
// iteration runs or how long, behind the schedule's back.
var harnessFlags = []string{"test.run", "test.bench", "test.benchtime", "test.count", "test.cpu", "test.list", "test.v"}

// CheckTestArgs reports whether args may be passed to the test binaries:
// they must not set a flag the harness sets (-test.bench, -test.count and
// the like; gobench-dyn run has its own flags for those) or change the
// output it reads (-test.v).
func CheckTestArgs(args []string) error {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		for _, h := range harnessFlags {
			if name == h {
				return fmt.Errorf("%s: the harness sets -%s itself in every process", a, h)
			}
		}
	}
	return nil
}
