package history

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/gitrepo"
	"github.com/gobench-dyn/gobench-dyn/internal/gittest"
)

// stepMeans are per-commit means (ns/op) of twelve commits whose seventh
// made a benchmark about 30% slower, as measured on a rebased branch.
var stepMeans = []float64{3600, 3630, 3680, 3690, 3750, 3680, 4920, 4830, 4680, 4650, 4700, 4670}

// commitAt makes a commit in repo that changes one file, with author and
// committer dates at, and returns its meta as run --history records it.
func commitAt(t *testing.T, repo, msg string, at time.Time) Meta {
	t.Helper()
	t.Setenv("GIT_AUTHOR_DATE", at.Format(time.RFC3339))
	t.Setenv("GIT_COMMITTER_DATE", at.Format(time.RFC3339))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "f.txt"), []byte(msg+"\n"), 0o644))
	gittest.CommitAll(t, repo, msg)
	return measured(t, repo)
}

// measured returns the meta of the commit checked out in repo.
func measured(t *testing.T, repo string) Meta {
	t.Helper()
	ctx := context.Background()
	hash, at, branch, err := gitrepo.Head(ctx, repo)
	require.NoError(t, err)
	place, err := CommitPlace(ctx, repo, hash)
	require.NoError(t, err)
	return Meta{Commit: hash, CommitTime: at, Branch: branch, Place: place, Machine: "ci"}
}

// entryAt returns the entry of BenchmarkParse measured at m with mean
// mean and an interval of ±1.5% over ten processes.
func entryAt(m Meta, mean float64) Entry {
	return Entry{Commit: m.Commit, CommitTime: m.CommitTime, Branch: m.Branch, Parents: m.Place.Parents, Position: m.Place.Position,
		Machine: m.Machine, Package: "example.com/p", Benchmark: "BenchmarkParse", Unit: "ns/op",
		Mean: mean, Lo: mean * 0.985, Hi: mean * 1.015, Confidence: 0.95, Processes: 10, AllocsPerOp: 3, BytesPerOp: 96}
}

// newRepo returns a repository on branch main with no commit yet.
func newRepo(t *testing.T) string {
	repo := t.TempDir()
	gittest.Git(t, repo, "init", "-q", "-b", "main")
	return repo
}

// sameSecond makes twelve commits in one second, as a rebase does, and
// returns their entries, in commit order, with stepMeans.
func sameSecond(t *testing.T) (string, []Meta, []Entry) {
	repo := newRepo(t)
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	var metas []Meta
	var es []Entry
	for i, mean := range stepMeans {
		m := commitAt(t, repo, "commit "+strconv.Itoa(i+1), at)
		metas = append(metas, m)
		es = append(es, entryAt(m, mean))
	}
	return repo, metas, es
}

// requireStepAt checks that a finds one change point, a regression at
// commit, with either method.
func requireStepAt(t *testing.T, src Source, commit string) *Analysis {
	t.Helper()
	var a *Analysis
	for _, m := range []Method{MethodWeighted, MethodOtava} {
		opts := DefaultOptions()
		opts.Method = m
		var err error
		a, err = Analyze(context.Background(), src, Query{KeepSeries: true, Plots: 10}, opts)
		require.NoError(t, err)
		var at []string
		for _, c := range a.ChangePoints() {
			if c.Key.Unit == "ns/op" {
				at = append(at, c.Commit)
				assert.True(t, c.Regression(), "%s: the step is a regression", m)
			}
		}
		assert.Equal(t, []string{commit}, at, "%s: change points", m)
	}
	return a
}

// seriesCommits returns the commits of a's ns/op series in order.
func seriesCommits(a *Analysis) []string {
	for _, r := range a.Results {
		if r.Series.Key.Unit == "ns/op" {
			var out []string
			for _, p := range r.Series.Points {
				out = append(out, p.Commit)
			}
			return out
		}
	}
	return nil
}

func hashes(ms []Meta) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Commit
	}
	return out
}

