package usage

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestErrorWrapsItsCause(t *testing.T) {
	err := Errorf("raw", "cannot write: %w", fs.ErrPermission)
	assert.ErrorIs(t, err, fs.ErrPermission)
	assert.Equal(t, "--raw: cannot write: permission denied", err.Error())
	u := As(errors.Join(errors.New("other"), err))
	if assert.NotNil(t, u) {
		assert.Equal(t, "raw", u.Flag)
	}
	assert.Nil(t, As(fs.ErrPermission))
	assert.Equal(t, "--seed 43: the run used seed 42", ValueErrorf("seed", 43, "the run used seed %d", 42).Error())
	assert.Equal(t, "no benchmark matches", Errorf("", "no benchmark matches").Error())
}

func TestWrapKeepsTheOption(t *testing.T) {
	inner := ValueErrorf("bench", `"("`, "missing closing )")
	assert.Same(t, inner, Wrap(inner))
	assert.Same(t, inner, As(Wrap(fmt.Errorf("preparing: %w", inner))))
	plain := errors.New("no module")
	assert.Equal(t, &Error{Err: plain}, Wrap(plain))
	assert.Nil(t, Wrap(nil))
}
