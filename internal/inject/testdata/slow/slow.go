// Command slow is a fixture for the inject tests: its exported functions
// are rewritten, and main measures them against untouched copies.
package main

import (
	"fmt"
	"time"
)

// Sleep1 lasts at least a millisecond.
func Sleep1() { time.Sleep(time.Millisecond) }

// Rec sleeps a millisecond at each of n levels of recursion.
func Rec(n int) {
	if n == 0 {
		return
	}
	time.Sleep(time.Millisecond)
	Rec(n - 1)
}

func plainRec(n int) {
	if n == 0 {
		return
	}
	time.Sleep(time.Millisecond)
	plainRec(n - 1)
}

// Panics panics with "boom".
func Panics() { panic("boom") }

// Gen is generic.
func Gen[T any](x T) T { return x }

// Box is a generic type.
type Box[T any] struct{ v T }

// Get is a method of a generic type.
func (b *Box[T]) Get() T { return b.v }

func timed(f func()) time.Duration {
	best := time.Duration(1 << 62)
	for range 5 {
		s := time.Now()
		f()
		best = min(best, time.Since(s))
	}
	return best
}

func main() {
	fmt.Println("sleep1", timed(Sleep1).Nanoseconds())
	fmt.Println("rec", timed(func() { Rec(6) }).Nanoseconds())
	fmt.Println("plainrec", timed(func() { plainRec(6) }).Nanoseconds())
	func() {
		defer func() { fmt.Println("recovered", recover()) }()
		Panics()
	}()
	fmt.Println("generic", Gen(3), (&Box[int]{4}).Get())
}
