package session

import "fmt"

// A Kind says what went wrong with a run, for the exit status.
type Kind int

// The kinds of Error.
const (
	// Usage is a bad option or input file; nothing was measured.
	Usage Kind = iota + 1
	// Failed is a run that could not measure anything, such as one
	// whose every package failed to build.
	Failed
	// Interrupted is a run stopped by its context; what was measured
	// has been written.
	Interrupted
)

// An Error is a run that could not complete, with a message for the user
// that names the flag or file at fault.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func usageErr(format string, args ...any) error {
	return &Error{Kind: Usage, Msg: fmt.Sprintf(format, args...)}
}

func failErr(format string, args ...any) error {
	return &Error{Kind: Failed, Msg: fmt.Sprintf(format, args...)}
}