// timeOrder returns the commits of ms as ordering by commit time, then
// hash, would place them.
func timeOrder(ms []Meta) []string {
	s := slices.Clone(ms)
	slices.SortStableFunc(s, func(a, b Meta) int {
		return cmp.Or(a.CommitTime.Compare(b.CommitTime), cmp.Compare(a.Commit, b.Commit))
	})
	return hashes(s)
}

// TestOrderSameSecond: twelve commits made in one second, the seventh
// 30% slower: the history follows the commits, and the step is found at
// the seventh and nowhere else.
func TestOrderSameSecond(t *testing.T) {
	_, metas, es := sameSecond(t)
	require.NotEqual(t, hashes(metas), timeOrder(metas), "commit time and hash would order these commits otherwise: the test can fail")
	for i, m := range metas {
		assert.Equal(t, i+1, m.Place.Position)
	}
	s, err := Open(filepath.Join(t.TempDir(), "h.db"))
	require.NoError(t, err)
	defer s.Close()
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	_, err = s.Add(context.Background(), es)
	require.NoError(t, err)

	a := requireStepAt(t, s, metas[6].Commit)
	assert.Equal(t, hashes(metas), seriesCommits(a))
	assert.False(t, a.Order.Any(), "the graph placed every commit: %s", a.Order)

	// --since compares places, not the one commit time of all twelve.
	for since, want := range map[int]int{5: 1, 6: 0, 9: 0} {
		a, err := Analyze(context.Background(), s, Query{Since: metas[since].Commit[:12]}, DefaultOptions())
		require.NoError(t, err)
		assert.Len(t, a.ChangePoints(), want, "since commit %d", since+1)
	}
}

// TestOrderMergedBranchWithOlderDates: a branch whose two commits carry
// dates a week older than main's is merged; its commits make the
// benchmark slower. The series follows main's first-parent line, where
// the merge is the first slower commit, and leaves the branch's commits
// out, whether they were measured on their branch or on a detached
// head, and whether or not every commit of main was measured.
func TestOrderMergedBranchWithOlderDates(t *testing.T) {
	repo := newRepo(t)
	day := func(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }
	var main []Meta
	for i := range 3 {
		main = append(main, commitAt(t, repo, "main "+strconv.Itoa(i+1), day(20, i)))
	}
	gittest.Git(t, repo, "checkout", "-q", "-b", "feature")
	side := []Meta{commitAt(t, repo, "feature 1", day(10, 0)), commitAt(t, repo, "feature 2", day(10, 1))}
	gittest.Git(t, repo, "checkout", "-q", "main")
	for i := 3; i < 6; i++ {
		main = append(main, commitAt(t, repo, "main "+strconv.Itoa(i+1), day(20, i)))
	}
	t.Setenv("GIT_AUTHOR_DATE", day(21, 0).Format(time.RFC3339))
	t.Setenv("GIT_COMMITTER_DATE", day(21, 0).Format(time.RFC3339))
	gittest.Git(t, repo, "merge", "-q", "--no-ff", "-X", "theirs", "-m", "merge feature", "feature")
	merge := measured(t, repo)
	require.Len(t, merge.Place.Parents, 2)
	main = append(main, merge)
	for i := 7; i < 12; i++ {
		main = append(main, commitAt(t, repo, "main "+strconv.Itoa(i+1), day(22, i)))
	}
	require.Equal(t, side[0].Commit, timeOrder(append(slices.Clone(main), side...))[0], "commit time would put the branch first: the test can fail")

	entriesOf := func(detached bool, skip ...int) Entries {
		var es Entries
		for i, m := range main {
			if !slices.Contains(skip, i) {
				es = append(es, entryAt(m, stepMeans[i]))
			}
		}
		for _, m := range side {
			if detached {
				m.Branch = ""
			}
			es = append(es, entryAt(m, 4900))
		}
		return es
	}
	// stepMeans[6] onwards are slow: the merge (main[6]) is the step.
	t.Run("all measured", func(t *testing.T) {
		a := requireStepAt(t, entriesOf(false), merge.Commit)
		assert.Equal(t, hashes(main), seriesCommits(a))
		assert.Equal(t, OrderNotes{OffLine: 2}, a.Order)
	})
	t.Run("detached, main's commits before the merge unmeasured", func(t *testing.T) {
		a := requireStepAt(t, entriesOf(true, 4, 5), merge.Commit)
		want := slices.Delete(hashes(main), 4, 6)
		assert.Equal(t, want, seriesCommits(a))
		assert.Equal(t, OrderNotes{OffLine: 2}, a.Order)
		var text bytes.Buffer
		require.NoError(t, a.WriteText(&text))
		assert.Contains(t, text.String(), "order: 2 commits off the first-parent line left out")
	})
}

