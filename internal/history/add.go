package history

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// ResolveMeta returns m with what it leaves out of the commit measured
// read from the git repository of dir: the commit time of m.Commit, or,
// without a commit, the HEAD checked out, its time and branch where m
// has none. It always looks up the commit's place in the graph; without
// one (a shallow clone, a commit git does not have) the entries can
// still be added, ordered by commit time, so it only warns on log.
func ResolveMeta(ctx context.Context, log io.Writer, dir string, m Meta) (Meta, error) {
	switch {
	case m.Commit != "" && !m.CommitTime.IsZero():
	case m.Commit != "":
		hash, at, err := gitrepo.CommitTime(ctx, dir, m.Commit)
		if err != nil {
			return m, err
		}
		m.Commit, m.CommitTime = hash, at
	default:
		hash, at, branch, err := gitrepo.Head(ctx, dir)
		if err != nil {
			return m, err
		}
		m.Commit = hash
		if m.CommitTime.IsZero() {
			m.CommitTime = at
		}
		if m.Branch == "" {
			m.Branch = branch
		}
	}
	p, err := CommitPlace(ctx, dir, m.Commit)
	if err != nil {
		fmt.Fprintf(log, "gobench-dyn: warning: commit %s has no place in the commit graph, so its entries are ordered by commit time: %v\n", m.Commit, err)
	}
	m.Place = p
	return m, nil
}

// WithRunLabels returns m with the machine and options labels of the run
// of header h where m has none, so that runs of one kind of runner and
// one set of options share series.
func (m Meta) WithRunLabels(h *record.Header) Meta {
	if m.Machine == "" {
		m.Machine = MachineOf(h)
	}
	if m.Options == "" {
		m.Options = OptionsOf(h)
	}
	return m
}

// AddPlaced adds entries to s, saying on log how many were new. The
// commits of s recorded without their place in the commit graph get it
// first from the repository of dir, when it has them, so that one add
// in the whole repository mends a store an earlier version wrote.
func (s *Store) AddPlaced(ctx context.Context, log io.Writer, dir string, entries []Entry) error {
	placed, left, err := PlaceFromRepo(ctx, s, dir)
	switch {
	case errors.Is(err, ErrNoPlaces) && len(entries) > 0 && entries[0].Position == 0:
		// The entries' own commit had no place either: warned already.
	case errors.Is(err, ErrNoPlaces):
		fmt.Fprintf(log, "gobench-dyn: warning: history %s: %d commits keep no place in the commit graph: %v\n", s.path, left, err)
	case err != nil:
		return fmt.Errorf("placing the commits of %s: %w", s.path, err)
	case placed > 0:
		fmt.Fprintf(log, "gobench-dyn: history %s: %d commits recorded without their place in the commit graph placed (%d not on the first-parent line of HEAD stay ordered by commit time)\n", s.path, placed, left)
	}
	n, err := s.Add(ctx, entries)
	if err != nil {
		return fmt.Errorf("adding to %s: %w", s.path, err)
	}
	fmt.Fprintf(log, "gobench-dyn: history %s: %d entries added (%d already there)\n", s.path, n, len(entries)-n)
	return nil
}
