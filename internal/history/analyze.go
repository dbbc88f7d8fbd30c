package history

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// A Query selects what Analyze looks at.
type Query struct {
	// Bench selects benchmarks by a regular expression matched against
	// "pkg.BenchmarkX" and against the name alone; nil selects all.
	Bench *regexp.Regexp
	// Since, when set, keeps only the change points after that commit
	// (a full hash or a unique prefix); the analysis still reads the
	// whole series, so that the levels before it are known.
	Since string
	// Machine, when set, keeps only the series of that machine label.
	Machine string
	// KeepSeries keeps every series in the Analysis; without it only
	// the series with a change point are kept.
	KeepSeries bool
	// Plots is the number of series whose points are kept, for plots:
	// those with change points first. The others keep their key and
	// change points only, so that a large history fits in memory.
	Plots int
}

func (q *Query) keep(k Key) bool {
	if q.Machine != "" && k.Machine != q.Machine {
		return false
	}
	return q.Bench == nil || q.Bench.MatchString(k.Name()) || q.Bench.MatchString(k.Benchmark)
}

// A Result is the analysis of one series.
type Result struct {
	Series       *Series
	ChangePoints []ChangePoint
}

// An Analysis holds the change points of a history.
type Analysis struct {
	Options Options
	// Series counts the series analysed and Points their points.
	Series, Points int
	// Results holds the series with change points (every series with
	// Query.KeepSeries), ordered by benchmark, unit, machine, options.
	Results []Result
	// Since is the full commit Query.Since named; SinceTime its time.
	Since     string
	SinceTime time.Time
	Elapsed   time.Duration
	// Order counts the commits the commit graph did not place alone.
	Order OrderNotes
}

// OrderNotes counts, over the whole history, the distinct commits that
// the commit graph did not place alone (see Placement).
type OrderNotes struct {
	// ByTime: commits of one first-parent position whose order among
	// themselves commit time decided.
	ByTime int `json:"by_time,omitempty"`
	// Unplaced: commits recorded without their place in the graph, by a
	// version that did not record it, placed by commit time.
	Unplaced int `json:"unplaced,omitempty"`
	// OffLine: commits left out, not on the first-parent line.
	OffLine int `json:"off_line,omitempty"`
}

// Any reports whether any commit was placed other than by the graph.
func (o OrderNotes) Any() bool { return o != OrderNotes{} }

// ChangePoints returns every change point of a, in the order of Results.
func (a *Analysis) ChangePoints() []*ChangePoint {
	var out []*ChangePoint
	for i := range a.Results {
		for j := range a.Results[i].ChangePoints {
			out = append(out, &a.Results[i].ChangePoints[j])
		}
	}
	return out
}

// Regressions counts the change points of a that are regressions; with
// confirmedOnly, only those a confirmation confirmed, since one that a
// paired run refuted or could not decide should not fail a build.
func (a *Analysis) Regressions(confirmedOnly bool) int {
	n := 0
	for _, c := range a.ChangePoints() {
		if !c.Regression() {
			continue
		}
		if confirmedOnly && (c.Confirmation == nil || c.Confirmation.Status != StatusConfirmed) {
			continue
		}
		n++
	}
	return n
}

// WarnUnplaced warns on log when commits of the history at path were
// ordered by commit time for want of their place in the graph, and says
// how to mend it.
func (a *Analysis) WarnUnplaced(log io.Writer, path string) {
	if a.Order.Unplaced > 0 {
		fmt.Fprintf(log, "gobench-dyn: warning: %s: %d commits were recorded without their place in the commit graph (by an earlier version, or in a shallow clone) and are ordered by commit time; the next run --history or history add in the whole repository places those of its first-parent line\n", path, a.Order.Unplaced)
	}
}

