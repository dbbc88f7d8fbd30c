package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// A realSuite is a widely used module's benchmark package, brought in
// through the Go module proxy.
type realSuite struct {
	module, version, pkg string
}

// realSuites are the suites the evaluation runs besides examples/,
// pinned so that a re-run measures the same code. (prometheus/common
// v0.67 and later have a test dependency the module proxy does not serve.)
var realSuites = map[string]realSuite{
	"toml":   {"github.com/pelletier/go-toml/v2", "v2.4.3", "github.com/pelletier/go-toml/v2/benchmark"},
	"zap":    {"go.uber.org/zap", "v1.28.0", "go.uber.org/zap"},
	"expfmt": {"github.com/prometheus/common", "v0.66.1", "github.com/prometheus/common/expfmt"},
	"stat":   {"gonum.org/v1/gonum", "v0.17.0", "gonum.org/v1/gonum/stat"},
}

// scratchModule makes a module in dir that requires the suite's module, so
// that its package can be benchmarked from the module cache.
func scratchModule(dir string, s realSuite) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tools := fmt.Sprintf("//go:build tools\n\npackage tools\n\nimport _ %q\n", s.pkg)
	if err := os.WriteFile(filepath.Join(dir, "tools.go"), []byte(tools), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"mod", "init", "scratch"},
		{"get", s.module + "@" + s.version},
		{"mod", "tidy"},
	} {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && args[0] == "mod" && args[1] == "init" {
			continue
		}
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %v: %w\n%s", args, err, out)
		}
	}
	// go mod tidy drops test-only dependencies of the suite's package;
	// list it with its tests so that they are downloaded too.
	cmd := exec.Command("go", "list", "-test", "-deps", s.pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go list -test %s: %w\n%s", s.pkg, err, out)
	}
	return nil
}
