package packagerules

import (
	"fmt"
	"go/types"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

const module = "github.com/gobench-dyn/gobench-dyn"

// publicPackages are the packages other programs may import
// (CONTRIBUTING.md, "How it is built"): the engine and the policies other
// programs may drive, and the raw record schema and policy protocol their
// APIs speak.
var publicPackages = []string{"rmit", "stopper", "optime", "rmit/record", "stopper/policy"}

// TestPublicAPIUsesOnlyPublicTypes fails when an exported identifier of a
// public package mentions a type declared under an internal/ directory:
// another module could not name that type, so it could not implement or
// call what mentions it.
func TestPublicAPIUsesOnlyPublicTypes(t *testing.T) {
	watchModule(t)
	var patterns []string
	for _, p := range publicPackages {
		patterns = append(patterns, module+"/"+p)
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode: packages.NeedName | packages.NeedTypes,
	}, patterns...)
	require.NoError(t, err)
	require.Len(t, pkgs, len(patterns))
	for _, pkg := range pkgs {
		for _, e := range pkg.Errors {
			t.Errorf("%s: %v", pkg.PkgPath, e)
		}
		for _, v := range internalMentions(pkg.Types) {
			t.Errorf("%s.%s", pkg.Name, v)
		}
	}
}

// internalMentions lists, for each exported identifier of pkg whose
// declaration mentions a type of an internal package, the identifier and
// the internal type.
func internalMentions(pkg *types.Package) []string {
	var found []string
	report := func(where string, t types.Type) {
		for _, name := range internalTypes(t, map[types.Type]bool{}) {
			found = append(found, fmt.Sprintf("%s mentions %s", where, name))
		}
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.TypeName:
			if obj.IsAlias() {
				report(name, obj.Type())
				continue
			}
			report(name, obj.Type().Underlying())
			if named, ok := obj.Type().(*types.Named); ok && named.TypeParams() != nil {
				for tp := range named.TypeParams().TypeParams() {
					report(name, tp.Constraint())
				}
			}
			ms := types.NewMethodSet(types.NewPointer(obj.Type()))
			for sel := range ms.Methods() {
				if sel.Obj().Exported() {
					report(name+"."+sel.Obj().Name(), sel.Type())
				}
			}
		default: // funcs, vars and consts
			report(name, obj.Type())
		}
	}
	sort.Strings(found)
	return found
}

// internalTypes walks t down to its named types and returns those declared
// under an internal/ directory. A named type of another package is not
// opened: its own package answers for its API.
func internalTypes(t types.Type, seen map[types.Type]bool) []string {
	if seen[t] {
		return nil
	}
	seen[t] = true
	var out []string
	walk := func(ts ...types.Type) {
		for _, t := range ts {
			out = append(out, internalTypes(t, seen)...)
		}
	}
	switch t := t.(type) {
	case *types.Named:
		if obj := t.Obj(); obj.Pkg() != nil && isInternal(obj.Pkg().Path()) {
			out = append(out, obj.Pkg().Path()+"."+obj.Name())
		}
		for arg := range t.TypeArgs().Types() {
			walk(arg)
		}
	case *types.Alias:
		if obj := t.Obj(); obj.Pkg() != nil && isInternal(obj.Pkg().Path()) {
			out = append(out, obj.Pkg().Path()+"."+obj.Name())
		}
		walk(types.Unalias(t))
	case *types.Pointer:
		walk(t.Elem())
	case *types.Slice:
		walk(t.Elem())
	case *types.Array:
		walk(t.Elem())
	case *types.Chan:
		walk(t.Elem())
	case *types.Map:
		walk(t.Key(), t.Elem())
	case *types.Signature:
		for v := range t.Params().Variables() {
			walk(v.Type())
		}
		for v := range t.Results().Variables() {
			walk(v.Type())
		}
	case *types.Struct:
		// An unexported field cannot be named from outside, but an
		// embedded one promotes its fields, so those are walked too.
		for f := range t.Fields() {
			if f.Exported() || f.Embedded() {
				walk(f.Type())
			}
		}
	case *types.Interface:
		for m := range t.Methods() {
			walk(m.Type())
		}
		for e := range t.EmbeddedTypes() {
			walk(e)
		}
	case *types.TypeParam:
		walk(t.Constraint())
	case *types.Union:
		for term := range t.Terms() {
			walk(term.Type())
		}
	}
	return out
}

func isInternal(path string) bool {
	return strings.Contains("/"+path+"/", "/internal/")
}
