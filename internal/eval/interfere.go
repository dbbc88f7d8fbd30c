package main

import (
	"math"
	"math/rand/v2"
	"runtime"
	"time"
)

// interfere emulates a shared machine's neighbours, whose load comes and
// goes in time: n goroutines that spin together for a while, then rest,
// each spell lasting between 20 ms and 1 s (log-uniform, from seed), until
// stop is closed. A benchmark beside it runs at one speed while they rest
// and at another while they spin, as slices on a shared virtual machine
// jump between states lasting 20 ms to a second.
func interfere(n int, seed uint64, stop <-chan struct{}) {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	spell := func() time.Duration {
		lo, hi := math.Log(0.020), math.Log(1.0)
		return time.Duration(math.Exp(lo+rng.Float64()*(hi-lo)) * float64(time.Second))
	}
	busy := make([]chan time.Time, n)
	for i := range busy {
		busy[i] = make(chan time.Time)
		go func(until <-chan time.Time) {
			x := uint64(i + 1)
			for end := range until {
				for time.Now().Before(end) {
					for range 1 << 12 {
						x = x*6364136223846793005 + 1442695040888963407
					}
				}
			}
			runtime.KeepAlive(x)
		}(busy[i])
	}
	for {
		end := time.Now().Add(spell())
		for _, c := range busy {
			c <- end
		}
		select {
		case <-stop:
			for _, c := range busy {
				close(c)
			}
			return
		case <-time.After(time.Until(end) + spell()):
		}
	}
}
