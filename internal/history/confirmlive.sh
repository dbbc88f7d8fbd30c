#!/usr/bin/env bash
# The live confirmation experiment of docs/HISTORY.md: a scratch module
# with eight benchmarks gets a history of 30 commits, two of which slow
# one benchmark each down (commit 10: BenchmarkHash, by 15% of its
# bytes; commit 20: BenchmarkSort, by 14% of its elements). Every commit
# is measured with run --history, briefly (3 processes of 3 slices of
# 5 ms), so that the history is noisy; then history finds change points
# with both methods at a lax p-value (0.05) to have false ones to
# remove, and --confirm measures each again, paired, with 20 ms slices.
#
#   internal/history/confirmlive.sh GOBENCH_DYN [DIR]
#
# Run it under /work/bin/quiet: it is a live measurement.
set -euo pipefail
bin=$(realpath "$1")
dir=${2:-$(mktemp -d /tmp/confirm-live.XXXXXX)}
mkdir -p "$dir/repo"
cd "$dir/repo"
git init --quiet -b main .
git config user.name live && git config user.email live@example.com
cat > go.mod <<'MOD'
module example.com/live

go 1.24
MOD
cat > work.go <<'GO'
// Package live does fixed work for benchmarks.
package live

import (
	"crypto/sha256"
	"slices"
)

var sink [32]byte

// Hash hashes n bytes.
func Hash(buf []byte, n int) { sink = sha256.Sum256(buf[:n]) }

// Sort sorts a copy of xs.
func Sort(xs []int) []int { ys := slices.Clone(xs); slices.Sort(ys); return ys }

// Sum adds xs.
func Sum(xs []int) (s int) {
	for _, x := range xs {
		s += x
	}
	return s
}
GO
write_sizes() {
  cat > sizes.go <<GO
package live

// The sizes of the benchmarks' work; revision $3.
const (
	hashBytes = $1
	sortLen   = $2
)
GO
}
cat > work_test.go <<'GO'
package live

import (
	"math/rand/v2"
	"testing"
)

var buf = make([]byte, 1<<16)
var ints = func() []int {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]int, 1<<14)
	for i := range xs {
		xs[i] = r.Int()
	}
	return xs
}()
var total int

func BenchmarkHash(b *testing.B) {
	for b.Loop() {
		Hash(buf, hashBytes)
	}
}

func BenchmarkSort(b *testing.B) {
	for b.Loop() {
		Sort(ints[:sortLen])
	}
}

func BenchmarkSum(b *testing.B) {
	for b.Loop() {
		total += Sum(ints[:4096])
	}
}

func BenchmarkHashSmall(b *testing.B) {
	for b.Loop() {
		Hash(buf, 256)
	}
}

func BenchmarkHashLarge(b *testing.B) {
	for b.Loop() {
		Hash(buf, 1<<15)
	}
}

func BenchmarkSortSmall(b *testing.B) {
	for b.Loop() {
		Sort(ints[:100])
	}
}

func BenchmarkSumLarge(b *testing.B) {
	for b.Loop() {
		total += Sum(ints)
	}
}

func BenchmarkSumSmall(b *testing.B) {
	for b.Loop() {
		total += Sum(ints[:256])
	}
}
GO
hash=4096 sort=1000
for i in $(seq 1 30); do
  case $i in
  10) hash=4710 ;; # +15% of the bytes hashed
  20) sort=1140 ;; # +14% of the elements, a little more of the time
  esac
  write_sizes "$hash" "$sort" "$i"
  git add -A
  GIT_COMMITTER_DATE="2026-11-01T00:$(printf %02d "$i"):00Z" git commit --quiet -m "revision $i"
done
echo "== 30 commits in $dir/repo; measuring each"
start=$SECONDS
for c in $(git rev-list --reverse main); do
  git checkout --quiet "$c"
  "$bin" run --history "$dir/history.db" --stop none --suite-runs 3 --slices 3 --slice-time 5ms --progress off -o "$dir/results.txt" . 2>> "$dir/runs.log"
done
git checkout --quiet main
echo "== history of 30 commits measured in $((SECONDS - start)) s"
for p in 0.001 0.05; do
  for m in weighted otava; do
    echo "== history --method $m --pvalue $p"
    "$bin" history --method "$m" --pvalue "$p" --json "$dir/cps-$m-$p.json" "$dir/history.db"
  done
done
cp "$dir/history.db" "$dir/confirm.db"
start=$SECONDS
for m in otava weighted; do
  echo "== history --method $m --pvalue 0.05 --confirm"
  "$bin" history --method "$m" --pvalue 0.05 --confirm --dir . --slice-time 20ms --json "$dir/confirmed-$m.json" "$dir/confirm.db" 2>> "$dir/confirm.log" || true
done
echo "== confirmation took $((SECONDS - start)) s"
hash_c=$(git rev-list --reverse main | sed -n 10p)
sort_c=$(git rev-list --reverse main | sed -n 20p)
echo "true change points: BenchmarkHash-N at $hash_c, BenchmarkSort-N at $sort_c (any unit)"
for m in weighted otava; do
  echo "== $m, p < 0.05: change points by truth and confirmation status"
  jq -r --arg h "$hash_c" --arg s "$sort_c" '.change_points[]
    | (if ((.bench | test("^BenchmarkHash-[0-9]+$")) and .commit == $h) or ((.bench | test("^BenchmarkSort-[0-9]+$")) and .commit == $s) then "true" else "false" end) + " " + .confirmation.status
    ' "$dir/confirmed-$m.json" | sort | uniq -c
done
