package session

import (
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/gate"
	"github.com/gobench-dyn/gobench-dyn/rmit"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// PairOptions says how a PairedRun schedules, stops and judges its pairs.
type PairOptions struct {
	// Compare judges the pairs: paired by suite run, as a gate judges
	// them, or not, as the rank-sum rule of abs does.
	Compare gate.Options
	// Judged stops each pair once Compare.Plan decides it or puts its
	// verdict out of reach (JudgePaired); otherwise a pair stops
	// once its policy holds both versions stable, or at its cap.
	Judged bool
	// Turns, when set, runs each pair as duets of this shape, with turns
	// of TurnTime.
	Turns    *rmit.TurnPlan
	TurnTime time.Duration
}

// A PairedRun runs two versions of the same benchmarks pair by pair and
// judges them. run --baseline, history --confirm and abs all compare
// through it, so that a pair is scheduled, stopped and judged alike
// whichever command asked.
type PairedRun struct {
	paired *rmit.Paired
	opts   PairOptions
}

// NewPairedRun pairs base and head, the benchmarks with the same package
// and name, under policy: a pair runs back to back in every suite run and
// stops together.
func NewPairedRun(policy rmit.Policy, base, head []*rmit.Benchmark, o PairOptions) *PairedRun {
	paired := rmit.NewPaired(policy, base, head)
	if o.Judged {
		JudgePaired(paired, o)
	}
	return &PairedRun{paired: paired, opts: o}
}

// JudgePaired has paired stop each pair under o.Compare's plan, as the
// comparison at the end will judge it, saying why: duet by duet, with the
// turns of its duets planned from its first ones (gate.DuetTurns), when
// the pairs run in turns (o.Turns); otherwise by the processes of its
// paired suite runs (gate.JudgePair). Every paired run (run --baseline,
// abs, history --confirm) stops its pairs through it. It joins the gate's
// rules to the runner here rather than in gate, so that what only reads
// comparisons (report) does not depend on what runs processes.
func JudgePaired(paired *rmit.Paired, o PairOptions) {
	c := o.Compare
	if o.Turns != nil {
		paired.JudgeDuets = func(d []float64) string { return gate.JudgeDuets(d, c.Threshold, c.Confidence, c.Plan).Reason() }
		paired.PlanDuet = gate.DuetTurns
		return
	}
	paired.Judge = func(base, head [][]float64) string {
		return gate.JudgePair(base, head, c.Threshold, c.Confidence, c.Plan).Reason()
	}
}

// Drive sets r to run the pairs: their policy and schedule, their turns,
// and one b.N for both versions, since how a slice lines up with the
// scheduler's time slices depends on its length.
func (p *PairedRun) Drive(r *rmit.Runner) {
	r.Policy, r.Pairs, r.FixedN = p.paired, &p.paired.Pairing, true
	r.Turns, r.TurnTime = p.opts.Turns, p.opts.TurnTime
}

// Compare returns the options the pairs are judged with.
func (p *PairedRun) Compare() gate.Options { return p.opts.Compare }

// Judge compares what the two versions measured, base against head.
func (p *PairedRun) Judge(base, head *record.Run) (*gate.Result, error) {
	return gate.Runs(base, head, p.opts.Compare)
}
