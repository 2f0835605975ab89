package arch

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/presage-dvm/presage"

// graph returns the module's packages with their non-test imports and,
// per package, every package it links (go list -deps).
func graph(t *testing.T) (pkgs []Package, deps map[string][]string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .Deps \" \"}}", "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps = map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		p := Package{Path: rel(f[0])}
		for _, imp := range strings.Fields(f[1]) {
			p.Imports = append(p.Imports, rel(imp))
		}
		pkgs = append(pkgs, p)
		deps[p.Path] = strings.Fields(f[2])
	}
	return pkgs, deps
}

func rel(p string) string {
	if p == module {
		return "."
	}
	if r, ok := strings.CutPrefix(p, module+"/"); ok {
		return r
	}
	return p
}

// kinds returns what tells the module's packages (those pkgs lists,
// module-relative) from the others, and the standard library's (no dot
// in their first element) from third-party modules.
func kinds(pkgs []Package) (inModule, std func(string) bool) {
	own := map[string]bool{}
	for _, p := range pkgs {
		own[p.Path] = true
	}
	inModule = func(p string) bool { return own[p] }
	std = func(p string) bool {
		first, _, _ := strings.Cut(p, "/")
		return !own[p] && !strings.Contains(first, ".")
	}
	return inModule, std
}

func rules(t *testing.T) *Rules {
	t.Helper()
	md, err := os.ReadFile(filepath.Join("..", "..", "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ParseRules(md)
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md: %v", err)
	}
	return r
}

func testSupport(r *Rules) func(string) bool {
	return func(p string) bool {
		l, ok := r.LayerOf(p)
		return ok && l.Name == "test support"
	}
}

// noLibraryImports returns what tells the packages of the layers no
// library imports (docs/ARCHITECTURE.md): the cluster runtime, the
// examples and the test support, which live under orders/ beside the
// library they use and import the simulators. The folder check leaves
// them out: a folder cycle through them is no layering of libraries.
func noLibraryImports(r *Rules) func(string) bool {
	return func(p string) bool {
		l, ok := r.LayerOf(p)
		return ok && slices.Contains([]string{"cluster runtime", "examples", "test support"}, l.Name)
	}
}

// TestArchitecture checks the module against docs/ARCHITECTURE.md: every
// package in one layer, every import allowed, test support imported by
// tests only, no cycle between top-level folders, and no SQLite linked
// below the store.
func TestArchitecture(t *testing.T) {
	r := rules(t)
	pkgs, deps := graph(t)
	modulePackage, std := kinds(pkgs)
	for _, v := range r.Check(pkgs, modulePackage, std) {
		t.Error(v)
	}
	support := testSupport(r)
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if modulePackage(imp) && support(imp) && !support(p.Path) {
				t.Errorf("%s imports %s, which tests only may import", p.Path, imp)
			}
		}
	}
	for _, c := range FolderCycles(pkgs, modulePackage, noLibraryImports(r)) {
		t.Errorf("folder cycle %s", strings.Join(c, " → "))
	}
	for _, p := range pkgs {
		l, _ := r.LayerOf(p.Path)
		if l == nil || slices.Contains([]string{"command line", "orchestration", "store", "test support"}, l.Name) {
			continue
		}
		if slices.Contains(deps[p.Path], "modernc.org/sqlite") {
			t.Errorf("%s (layer %q) links SQLite", p.Path, l.Name)
		}
	}
}

// TestLibraryLinksNoNetworkOrSimulator checks what a program that
// imports orders links (go list -deps): no NATS (a run in worker
// processes is orders/cluster's, which a program imports to get it) and
// no package under sim/ (the simulator's model, its arenas): the
// library's formats and placement rules are orders/tracefile's and
// orders/ordersched's, which the simulator imports.
func TestLibraryLinksNoNetworkOrSimulator(t *testing.T) {
	_, deps := graph(t)
	linked, ok := deps["orders"]
	if !ok {
		t.Fatal("no package orders in go list ./...")
	}
	var wrong []string
	for _, d := range linked {
		if strings.HasPrefix(d, "github.com/nats-io/") || strings.HasPrefix(rel(d), "sim/") {
			wrong = append(wrong, rel(d))
		}
	}
	if len(wrong) > 0 {
		t.Errorf("orders links %d packages of NATS or the simulator: %s", len(wrong), strings.Join(wrong, ", "))
	}
	if !slices.Contains(linked, module+"/orders/tracefile") {
		t.Errorf("orders does not link orders/tracefile: is this the go list of the library? %v", linked)
	}
}

