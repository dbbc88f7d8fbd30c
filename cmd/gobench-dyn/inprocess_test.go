package main

// exitCode runs args in process and returns the exit status.
func exitCode(args ...string) int {
	code, _, _ := inProcess(args...)
	return code
}
