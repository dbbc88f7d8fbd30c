// Package known is a fixture with known answers for the abs tests: Hot is
// run by a benchmark's timed loop, Setup (and Cold through it) only before
// it, Init only at package initialisation; asm.Add has no Go body.
package known

// Hot hashes the numbers below n in a chain of multiplies.
func Hot(n int) int {
	s := 0
	for i := range n {
		s = (s ^ i) * 0x5851F42D4C957F2D
	}
	return s
}

// Cold sums the numbers below n.
func Cold(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	return s
}

// Counter counts.
type Counter struct{ n int }

// Add adds d, and is run by the benchmark through Hot's caller.
func (c *Counter) Add(d int) { c.n += d }

// Init runs only at package initialisation: no benchmark reaches it.
func Init() int { return 42 }

var initialised = Init()

// Setup is run by the benchmark before its timed loop only.
func Setup() int { return Cold(10) }
