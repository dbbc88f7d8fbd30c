package history

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary doubles as a second writer of a store: with helperEnv
// set to "add STORE TAG N" it adds N entries of commit TAG in one Add,
// saying "adding" on stdout first. With "add STORE TAG N STOP", once the
// point of entry STOP is inserted, it says "inside" and waits there, in
// the middle of the write, to be killed.
const helperEnv = "HISTORY_TEST_HELPER"

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		os.Exit(helper(h))
	}
	os.Exit(m.Run())
}

func helper(cmd string) int {
	var store, tag string
	var n int
	stop := -1
	if k, err := fmt.Sscanf(cmd, "add %s %s %d %d", &store, &tag, &n, &stop); k < 3 {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if stop >= 0 {
		pointInserted = func(i int) {
			if i == stop {
				fmt.Println("inside")
				select {}
			}
		}
	}
	s, err := Open(store)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	es := entries(tag, n)
	fmt.Println("adding")
	if _, err := s.Add(context.Background(), es); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// entries returns n entries of commit tag, one per benchmark.
func entries(tag string, n int) []Entry {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if i, err := strconv.Atoi(tag[1:]); err == nil {
		at = at.Add(time.Duration(i) * time.Hour)
	}
	out := make([]Entry, n)
	for i := range out {
		m := 1000 + float64(i)
		out[i] = Entry{Commit: tag, CommitTime: at, Branch: "main", Machine: "m1", Options: "",
			Package: "example.com/p", Benchmark: fmt.Sprintf("BenchmarkB%d-2", i), Unit: "ns/op",
			Mean: m, Lo: m - 10, Hi: m + 10, Confidence: 0.95, Processes: 5, AllocsPerOp: 2, BytesPerOp: 64}
	}
	return out
}

func count(t *testing.T, s *Store) int {
	n := 0
	require.NoError(t, s.Each(context.Background(), nil, func(_ Key, es []Entry) error { n += len(es); return nil }))
	return n
}

func integrity(t *testing.T, s *Store) {
	var res string
	require.NoError(t, s.db.QueryRow(`PRAGMA integrity_check`).Scan(&res))
	assert.Equal(t, "ok", res)
}

func TestStoreRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	ctx := context.Background()
	in := append(entries("c1", 3), entries("c2", 3)...)
	in[0].Lo, in[0].Hi, in[0].Confidence = math.NaN(), math.NaN(), 0
	in[1].AllocsPerOp = math.NaN()
	n, err := s.Add(ctx, in)
	require.NoError(t, err)
	assert.Equal(t, 6, n)
	n, err = s.Add(ctx, in)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "adding the same entries again adds nothing")

	var out bytes.Buffer
	require.NoError(t, s.Export(ctx, &out))
	exported := bytes.Clone(out.Bytes())
	back, err := ReadJSONL(&out, "export")
	require.NoError(t, err)
	require.Len(t, back, 6)
	byKey := map[string]Entry{}
	for _, e := range back {
		byKey[e.Commit+e.Benchmark] = e
	}
	for _, e := range in {
		got := byKey[e.Commit+e.Benchmark]
		assert.Equal(t, e.Mean, got.Mean)
		assert.True(t, e.CommitTime.Equal(got.CommitTime))
		assert.Equal(t, math.IsNaN(e.Lo), math.IsNaN(got.Lo))
		assert.Equal(t, math.IsNaN(e.AllocsPerOp), math.IsNaN(got.AllocsPerOp))
	}

	// An export imported into a new store gives the same export.
	file := filepath.Join(t.TempDir(), "h.jsonl")
	require.NoError(t, os.WriteFile(file, exported, 0o644))
	s2, err := Open(filepath.Join(t.TempDir(), "h2.db"))
	require.NoError(t, err)
	defer s2.Close()
	n, err = s2.Import(ctx, file)
	require.NoError(t, err)
	assert.Equal(t, 6, n)
	n, err = s2.Import(ctx, file)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
}

func TestStoreRefusesOtherFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "not.db")
	require.NoError(t, os.WriteFile(path, []byte("this is no database, but text long enough to look like one's header......"), 0o644))
	_, err := Open(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a history store")
	_, err = Open(t.TempDir())
	assert.ErrorContains(t, err, "is a directory")
}

func TestImportChecksTheWholeFileFirst(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteJSONL(&buf, entries("c1", 2)))
	buf.WriteString("{\"commit\":\"c2\"}\n")
	file := filepath.Join(t.TempDir(), "bad.jsonl")
	require.NoError(t, os.WriteFile(file, buf.Bytes(), 0o644))
	s, err := Open(filepath.Join(t.TempDir(), "h.db"))
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Import(context.Background(), file)
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 3, se.Line)
	assert.Contains(t, err.Error(), "bad.jsonl:3: no commit time")
	assert.Equal(t, 0, count(t, s), "a bad line adds nothing")
}

func helperCmd(store, tag string, n int) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=add %s %s %d", helperEnv, store, tag, n))
	return cmd
}

// TestStoreTwoWriters: two processes adding to one store at once both
// succeed, and every entry of both is there.
func TestStoreTwoWriters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	var wg sync.WaitGroup
	errs := make([]error, 6)
	outs := make([][]byte, 6)
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i], errs[i] = helperCmd(path, fmt.Sprintf("c%d", i), 2000).CombinedOutput()
		}()
	}
	wg.Wait()
	for i := range errs {
		require.NoError(t, errs[i], "%s", outs[i])
	}
	assert.Equal(t, 6*2000, count(t, s))
	integrity(t, s)
}

// TestStoreCrashMidWrite: a writer killed in the middle of an Add leaves
// the store as it was, readable and writable, with none of its entries.
// The kill lands inside the write, at a known place: after the first
// point, half way, and after the last one, just before the commit. With
// 20000 entries the writer has spilled uncommitted pages into the
// write-ahead log by then (it grows by some 0.4 MB before the first
// point), so recovery has something to undo.
func TestStoreCrashMidWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "h.db")
	s, err := Open(path)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.Add(context.Background(), entries("c0", 100))
	require.NoError(t, err)
	const n = 20000
	for round, stop := range []int{0, n / 2, n - 1} {
		cmd := helperCmd(path, fmt.Sprintf("c%d", round+1), n)
		cmd.Env[len(cmd.Env)-1] += fmt.Sprintf(" %d", stop)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		r := bufio.NewReader(out)
		for _, want := range []string{"adding\n", "inside\n"} {
			line, _ := r.ReadString('\n')
			require.Equal(t, want, line)
		}
		require.NoError(t, cmd.Process.Kill())
		_ = cmd.Wait()
		assert.Equal(t, 100, count(t, s), "entries after the kill at point %d", stop)
		integrity(t, s)
	}
	_, err = s.Add(context.Background(), entries("c9", 10))
	require.NoError(t, err, "the store takes writes after the crashes")
	assert.Equal(t, 110, count(t, s))
}
