// Package shard splits a benchmark suite into disjoint parts, so that the
// jobs of a parallel CI engine (GitHub Actions matrix jobs, GitLab parallel
// jobs, Kubernetes Indexed Jobs) can each run one part.
//
// Every job computes the same partition on its own from the same inputs:
// the list of benchmarks and, optionally, their expected times. The
// partition is a pure function of those inputs, so the jobs agree without
// talking to each other, and every benchmark runs in exactly one job.
package shard

import (
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/usage"
	"strconv"
	"strings"
)

// A Spec selects shard K of N, 1-based: "2/4" is the second of four shards.
// The zero Spec means no sharding.
type Spec struct {
	K, N int
}

// MaxShards bounds N. No CI engine runs more parallel jobs of one workflow,
// and a larger N is more likely a typo than a plan.
const MaxShards = 1024

// Parse parses a shard specification "K/N", as the flag --shard gives
// it. Its errors are *usage.Error of that option.
func Parse(s string) (Spec, error) {
	return parse(s, "")
}

// parse parses "K/N"; source names the environment variable s came from
// in errors, or is empty for the flag --shard.
func parse(s, source string) (Spec, error) {
	bad := func(format string, args ...any) (Spec, error) {
		return Spec{}, badSpec(s, source, format, args...)
	}
	ks, ns, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return bad("want K/N, as in 2/4 for the second of four shards")
	}
	k, err := strconv.Atoi(ks)
	if err != nil {
		return bad("shard number %q is not an integer", ks)
	}
	n, err := strconv.Atoi(ns)
	if err != nil {
		return bad("shard count %q is not an integer", ns)
	}
	return Spec{K: k, N: n}.check(s, source)
}

func (s Spec) check(text, source string) (Spec, error) {
	bad := func(format string, args ...any) (Spec, error) {
		return Spec{}, badSpec(text, source, format, args...)
	}
	switch {
	case s.N < 1:
		return bad("the shard count must be at least 1")
	case s.N > MaxShards:
		return bad("the shard count must be at most %d", MaxShards)
	case s.K < 1 || s.K > s.N:
		return bad("shard %d of %d does not exist; shards are numbered 1 to %d", s.K, s.N, s.N)
	}
	return s, nil
}

// badSpec is the error about the specification text from source: a
// *usage.Error of the flag --shard when source is empty.
func badSpec(text, source, format string, args ...any) error {
	if source == "" {
		return usage.ValueErrorf("shard", strconv.Quote(text), format, args...)
	}
	return fmt.Errorf("%s %q: %s", source, text, fmt.Sprintf(format, args...))
}

// String returns s as "K/N", or "" for the zero Spec.
func (s Spec) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.K, s.N)
}

// IsZero reports whether s selects no shard, that is, the whole suite.
func (s Spec) IsZero() bool { return s.N == 0 }

// Environment variables read by FromEnv.
const (
	// EnvShard holds a shard as "K/N". Set it from a CI matrix, for
	// example GOBENCH_DYN_SHARD: ${{ matrix.shard }} in GitHub Actions or
	// GOBENCH_DYN_SHARD: "$CI_NODE_INDEX/$CI_NODE_TOTAL" in GitLab.
	EnvShard = "GOBENCH_DYN_SHARD"
	// EnvShards holds the shard count N for Kubernetes Indexed Jobs, whose
	// controller sets only the index. Set it to the Job's completions.
	EnvShards = "GOBENCH_DYN_SHARDS"
	// EnvJobIndex is set by the Kubernetes Job controller on each pod of
	// an Indexed Job: 0 to completions−1.
	EnvJobIndex = "JOB_COMPLETION_INDEX"
)

// FromEnv returns the shard the environment selects, and whether it selects
// one. EnvShard wins; otherwise EnvJobIndex (0-based) together with
// EnvShards gives shard index+1 of N. An index without a count selects
// nothing: Indexed Jobs are also used to replicate a suite across
// instances, and sharding is never implied by the platform alone.
func FromEnv(getenv func(string) string) (Spec, bool, error) {
	if v := getenv(EnvShard); v != "" {
		s, err := parse(v, EnvShard)
		if err != nil {
			return Spec{}, false, err
		}
		return s, true, nil
	}
	nv := getenv(EnvShards)
	if nv == "" {
		return Spec{}, false, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(nv))
	if err != nil {
		return Spec{}, false, fmt.Errorf("%s=%q: the shard count is not an integer", EnvShards, nv)
	}
	if n < 1 || n > MaxShards {
		return Spec{}, false, fmt.Errorf("%s=%q: the shard count must be between 1 and %d", EnvShards, nv, MaxShards)
	}
	iv := getenv(EnvJobIndex)
	if iv == "" {
		return Spec{}, false, fmt.Errorf("%s=%q is set but %s is not: set %s outside an Indexed Job", EnvShards, nv, EnvJobIndex, EnvShard)
	}
	i, err := strconv.Atoi(strings.TrimSpace(iv))
	if err != nil {
		return Spec{}, false, fmt.Errorf("%s=%q: the completion index is not an integer", EnvJobIndex, iv)
	}
	if i < 0 || i >= n {
		return Spec{}, false, fmt.Errorf("%s=%s: index %d is outside 0 to %d; set %s to the Job's completions", EnvJobIndex, iv, i, n-1, EnvShards)
	}
	return Spec{K: i + 1, N: n}, true, nil
}

// Resolve returns the shard and instance of a job from the values of the
// flags --shard and --instance, and what they leave unset from the
// environment, read with getenv. Its errors are usage errors naming the
// flag, or the variable a bad value came from.
func Resolve(shardFlag, instance string, getenv func(string) string) (Spec, string, error) {
	var s Spec
	var err error
	if shardFlag != "" {
		s, err = Parse(shardFlag)
	} else if s, _, err = FromEnv(getenv); err != nil {
		err = usage.Errorf("", "%w", err)
	}
	if err != nil {
		return Spec{}, instance, err
	}
	source := ""
	if instance == "" {
		instance, source = getenv(EnvInstance), EnvInstance
	}
	if instance == "" {
		return s, instance, nil
	}
	if err := CheckInstance(instance); err != nil {
		if source == "" {
			return s, instance, usage.ValueErrorf("instance", strconv.Quote(instance), "%w", err)
		}
		return s, instance, usage.Errorf("", "%s %q: %w", source, instance, err)
	}
	return s, instance, nil
}

// EnvInstance holds the default instance name, for jobs that replicate the
// suite rather than split it.
const EnvInstance = "GOBENCH_DYN_INSTANCE"

// MaxInstanceName bounds the length of an instance name.
const MaxInstanceName = 64

// CheckInstance reports whether name can label an instance: 1 to 64
// letters, digits, '.', '_' and '-'. Names end up in artifact and file names
// and in benchstat configuration lines, so they are kept plain.
func CheckInstance(name string) error {
	if name == "" {
		return fmt.Errorf("an instance name cannot be empty")
	}
	if len(name) > MaxInstanceName {
		return fmt.Errorf("an instance name has at most %d characters", MaxInstanceName)
	}
	for _, c := range name {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return fmt.Errorf("%q is not allowed in an instance name: use letters, digits, '.', '_' and '-'", c)
		}
	}
	return nil
}
