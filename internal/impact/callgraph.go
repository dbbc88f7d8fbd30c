package impact

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gobench-dyn/gobench-dyn/internal/inject"
)

// reachesChanged builds the baseline's call graph and returns the
// functions that can call a function that differs, each with one such
// function.
//
// The walk goes backwards over the edges of class hierarchy analysis,
// which links a call through an interface or a function value to every
// method or function it can reach, and over references: a function that
// takes another as a value (a closure it makes, a function it passes on)
// counts as calling it. It does not walk back through package testing:
// the harness calls every benchmark through one function value, and a
// benchmark that hands the harness a function (b.Run) refers to it.
func (a *analysis) reachesChanged() map[declKey]string {
	prog, _ := ssautil.Packages(a.base.pkgs, ssa.InstantiateGenerics)
	prog.Build()
	cg := cha.CallGraph(prog)
	// refs[g] are the functions that take g as a value; ifaces[m], those
	// that make an interface value of a type with method m.
	refs := map[*ssa.Function][]*ssa.Function{}
	ifaces := map[declKey][]*ssa.Function{}
	for fn := range ssautil.AllFunctions(prog) {
		if fn.Parent() != nil {
			refs[fn] = append(refs[fn], fn.Parent())
		}
		var ops []*ssa.Value
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if mi, ok := in.(*ssa.MakeInterface); ok {
					ms := prog.MethodSets.MethodSet(mi.X.Type())
					for i := range ms.Len() {
						if k, ok := methodKey(ms.At(i).Obj()); ok {
							ifaces[k] = append(ifaces[k], fn)
						}
					}
				}
				for _, op := range in.Operands(ops[:0]) {
					if g, ok := (*op).(*ssa.Function); ok && g != fn {
						refs[g] = append(refs[g], fn)
					}
				}
			}
		}
	}
	reached := map[*ssa.Function]string{}
	var queue []*ssa.Function
	for fn := range cg.Nodes {
		if fn == nil {
			continue
		}
		if k, ok := keyOf(fn); ok && a.changed[k] {
			reached[fn] = k.String()
			queue = append(queue, fn)
		}
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		via := reached[fn]
		next := func(g *ssa.Function) {
			if g == nil || harness(g) {
				return
			}
			if _, ok := reached[g]; !ok {
				reached[g] = via
				queue = append(queue, g)
			}
		}
		if n := cg.Nodes[fn]; n != nil {
			for _, e := range n.In {
				next(e.Caller.Func)
			}
		}
		for _, g := range refs[fn] {
			next(g)
		}
		if k, ok := keyOf(fn); ok {
			for _, g := range ifaces[k] {
				next(g)
			}
		}
	}
	out := map[declKey]string{}
	for fn, via := range reached {
		if k, ok := keyOf(fn); ok {
			if _, seen := out[k]; !seen {
				out[k] = via
			}
		}
	}
	return out
}

// methodKey names the declared method obj is.
func methodKey(obj types.Object) (declKey, bool) {
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil {
		return declKey{}, false
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return declKey{}, false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return declKey{}, false
	}
	return declKey{fn.Pkg().Path(), n.Origin().Obj().Name() + "." + fn.Name()}, true
}

// harness reports whether fn belongs to package testing, which runs
// every benchmark.
func harness(fn *ssa.Function) bool {
	if fn.Pkg == nil {
		return false
	}
	p := fn.Pkg.Pkg.Path()
	return p == "testing" || strings.HasPrefix(p, "testing/") && !strings.HasPrefix(p, "testing/fstest")
}

// keyOf names the declared function fn is, or is part of (a closure),
// or an instance of (a generic function).
func keyOf(fn *ssa.Function) (declKey, bool) {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	fd, ok := fn.Syntax().(*ast.FuncDecl)
	if !ok || fn.Pkg == nil {
		return declKey{}, false
	}
	return declKey{fn.Pkg.Pkg.Path(), inject.FuncName(fd)}, true
}
