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
	for _, c := range FolderCycles(pkgs, modulePackage, support) {
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

// TestCheckFindsWrongImports adds forbidden imports to the module's real
// graph and checks that each is found: a renderer importing the store, the
// model importing a simulator, a third-party module in the model, a
// package in no layer, and a cycle of folders.
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
	add("sim/ordertrace", "orders")
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
	cycles := FolderCycles(pkgs, modulePackage, testSupport(r))
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
