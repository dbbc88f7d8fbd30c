package history

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// IsJSONL reports whether the history at path is a JSON Lines export,
// read whole, rather than a store: told by its name, as history export
// writes it.
func IsJSONL(path string) bool {
	return strings.HasSuffix(path, ".jsonl")
}

// OpenSource opens the history at path: a store, or a JSON Lines export
// read whole (the store is then nil). A store that does not exist is an
// error here, not created, since reading an empty new one would only
// hide a mistyped name. Every error is one of the input.
func OpenSource(path string) (Source, *Store, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: no such history store (run --history or history add writes one)", path)
		}
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if IsJSONL(path) {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		es, err := ReadJSONL(f, path)
		if err != nil {
			return nil, nil, err
		}
		return Entries(es), nil, nil
	}
	s, err := Open(path)
	if err != nil {
		return nil, nil, err
	}
	return s, s, nil
}
