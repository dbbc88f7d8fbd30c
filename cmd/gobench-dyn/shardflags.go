package main

import (
	"github.com/gobench-dyn/gobench-dyn/internal/shard"
	"github.com/spf13/pflag"
)

// ShardOptions holds the flags that place one job of a parallel run: the
// shard of the suite it runs and the instance its records belong to.
type ShardOptions struct {
	// ShardFlag and Instance are the flag values as given.
	ShardFlag string
	Instance  string

	// Shard is the shard to run, set by resolve from --shard or the
	// environment; the zero Spec runs the whole suite.
	Shard shard.Spec
}

// bindShardFlags binds --shard and --instance to o. Call o.resolve before
// using them.
func bindShardFlags(fs *pflag.FlagSet, o *ShardOptions) {
	fs.StringVar(&o.ShardFlag, "shard", "", "run only shard `K/N` of the benchmarks, 1 ≤ K ≤ N (default $"+shard.EnvShard+
		", or $"+shard.EnvJobIndex+"+1 of $"+shard.EnvShards+" in a Kubernetes Indexed Job)")
	fs.StringVar(&o.Instance, "instance", "", "`name` of this machine in the records, to merge replicas run on several machines (default $"+shard.EnvInstance+")")
}

// resolve validates the flags and fills what they leave unset from the
// environment, read with getenv. Errors are usage errors naming the flag or
// the variable.
func (o *ShardOptions) resolve(getenv func(string) string) error {
	if o.ShardFlag != "" {
		s, err := shard.Parse(o.ShardFlag)
		if err != nil {
			return exitUsage(err)
		}
		o.Shard = s
	} else {
		s, _, err := shard.FromEnv(getenv)
		if err != nil {
			return usageErr("%w", err)
		}
		o.Shard = s
	}
	source := "--instance"
	if o.Instance == "" {
		o.Instance, source = getenv(shard.EnvInstance), shard.EnvInstance
	}
	if o.Instance != "" {
		if err := shard.CheckInstance(o.Instance); err != nil {
			return usageErr("%s %q: %w", source, o.Instance, err)
		}
	}
	return nil
}
