package history

import (
	"context"
	"errors"
	"fmt"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
)

// ErrShallow says that a repository is a shallow clone, whose commits'
// first-parent positions git cannot count.
var ErrShallow = errors.New("the repository is a shallow clone, whose commits' places cannot be counted; fetch the whole history (actions/checkout with fetch-depth: 0, or git fetch --unshallow)")

// ErrNoPlaces says that PlaceFromRepo found no repository to read the
// places of commits from; the store is as it was.
var ErrNoPlaces = errors.New("no commit graph to place the commits in")

// CommitPlace returns the place of rev in the commit graph of the
// repository of dir: its parents and first-parent position.
func CommitPlace(ctx context.Context, dir, rev string) (GraphPlace, error) {
	if err := notShallow(ctx, dir); err != nil {
		return GraphPlace{}, err
	}
	parents, err := gitrepo.Parents(ctx, dir, rev)
	if err != nil {
		return GraphPlace{}, err
	}
	n, err := gitrepo.FirstParentCount(ctx, dir, rev)
	if err != nil {
		return GraphPlace{}, err
	}
	return GraphPlace{Parents: parents, Position: n}, nil
}

// LinePlaces returns the places of the commits on the first-parent line
// of HEAD in the repository of dir, by hash: what a store written before
// places were recorded lacks, for its commits of that line.
func LinePlaces(ctx context.Context, dir string) (map[string]GraphPlace, error) {
	if err := notShallow(ctx, dir); err != nil {
		return nil, err
	}
	line, err := gitrepo.FirstParentLine(ctx, dir)
	if err != nil {
		return nil, err
	}
	places := map[string]GraphPlace{}
	for i, c := range line {
		places[c.Hash] = GraphPlace{Parents: c.Parents, Position: i + 1}
	}
	return places, nil
}

// notShallow returns ErrShallow for a shallow clone.
func notShallow(ctx context.Context, dir string) error {
	shallow, err := gitrepo.Shallow(ctx, dir)
	if err != nil {
		return err
	}
	if shallow {
		return ErrShallow
	}
	return nil
}

// PlaceFromRepo gives the commits of s that have no place in the graph
// (added by a version that did not record it) their place, from the
// first-parent line of HEAD in the repository of dir, and returns how
// many it placed and how many are left without. Without a repository
// (or in a shallow clone) it returns ErrNoPlaces. A store whose commits
// all have their place costs one query.
func PlaceFromRepo(ctx context.Context, s *Store, dir string) (placed, left int, err error) {
	unplaced, err := s.Unplaced(ctx)
	if err != nil || len(unplaced) == 0 {
		return 0, 0, err
	}
	line, err := LinePlaces(ctx, dir)
	if err != nil {
		return 0, len(unplaced), fmt.Errorf("%w: %w", ErrNoPlaces, err)
	}
	places := map[string]GraphPlace{}
	for _, h := range unplaced {
		if p, ok := line[h]; ok {
			places[h] = p
		}
	}
	placed, err = s.PlaceCommits(ctx, places)
	return placed, len(unplaced) - placed, err
}
