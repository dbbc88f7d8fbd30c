package optime

import (
	"bufio"
	"fmt"
	"github.com/gobench-dyn/gobench-dyn/internal/render"
	"io"
)

// WriteTable prints the chosen configuration of every benchmark, grouped
// by package, and what the suite saves with them.
func (r *Result) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "metric %s, threshold %g, instances %s", r.Metric, r.Threshold, r.Instances)
	if r.Strategy != StrategySearch {
		fmt.Fprintf(bw, ", strategy %s", r.Strategy)
	}
	fmt.Fprintln(bw)
	tw := render.Table(bw)
	avg := "mean"
	if r.Metric.Median() {
		avg = "median"
	}
	pkg := ""
	unstable := 0
	for _, c := range r.Choices {
		if c.Package != pkg || pkg == "" {
			pkg = c.Package
			fmt.Fprintf(tw, "\npkg: %s\f", pkg)
			fmt.Fprintf(tw, "benchmark\ts\ti\td\twarmup\ttime\t%s\tchange of %s\n", r.Metric, avg)
		}
		mark := ""
		if !c.Stable {
			mark = " (unstable)"
			unstable++
		}
		fmt.Fprintf(tw, "%s%s\t%d\t%d\t%d\t%d\t%d/%d\t%.4g\t%+.2f%%\n",
			c.Name, mark, c.Config.SuiteRuns, c.Config.Iterations, c.Config.Slices, c.Warmup,
			c.Config.Time(), c.Full.Time(), c.Value, 100*c.Change())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	chosen, full := r.Time()
	fmt.Fprintf(bw, "\nsuite: %d of %d slices per instance, %.2f%% saved; change within 1%%: %.1f%%, within 3%%: %.1f%% of %d benchmarks\n",
		chosen, full, 100*r.Saved(), 100*r.Within(0.01), 100*r.Within(0.03), len(r.Choices))
	switch {
	case unstable == 0:
	case r.Strategy != StrategySearch:
		fmt.Fprintf(bw, "%d of %d benchmarks are not stable in their %s configuration\n", unstable, len(r.Choices), r.Strategy)
	case unstable == 1:
		fmt.Fprintln(bw, "1 benchmark has no stable configuration and keeps the full one")
	default:
		fmt.Fprintf(bw, "%d benchmarks have no stable configuration and keep the full one\n", unstable)
	}
	return bw.Flush()
}
