package history

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// A noise is how a synthetic benchmark's points scatter, in the terms of
// the measurement model: each commit's run meets the machine in its own
// state (Run, the relative sd from run to run that no interval holds),
// and measures Processes processes whose means spread by Process around
// it. Tail is the chance that a run lands in a bad hour, three Run sds
// out.
type noise struct {
	Name      string
	Run       float64
	Process   float64
	Processes int
	Tail      float64
}

// A truth is a synthetic series with its known change points.
type truth struct {
	Series  *Series
	Changes []int // indexes of the first point at each new level
}

// synth returns a series of n commits whose level (base 1000 ns/op)
// steps by steps[i] at at[i], under nz, drawn from rng.
func synth(name string, n int, at []int, steps []float64, nz noise, rng *rand.Rand) truth {
	s := &Series{Key: Key{Benchmark: name, Unit: "ns/op", Machine: "synthetic"}}
	level := 1000.0
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := 0
	// The same for every point, and costly: computed once.
	q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(nz.Processes - 1)}.Quantile(0.975)
	for i := range n {
		if k < len(at) && at[k] == i {
			level *= 1 + steps[k]
			k++
		}
		run := nz.Run * rng.NormFloat64()
		if rng.Float64() < nz.Tail {
			run += 3 * nz.Run * sign(rng)
		}
		means := make([]float64, nz.Processes)
		for j := range means {
			means[j] = level * math.Exp(run+nz.Process*rng.NormFloat64())
		}
		m, sd := stat.MeanStdDev(means, nil)
		h := q * sd / math.Sqrt(float64(nz.Processes))
		s.Points = append(s.Points, Point{
			Commit: fmt.Sprintf("c%04d", i), Time: t0.Add(time.Duration(i) * time.Hour),
			Mean: m, Lo: m - h, Hi: m + h, Confidence: 0.95, SE: sd / math.Sqrt(float64(nz.Processes)), Processes: nz.Processes, Runs: 1,
		})
	}
	return truth{Series: s, Changes: at}
}

func sign(rng *rand.Rand) float64 {
	if rng.IntN(2) == 0 {
		return -1
	}
	return 1
}
