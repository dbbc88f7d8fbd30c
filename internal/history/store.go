package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	// The pure-Go SQLite driver: no cgo, no server.
	_ "modernc.org/sqlite"
)

// schemaVersion is the version of the store's tables this package writes;
// a store of a newer version is refused, and one of an older version is
// migrated when opened. Version 2 added the parents and first-parent
// position of each commit.
const schemaVersion = 2

// busyTimeout is how long a writer waits for another to finish its
// transaction before giving up.
const busyTimeout = 30 * time.Second

// A Store is a history kept in one SQLite file. Every Add is one
// transaction in write-ahead-log mode: two processes may add at once
// (the second waits for the first), and a crash mid-write leaves the
// store as it was before that Add.
type Store struct {
	db   *sql.DB
	path string
}

var schema = []string{
	`CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS series(
		id INTEGER PRIMARY KEY,
		pkg TEXT NOT NULL, bench TEXT NOT NULL, unit TEXT NOT NULL,
		machine TEXT NOT NULL, options TEXT NOT NULL,
		UNIQUE(pkg, bench, unit, machine, options))`,
	// parents holds the parent hashes, the first first, separated by
	// spaces; parents and position are NULL for a commit added by a
	// version that did not record them.
	`CREATE TABLE IF NOT EXISTS commits(
		id INTEGER PRIMARY KEY,
		hash TEXT NOT NULL UNIQUE, time INTEGER NOT NULL, branch TEXT NOT NULL,
		parents TEXT, position INTEGER)`,
	// One row per series and run; the key makes adding the same entry
	// twice (an import repeated) a no-op.
	`CREATE TABLE IF NOT EXISTS points(
		series INTEGER NOT NULL, commit_id INTEGER NOT NULL,
		mean REAL NOT NULL, lo REAL, hi REAL, confidence REAL NOT NULL,
		processes INTEGER NOT NULL, allocs REAL, bytes REAL,
		PRIMARY KEY(series, commit_id, mean, processes)) WITHOUT ROWID`,
	`CREATE TABLE IF NOT EXISTS confirmations(
		series INTEGER NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL,
		status TEXT NOT NULL, verdict TEXT NOT NULL,
		change REAL, lo REAL, hi REAL, confidence REAL, time INTEGER NOT NULL,
		PRIMARY KEY(series, before, after)) WITHOUT ROWID`,
}

// Open opens the store at path, creating it when it does not exist.
func Open(path string) (*Store, error) {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory", path)
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.Itoa(int(busyTimeout/time.Millisecond))+")")
	q.Add("_pragma", "journal_mode(WAL)")
	// FULL makes a committed Add survive a power loss, not only a crash
	// of the process; one sync per run costs nothing.
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(ON)")
	// Writers take the lock when their transaction starts, so that two
	// never both read and then both wait to write (a deadlock SQLite
	// would break by failing one).
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	s := &Store{db: db, path: path}
	if err := s.init(); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

func (s *Store) init() error {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return notAStore(err)
	}
	defer tx.Rollback()
	for _, stmt := range schema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return notAStore(err)
		}
	}
	var v string
	switch err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = 'schema'`).Scan(&v); {
	case errors.Is(err, sql.ErrNoRows):
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta(key, value) VALUES('schema', ?)`, strconv.Itoa(schemaVersion)); err != nil {
			return err
		}
	case err != nil:
		return err
	default:
		n, err := strconv.Atoi(v)
		if err != nil || n > schemaVersion {
			return fmt.Errorf("history store of schema %q; this version reads up to %d", v, schemaVersion)
		}
		if n < 2 {
			// The commits of a version-1 store keep no place in the
			// graph until PlaceCommits or a new Add gives them one.
			for _, stmt := range []string{
				`ALTER TABLE commits ADD COLUMN parents TEXT`,
				`ALTER TABLE commits ADD COLUMN position INTEGER`,
				`UPDATE meta SET value = '2' WHERE key = 'schema'`,
			} {
				if _, err := tx.ExecContext(ctx, stmt); err != nil {
					return fmt.Errorf("migrating the store from schema %d: %w", n, err)
				}
			}
		}
	}
	return tx.Commit()
}

// notAStore says that a file SQLite cannot read is no history store.
func notAStore(err error) error {
	return fmt.Errorf("not a history store (SQLite): %w", err)
}

