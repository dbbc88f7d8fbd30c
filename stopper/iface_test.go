package stopper_test

import (
	"github.com/gobench-dyn/gobench-dyn/stopper"
	"github.com/gobench-dyn/gobench-dyn/stopper/policy"
)

// The runner and the replay consult a Policy through the policy protocol;
// the stopper package does not import them.
var _ policy.Policy = (*stopper.Policy)(nil)