// Analyze finds the change points of every series of src that q selects,
// on all CPUs.
func Analyze(ctx context.Context, src Source, q Query, opts Options) (*Analysis, error) {
	opts.fill()
	start := time.Now()
	a := &Analysis{Options: opts}
	type job struct {
		key     Key
		entries []Entry
	}
	jobs := make(chan job, 64)
	var mu sync.Mutex
	var wg sync.WaitGroup
	commits := map[string]Point{}
	placement := [3]map[string]bool{{}, {}, {}}
	pl := plots{limit: q.Plots}
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				for _, s := range Build(j.key, j.entries) {
					r := Result{Series: s, ChangePoints: Detect(s, opts)}
					mu.Lock()
					for _, p := range s.Points {
						commits[p.Commit] = p
					}
					for i, hs := range [][]string{s.Placement.ByTime, s.Placement.Unplaced, s.Placement.OffLine} {
						for _, h := range hs {
							placement[i][h] = true
						}
					}
					a.Series++
					a.Points += len(s.Points)
					if len(r.ChangePoints) > 0 || q.KeepSeries {
						a.Results = append(a.Results, r)
						pl.keep(a.Results, len(a.Results)-1)
					}
					mu.Unlock()
				}
			}
		}()
	}
	err := src.Each(ctx, q.keep, func(k Key, es []Entry) error {
		select {
		case jobs <- job{k, slices.Clone(es)}:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	a.Order = OrderNotes{ByTime: len(placement[0]), Unplaced: len(placement[1]), OffLine: len(placement[2])}
	slices.SortFunc(a.Results, func(x, y Result) int { return compareKeys(x.Series.Key, y.Series.Key) })
	if q.Since != "" {
		if err := a.since(q.Since, commits, q.KeepSeries); err != nil {
			return nil, err
		}
	}
	a.Elapsed = time.Since(start)
	return a, nil
}

// A NoCommitError is a Query.Since that names no commit of the history:
// a mistake in the query, which the caller tells apart from a history it
// cannot read.
type NoCommitError struct {
	Rev string
}

func (e *NoCommitError) Error() string {
	return fmt.Sprintf("no commit %q in the history", e.Rev)
}

// since keeps the change points after the commit rev names among
// commits: of a greater first-parent position, or, where a position is
// unknown, of a later commit time.
func (a *Analysis) since(rev string, commits map[string]Point, keepSeries bool) error {
	var match []string
	for c := range commits {
		if strings.HasPrefix(c, rev) {
			match = append(match, c)
		}
	}
	switch len(match) {
	case 0:
		return &NoCommitError{Rev: rev}
	case 1:
	default:
		slices.Sort(match)
		return fmt.Errorf("%q names %d commits of the history (%s, ...): give more of the hash", rev, len(match), strings.Join(match[:2], ", "))
	}
	from := commits[match[0]]
	a.Since, a.SinceTime = match[0], from.Time
	after := func(c *ChangePoint) bool {
		if p := commits[c.Commit].Position; p > 0 && from.Position > 0 {
			return p > from.Position
		}
		return c.Time.After(from.Time)
	}
	kept := a.Results[:0]
	for _, r := range a.Results {
		var cps []ChangePoint
		for _, c := range r.ChangePoints {
			if after(&c) {
				cps = append(cps, c)
			}
		}
		r.ChangePoints = cps
		if len(cps) > 0 || keepSeries {
			kept = append(kept, r)
		}
	}
	a.Results = kept
	return nil
}

// plots decides which series keep their points: up to limit of them,
// those with change points first.
type plots struct {
	limit int
	kept  []int // indexes in the results of kept series without change points
	n     int   // series kept
}

// keep decides for results[i], just added, and drops the points of an
// earlier series without change points when one with change points
// needs its place.
func (p *plots) keep(results []Result, i int) {
	r := &results[i]
	hasCP := len(r.ChangePoints) > 0
	switch {
	case p.n < p.limit:
		p.n++
		if !hasCP {
			p.kept = append(p.kept, i)
		}
		return
	case hasCP && len(p.kept) > 0:
		j := p.kept[len(p.kept)-1]
		p.kept = p.kept[:len(p.kept)-1]
		results[j].Series = &Series{Key: results[j].Series.Key}
		return
	}
	r.Series = &Series{Key: r.Series.Key}
}