// Path returns the file of the store.
func (s *Store) Path() string { return s.path }

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// nullable returns x for a nullable column: nil for NaN.
func nullable(x float64) any {
	if math.IsNaN(x) {
		return nil
	}
	return x
}

func fromNull(n sql.NullFloat64) float64 {
	if !n.Valid {
		return math.NaN()
	}
	return n.Float64
}

// Add adds entries in one transaction and returns how many were new: an
// entry already in the store is not added twice. Invalid entries fail
// the whole Add before anything is written.
func (s *Store) Add(ctx context.Context, entries []Entry) (int, error) {
	for i := range entries {
		if err := entries[i].Validate(); err != nil {
			return 0, fmt.Errorf("entry %d (%s): %w", i+1, entries[i].Key(), err)
		}
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	ids, err := s.seriesIDs(ctx, tx, entries)
	if err != nil {
		return 0, err
	}
	commits, err := commitIDs(ctx, tx, entries)
	if err != nil {
		return 0, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO points(series, commit_id, mean, lo, hi, confidence, processes, allocs, bytes) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return 0, err
	}
	defer ins.Close()
	added := 0
	for i := range entries {
		e := &entries[i]
		res, err := ins.ExecContext(ctx, ids[e.Key()], commits[e.Commit], e.Mean, nullable(e.Lo), nullable(e.Hi), e.Confidence, e.Processes, nullable(e.AllocsPerOp), nullable(e.BytesPerOp))
		if err != nil {
			return 0, err
		}
		if n, _ := res.RowsAffected(); n > 0 {
			added++
		}
		if pointInserted != nil {
			pointInserted(i)
		}
	}
	return added, tx.Commit()
}

// pointInserted, when a test sets it, is called after Add inserts the
// point of entries[i], inside the transaction, so that the test can kill
// the writing process at a known place in a write.
var pointInserted func(i int)

// seriesIDs returns the id of every series of entries, adding the new.
func (s *Store) seriesIDs(ctx context.Context, tx *sql.Tx, entries []Entry) (map[Key]int64, error) {
	ids, err := loadSeries(ctx, tx)
	if err != nil {
		return nil, err
	}
	out := map[Key]int64{}
	var ins *sql.Stmt
	for i := range entries {
		k := entries[i].Key()
		if _, ok := out[k]; ok {
			continue
		}
		if id, ok := ids[k]; ok {
			out[k] = id
			continue
		}
		if ins == nil {
			if ins, err = tx.PrepareContext(ctx, `INSERT INTO series(pkg, bench, unit, machine, options) VALUES(?, ?, ?, ?, ?)`); err != nil {
				return nil, err
			}
			defer ins.Close()
		}
		res, err := ins.ExecContext(ctx, k.Package, k.Benchmark, k.Unit, k.Machine, k.Options)
		if err != nil {
			return nil, err
		}
		if out[k], err = res.LastInsertId(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func loadSeries(ctx context.Context, q querier) (map[Key]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, pkg, bench, unit, machine, options FROM series`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := map[Key]int64{}
	for rows.Next() {
		var id int64
		var k Key
		if err := rows.Scan(&id, &k.Package, &k.Benchmark, &k.Unit, &k.Machine, &k.Options); err != nil {
			return nil, err
		}
		ids[k] = id
	}
	return ids, rows.Err()
}

// commitIDs returns the id of every commit of entries, adding the new.
// A commit keeps the time and branch it was first added with; one added
// without its place in the graph gets it from the first entry that has
// it.
func commitIDs(ctx context.Context, tx *sql.Tx, entries []Entry) (map[string]int64, error) {
	out := map[string]int64{}
	ins, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO commits(hash, time, branch, parents, position) VALUES(?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	defer ins.Close()
	place, err := tx.PrepareContext(ctx, `UPDATE commits SET parents = ?, position = ? WHERE hash = ? AND position IS NULL`)
	if err != nil {
		return nil, err
	}
	defer place.Close()
	get, err := tx.PrepareContext(ctx, `SELECT id FROM commits WHERE hash = ?`)
	if err != nil {
		return nil, err
	}
	defer get.Close()
	for i := range entries {
		e := &entries[i]
		if _, ok := out[e.Commit]; ok {
			continue
		}
		parents, position := placeColumns(e.Parents, e.Position)
		if _, err := ins.ExecContext(ctx, e.Commit, e.CommitTime.UnixNano(), e.Branch, parents, position); err != nil {
			return nil, err
		}
		if e.Position > 0 {
			if _, err := place.ExecContext(ctx, parents, position, e.Commit); err != nil {
				return nil, err
			}
		}
		var id int64
		if err := get.QueryRowContext(ctx, e.Commit).Scan(&id); err != nil {
			return nil, err
		}
		out[e.Commit] = id
	}
	return out, nil
}

// placeColumns returns the parents and position columns of a commit:
// NULL when its place is unknown.
func placeColumns(parents []string, position int) (any, any) {
	if position <= 0 {
		return nil, nil
	}
	return strings.Join(parents, " "), position
}

// A commitInfo is a row of the commits table.
type commitInfo struct {
	hash     string
	time     time.Time
	branch   string
	parents  []string
	position int
}

func loadCommits(ctx context.Context, q querier) (map[int64]commitInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, hash, time, branch, parents, position FROM commits`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]commitInfo{}
	for rows.Next() {
		var id, ns int64
		var c commitInfo
		var parents sql.NullString
		var position sql.NullInt64
		if err := rows.Scan(&id, &c.hash, &ns, &c.branch, &parents, &position); err != nil {
			return nil, err
		}
		c.time = time.Unix(0, ns).UTC()
		if position.Valid {
			c.parents, c.position = strings.Fields(parents.String), int(position.Int64)
		}
		out[id] = c
	}
	return out, rows.Err()
}

// Unplaced returns the commits of the store that have no place in the
// commit graph: those added by a version that did not record it.
func (s *Store) Unplaced(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT hash FROM commits WHERE position IS NULL ORDER BY hash`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// A GraphPlace is a commit's place in the commit graph: its parents, the
// first first, and its first-parent position.
type GraphPlace struct {
	Parents  []string
	Position int
}

// PlaceCommits gives the commits of places that have no place in the
// store yet theirs, in one transaction, and returns how many it placed.
func (s *Store) PlaceCommits(ctx context.Context, places map[string]GraphPlace) (int, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	upd, err := tx.PrepareContext(ctx, `UPDATE commits SET parents = ?, position = ? WHERE hash = ? AND position IS NULL`)
	if err != nil {
		return 0, err
	}
	defer upd.Close()
	n := 0
	for h, p := range places {
		if p.Position <= 0 {
			continue
		}
		parents, position := placeColumns(p.Parents, p.Position)
		res, err := upd.ExecContext(ctx, parents, position, h)
		if err != nil {
			return 0, err
		}
		if k, _ := res.RowsAffected(); k > 0 {
			n++
		}
	}
	return n, tx.Commit()
}

// Each calls fn with the entries of every series keep accepts (all when
// keep is nil), one series at a time in no particular order of series,
// so that a history larger than memory streams through. Within a series
// the entries come in the order of the store; Build sorts them.
func (s *Store) Each(ctx context.Context, keep func(Key) bool, fn func(Key, []Entry) error) error {
	// One read transaction: a writer adding meanwhile is not seen half.
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ids, err := loadSeries(ctx, tx)
	if err != nil {
		return err
	}
	keys := make(map[int64]Key, len(ids))
	for k, id := range ids {
		if keep == nil || keep(k) {
			keys[id] = k
		}
	}
	commits, err := loadCommits(ctx, tx)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT series, commit_id, mean, lo, hi, confidence, processes, allocs, bytes FROM points ORDER BY series`)
	if err != nil {
		return err
	}
	defer rows.Close()
	var cur int64 = -1
	var batch []Entry
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := fn(keys[cur], batch)
		batch = batch[:0:0]
		return err
	}
	for rows.Next() {
		var sid, cid int64
		var e Entry
		var lo, hi, allocs, bytes sql.NullFloat64
		if err := rows.Scan(&sid, &cid, &e.Mean, &lo, &hi, &e.Confidence, &e.Processes, &allocs, &bytes); err != nil {
			return err
		}
		k, ok := keys[sid]
		if !ok {
			continue
		}
		if sid != cur {
			if err := flush(); err != nil {
				return err
			}
			cur = sid
		}
		c := commits[cid]
		e.Commit, e.CommitTime, e.Branch, e.Parents, e.Position = c.hash, c.time, c.branch, c.parents, c.position
		e.Package, e.Benchmark, e.Unit, e.Machine, e.Options = k.Package, k.Benchmark, k.Unit, k.Machine, k.Options
		e.Lo, e.Hi, e.AllocsPerOp, e.BytesPerOp = fromNull(lo), fromNull(hi), fromNull(allocs), fromNull(bytes)
		batch = append(batch, e)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return flush()
}

// Export writes every entry of the store to w as JSON Lines, series by
// series and by first-parent position within each. The entries carry
// their parents and positions, so that a history read back is ordered
// as the store orders it.
func (s *Store) Export(ctx context.Context, w io.Writer) error {
	return s.Each(ctx, nil, func(_ Key, es []Entry) error {
		sortForExport(es)
		return WriteJSONL(w, es)
	})
}

// importBatch is the number of entries Import adds per transaction.
const importBatch = 50000

// Import adds the entries of the JSON Lines file path. The whole file is
// checked first, so that a bad line (a *SyntaxError) adds nothing; it is
// then added in transactions of importBatch entries, and an import cut
// short by a crash is completed by importing the file again, since an
// entry already present is not added twice. It returns the entries added.
func (s *Store) Import(ctx context.Context, path string) (int, error) {
	check := func(Entry) error { return nil }
	if err := scanFile(path, check); err != nil {
		return 0, err
	}
	added := 0
	var batch []Entry
	flush := func() error {
		n, err := s.Add(ctx, batch)
		added += n
		batch = batch[:0]
		return err
	}
	err := scanFile(path, func(e Entry) error {
		batch = append(batch, e)
		if len(batch) >= importBatch {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return added, err
}

func scanFile(path string, fn func(Entry) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return ScanJSONL(f, path, fn)
}

// A Confirmation is the outcome of measuring a change point again.
type Confirmation struct {
	Key           Key
	Before, After string // the commits compared
	// Status is StatusConfirmed, StatusRefuted or StatusInconclusive.
	Status string
	// Verdict, Change, Lo, Hi and Confidence are the gate's: its verdict
	// and the interval of the relative change after/before.
	Verdict    string
	Change     float64
	Lo, Hi     float64
	Confidence float64
	Time       time.Time
}

// SaveConfirmation records c, replacing an earlier one of the same
// change point.
func (s *Store) SaveConfirmation(ctx context.Context, c Confirmation) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	ids, err := s.seriesIDs(ctx, tx, []Entry{{Package: c.Key.Package, Benchmark: c.Key.Benchmark, Unit: c.Key.Unit, Machine: c.Key.Machine, Options: c.Key.Options}})
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO confirmations(series, before, after, status, verdict, change, lo, hi, confidence, time) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		ids[c.Key], c.Before, c.After, c.Status, c.Verdict, nullable(c.Change), nullable(c.Lo), nullable(c.Hi), nullable(c.Confidence), c.Time.UnixNano())
	if err != nil {
		return err
	}
	return tx.Commit()
}

// SaveConfirmations records each of cs as SaveConfirmation does,
// stopping at the first that cannot be kept.
func (s *Store) SaveConfirmations(ctx context.Context, cs []Confirmation) error {
	for _, c := range cs {
		if err := s.SaveConfirmation(ctx, c); err != nil {
			return fmt.Errorf("keeping a confirmation: %w", err)
		}
	}
	return nil
}

// Confirmations returns every recorded confirmation.
func (s *Store) Confirmations(ctx context.Context) ([]Confirmation, error) {
	ids, err := loadSeries(ctx, s.db)
	if err != nil {
		return nil, err
	}
	keys := make(map[int64]Key, len(ids))
	for k, id := range ids {
		keys[id] = k
	}
	rows, err := s.db.QueryContext(ctx, `SELECT series, before, after, status, verdict, change, lo, hi, confidence, time FROM confirmations`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Confirmation
	for rows.Next() {
		var sid, ns int64
		var c Confirmation
		var ch, lo, hi, conf sql.NullFloat64
		if err := rows.Scan(&sid, &c.Before, &c.After, &c.Status, &c.Verdict, &ch, &lo, &hi, &conf, &ns); err != nil {
			return nil, err
		}
		c.Key = keys[sid]
		c.Change, c.Lo, c.Hi, c.Confidence = fromNull(ch), fromNull(lo), fromNull(hi), fromNull(conf)
		c.Time = time.Unix(0, ns).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}
