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
// environment, read with getenv (shard.Resolve).
func (o *ShardOptions) resolve(getenv func(string) string) error {
	var err error
	o.Shard, o.Instance, err = shard.Resolve(o.ShardFlag, o.Instance, getenv)
	if err != nil {
		return exitUsage(err)
	}
	return nil
}
