package session

import (
	"os"
	"runtime"
	"strings"
)

// sharedCores says why two CPUs of this machine may share a physical
// core, which spoils running two benchmarks at once, or "" when nothing
// says so. A virtual machine's topology does not show its host's: two
// vCPUs may be the two hardware threads of one core, and measured on a
// shared 2-vCPU machine, two workers running at once had speeds that
// moved against each other (r = −0.42).
func sharedCores() string {
	if runtime.NumCPU() < 2 {
		return "this machine has one CPU"
	}
	if b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"); err == nil {
		if s := strings.TrimSpace(string(b)); strings.ContainsAny(s, ",-") {
			return "CPU 0 shares its core with CPUs " + s
		}
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil && strings.Contains(string(b), " hypervisor") {
		return "this is a virtual machine, whose CPUs may be hardware threads of one physical core"
	}
	return ""
}
