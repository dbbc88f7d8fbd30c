package rmit

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// parallelBenchmarks returns the top-level benchmarks of the test files
// in dir that run b.RunParallel, directly or through functions of the
// same files that do. Their goroutines take every CPU for the time they
// run: in a duet, the partner that has just handed over its turn still
// runs (its GC, its scheduler), and takes CPUs from them, so such a
// benchmark is measured by process pairs, one version at a time, as go
// test measures it.
func parallelBenchmarks(dir string) map[string]bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	fset := token.NewFileSet()
	calls := map[string][]string{} // function name → the names it calls
	parallel := map[string]bool{}  // functions that call RunParallel
	var benchmarks []string
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		file, err := parser.ParseFile(fset, f, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range file.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil {
				continue
			}
			name := fd.Name.Name
			if strings.HasPrefix(name, "Benchmark") {
				benchmarks = append(benchmarks, name)
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch fn := call.Fun.(type) {
				case *ast.SelectorExpr:
					if fn.Sel.Name == "RunParallel" {
						parallel[name] = true
					}
				case *ast.Ident:
					calls[name] = append(calls[name], fn.Name)
				}
				return true
			})
		}
	}
	for grew := true; grew; {
		grew = false
		for fn, callees := range calls {
			if parallel[fn] {
				continue
			}
			for _, c := range callees {
				if parallel[c] {
					parallel[fn], grew = true, true
					break
				}
			}
		}
	}
	out := map[string]bool{}
	for _, b := range benchmarks {
		if parallel[b] {
			out[b] = true
		}
	}
	return out
}

// parallelReason is why a benchmark that runs b.RunParallel is measured by
// process pairs.
const parallelReason = "it runs b.RunParallel, whose goroutines need every CPU: measured by process pairs, one version at a time, as go test measures it"
