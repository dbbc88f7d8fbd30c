// Command uoptimetable compares gobench-dyn optimize with the figures
// published with µOpTime, over every Go project version of the replication
// package, and prints the Markdown tables of docs/OPTIME.md.
//
// Usage:
//
//	go run ./optime/internal/uoptimetable -data /path/to/uoptime
//
// where the data directory holds go_data_path/*.csv and
// go_optimization_new/<version>/quality_analysis.csv of the replication
// package (optimizer/dataset_1).
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gobench-dyn/gobench-dyn/internal/dataset"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

// methods maps each metric to the published result folder of its method.
var methods = map[optime.Metric]string{
	optime.CV:         "cv__mean__ci_bootstrap_mean_p",
	optime.RMAD:       "rmad__median__ci_bootstrap_median_p",
	optime.RCIWMean:   "rciw_mean_p__mean__ci_bootstrap_mean_p",
	optime.RCIWMeanT:  "rciw_mean_t__mean__ci_bootstrap_mean_t",
	optime.RCIWMedian: "rciw_median_p__median__ci_bootstrap_median_p",
}

type figures struct{ saved, within1, within3 float64 }

// instRow compares the first instance with all instances pooled.
type instRow struct {
	version string
	metric  optime.Metric
	first   figures
	all     figures
	changed int
	n       int
}

// baseRow compares the search with the minimum and random baselines.
type baseRow struct {
	version                     string
	metric                      optime.Metric
	search, minimum, random     figures
	pubMinimum, pubRandom       figures
	hasPubMinimum, hasPubRandom bool
}

// cmpRow compares our figures with the published ones.
type cmpRow struct {
	version string
	n       int
	ours    figures
	pub     figures
	hasPub  bool
}

// tables collects the rows of every table, version by version.
type tables struct {
	data      string
	resamples int
	seed      uint64
	rows      map[optime.Metric][]cmpRow
	inst      []instRow
	base      []baseRow
}

func main() {
	data := flag.String("data", "", "µOpTime replication data directory (with go_data_path/)")
	resamples := flag.Int("resamples", optime.DefaultResamples, "bootstrap resamples")
	seed := flag.Uint64("seed", 1, "bootstrap seed")
	flag.Parse()
	if *data == "" {
		log.Fatal("-data is required")
	}
	files, err := filepath.Glob(filepath.Join(*data, "go_data_path", "*.csv"))
	if err != nil || len(files) == 0 {
		log.Fatalf("no go_data_path/*.csv under %s", *data)
	}
	t := &tables{data: *data, resamples: *resamples, seed: *seed, rows: map[optime.Metric][]cmpRow{}}
	start := time.Now()
	for _, file := range files {
		version := strings.TrimSuffix(filepath.Base(file), ".csv")
		t.addVersion(version, file)
		fmt.Fprintf(os.Stderr, "%s done after %v\n", version, time.Since(start).Round(time.Second))
	}
	t.printComparisons()
	t.printInstances()
	t.printBaselines()
	fmt.Fprintf(os.Stderr, "done in %v\n", time.Since(start).Round(time.Second))
}

// addVersion adds the rows of one project version, read from file.
func (t *tables) addVersion(version, file string) {
	run, err := dataset.ReadUOpTime(file)
	if err != nil {
		log.Fatal(err)
	}
	benches := optime.Benchmarks([]*record.Run{run}, nil)
	published := readPublished(filepath.Join(t.data, "go_optimization_new", version, "quality_analysis.csv"))
	for _, m := range optime.Metrics() {
		res := choose(optime.StrategySearch, benches, m, optime.FirstInstance, t.resamples, t.seed)
		ours := summarize(res)
		pub, ok := published[methods[m]]
		t.rows[m] = append(t.rows[m], cmpRow{version, len(benches), ours, pub, ok})
		if m != optime.CV && m != optime.RMAD {
			continue
		}
		all := choose(optime.StrategySearch, benches, m, optime.AllInstances, t.resamples, t.seed)
		row := instRow{version: version, metric: m, first: ours, all: summarize(all), n: len(res.Choices)}
		for i := range res.Choices {
			if res.Choices[i].Config != all.Choices[i].Config {
				row.changed++
			}
		}
		t.inst = append(t.inst, row)
		b := baseRow{version: version, metric: m, search: ours}
		b.minimum = summarize(choose(optime.StrategyMinimum, benches, m, optime.FirstInstance, t.resamples, t.seed))
		b.random = summarize(choose(optime.StrategyRandom, benches, m, optime.FirstInstance, t.resamples, t.seed))
		b.pubMinimum, b.hasPubMinimum = readPublished(filepath.Join(t.data, "go_min_baseline", version, "quality_analysis.csv"))[methods[m]]
		b.pubRandom, b.hasPubRandom = readPublished(filepath.Join(t.data, "go_random_baseline", version, "quality_analysis.csv"))[methods[m]]
		t.base = append(t.base, b)
	}
}

