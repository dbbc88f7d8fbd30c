package optime_test

import (
	"encoding/csv"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gobench-dyn/gobench-dyn/internal/dataset"
	"github.com/gobench-dyn/gobench-dyn/optime"
	"github.com/gobench-dyn/gobench-dyn/rmit/record"
)

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return rows[1:]
}

func loadVersion(t *testing.T, version string) []optime.Benchmark {
	t.Helper()
	run, err := dataset.ReadUOpTime("testdata/" + version + ".csv")
	require.NoError(t, err)
	return optime.Benchmarks([]*record.Run{run}, nil)
}

// publishedSaved returns the published suite time saved of a metric, from
// quality_analysis.csv ("Time Saved %").
func publishedSaved(t *testing.T, version, method string) float64 {
	for _, row := range readCSV(t, "testdata/published/"+version+"/quality_analysis.csv") {
		if row[1] == method {
			v, err := strconv.ParseFloat(row[7], 64)
			require.NoError(t, err)
			return v
		}
	}
	t.Fatalf("no %s in %s", method, version)
	return 0
}

// With CV and RMAD, which need no random numbers, the published minimal
// configuration of every benchmark is reproduced exactly, its metric to
// the last bits, and the suite time saved to within 0.1 percentage points.
func TestReproducePublishedCVRMAD(t *testing.T) {
	for _, tt := range []struct {
		version string
		metric  optime.Metric
		file    string
		saved   float64 // the figure published in the paper's data
	}{
		{"toml-v2.0.2", optime.CV, "cv", 0.9600},
		{"toml-v2.0.2", optime.RMAD, "rmad", 0.9600},
		{"zap-v1.22.0", optime.CV, "cv", 0.9115},
		{"zap-v1.22.0", optime.RMAD, "rmad", 0.9600},
	} {
		t.Run(tt.version+"/"+tt.metric.String(), func(t *testing.T) {
			res, err := optime.Optimize(loadVersion(t, tt.version), optime.Options{Metric: tt.metric})
			require.NoError(t, err)
			want := readCSV(t, "testdata/published/"+tt.version+"/"+tt.file+"_min_config_res.csv")
			require.Len(t, res.Choices, len(want))
			for i, row := range want {
				c := res.Choices[i]
				assert.Equal(t, row[0], c.Name)
				assert.Equal(t, row[1], c.Config.String(), c.Name)
				v, err := strconv.ParseFloat(row[2], 64)
				require.NoError(t, err)
				assert.InDelta(t, v, c.Value, 1e-12*v+1e-300, c.Name) // RMAD is often exactly 0
				avg, err := strconv.ParseFloat(row[4], 64)
				require.NoError(t, err)
				assert.InEpsilon(t, avg, c.Average, 1e-12, c.Name)
			}
			assert.InDelta(t, tt.saved, res.Saved(), 0.001)
		})
	}
}

// The bootstrap metrics depend on the random numbers, so they come near
// the published figures rather than onto them. The test draws 2,000
// resamples instead of the published 10,000 to stay fast; the figures in
// docs/OPTIME.md use 10,000.
//
// zap-v1.22.0 under RCIW-mean has the widest gap: BenchmarkBuffers/
// BytesBuffer's (2, 2, 1) subset of four values has an interval of the
// mean whose relative width lands either side of 0.01 depending on the
// draws (0.0099 here, above 0.01 in the published run), and that one
// benchmark moves the suite by 4.3 points. Over seeds 0–7 with 10,000
// resamples we measured 83.1–87.4% against the published 82.2%.
//
// RCIW-median has no published counterpart to compare with: the published
// code computed the interval of the mean there.
func TestReproducePublishedBootstrap(t *testing.T) {
	for _, tt := range []struct {
		version string
		metric  optime.Metric
		method  string
		tol     float64
	}{
		{"toml-v2.0.2", optime.RCIWMean, "rciw_mean_p__mean__ci_bootstrap_mean_p", 0.02},
		{"toml-v2.0.2", optime.RCIWMeanT, "rciw_mean_t__mean__ci_bootstrap_mean_t", 0.02},
		{"zap-v1.22.0", optime.RCIWMean, "rciw_mean_p__mean__ci_bootstrap_mean_p", 0.06},
		{"zap-v1.22.0", optime.RCIWMeanT, "rciw_mean_t__mean__ci_bootstrap_mean_t", 0.02},
	} {
		t.Run(tt.version+"/"+tt.metric.String(), func(t *testing.T) {
			res, err := optime.Optimize(loadVersion(t, tt.version), optime.Options{
				Metric:    tt.metric,
				Resamples: 2000,
				Rand:      rand.New(rand.NewPCG(1, 2)),
			})
			require.NoError(t, err)
			assert.InDelta(t, publishedSaved(t, tt.version, tt.method), res.Saved(), tt.tol)
		})
	}
}

// With all three instances pooled, each configuration's sample holds the
// prefix subsets of every instance, three times as many values, and on
// toml-v2.0.2 under RMAD the suite still saves over 90% of its time.
func TestAllInstances(t *testing.T) {
	res, err := optime.Optimize(loadVersion(t, "toml-v2.0.2"), optime.Options{Metric: optime.RMAD, Instances: optime.AllInstances})
	require.NoError(t, err)
	for _, c := range res.Choices {
		assert.Equal(t, optime.Config{SuiteRuns: 3, Iterations: 5, Slices: 5}, c.Full)
		assert.Equal(t, 3*c.Config.Time(), c.Samples, c.Name)
	}
	assert.Greater(t, res.Saved(), 0.9)
}

// The published minimum baseline gives every benchmark (1, 3, 1); its
// suite time saved and the shares of benchmarks within 1%, 3% and 5% of
// the full configuration are reproduced exactly with CV and RMAD.
func TestReproducePublishedMinimumBaseline(t *testing.T) {
	methods := map[string]optime.Metric{
		"cv__mean__ci_bootstrap_mean_p":       optime.CV,
		"rmad__median__ci_bootstrap_median_p": optime.RMAD,
	}
	for _, version := range []string{"toml-v2.0.2", "zap-v1.22.0"} {
		benches := loadVersion(t, version)
		for _, row := range readCSV(t, "testdata/published/"+version+"/min_baseline_quality_analysis.csv") {
			metric, ok := methods[row[1]]
			if !ok {
				continue
			}
			t.Run(version+"/"+metric.String(), func(t *testing.T) {
				res, err := optime.MinimumBaseline(benches, optime.Options{Metric: metric})
				require.NoError(t, err)
				for col, got := range map[int]float64{7: res.Saved(), 8: res.Within(0.01), 9: res.Within(0.03), 10: res.Within(0.05)} {
					want, err := strconv.ParseFloat(row[col], 64)
					require.NoError(t, err)
					assert.InDelta(t, want, got, 1e-9, "column %d", col)
				}
			})
		}
	}
}
