// Command hog keeps CPUs busy, so that the test suite can be run on a
// loaded machine: .ci/run starts it beside the second test pass. It spins
// -n goroutines (default: one per CPU) and exits after -for, so that it
// never outlives a check that was killed before it could stop it.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"
)

var sink [64]uint64

func main() {
	n := flag.Int("n", runtime.NumCPU(), "busy goroutines")
	life := flag.Duration("for", 20*time.Minute, "exit after this long")
	flag.Parse()
	if *n < 1 || *n > len(sink) {
		fmt.Fprintf(os.Stderr, "hog: -n %d: want 1 to %d\n", *n, len(sink))
		os.Exit(2)
	}
	for i := range *n {
		go spin(i)
	}
	time.Sleep(*life)
}

// spin computes forever; the result goes to sink so that the loop is not
// optimized away.
func spin(i int) {
	x := uint64(i + 1)
	for {
		for range 1 << 20 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		sink[i] += x
	}
}
