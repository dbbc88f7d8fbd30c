package stopper_test

import (
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/stopper"
)

// The runner consults a Policy through its interfaces; the stopper package
// itself does not import rmit.
var (
	_ rmit.Policy    = (*stopper.Policy)(nil)
	_ rmit.Explainer = (*stopper.Policy)(nil)
	_ rmit.Widther   = (*stopper.Policy)(nil)
)