// TestCheckFindsWrongImports adds forbidden imports to the module's real
// graph and checks that each is found: a renderer importing the store, the
// model importing a simulator, a third-party module in the model, a
// package in no layer, and a cycle of folders (a model package under
// orders importing one under sim, which imports orders/tracefile).
func TestCheckFindsWrongImports(t *testing.T) {
	r := rules(t)
	pkgs, _ := graph(t)
	add := func(from, imp string) {
		for i := range pkgs {
			if pkgs[i].Path == from {
				pkgs[i].Imports = append(pkgs[i].Imports, imp)
				return
			}
		}
		t.Fatalf("no package %s", from)
	}
	add("exports/htmlreport", "schema/store")
	add("sim/result", "sim/engine")
	add("sim/trace", "github.com/klauspost/compress/gzip")
	add("orders/measured", "sim/machine")
	pkgs = append(pkgs, Package{Path: "sim/nowhere"})
	modulePackage, std := kinds(pkgs)
	var got []string
	for _, v := range r.Check(pkgs, modulePackage, std) {
		got = append(got, v.String())
	}
	for _, want := range []string{
		`exports/htmlreport imports schema/store: layer "renderers" may not import layer "store"`,
		`sim/result imports sim/engine: layer "model" may not import layer "simulators"`,
		`sim/trace imports github.com/klauspost/compress/gzip: layer "model" imports the standard library only`,
		`sim/nowhere: in no layer of the table`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("not found: %s\nfound: %q", want, got)
		}
	}
	cycles := FolderCycles(pkgs, modulePackage, noLibraryImports(r))
	if len(cycles) == 0 || !slices.ContainsFunc(cycles, func(c []string) bool { return slices.Equal(c, []string{"orders", "sim", "orders"}) }) {
		t.Errorf("the cycle orders → sim → orders not found: %v", cycles)
	}
}

// TestParseRules reads a small table: patterns, the most specific match,
// the special tokens, and a row naming an unknown layer.
func TestParseRules(t *testing.T) {
	md := "# x\n\n| layer | packages | may import |\n|---|---|---|\n" +
		"| top | `a` | `low`, `itself` |\n" +
		"| low | `b/...` | `standard library` |\n" +
		"| tests | `b/t` | `anything` |\n\nafter\n"
	r, err := ParseRules([]byte(md))
	if err != nil {
		t.Fatal(err)
	}
	for pkg, want := range map[string]string{"a": "top", "b": "low", "b/c/d": "low", "b/t": "tests"} {
		if l, ok := r.LayerOf(pkg); !ok || l.Name != want {
			t.Errorf("LayerOf(%s) = %v, want %s", pkg, l, want)
		}
	}
	if l, _ := r.LayerOf("b"); !l.StdOnly {
		t.Error("low: standard library only not read")
	}
	if _, ok := r.LayerOf("c"); ok {
		t.Error("c is in no layer")
	}
	bad := strings.Replace(md, "`low`, `itself`", "`lower`", 1)
	if _, err := ParseRules([]byte(bad)); err == nil || !strings.Contains(err.Error(), `"lower"`) {
		t.Errorf("unknown layer: %v", err)
	}
}

// withTests returns the module's packages with their imports, their
// tests' included: Go's internal/ rule holds for test files too.
func withTests(t *testing.T) []Package {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "./...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []Package
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, imports, _ := strings.Cut(line, "|")
		p := Package{Path: rel(path)}
		for _, imp := range strings.Fields(imports) {
			p.Imports = append(p.Imports, rel(imp))
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestOnlyAPIIsPublic checks that a package imported only from its own
// top-level folder (tests included) sits under that folder's internal/
// (docs/ARCHITECTURE.md):
// outside the library's API, the commands, the examples and the test
// support, what no other folder needs no other module may import.
func TestOnlyAPIIsPublic(t *testing.T) {
	r := rules(t)
	pkgs := withTests(t)
	inModule, _ := kinds(pkgs)
	keep := func(p string) bool {
		if p == "schema" { // the migrations' folder, by the house rule that names it
			return true
		}
		l, ok := r.LayerOf(p)
		return ok && slices.Contains([]string{"command line", "user library", "cluster runtime", "examples", "test support"}, l.Name)
	}
	for _, p := range Unhidden(pkgs, inModule, keep) {
		t.Errorf("%s is imported only from %s/: move it under %s/internal/", p, topFolder(p), topFolder(p))
	}
	hidden := Unhidden([]Package{{Path: "sim/a", Imports: []string{"sim/b"}}, {Path: "sim/b"}, {Path: "cmd/x", Imports: []string{"sim/a"}}},
		func(string) bool { return true }, func(string) bool { return false })
	if !slices.Equal(hidden, []string{"sim/b"}) {
		t.Errorf("Unhidden on sim/a (imported by cmd/x), sim/b (by sim/a): %v, want [sim/b]", hidden)
	}
}
