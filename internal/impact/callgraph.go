package impact

import (
	"go/ast"
	"go/constant"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/gobench-dyn/gobench-dyn/internal/inject"
)

// A program is the baseline's SSA program and call graph, with the
// references between functions that the call graph leaves out.
type program struct {
	cg *callgraph.Graph
	// refs[g] are the functions that take g as a value; ifaces[m], those
	// that make an interface value of a type with method m.
	refs   map[*ssa.Function][]*ssa.Function
	ifaces map[declKey][]*ssa.Function
	// takes[f] are the functions f takes as values, and boxes[f] the
	// methods of the types f makes interface values of, save the
	// sub-benchmarks f hands to b.Run, which run only when a leaf's name
	// selects them; runs[f] are those calls of b.Run.
	takes map[*ssa.Function][]*ssa.Function
	boxes map[*ssa.Function][]declKey
	runs  map[*ssa.Function][]*ssa.CallCommon
	// funcs are the declared functions by name, each with its closures
	// and instances; inits, the initialisers of each package.
	funcs map[declKey][]*ssa.Function
	inits map[string][]*ssa.Function
}

// program builds the baseline's call graph once.
func (a *analysis) program() *program {
	if a.prog != nil {
		return a.prog
	}
	prog, _ := ssautil.Packages(a.base.pkgs, ssa.InstantiateGenerics)
	prog.Build()
	g := &program{
		cg:     cha.CallGraph(prog),
		refs:   map[*ssa.Function][]*ssa.Function{},
		ifaces: map[declKey][]*ssa.Function{},
		takes:  map[*ssa.Function][]*ssa.Function{},
		boxes:  map[*ssa.Function][]declKey{},
		runs:   map[*ssa.Function][]*ssa.CallCommon{},
		funcs:  map[declKey][]*ssa.Function{},
		inits:  map[string][]*ssa.Function{},
	}
	// subOnly[g] counts g's uses other than as a sub-benchmark handed to
	// b.Run; a function with none runs only when a leaf selects it.
	subOnly := map[*ssa.Function]int{}
	for fn := range ssautil.AllFunctions(prog) {
		if k, ok := keyOf(fn); ok {
			g.funcs[k] = append(g.funcs[k], fn)
		}
		if fn.Synthetic == "package initializer" && fn.Pkg != nil {
			g.inits[fn.Pkg.Pkg.Path()] = append(g.inits[fn.Pkg.Pkg.Path()], fn)
		}
		var ops []*ssa.Value
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				if mi, ok := in.(*ssa.MakeInterface); ok {
					ms := prog.MethodSets.MethodSet(mi.X.Type())
					for i := range ms.Len() {
						if k, ok := methodKey(ms.At(i).Obj()); ok {
							g.ifaces[k] = append(g.ifaces[k], fn)
							g.boxes[fn] = append(g.boxes[fn], k)
						}
					}
				}
				if c, ok := in.(ssa.CallInstruction); ok && isRun(c.Common()) {
					g.runs[fn] = append(g.runs[fn], c.Common())
				}
				for _, op := range in.Operands(ops[:0]) {
					h, ok := (*op).(*ssa.Function)
					if !ok || h == fn {
						continue
					}
					g.refs[h] = append(g.refs[h], fn)
					if handedToRun(in, h) {
						subOnly[h] += 0
						continue
					}
					subOnly[h]++
					g.takes[fn] = append(g.takes[fn], h)
				}
			}
		}
	}
	for fn := range ssautil.AllFunctions(prog) {
		if p := fn.Parent(); p != nil {
			g.refs[fn] = append(g.refs[fn], p)
			if n, ok := subOnly[fn]; !ok || n > 0 {
				g.takes[p] = append(g.takes[p], fn)
			}
		}
	}
	a.prog = g
	return g
}

// isRun reports whether c calls (*testing.B).Run, which runs a
// sub-benchmark when its name matches the -test.bench pattern.
func isRun(c *ssa.CallCommon) bool {
	callee := c.StaticCallee()
	if callee == nil || len(c.Args) != 3 {
		return false
	}
	fn, ok := callee.Object().(*types.Func)
	return ok && fn.FullName() == "(*testing.B).Run"
}

