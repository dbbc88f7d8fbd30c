// Package inject makes one Go function slower without touching the user's
// source tree: it rewrites a copy of the function's file so that every call
// spins on the monotonic clock for v times the call's own elapsed time, and
// writes a build overlay that compiles the copy in place of the original.
//
// The rewrite inserts one statement at the start of the function body, on
// the line of its opening brace, so that every line number, and with it
// every coverage block, panic trace and //line directive, stays where it
// was. The statement calls a helper that an added file in the same package
// defines (Helper), so the rewritten file needs no new import.
//
// Slowdown semantics, for a factor v:
//   - A call's own time is its elapsed time minus the whole time of the
//     injected calls nested in it, so recursion and mutual recursion add v
//     times the function's total own time once, not (1+v) to the power of
//     the depth.
//   - The spin is busy-waiting on the runtime's monotonic clock, not a sleep: a sleep cannot
//     make sub-microsecond delays, which under-slowed small functions in
//     the tool this follows (Laaber & Leitner, MSR'18).
//   - The cost of reading the clock twice is measured when the package is
//     initialised and subtracted from each call's own time, so a function
//     of a few nanoseconds is not slowed by v times the clock's cost; its
//     slowdown is still at least that cost.
//   - A call whose own time exceeds 16 times the running mean of recent
//     calls' is slowed as if it had lasted 16 times that mean: on a loaded
//     machine a call descheduled for a time slice (milliseconds) would
//     otherwise add v times that slice, a noise far larger than the
//     slowdown. A function whose calls legitimately vary more than that is
//     under-slowed until the running mean catches up, within a few calls.
//   - A panic runs the deferred spin and then goes on unchanged: the helper
//     never recovers.
//   - Nested time is counted process-wide, so calls that finish on other
//     goroutines during a call (b.RunParallel) are subtracted from it too:
//     for concurrent callers the slowdown is a lower bound.
package inject

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
)

// Names of the identifiers the helper file declares. They are long and
// prefixed so that they cannot collide with the package's own.
const (
	nowFunc  = "gobenchdynABSNow"
	spinFunc = "gobenchdynABSSpin"
)

// HelperFile is the base name of the file Helper's source is overlaid as,
// in the directory of the rewritten file.
const HelperFile = "zz_gobenchdyn_abs_spin.go"

// ErrNoBody is returned for a function declared without a body: one
// implemented in assembly or pulled in with go:linkname.
var ErrNoBody = errors.New("has no Go body (assembly or linkname): it cannot be rewritten")

// FuncName returns the name of a function declaration as candidates are
// named: "Parse" for a function, "Type.Method" for a method (pointer
// receivers and type parameters left out).
func FuncName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	return RecvType(fd.Recv.List[0].Type) + "." + fd.Name.Name
}

// RecvType returns the base type name of a method receiver expression.
func RecvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// Rewrite returns a copy of the Go source src (named filename, for error
// messages) in which the function or method called name ("F" or "T.M")
// spins at its end for v times its own elapsed time, and the name of the
// file's package, which the helper file must share. The copy relies on
// Helper's declarations.
func Rewrite(filename string, src []byte, name string) (out []byte, pkg string, err error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, "", err
	}
	var fd *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && FuncName(d) == name {
			fd = d
			break
		}
	}
	if fd == nil {
		return nil, "", fmt.Errorf("%s: no function %s", filename, name)
	}
	if fd.Body == nil {
		return nil, "", fmt.Errorf("%s: %s %w", fset.Position(fd.Pos()), name, ErrNoBody)
	}
	at := fset.Position(fd.Body.Lbrace).Offset + 1
	stmt := " defer " + spinFunc + "(" + nowFunc + "());"
	var b bytes.Buffer
	b.Grow(len(src) + len(stmt))
	b.Write(src[:at])
	b.WriteString(stmt)
	b.Write(src[at:])
	return b.Bytes(), f.Name.Name, nil
}

// Helper returns the source of the file that declares what rewritten
// functions call, in package pkg, for a slowdown factor v (1 doubles a
// call's own time).
func Helper(pkg string, v float64) []byte {
	return fmt.Appendf(nil, helperSrc, pkg, strconv.FormatFloat(v, 'g', -1, 64))
}

// helperSrc is formatted with the package name and the factor. Every
// identifier carries the gobenchdynABS prefix. It compiles at the
// language version of any module it is added to, down to go 1.16: no
// generics, no min or max.
const helperSrc = `// Code generated by gobench-dyn abs. DO NOT EDIT.

package %s

import (
	"sort"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

const gobenchdynABSFactor = %s

// gobenchdynABSClock is the runtime's monotonic clock in ns: a third of
// the cost of time.Now, which also reads the wall clock.
//
//go:linkname gobenchdynABSClock runtime.nanotime
func gobenchdynABSClock() int64

// gobenchdynABSNested grows by the whole elapsed time of every injected
// call that finishes, less that of the injected calls nested in it, so
// that a call can leave out the time of those nested in it.
var gobenchdynABSNested atomic.Int64

// gobenchdynABSTypical is a running mean of calls' own time, in ns. A call
// that lasted more than gobenchdynABSClip times as long is taken to have
// spent most of it descheduled, and is slowed as if it had lasted that
// long: time off the CPU is not multiplied by the factor.
var gobenchdynABSTypical atomic.Int64

const gobenchdynABSClip = 16

// gobenchdynABSCost is what reading the clock at entry and exit costs.
var gobenchdynABSCost = gobenchdynABSCalibrate()

type gobenchdynABSStart struct {
	t, nested int64
}

func gobenchdynABSCalibrate() int64 {
	d := make([]int64, 31)
	for i := range d {
		s := gobenchdynABSNow()
		d[i] = gobenchdynABSClock() - s.t
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

func gobenchdynABSNow() gobenchdynABSStart {
	return gobenchdynABSStart{nested: gobenchdynABSNested.Load(), t: gobenchdynABSClock()}
}

func gobenchdynABSSpin(s gobenchdynABSStart) {
	now := gobenchdynABSClock()
	elapsed := now - s.t
	nested := gobenchdynABSNested.Load() - s.nested
	own := elapsed - nested - gobenchdynABSCost
	if typical := gobenchdynABSTypical.Load(); typical > 0 {
		if own > gobenchdynABSClip*typical {
			own = gobenchdynABSClip * typical
		}
		pos := own
		if pos < 0 {
			pos = 0
		}
		gobenchdynABSTypical.Store(typical + (pos-typical)/gobenchdynABSClip)
	} else if own > 0 {
		gobenchdynABSTypical.Store(own)
	}
	if own > 0 {
		until := s.t + elapsed + int64(float64(own)*gobenchdynABSFactor)
		for now < until {
			now = gobenchdynABSClock()
		}
	}
	// The caller must see this call's whole time as nested, and the
	// nested calls inside it only through it.
	gobenchdynABSNested.Add(now - s.t - nested)
}
`
