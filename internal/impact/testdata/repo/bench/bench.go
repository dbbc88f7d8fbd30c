// Package bench holds the benchmarks of the repository.
package bench

import (
	_ "embed"
	"os"
)

//go:embed data.txt
var data string

// Own is the benchmarks' own module's code.
func Own(n int) int {
	return n + 1
}

// Embedded measures the embedded file.
func Embedded() int { return len(data) }

// Count reads a file at run time: its cost grows with the file.
func Count(name string) int {
	b, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	n := 0
	for _, c := range b {
		if c == ' ' {
			n++
		}
	}
	return n
}
