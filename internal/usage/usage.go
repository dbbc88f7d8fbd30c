// Package usage is the one error type for bad input: a flag, an option or
// a file the caller gave that cannot work. gobench-dyn exits 2 on it.
//
// Library packages name the option at fault by the gobench-dyn flag that
// sets it, so that the message a user reads names what they typed, and a
// renamed Options field cannot change it.
package usage

import (
	"errors"
	"fmt"
)

// An Error is bad input, with its cause.
type Error struct {
	// Flag names the flag of the option at fault without its dashes
	// ("resume", "config"), or is empty when the input as a whole is at
	// fault (no benchmark matches, say).
	Flag string
	// Value is the option's value as the message should quote it, or
	// empty when the message has no need of it.
	Value string
	// Err is what is wrong, in words that make sense after the option's
	// name and value.
	Err error
}

func (e *Error) Error() string {
	switch {
	case e.Flag == "":
		return e.Err.Error()
	case e.Value == "":
		return "--" + e.Flag + ": " + e.Err.Error()
	}
	return "--" + e.Flag + " " + e.Value + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of flag whose cause is fmt.Errorf(format,
// args...), so that a %w argument stays reachable with errors.Is.
func Errorf(flag, format string, args ...any) error {
	return &Error{Flag: flag, Err: fmt.Errorf(format, args...)}
}

// ValueErrorf is Errorf for a message that quotes the flag's value.
func ValueErrorf(flag string, value any, format string, args ...any) error {
	return &Error{Flag: flag, Value: fmt.Sprint(value), Err: fmt.Errorf(format, args...)}
}

// Wrap marks err as bad input as a whole, unless it already holds an
// *Error, which says more.
func Wrap(err error) error {
	if err == nil || As(err) != nil {
		return err
	}
	return &Error{Err: err}
}

// As returns the *Error in err's chain, or nil.
func As(err error) *Error {
	var u *Error
	if errors.As(err, &u) {
		return u
	}
	return nil
}
