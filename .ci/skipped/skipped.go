// Command skipped reads the events of go test -json on stdin and prints
// what a plain go test would leave in a log: each package's result line,
// build errors, and the output of every test that failed. At its end it
// lists every test that skipped, with the reason it gave, so that a skip
// shows in the log: .ci/run runs a test pass through it. It exits 1 if a
// test or package failed, and 2 if stdin is not such events.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// skip is a test that skipped, and why.
type skip struct {
	pkg, test, reason string
}

func main() {
	os.Exit(run())
}

func run() int {
	type key struct{ pkg, test string }
	output := map[key]*strings.Builder{}
	var skips []skip
	failed := false
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; in.Scan(); line++ {
		var e event
		if err := json.Unmarshal(in.Bytes(), &e); err != nil {
			fmt.Fprintf(os.Stderr, "skipped: stdin:%d: not an event of go test -json: %v\n", line, err)
			return 2
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Print(e.Output)
		case e.Action == "output" && e.Test == "":
			// The package's own lines: its result, and whatever the test
			// binary printed outside a test (a panic in TestMain).
			if e.Output != "PASS\n" {
				fmt.Print(e.Output)
			}
		case e.Action == "output":
			b := output[k]
			if b == nil {
				b = &strings.Builder{}
				output[k] = b
			}
			b.WriteString(e.Output)
		case e.Action == "fail" && e.Test == "":
			// A test binary that panicked or timed out ends its package
			// with the tests it was running unfinished: their output is
			// where the panic is.
			failed = true
			for u, b := range output {
				if u.pkg == e.Package {
					fmt.Print(b.String())
					delete(output, u)
				}
			}
		case e.Action == "fail" || e.Action == "build-fail":
			failed = true
			if b := output[k]; b != nil && e.Test != "" {
				fmt.Print(b.String())
			}
		case e.Action == "skip" && e.Test != "":
			skips = append(skips, skip{e.Package, e.Test, reason(output[k])})
		}
		switch e.Action {
		case "pass", "fail", "skip":
			delete(output, k)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "skipped: stdin: %v\n", err)
		return 2
	}
	fmt.Printf("== %d skipped tests\n", len(skips))
	for _, s := range skips {
		fmt.Printf("%s %s: %s\n", s.pkg, s.test, s.reason)
	}
	if failed {
		return 1
	}
	return 0
}

// reason returns what a skipped test printed, on one line, without the
// lines go test frames a test with.
func reason(b *strings.Builder) string {
	if b == nil {
		return ""
	}
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, " ")
}
