// Package choice parses a word that names one of a fixed list of choices,
// such as the value of a flag or of a field in a file, so that every
// command rejects a word it does not know the same way: by naming what was
// to be chosen and every choice it could have been.
package choice

import (
	"fmt"
	"strings"
)

// Parse returns the one of choices that s spells. Otherwise its error
// names what is chosen and lists the choices:
//
//	unknown rule "x" (want ci, ci-overlap or utest)
func Parse[T ~string](what, s string, choices ...T) (T, error) {
	return ParseFunc(what, s, func(c T) string { return string(c) }, choices...)
}

// ParseFunc is Parse for choices that are not words themselves: name
// spells each of them.
func ParseFunc[T any](what, s string, name func(T) string, choices ...T) (T, error) {
	names := make([]string, len(choices))
	for i, c := range choices {
		if names[i] = name(c); names[i] == s {
			return c, nil
		}
	}
	var zero T
	return zero, fmt.Errorf("unknown %s %q (want %s)", what, s, List(names...))
}

// List joins words as a sentence lists them: "a", "a or b", "a, b or c".
func List(words ...string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
