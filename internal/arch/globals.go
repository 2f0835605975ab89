package arch

import (
	"go/ast"
	"go/token"
	"strconv"
)

// GlobalState finds the package-level variables of one package that are
// state: docs/ARCHITECTURE.md has the simulators keep none, each being a
// function of its trace, machine and configuration. files are the
// package's non-test files, parsed with go/parser's comments
// (parser.ParseComments) and identifier resolution (no
// parser.SkipObjectResolution), positions from fset.
//
// A package-level variable is allowed when it is blank (var _ I = T{},
// an assertion the compiler checks) or when it is a value nothing changes
// once the package is initialised, which is so when:
//
//   - its declaration names nothing from sync or sync/atomic and no
//     channel (a sync.Pool, a mutex, an atomic counter, a channel are
//     state by nature) and does not start as a pointer (&T{...},
//     new(T)), whose target methods could change;
//   - it is given a value, by its declaration or by init-time code: a
//     variable left at its zero value can be used only through its
//     methods or its address, that is as state (var memories sync.Pool
//     was one);
//   - outside init-time code nothing assigns it, an element, field or
//     slice of it (=, op=, ++, --, a range clause's =), deletes from it or
//     clears it (delete, clear), or takes its address or an element's or
//     field's (&v, &v[i], &v.f). A table read through a pointer to an
//     element, to save copying it, says so with the directive
//     //arch:readonly in its doc comment, and may then have its address
//     taken (not be assigned).
//
// Init-time code is the package's variable initialisers (the function
// literals they call included), its init functions, and its functions
// that only they call, directly or through one another (a registry filled
// by the initialisers that call its register function, as sim/engine's
// keys are).
//
// So error values (errors.New, fmt.Errorf), compiled regular expressions
// and lookup tables pass. What the syntax cannot show is not checked: a
// change made by a method with a pointer receiver on a variable that was
// given a value, or by a function the variable (a slice, a map) is passed
// to, or by another package. Test files are not checked: a test may set a
// package's knob (sim/ordertrace's lineItems) for its own run.
func GlobalState(fset *token.FileSet, files []*ast.File) []Violation {
	g := newGlobals(fset, files)
	if len(g.vars) == 0 {
		return nil
	}
	g.findInitTime()
	g.findWrites()
	return g.violations()
}

// global is one package-level variable.
type global struct {
	name  *ast.Ident
	spec  *ast.ValueSpec
	value ast.Expr // its initialiser, or nil

	given    bool    // assigned by init-time code
	readOnly bool    // its doc comment has the //arch:readonly directive
	wrote    []write // changes outside init-time code
	why      string  // set when its declaration makes it state
}

// write is a change to a variable: an assignment or an address taken.
type write struct {
	at   token.Position
	addr bool
}

// readOnlyDirective marks a variable whose address is taken only to read
// it.
const readOnlyDirective = "//arch:readonly"

// hasDirective reports whether one of the comment groups has the line
// directive.
func hasDirective(directive string, docs ...*ast.CommentGroup) bool {
	for _, d := range docs {
		if d == nil {
			continue
		}
		for _, c := range d.List {
			if c.Text == directive {
				return true
			}
		}
	}
	return false
}

type globals struct {
	fset  *token.FileSet
	files []*ast.File
	vars  map[string]*global
	specs map[*ast.ValueSpec]bool

	funcs    map[string]*ast.FuncDecl // package-level functions, not methods
	initTime map[*ast.FuncDecl]bool
}

func newGlobals(fset *token.FileSet, files []*ast.File) *globals {
	g := &globals{fset: fset, files: files, vars: map[string]*global{}, specs: map[*ast.ValueSpec]bool{},
		funcs: map[string]*ast.FuncDecl{}, initTime: map[*ast.FuncDecl]bool{}}
	for _, f := range files {
		stateful := statefulImports(f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name != "init" {
					g.funcs[d.Name.Name] = d
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					g.specs[vs] = true
					for i, n := range vs.Names {
						if n.Name == "_" {
							continue
						}
						v := &global{name: n, spec: vs, readOnly: hasDirective(readOnlyDirective, vs.Doc, d.Doc)}
						if i < len(vs.Values) {
							v.value = vs.Values[i]
						} else if len(vs.Values) == 1 { // var a, b = f()
							v.value = vs.Values[0]
						}
						v.why = stateByNature(vs.Type, v.value, stateful)
						g.vars[n.Name] = v
					}
				}
			}
		}
	}
	return g
}

// statefulImports returns the names f gives the packages sync and
// sync/atomic.
func statefulImports(f *ast.File) map[string]bool {
	names := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if path != "sync" && path != "sync/atomic" {
			continue
		}
		name := "sync"
		if path == "sync/atomic" {
			name = "atomic"
		}
		if imp.Name != nil {
			name = imp.Name.Name
		}
		names[name] = true
	}
	return names
}

