package arch

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSimulatorsKeepNoState checks every package under sim/ with
// GlobalState: the simulators are functions of their trace, machine and
// configuration, with no package-level state (docs/ARCHITECTURE.md).
func TestSimulatorsKeepNoState(t *testing.T) {
	root := filepath.Join("..", "..", "sim")
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found %d packages under %s, want the simulators' (more than 10)", len(dirs), root)
	}
	for dir, paths := range dirs {
		fset := token.NewFileSet()
		var files []*ast.File
		for _, p := range paths {
			f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		for _, v := range GlobalState(fset, files) {
			t.Errorf("%s: %s", dir, v)
		}
	}
}

// globalState runs GlobalState on one file of source and returns the
// names of the variables it finds, once each, in order.
func globalState(t *testing.T, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", "package x\n"+src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range GlobalState(fset, []*ast.File{f}) {
		name := v.From[strings.Index(v.From, "var ")+4:]
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

func TestGlobalStateFindsState(t *testing.T) {
	for _, c := range []struct{ name, src string }{
		{"a pool", `import "sync"
var pool sync.Pool
func get() any { return pool.Get() }`},
		{"a renamed atomic", `import at "sync/atomic"
var n at.Int64`},
		{"a mutex in a struct", `import "sync"
var guarded struct { mu sync.Mutex; n int }`},
		{"a channel", `var done = make(chan struct{})`},
		{"a pointer", `type cache struct{ m map[int]int }
var c = &cache{}`},
		{"new", `type cache struct{ m map[int]int }
var c = new(cache)`},
		{"a zero value used by its methods", `import "bytes"
var buf bytes.Buffer
func log(s string) { buf.WriteString(s) }`},
		{"a counter", `var calls int = 0
func call() { calls++ }`},
		{"a memo", `var memo = map[int]int{}
func fib(n int) int { if v, ok := memo[n]; ok { return v }; memo[n] = n; return n }`},
		{"an appended list", `var seen []string
func init() { seen = []string{} }
func see(s string) { seen = append(seen, s) }`},
		{"a field", `var last = struct{ at float64 }{}
func mark(t float64) { last.at = t }`},
		{"an address taken", `var table = [4]int{1, 2, 3, 4}
func p() *int { return &table[1] }`},
		{"read-only but assigned", `//arch:readonly
var table = [4]int{1, 2, 3, 4}
func set() { table[0] = 0 }`},
		{"delete", `var m = map[string]int{"a": 1}
func forget() { delete(m, "a") }`},
		{"clear", `var m = map[string]int{"a": 1}
func forget() { clear(m) }`},
		{"a range assignment", `var last = 0
func f(xs []int) { for _, last = range xs {} }`},
		{"a registry also called later", `var names []string
func register(s string) int { names = append(names, s); return len(names) }
var a = register("a")
func late() int { return register("b") }`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := globalState(t, c.src); len(got) != 1 {
				t.Errorf("found %q, want the one variable that is state in\n%s", got, c.src)
			}
		})
	}
}

func TestGlobalStateAllowsValues(t *testing.T) {
	src := `import (
	"errors"
	"fmt"
	"regexp"
)
type Scanner interface{ Next() }
type reader struct{}
func (*reader) Next() {}
var _ Scanner = (*reader)(nil)
var errShort = errors.New("short")
var errLong = fmt.Errorf("longer than %d", 10)
var word = regexp.MustCompile("[a-z]+")
var names = [3]string{"a", "b", "c"}
var byName = map[string]int{}
func init() {
	for i, n := range names {
		byName[n] = i
	}
}
var plain = func() (t [256]bool) {
	for c := range t { t[c] = c < 128 }
	return t
}()
var (
	keys  []string
	kA    = newKey("a")
	kB    = newKey("b")
)
func newKey(s string) int { keys = append(keys, s); return len(keys) - 1 }
var lineItems = 1 << 15
type spec struct{ cs [4]int; n int }
func (k *spec) counters() []int { return k.cs[:k.n] }
// specs are read through pointers to save copies.
//
//arch:readonly
var specs = [2]spec{{n: 1}, {n: 2}}
func counters(i int) []int { k := &specs[i]; return k.counters() }
func items(n int) int {
	names := []string{}
	names = append(names, "shadowed")
	byName := map[string]int{}
	byName["local"] = 1
	lineItems := n
	lineItems++
	return len(names) + len(byName) + lineItems + len(word.FindString("x")) + len(keys) + kA + kB
}
func lookup(n string) (int, error) {
	if i, ok := byName[n]; ok && plain[n[0]] {
		return i, nil
	}
	return 0, errShort
}
`
	if got := globalState(t, src); len(got) != 0 {
		t.Errorf("found %q, want nothing in\n%s", got, src)
	}
}

// TestGlobalStateAcrossFiles has a variable declared in one file and
// changed in another, which the parser leaves unresolved.
func TestGlobalStateAcrossFiles(t *testing.T) {
	fset := token.NewFileSet()
	dir := t.TempDir()
	var files []*ast.File
	for name, src := range map[string]string{
		"a.go": "package x\nvar count = 0\n",
		"b.go": "package x\nfunc inc() { count++ }\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if got := GlobalState(fset, files); len(got) != 1 || !strings.Contains(got[0].Why, "b.go:2") {
		t.Errorf("got %v, want count changed in b.go:2", got)
	}
}