// TestOrderImportedJSONL: a history exported as JSON Lines, shuffled,
// and read back or imported into another store orders as the store did.
func TestOrderImportedJSONL(t *testing.T) {
	_, metas, es := sameSecond(t)
	ctx := context.Background()
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "h.db"))
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Add(ctx, es)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, s.Export(ctx, &buf))
	lines := strings.SplitAfter(strings.TrimSpace(buf.String()), "\n")
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	path := filepath.Join(dir, "h.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))

	read, err := ReadJSONL(strings.NewReader(strings.Join(lines, "\n")), path)
	require.NoError(t, err)
	for _, e := range read {
		require.NotZero(t, e.Position, "the export carries each commit's place")
	}
	a := requireStepAt(t, Entries(read), metas[6].Commit)
	assert.Equal(t, hashes(metas), seriesCommits(a))

	s2, err := Open(filepath.Join(dir, "imported.db"))
	require.NoError(t, err)
	defer s2.Close()
	n, err := s2.Import(ctx, path)
	require.NoError(t, err)
	require.Equal(t, len(es), n)
	a = requireStepAt(t, s2, metas[6].Commit)
	assert.Equal(t, hashes(metas), seriesCommits(a))
	assert.False(t, a.Order.Any())
}

// schemaV1 is the store's schema before commits had a place in the
// graph (schema version 1), as an earlier version created it.
var schemaV1 = []string{
	`CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`INSERT INTO meta VALUES('schema', '1')`,
	`CREATE TABLE series(id INTEGER PRIMARY KEY, pkg TEXT NOT NULL, bench TEXT NOT NULL, unit TEXT NOT NULL,
		machine TEXT NOT NULL, options TEXT NOT NULL, UNIQUE(pkg, bench, unit, machine, options))`,
	`CREATE TABLE commits(id INTEGER PRIMARY KEY, hash TEXT NOT NULL UNIQUE, time INTEGER NOT NULL, branch TEXT NOT NULL)`,
	`CREATE TABLE points(series INTEGER NOT NULL, commit_id INTEGER NOT NULL, mean REAL NOT NULL, lo REAL, hi REAL,
		confidence REAL NOT NULL, processes INTEGER NOT NULL, allocs REAL, bytes REAL,
		PRIMARY KEY(series, commit_id, mean, processes)) WITHOUT ROWID`,
	`CREATE TABLE confirmations(series INTEGER NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL,
		status TEXT NOT NULL, verdict TEXT NOT NULL, change REAL, lo REAL, hi REAL, confidence REAL, time INTEGER NOT NULL,
		PRIMARY KEY(series, before, after)) WITHOUT ROWID`,
}

// TestOrderStoreBeforePlaces: a store written before commits had a
// place in the graph opens, is migrated, and orders by commit time with
// a note saying so; given the places from the repository, it orders by
// the graph.
func TestOrderStoreBeforePlaces(t *testing.T) {
	repo, metas, es := sameSecond(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", path)
	require.NoError(t, err)
	for _, stmt := range schemaV1 {
		_, err := db.Exec(stmt)
		require.NoError(t, err)
	}
	_, err = db.Exec(`INSERT INTO series VALUES(1, 'example.com/p', 'BenchmarkParse', 'ns/op', 'ci', '')`)
	require.NoError(t, err)
	for i, e := range es {
		_, err = db.Exec(`INSERT INTO commits VALUES(?, ?, ?, ?)`, i+1, e.Commit, e.CommitTime.UnixNano(), e.Branch)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO points VALUES(1, ?, ?, ?, ?, 0.95, 10, 3, 96)`, i+1, e.Mean, e.Lo, e.Hi)
		require.NoError(t, err)
	}
	require.NoError(t, db.Close())

	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	var v string
	require.NoError(t, s.db.QueryRow(`SELECT value FROM meta WHERE key = 'schema'`).Scan(&v))
	assert.Equal(t, strconv.Itoa(schemaVersion), v)
	unplaced, err := s.Unplaced(ctx)
	require.NoError(t, err)
	assert.Len(t, unplaced, len(metas))

	a, err := Analyze(ctx, s, Query{KeepSeries: true, Plots: 10}, DefaultOptions())
	require.NoError(t, err)
	assert.Equal(t, OrderNotes{Unplaced: len(metas)}, a.Order)
	assert.Equal(t, timeOrder(metas), seriesCommits(a), "as well as the old data allows")
	var text bytes.Buffer
	require.NoError(t, a.WriteText(&text))
	assert.Contains(t, text.String(), "order: 12 commits recorded without their place in the commit graph placed by commit time")

	places, err := LinePlaces(ctx, repo)
	require.NoError(t, err)
	for _, m := range metas {
		assert.Equal(t, m.Place, places[m.Commit], "git log and rev-list agree on %s", m.Commit)
	}
	n, err := s.PlaceCommits(ctx, places)
	require.NoError(t, err)
	assert.Equal(t, len(metas), n)
	unplaced, err = s.Unplaced(ctx)
	require.NoError(t, err)
	assert.Empty(t, unplaced)
	a = requireStepAt(t, s, metas[6].Commit)
	assert.Equal(t, hashes(metas), seriesCommits(a))
	assert.False(t, a.Order.Any())
}

