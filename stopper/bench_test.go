package stopper

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCheck measures one stoppage check of each criterion, as the
// policy runs it after a completed iteration: the newest value of the
// iteration vector over n cumulative slices (10 slices per iteration,
// nested for RCIW) and the stable function over a window of 5. Divided
// by 10⁹, ns/op is the share of a one-second slice it costs.
func BenchmarkCheck(b *testing.B) {
	for _, c := range []Criterion{CV, RCIW, KLD} {
		for _, n := range []int{10, 100, 1000} {
			b.Run(fmt.Sprintf("%s/n=%d", c, n), func(b *testing.B) {
				cfg := Paper(c)
				cfg.Measure = 10
				p, err := NewPolicy(cfg)
				if err != nil {
					b.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(1, 1))
				per := min(10, n/2)
				iters := make([][]float64, n/per)
				for i := range iters {
					iters[i] = make([]float64, per)
					for j := range iters[i] {
						iters[i][j] = 100 + rng.NormFloat64()
					}
				}
				for i := range iters[:len(iters)-1] {
					end(p, "b", 1+i/5, iters[i])
				}
				st := p.state("b")
				last := iters[len(iters)-1]
				b.ReportAllocs()
				b.ResetTimer()
				nf := len(st.f)
				for b.Loop() {
					end(p, "b", 1+len(iters)/5, last)
					// Undo the iteration so that every check sees n slices.
					b.StopTimer()
					st.all = st.all[:len(st.all)-per]
					st.f = st.f[:nf]
					st.widthAt = -1
					run := st.runs[len(st.runs)-1]
					run.Children = run.Children[:len(run.Children)-1]
					if len(run.Children) == 0 {
						st.runs, st.runIDs = st.runs[:len(st.runs)-1], st.runIDs[:len(st.runIDs)-1]
					}
					st.iterations--
					b.StartTimer()
				}
			})
		}
	}
}

// BenchmarkWarmupCheck measures one warmup check: the criterion over the
// prefixes of a window of 5 slices and the stable function.
func BenchmarkWarmupCheck(b *testing.B) {
	for _, c := range []Criterion{CV, RCIW, KLD} {
		b.Run(c.String(), func(b *testing.B) {
			p, err := NewPolicy(Paper(c))
			if err != nil {
				b.Fatal(err)
			}
			warmup := []float64{103, 101, 99, 100, 102, 98, 100}
			b.ReportAllocs()
			for b.Loop() {
				p.state("b").warmupDone = false
				p.NextSlice("b", warmup, nil)
			}
		})
	}
}
