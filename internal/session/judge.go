package session

import (
	"cmp"
	"context"
)

// judge compares the two versions of a baseline run that res measured,
// and explains the changes found when asked. An interrupted run is judged
// on what it measured, at the looks its pairs reached, and has no
// comparison when that fails or holds none. It returns the output failure
// that stopped the run, or the comparison's error.
func (r *run) judge(ctx context.Context, p *prepared, a *assembly, res *Result) error {
	interrupted := res.Summary.Interrupted
	if r.opts.Baseline == "" || (!interrupted && res.Stopped != nil) {
		return res.Stopped
	}
	err := r.compare(res, a.obs, a.paired)
	switch {
	case interrupted && (err != nil || len(res.Comparison.Comparisons) == 0):
		res.Comparison = nil
	case err != nil:
		return err
	case !interrupted && r.opts.Explain:
		r.explainChanges(ctx, p, res)
	}
	return res.Stopped
}

// compare compares the two versions the observer kept.
func (r *run) compare(res *Result, obs *observer, paired *PairedRun) error {
	c, err := paired.Judge(obs.baseline, obs.head)
	if err != nil {
		return err
	}
	c.OldName, c.NewName = cmp.Or(r.baseName, r.opts.Baseline), cmp.Or(r.headName, "HEAD")
	c.OldCommit = r.baseRev
	res.Comparison = c
	res.Regressed = len(c.Regressions(r.opts.FailOn)) > 0
	res.Inconclusive = !res.Regressed && c.Failed(r.opts.FailOn)
	return nil
}