// placed returns an entry of commit hash at position pos with parents,
// committed at hour h, measured on branch.
func placed(hash string, pos int, h int, branch string, parents ...string) Entry {
	e := entryAt(Meta{Commit: hash, CommitTime: time.Date(2026, 11, 27, h, 0, 0, 0, time.UTC), Branch: branch, Machine: "ci",
		Place: GraphPlace{Parents: parents, Position: pos}}, 1000)
	if pos == 0 {
		e.Parents = nil
	}
	return e
}

// TestOrderCommits places commits the graph cannot order alone by commit
// time, and says so.
func TestOrderCommits(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []Entry
		want    []string
		notes   Placement
	}{{
		name: "a line with gaps, dates backwards",
		entries: []Entry{placed("d", 9, 1, "main", "x"), placed("a", 1, 9, "main"), placed("b", 2, 8, "main", "a"),
			placed("c", 5, 5, "main", "y")},
		want: []string{"a", "b", "c", "d"},
	}, {
		// Two commits of position 3, neither the parent of a measured
		// commit: the graph cannot tell which is on the line.
		name: "one position, two commits",
		entries: []Entry{placed("a", 1, 0, ""), placed("p", 3, 4, "", "x"), placed("q", 3, 2, "", "z"),
			placed("r", 4, 1, "", "s")},
		want:  []string{"a", "q", "p", "r"},
		notes: Placement{ByTime: []string{"q", "p"}},
	}, {
		name: "a commit of another branch is not on the line",
		entries: []Entry{placed("a", 1, 0, "main"), placed("f", 2, 1, "feature", "a"), placed("b", 3, 2, "main", "x"),
			placed("c", 4, 3, "main", "b")},
		want:  []string{"a", "b", "c"},
		notes: Placement{OffLine: []string{"f"}},
	}, {
		name:    "recorded without a place, among the placed by time",
		entries: []Entry{placed("a", 1, 0, "main"), placed("b", 2, 4, "main", "a"), placed("old", 0, 2, "main"), placed("older", 0, 1, "main")},
		want:    []string{"a", "older", "old", "b"},
		notes:   Placement{Unplaced: []string{"older", "old"}},
	}, {
		// No commit names a branch: the merge shows which commits are
		// on its side branch, and the walk across the unmeasured c
		// passes them by.
		name: "a merged branch known by the merge",
		entries: []Entry{placed("a", 1, 0, ""), placed("b", 2, 1, "", "a"), placed("f1", 2, 0, "", "a"), placed("f2", 3, 0, "", "f1"),
			placed("m", 4, 3, "", "c", "f2")},
		want:  []string{"a", "b", "m"},
		notes: Placement{OffLine: []string{"f1", "f2"}},
	}, {
		// A hand-edited history whose parent has a greater position:
		// the link is not followed, the walk still ends.
		name:    "a parent after its child",
		entries: []Entry{placed("a", 2, 0, "main", "b"), placed("b", 3, 1, "main", "a")},
		want:    []string{"a", "b"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, pl := orderCommits(tc.entries)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.notes, pl)
		})
	}
}

