package leftover

import (
	"os"
	"strconv"
	"strings"
	"sync"
)

// namespace returns the inode of this process's pid namespace, which
// tells containers apart that share a temporary directory; 0 if unknown.
var namespace = sync.OnceValue(func() uint64 {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return 0
	}
	// "pid:[4026531836]"
	inode := strings.TrimSuffix(strings.TrimPrefix(link, "pid:["), "]")
	n, err := strconv.ParseUint(inode, 10, 64)
	if err != nil {
		return 0
	}
	return n
})
