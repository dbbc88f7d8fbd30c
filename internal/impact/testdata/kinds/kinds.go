// Package kinds holds one function per kind of change that impact must
// see: each test changes one thing and checks which benchmarks reach it.
package kinds

import _ "embed"

//go:embed data.txt
var data string

// Point is used by UsePoint without naming a field's type.
type Point struct{ X, Y int }

// Scale is a constant.
const Scale = 3

var table = [4]int{1, 2, 3, 4}

var registry = map[string]int{}

func init() { registry["a"] = 1 }

func helper(x int) int { return x + 1 }

// Body calls an inlinable helper.
func Body(n int) int {
	s := 0
	for i := range n {
		s += helper(i)
	}
	return s
}

// Double is generic.
func Double[T int | float64](x T) T { return x * 2 }

// A Shape has an area.
type Shape interface{ Area() int }

// Square is a Shape.
type Square struct{ S int }

// Area is an interface method.
func (s Square) Area() int { return s.S * s.S }

// Total calls Area through the interface.
func Total(shapes []Shape) int {
	t := 0
	for _, s := range shapes {
		t += s.Area()
	}
	return t
}

// Closure makes a closure and calls it.
func Closure(n int) int {
	f := func(i int) int { return i * 3 }
	return f(n)
}

// NewPoint returns a Point.
func NewPoint() *Point { return &Point{1, 2} }

// UseScale uses the constant.
func UseScale(x int) int { return x * Scale }

// UseTable reads a variable's initial value.
func UseTable(i int) int { return table[i%4] }

// UseRegistry reads what init wrote.
func UseRegistry() int { return registry["a"] }

// UseData reads the embedded file.
func UseData() int { return len(data) }

// Untouched is changed by no test, and reaches nothing that is.
func Untouched(x int) int { return x - 1 }
