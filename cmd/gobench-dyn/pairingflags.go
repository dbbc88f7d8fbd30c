package main

import (
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench-dyn/gobench-dyn/internal/session"
	"github.com/gobench-dyn/gobench-dyn/rmit"
)

// PairingOptions are the flags that say how two versions are paired, for
// run --baseline and abs.
type PairingOptions struct {
	Pairing    string
	TurnTime   time.Duration
	Turns      int
	TurnWarmup time.Duration
}

// The shape of a duet iteration, which the session owns.
const (
	defaultTurnTime   = session.DefaultTurnTime
	defaultTurns      = session.DefaultTurns
	defaultTurnWarmup = session.DefaultTurnWarmup
)

// bindPairingFlags binds the pairing flags to o; when says when they act.
func bindPairingFlags(fs *pflag.FlagSet, o *PairingOptions, when string) {
	fs.StringVar(&o.Pairing, "pairing", string(session.PairSlices), when+"how the two versions are paired: slice (both processes alive, taking turns slice by slice), process (one process after the other) or duet (both at once, each on its own CPU)")
	fs.DurationVar(&o.TurnTime, "turn-time", defaultTurnTime, "with --pairing slice, the target duration of one turn")
	fs.IntVar(&o.Turns, "turns", defaultTurns, "with --pairing slice, the measured turns of each version in the first pairs of processes")
	fs.DurationVar(&o.TurnWarmup, "turn-warmup", defaultTurnWarmup, "with --pairing slice, the warmup turns of each version per pair of processes, left out, in turns of this total duration")
}

// validate checks the pairing flags, naming the first bad one.
func (o *PairingOptions) validate() error {
	if err := session.CheckPairing(o.Pairing, o.TurnTime, o.Turns, o.TurnWarmup); err != nil {
		return exitUsage(err)
	}
	return nil
}

// slices reports whether the versions run as duets, taking turns slice
// by slice or at once.
func (o *PairingOptions) slices() bool { return session.Pairing(o.Pairing) != session.PairProcesses }

// plan returns the shape of a duet: the warmup in whole turns.
func (o *PairingOptions) plan() rmit.TurnPlan {
	return session.TurnPlanOf(session.Pairing(o.Pairing), o.TurnTime, o.Turns, o.TurnWarmup)
}