// TestOrderRandomGraphs: on random histories of a main branch that
// merges side branches, with random commit dates and a random part of
// the commits measured, the series is main's measured commits in
// first-parent order, whatever the dates, and the side branches' are
// left out, whether they were measured on their branch or detached.
func TestOrderRandomGraphs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for trial := range 400 {
		sideBranch := []string{"feature", ""}[trial%2]
		var es []Entry
		var want, side []string
		tip, pos := "", 0
		measure := func(hash string, position int, branch string, parents ...string) {
			if rng.Float64() < 0.6 {
				es = append(es, Entry{Commit: hash, CommitTime: t0.Add(time.Duration(rng.IntN(100)) * time.Hour), Branch: branch,
					Parents: parents, Position: position, Machine: "ci", Benchmark: "BenchmarkX", Unit: "ns/op", Mean: 1, Lo: math.NaN(), Hi: math.NaN(), Processes: 1})
				if branch == "main" {
					want = append(want, hash)
				} else {
					side = append(side, hash)
				}
			}
		}
		for i := range 40 {
			hash := fmt.Sprintf("m%d-%d", trial, i)
			parents := []string{tip}
			if tip == "" {
				parents = nil
			}
			if rng.Float64() < 0.2 && tip != "" {
				// A side branch from tip, merged by this commit.
				stip := tip
				for j := range 1 + rng.IntN(5) {
					s := fmt.Sprintf("s%d-%d-%d", trial, i, j)
					measure(s, pos+1+j, sideBranch, stip)
					stip = s
				}
				parents = append(parents, stip)
			}
			pos++
			measure(hash, pos, "main", parents...)
			tip = hash
		}
		got, pl := orderCommits(es)
		require.Equal(t, want, got, "trial %d", trial)
		slices.Sort(side)
		assert.Equal(t, side, pl.OffLine, "trial %d", trial)
		assert.Empty(t, pl.ByTime, "trial %d", trial)
	}
}

// BenchmarkOrderEntries orders one series of 1,000 commits, measured in
// a random order, as Build does for each series of a history
// (docs/HISTORY.md, The order of a series).
func BenchmarkOrderEntries(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	es := make([]Entry, 1000)
	for i := range es {
		m := Meta{Commit: fmt.Sprintf("%040x", i), CommitTime: t0.Add(time.Duration(rng.IntN(1000)) * time.Second), Branch: "main",
			Place: GraphPlace{Position: i + 1}, Machine: "ci"}
		if i > 0 {
			m.Place.Parents = []string{fmt.Sprintf("%040x", i-1)}
		}
		es[i] = entryAt(m, 1000)
	}
	rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	for b.Loop() {
		orderEntries(es)
	}
}
