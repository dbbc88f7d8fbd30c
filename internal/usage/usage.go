// Package usage is the one error type for bad input: a flag, an option or
// a file the caller gave that cannot work. gobench-dyn exits 2 on it.
//
// Library packages say which option is at fault by the name of its field
// in their Options struct, and never by a command-line flag: the command
// that bound the option to a flag adds the flag's name to the message.
package usage

import (
	"errors"
	"fmt"
)

// An Error is bad input, with its cause.
type Error struct {
	// Option names the option at fault as its Options field is named
	// ("Resume", "Func"), or is empty when the input as a whole is at
	// fault (no benchmark matches, say).
	Option string
	// Value is the option's value as the message should quote it, or
	// empty when the message has no need of it.
	Value string
	// Err is what is wrong, in words that make sense after the option's
	// name and value.
	Err error
}

func (e *Error) Error() string {
	switch {
	case e.Option == "":
		return e.Err.Error()
	case e.Value == "":
		return e.Option + ": " + e.Err.Error()
	}
	return e.Option + " " + e.Value + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of option whose cause is fmt.Errorf(format,
// args...), so that a %w argument stays reachable with errors.Is.
func Errorf(option, format string, args ...any) error {
	return &Error{Option: option, Err: fmt.Errorf(format, args...)}
}

// ValueErrorf is Errorf for a message that quotes the option's value.
func ValueErrorf(option string, value any, format string, args ...any) error {
	return &Error{Option: option, Value: fmt.Sprint(value), Err: fmt.Errorf(format, args...)}
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
