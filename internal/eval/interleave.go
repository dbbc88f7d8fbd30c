package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// An interleaving is the plan of -interleave: the reference (a static run
// of refProcs processes per round) twice, as A and B, and the methods,
// all in rounds, each round in its own shuffled order, so that drift of
// the machine over the session falls on every method alike. A against B
// is the noise floor: what the reference says about itself.
type interleaving struct {
	bin, dir, out string
	pkgs          []string
	common        []string // flags every gobench-dyn run shares
	slice         time.Duration
	bench         string
	rounds        int
	refProcs      int
	slices        int // slices per process of the reference and the cap
	cap           int // processes of the default's cap, and of --stop none
	target        float64
	seed          uint64
	// also is a second setting of the default, run in the same schedule
	// as method "also": flags added to the default's (none: no such method).
	also []string
}

// A track is everything one method (or reference half) ran, over rounds.
type track struct {
	name   string
	runs   []*result // one per round
	gotest bool      // go test -count: its repetitions share one process
}

// interleaved is the schedule's outcome: the two reference halves, each
// pooled over rounds, and the methods.
type interleaved struct {
	refA, refB *record.Run
	ref        *track        // every chunk of both halves
	refWall    time.Duration // mean wall time of one reference chunk
	methods    []*track
}

// check refuses a plan no interval could come from, naming the flag.
func (il interleaving) check() error {
	switch {
	case il.rounds < 1:
		return fmt.Errorf("-rounds %d: want at least 1", il.rounds)
	case il.refProcs < 2:
		return fmt.Errorf("-ref-procs %d: want at least 2 processes for an interval", il.refProcs)
	case il.cap < 3:
		return fmt.Errorf("-cap %d: want at least 3, the fewest processes a criterion judges on", il.cap)
	case !(il.target > 0 && il.target < 1):
		return fmt.Errorf("-target %v: want a fraction in (0, 1), such as 0.03", il.target)
	case il.slices < 1:
		return fmt.Errorf("-d %d: want at least 1 slice per process", il.slices)
	}
	return nil
}

// evaluate builds the tool, runs the schedule of il and prints its table.
func (il interleaving) evaluate() error {
	if il.out == "" {
		var err error
		if il.out, err = os.MkdirTemp("", "gobench-dyn-eval-"); err != nil {
			return err
		}
	}
	var err error
	if il.bin, err = buildTool(il.out); err != nil {
		return err
	}
	il.common = []string{"--bench", il.bench, "--slice-time", il.slice.String(), "--progress", "off", "--keep-going", "-o", os.DevNull}
	names := []string{"ref A", "ref B", "interval", "none", "gotest"}
	if len(il.also) > 0 {
		names = append(names, "also")
	}
	tracks := map[string]*track{}
	for _, n := range names {
		tracks[n] = &track{name: n, gotest: n == "gotest"}
	}
	rng := rand.New(rand.NewPCG(il.seed, 15))
	for round := 1; round <= il.rounds; round++ {
		order := append([]string(nil), names...)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		fmt.Fprintf(os.Stderr, "eval: round %d of %d: %v\n", round, il.rounds, order)
		for _, n := range order {
			r, err := il.runOne(n, round)
			if err != nil {
				return err
			}
			tracks[n].runs = append(tracks[n].runs, r)
		}
	}
	res := &interleaved{
		refA:    pool(tracks["ref A"].runs),
		refB:    pool(tracks["ref B"].runs),
		ref:     &track{name: "reference", runs: slices.Concat(tracks["ref A"].runs, tracks["ref B"].runs)},
		methods: []*track{tracks["interval"], tracks["none"], tracks["gotest"]},
	}
	if t := tracks["also"]; t != nil {
		res.methods = append(res.methods, t)
	}
	for _, r := range res.ref.runs {
		res.refWall += r.wall
	}
	res.refWall /= time.Duration(2 * il.rounds)
	res.print(il)
	res.printPerBenchmark(il)
	return nil
}

// runOne runs the method or reference half called name in round.
func (il interleaving) runOne(name string, round int) (*result, error) {
	seed := []string{"--seed", strconv.Itoa(round)}
	capped := []string{"--suite-runs", strconv.Itoa(il.cap), "--slices", strconv.Itoa(il.slices)}
	var args []string
	switch name {
	case "interval", "also":
		args = slices.Concat(il.common, seed, []string{"--stop", "interval", "--target", fmt.Sprint(il.target)}, capped)
		if name == "also" {
			args = append(args, il.also...)
		}
	case "none":
		args = slices.Concat(il.common, seed, []string{"--stop", "none"}, capped)
	case "gotest":
		return goTest(il.dir, il.pkgs, il.bench, il.slice, il.cap*il.slices)
	default: // a reference half
		args = slices.Concat(il.common, seed, []string{"--stop", "none", "--warmup", "1",
			"--suite-runs", strconv.Itoa(il.refProcs), "--iterations", "1", "--slices", strconv.Itoa(il.slices)})
	}
	file := fmt.Sprintf("%s-%d.jsonl", strings.ReplaceAll(name, " ", ""), round)
	return runTool(il.bin, il.dir, filepath.Join(il.out, file), name, args, il.pkgs)
}

// pool joins the runs of rounds into one, numbering suite runs on so that
// every process stays its own.
func pool(runs []*result) *record.Run {
	out := &record.Run{}
	for i, r := range runs {
		for _, s := range r.run.Slices {
			s.SuiteRun += 1000 * i
			out.Slices = append(out.Slices, s)
		}
	}
	return out
}
