package stopper

import (
	"strings"

	"github.com/gobench-dyn/gobench-dyn/internal/choice"
)

// criteria lists the stoppage criteria in the order --stop names them.
// A criterion is one definition in a file of its own and one entry here.
var criteria = []Criterion{None, CV, RCIW, KLD, Precision, Interval}

// A Criterion is a stoppage criterion. Criteria compare with ==; the zero
// Criterion is None.
type Criterion struct{ def *definition }

// A definition is everything that makes one stoppage criterion: how it is
// named and explained, its default threshold, and the statistics the
// Policy applies at the end of warmup and after each iteration. A
// criterion leaves out the stages it does not decide: without value or
// settled its warmup is fixed, without next it never stops a benchmark
// by the iteration vector F.
type definition struct {
	name string
	// help says what the criterion measures, for --stop's help.
	help string
	// threshold is the default t.
	threshold float64
	// relative: t is a relative width or difference, below 1 (0.03 is
	// 3%). probability: t is a probability, below 1.
	relative, probability bool
	// minWindow is the fewest slices of a window in which value yields
	// a stability value, and the least Window. A criterion with none
	// judges on all of F.
	minWindow int
	// resamples: the criterion draws Config.Resamples bootstrap
	// resamples.
	resamples bool
	// value is the stability value of xs, the slices of a warmup window
	// up to one of them: Eq. (1) of the paper. Warmup ends when stable
	// holds on the values of the last Window warmup slices.
	value func(e *evaluator, xs []float64) float64
	// settled, instead of value, ends warmup by a rule of its own on the
	// last two warmup slices.
	settled func(warmup []float64) bool
	// next returns the value F gains after an iteration: the criterion
	// over the cumulative measurement values of st, the first prev of
	// them from the iterations before the newest; false adds none.
	next func(st *benchState, prev, resamples int) (float64, bool)
	// stable is the stable function over the values of a warmup window,
	// and over the last Window values of F.
	stable func(values []float64, t float64) bool
	// interval: the criterion decides on the process-level interval of
	// the mean, with t its target relative half-width, and the
	// measurement slices per iteration adapt to reach it.
	interval bool
	// learns: settled ends the warmup of a benchmark's first iteration
	// only, and the iterations after it warm up as long as that one
	// needed (Policy.LearnedWarmup).
	learns bool
}

// None is a static configuration: a fixed warmup and no early stop.
var None = Criterion{}

var noneDef = definition{name: "none", help: "static configuration"}

func (c Criterion) spec() *definition {
	if c.def == nil {
		return &noneDef
	}
	return c.def
}

// Criteria returns every stoppage criterion, in the order --stop names
// them.
func Criteria() []Criterion { return append([]Criterion(nil), criteria...) }

func (c Criterion) known() bool {
	for _, k := range criteria {
		if k == c {
			return true
		}
	}
	return false
}

// String returns the criterion's name as the --stop flag spells it.
func (c Criterion) String() string { return c.spec().name }

// Help says what c measures, in a phrase.
func (c Criterion) Help() string { return c.spec().help }

// DefaultThreshold returns the threshold c stops at by default: the
// paper's for CV, RCIW and KLD, PrecisionThreshold for Precision,
// IntervalTarget for Interval, and 0 for None.
func (c Criterion) DefaultThreshold() float64 { return c.spec().threshold }

// RelativeThreshold reports whether c's threshold is a relative width or
// difference, a fraction below 1 (0.03 is 3%).
func (c Criterion) RelativeThreshold() bool { return c.spec().relative }

// WindowWarmup reports whether c ends the warmup of an iteration as the
// paper does: once its stable function holds on a sliding window of
// warmup slices.
func (c Criterion) WindowWarmup() bool { return c.spec().value != nil }

// ParseCriterion returns the criterion named s, in any case.
func ParseCriterion(s string) (Criterion, error) {
	return choice.ParseFunc("stoppage criterion", strings.ToLower(s), Criterion.String, criteria...)
}

// Set parses s into c, so that a *Criterion serves as a flag value.
func (c *Criterion) Set(s string) error {
	v, err := ParseCriterion(s)
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// Type names the flag value type in help text: the criteria's names.
func (c *Criterion) Type() string {
	names := make([]string, len(criteria))
	for i, k := range criteria {
		names[i] = k.String()
	}
	return strings.Join(names, "|")
}