// stateByNature says why a variable declared with type typ and value
// value is state whatever is done with it, or "".
func stateByNature(typ, value ast.Expr, stateful map[string]bool) string {
	why := ""
	for _, e := range []ast.Expr{typ, value} {
		if e == nil {
			continue
		}
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ChanType:
				why = "a channel"
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Obj == nil && stateful[x.Name] {
					why = "of package " + x.Name + "'s " + n.Sel.Name
				}
			}
			return why == ""
		})
	}
	if why != "" {
		return why
	}
	switch v := ast.Unparen(value).(type) {
	case *ast.UnaryExpr:
		if v.Op == token.AND {
			return "a pointer (&...), whose target methods could change"
		}
	case *ast.CallExpr:
		if id, ok := v.Fun.(*ast.Ident); ok && id.Name == "new" && id.Obj == nil {
			return "a pointer (new), whose target methods could change"
		}
	}
	return ""
}

// findInitTime marks the init functions and the functions that only
// init-time code calls.
func (g *globals) findInitTime() {
	for _, f := range g.files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
				g.initTime[fd] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fd := range g.funcs {
			if !g.initTime[fd] && g.onlyInitUses(fd.Name.Name) {
				g.initTime[fd], changed = true, true
			}
		}
	}
}

// onlyInitUses reports whether the package-level function name is used,
// and only in init-time code.
func (g *globals) onlyInitUses(name string) bool {
	uses, outside := 0, false
	g.walk(func(n ast.Node, initTime bool) {
		if id, ok := n.(*ast.Ident); ok && id.Name == name && g.isPackageLevel(id) {
			uses++
			outside = outside || !initTime
		}
	})
	return uses > 0 && !outside
}

// walk calls visit for every node of the package's declarations but
// their names, telling whether the node is in init-time code.
func (g *globals) walk(visit func(n ast.Node, initTime bool)) {
	for _, f := range g.files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					it := g.initTime[d]
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if n != nil {
							visit(n, it)
						}
						return true
					})
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					vs, ok := s.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for _, v := range vs.Values {
						ast.Inspect(v, func(n ast.Node) bool {
							if n != nil {
								visit(n, true)
							}
							return true
						})
					}
				}
			}
		}
	}
}

// isPackageLevel reports whether id names a package-level declaration:
// the parser resolved it to one in its own file, or, declared in another
// file of the package, left it unresolved.
func (g *globals) isPackageLevel(id *ast.Ident) bool {
	if id.Obj == nil {
		return true
	}
	switch d := id.Obj.Decl.(type) {
	case *ast.ValueSpec:
		return g.specs[d]
	case *ast.FuncDecl:
		return d.Recv == nil
	}
	return false
}

// findWrites records the changes made to each variable, in init-time
// code (which give it a value) and outside it.
func (g *globals) findWrites() {
	g.walk(func(n ast.Node, initTime bool) {
		targets, addr := changed(n)
		for _, target := range targets {
			v := g.root(target)
			if v == nil {
				continue
			}
			if initTime {
				v.given = true
			} else {
				v.wrote = append(v.wrote, write{at: g.fset.Position(target.Pos()), addr: addr})
			}
		}
	})
}

// changed returns the expressions n changes: the left of an assignment
// (not of a :=, which declares), of ++ and --, the key and value a range
// clause assigns, the operand of &, and the map or slice of delete and
// clear; addr is set for the operand of &.
func changed(n ast.Node) (targets []ast.Expr, addr bool) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.DEFINE {
			return n.Lhs, false
		}
	case *ast.IncDecStmt:
		return []ast.Expr{n.X}, false
	case *ast.RangeStmt:
		if n.Tok == token.ASSIGN {
			return []ast.Expr{n.Key, n.Value}, false
		}
	case *ast.UnaryExpr:
		if n.Op == token.AND {
			return []ast.Expr{n.X}, true
		}
	case *ast.CallExpr:
		if id, ok := n.Fun.(*ast.Ident); ok && id.Obj == nil && (id.Name == "delete" || id.Name == "clear") && len(n.Args) > 0 {
			return n.Args[:1], false
		}
	}
	return nil, false
}

// root returns the package-level variable that e is or is part of (an
// element, a field, a slice, what it points to), or nil.
func (g *globals) root(e ast.Expr) *global {
	for e != nil {
		switch x := e.(type) {
		case *ast.Ident:
			if v := g.vars[x.Name]; v != nil && g.isPackageLevel(x) {
				return v
			}
			return nil
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
	return nil
}

// violations lists the variables that are state, in declaration order.
func (g *globals) violations() []Violation {
	var out []Violation
	for _, f := range g.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if v := g.vars[n.Name]; v != nil && v.name == n {
						out = append(out, g.judge(v)...)
					}
				}
			}
		}
	}
	return out
}

func (g *globals) judge(v *global) []Violation {
	at := g.fset.Position(v.name.Pos())
	from := at.String() + ": var " + v.name.Name
	var out []Violation
	if v.why != "" {
		out = append(out, Violation{From: from, Why: "package-level state: " + v.why})
	}
	if v.value == nil && !v.given {
		out = append(out, Violation{From: from, Why: "package-level state: left at its zero value, so usable only through its methods or address"})
	}
	for _, w := range v.wrote {
		switch {
		case w.addr && v.readOnly:
		case w.addr:
			out = append(out, Violation{From: from, Why: "package-level state: its address taken at " + w.at.String() +
				", outside init-time code (" + readOnlyDirective + " in its doc comment if only to read it)"})
		default:
			out = append(out, Violation{From: from, Why: "package-level state: changed at " + w.at.String() + ", outside init-time code"})
		}
	}
	return out
}