// handedToRun reports whether in uses h only to hand it to b.Run as the
// sub-benchmark to run: h itself, or a closure of h that nothing else
// uses.
func handedToRun(in ssa.Instruction, h *ssa.Function) bool {
	if c, ok := in.(ssa.CallInstruction); ok {
		return isRun(c.Common()) && c.Common().Args[2] == ssa.Value(h)
	}
	mc, ok := in.(*ssa.MakeClosure)
	if !ok || mc.Fn != ssa.Value(h) || mc.Referrers() == nil || len(*mc.Referrers()) == 0 {
		return false
	}
	for _, r := range *mc.Referrers() {
		c, ok := r.(ssa.CallInstruction)
		if !ok || !isRun(c.Common()) || c.Common().Args[2] != ssa.Value(mc) {
			return false
		}
	}
	return true
}

// reachesChanged returns the functions of the baseline that can call a
// function that differs, each with one such function.
//
// The walk goes backwards over the edges of class hierarchy analysis,
// which links a call through an interface or a function value to every
// method or function it can reach, and over references: a function that
// takes another as a value (a closure it makes, a function it passes on)
// counts as calling it. It does not walk back through package testing:
// the harness calls every benchmark through one function value, and a
// benchmark that hands the harness a function (b.Run) refers to it.
func (a *analysis) reachesChanged() map[declKey]string {
	return a.reachesAny(a.changed)
}

// reachesAny returns the functions of the baseline that are one of
// targets or can call one, each with one such target, walking as
// reachesChanged walks.
func (a *analysis) reachesAny(targets map[declKey]bool) map[declKey]string {
	g := a.program()
	reached := map[*ssa.Function]string{}
	var queue []*ssa.Function
	for fn := range g.cg.Nodes {
		if fn == nil {
			continue
		}
		if k, ok := keyOf(fn); ok && targets[k] {
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
		if n := g.cg.Nodes[fn]; n != nil {
			for _, e := range n.In {
				next(e.Caller.Func)
			}
		}
		for _, h := range g.refs[fn] {
			next(h)
		}
		if k, ok := keyOf(fn); ok {
			for _, h := range g.ifaces[k] {
				next(h)
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

// leafReach decides whether a process that runs only the leaf whose
// sub-benchmark names are levels, of the benchmark whose functions are
// tops, can call a function that differs. It walks forwards from the
// benchmark's function over calls, references and interface values, and
// into the sub-benchmarks handed to b.Run whose names can be one of the
// leaf's, as go test selects them: a sibling's function runs only when
// its name matches. It returns the function that differs, or "", and
// false when a sub-benchmark is a value the walk cannot follow (a
// function read from a table): then the leaf has its benchmark's
// decision.
func (g *program) leafReach(tops []*ssa.Function, levels []string, changed map[declKey]bool) (string, bool) {
	seen := map[*ssa.Function]bool{}
	queue := []*ssa.Function{}
	add := func(fn *ssa.Function) {
		if fn != nil && !seen[fn] && !harness(fn) {
			seen[fn] = true
			queue = append(queue, fn)
		}
	}
	for _, fn := range tops {
		add(fn)
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		if k, ok := keyOf(fn); ok && changed[k] {
			return k.String(), true
		}
		if n := g.cg.Nodes[fn]; n != nil {
			for _, e := range n.Out {
				add(e.Callee.Func)
			}
		}
		for _, h := range g.takes[fn] {
			add(h)
		}
		for _, k := range g.boxes[fn] {
			for _, h := range g.funcs[k] {
				add(h)
			}
		}
		for _, c := range g.runs[fn] {
			if name, ok := c.Args[1].(*ssa.Const); ok && name.Value != nil && name.Value.Kind() == constant.String &&
				!selects(constant.StringVal(name.Value), levels) {
				continue
			}
			switch sub := c.Args[2].(type) {
			case *ssa.Function:
				add(sub)
			case *ssa.MakeClosure:
				add(sub.Fn.(*ssa.Function))
			default:
				return "", false
			}
		}
	}
	return "", true
}

// selects reports whether a sub-benchmark named name can be part of the
// leaf whose sub-benchmark names are levels: go test rewrites the name
// (spaces to underscores, other unprintable runes quoted), splits it at
// slashes into levels of its own, and numbers a duplicate #01, #02, ….
func selects(name string, levels []string) bool {
	for _, part := range strings.Split(rewrite(name), "/") {
		if !slices.ContainsFunc(levels, func(l string) bool {
			rest, ok := strings.CutPrefix(l, part)
			return ok && (rest == "" || rest[0] == '#' && len(rest) > 1 && strings.Trim(rest[1:], "0123456789") == "")
		}) {
			return false
		}
	}
	return true
}

// rewrite is the name go test gives a sub-benchmark named s.
func rewrite(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			b.WriteByte('_')
		case !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
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
