// Package benchout handles the Go benchmark text format: the stream a test
// binary prints while its benchmarks run, and the files benchstat reads.
//
// A Parser reads the live output of a test binary run with -test.bench, in
// the manner of bufio.Scanner, and hands out each result as soon as its line
// is complete. Unlike a reader of finished files (golang.org/x/perf/benchfmt),
// it copes with what a running binary prints: the name of a benchmark
// printed before the benchmark runs (so a killed run leaves a half line),
// the benchmark's own prints landing between the name and the result fields,
// failures, skips, panics and very long lines.
//
// A Writer writes measurement slices back out in the format benchstat reads,
// with the same file-level configuration keys in every run.
package benchout