// printComparisons prints one table per metric: ours against published.
func (t *tables) printComparisons() {
	for _, m := range optime.Metrics() {
		fmt.Printf("### %s\n\n", m)
		fmt.Println("| version | n | saved | published | ≤1% | published | ≤3% | published |")
		fmt.Println("|---|---|---|---|---|---|---|---|")
		for _, r := range t.rows[m] {
			pub := func(x float64) string {
				if !r.hasPub {
					return "–"
				}
				return fmt.Sprintf("%.2f%%", 100*x)
			}
			fmt.Printf("| %s | %d | %.2f%% | %s | %.1f%% | %s | %.1f%% | %s |\n", r.version, r.n,
				100*r.ours.saved, pub(r.pub.saved), 100*r.ours.within1, pub(r.pub.within1), 100*r.ours.within3, pub(r.pub.within3))
		}
		fmt.Println()
	}
}

// printInstances prints the first instance against all of them pooled.
func (t *tables) printInstances() {
	fmt.Println("### Instance 1 against all three instances pooled")
	fmt.Println()
	fmt.Println("| version | metric | saved, first | saved, all | ≤3%, first | ≤3%, all | choices changed |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range t.inst {
		fmt.Printf("| %s | %s | %.2f%% | %.2f%% | %.1f%% | %.1f%% | %d of %d |\n", r.version, r.metric,
			100*r.first.saved, 100*r.all.saved, 100*r.first.within3, 100*r.all.within3, r.changed, r.n)
	}
}

// printBaselines prints the search against the published baselines.
func (t *tables) printBaselines() {
	fmt.Println()
	fmt.Println("### The search against the published baselines")
	fmt.Println()
	fmt.Println("| version | metric | search: saved, ≤3% | minimum: saved, ≤3% | published | random: saved, ≤3% | published |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range t.base {
		cell := func(f figures) string { return fmt.Sprintf("%.2f%%, %.1f%%", 100*f.saved, 100*f.within3) }
		pub := func(f figures, ok bool) string {
			if !ok {
				return "–"
			}
			return cell(f)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %s |\n", r.version, r.metric, cell(r.search),
			cell(r.minimum), pub(r.pubMinimum, r.hasPubMinimum), cell(r.random), pub(r.pubRandom, r.hasPubRandom))
	}
}

// choose gives every benchmark its configuration under strategy st.
func choose(st optime.Strategy, benches []optime.Benchmark, m optime.Metric, in optime.Instances, resamples int, seed uint64) *optime.Result {
	res, err := st.Choose(benches, optime.Options{
		Metric:    m,
		Instances: in,
		Resamples: resamples,
		Rand:      rand.New(rand.NewPCG(seed, 0)),
	})
	if err != nil {
		log.Fatal(err)
	}
	return res
}

func summarize(r *optime.Result) figures {
	return figures{r.Saved(), r.Within(0.01), r.Within(0.03)}
}

// readPublished reads a published quality_analysis.csv: method → figures.
func readPublished(path string) map[string]figures {
	f, err := os.Open(path)
	if err != nil {
		log.Printf("no published figures: %v", err)
		return nil
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		log.Fatal(err)
	}
	out := map[string]figures{}
	for _, row := range rows[1:] {
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(row[i], 64)
			if err != nil {
				log.Fatalf("%s: %v", path, err)
			}
			return v
		}
		out[row[1]] = figures{num(7), num(8), num(9)}
	}
	return out
}
