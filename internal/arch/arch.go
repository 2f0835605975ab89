// Package arch checks the import rule of docs/ARCHITECTURE.md: its Layers
// table assigns every package of the module to one layer and says which
// layers each may import. ParseRules reads the table, Check compares a
// package graph (from go list) with it, and FolderCycles finds import
// cycles between the module's top-level folders. GlobalState finds the
// package-level variables of a package that are state, which no simulator
// may keep. The package's tests run them on the module itself, so a change
// that breaks a rule fails.
package arch

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Special tokens of the table's "may import" cells.
const (
	itself   = "itself"           // the row's own packages
	anything = "anything"         // every layer (test support)
	stdOnly  = "standard library" // no third-party module outside the row
)

// Layer is one row of the table.
type Layer struct {
	Name     string
	Packages []string // module-relative paths; "dir/..." covers dir and below
	MayUse   []string // layer names; itself, anything
	StdOnly  bool     // third-party modules are forbidden
}

// Rules are the rows of the table in order.
type Rules struct{ Layers []Layer }

var tick = regexp.MustCompile("`([^`]+)`")

// ParseRules reads the table that starts with the header
// "| layer | packages | may import |" in markdown.
func ParseRules(markdown []byte) (*Rules, error) {
	sc := bufio.NewScanner(bytes.NewReader(markdown))
	in, line := false, 0
	r := &Rules{}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		cells := splitRow(text)
		if !in {
			in = len(cells) == 3 && cells[0] == "layer" && cells[1] == "packages" && cells[2] == "may import"
			continue
		}
		if cells == nil {
			break // the table ended
		}
		if strings.Trim(cells[0], "-: ") == "" {
			continue // the separator row
		}
		if len(cells) != 3 {
			return nil, fmt.Errorf("line %d: %d cells, want 3", line, len(cells))
		}
		l := Layer{Name: cells[0]}
		for _, m := range tick.FindAllStringSubmatch(cells[1], -1) {
			l.Packages = append(l.Packages, m[1])
		}
		for _, m := range tick.FindAllStringSubmatch(cells[2], -1) {
			if m[1] == stdOnly {
				l.StdOnly = true
				continue
			}
			l.MayUse = append(l.MayUse, m[1])
		}
		if len(l.Packages) == 0 {
			return nil, fmt.Errorf("line %d: layer %q names no package", line, l.Name)
		}
		r.Layers = append(r.Layers, l)
	}
	if len(r.Layers) == 0 {
		return nil, fmt.Errorf("no layer table (a header | layer | packages | may import |)")
	}
	names := map[string]bool{itself: true, anything: true}
	for _, l := range r.Layers {
		names[l.Name] = true
	}
	for _, l := range r.Layers {
		for _, u := range l.MayUse {
			if !names[u] {
				return nil, fmt.Errorf("layer %q may import %q, which is no layer", l.Name, u)
			}
		}
	}
	return r, nil
}

// splitRow returns the trimmed cells of a markdown table row, or nil for a
// line that is not one.
func splitRow(s string) []string {
	if !strings.HasPrefix(s, "|") || !strings.HasSuffix(s, "|") || len(s) < 2 {
		return nil
	}
	cells := strings.Split(s[1:len(s)-1], "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// LayerOf returns the layer of a module-relative package path: the row
// whose pattern matches it most specifically.
func (r *Rules) LayerOf(pkg string) (*Layer, bool) {
	var best *Layer
	bestLen := -1
	for i := range r.Layers {
		for _, p := range r.Layers[i].Packages {
			if n, ok := match(p, pkg); ok && n > bestLen {
				best, bestLen = &r.Layers[i], n
			}
		}
	}
	return best, best != nil
}

// match reports whether pattern covers pkg, and how specific it is.
func match(pattern, pkg string) (int, bool) {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return len(dir), pkg == dir || strings.HasPrefix(pkg, dir+"/")
	}
	return len(pattern) + 1, pattern == pkg // an exact name beats a pattern of the same folder
}

// Package is one package of the graph: its module-relative path and its
// imports (module-relative for the module's packages, full for others).
type Package struct {
	Path    string
	Imports []string
}

// Violation is an import the table does not allow, or a package it does
// not place.
type Violation struct {
	From, To string
	Why      string
}

func (v Violation) String() string {
	if v.To == "" {
		return fmt.Sprintf("%s: %s", v.From, v.Why)
	}
	return fmt.Sprintf("%s imports %s: %s", v.From, v.To, v.Why)
}

// Check returns every import of pkgs that the rules forbid, and every
// package they do not place. inModule tells the module's own packages
// from the others; std tells the standard library's.
func (r *Rules) Check(pkgs []Package, inModule, std func(string) bool) []Violation {
	var out []Violation
	for _, p := range pkgs {
		from, ok := r.LayerOf(p.Path)
		if !ok {
			out = append(out, Violation{From: p.Path, Why: "in no layer of the table"})
			continue
		}
		for _, imp := range p.Imports {
			if !inModule(imp) {
				if from.StdOnly && !std(imp) {
					out = append(out, Violation{From: p.Path, To: imp, Why: fmt.Sprintf("layer %q imports the standard library only", from.Name)})
				}
				continue
			}
			to, ok := r.LayerOf(imp)
			if !ok {
				continue // reported as the package itself
			}
			if !from.allows(to) {
				out = append(out, Violation{From: p.Path, To: imp, Why: fmt.Sprintf("layer %q may not import layer %q", from.Name, to.Name)})
			}
		}
	}
	return out
}

func (l *Layer) allows(to *Layer) bool {
	if l == to {
		return slices.Contains(l.MayUse, itself) || slices.Contains(l.MayUse, anything)
	}
	return slices.Contains(l.MayUse, to.Name) || slices.Contains(l.MayUse, anything)
}

// FolderCycles returns the import cycles between the top-level folders of
// the module's packages (a folder importing itself is no cycle), each as
// the folders in order, the first repeated at the end; skip leaves
// packages out (test support).
func FolderCycles(pkgs []Package, inModule func(string) bool, skip func(string) bool) [][]string {
	edges := map[string]map[string]bool{}
	top := func(p string) string { f, _, _ := strings.Cut(p, "/"); return f }
	for _, p := range pkgs {
		if skip(p.Path) {
			continue
		}
		from := top(p.Path)
		for _, imp := range p.Imports {
			if !inModule(imp) || skip(imp) || top(imp) == from {
				continue
			}
			if edges[from] == nil {
				edges[from] = map[string]bool{}
			}
			edges[from][top(imp)] = true
		}
	}
	var folders []string
	for f := range edges {
		folders = append(folders, f)
	}
	slices.Sort(folders)
	var cycles [][]string
	seen := map[string]bool{}
	for _, start := range folders {
		// A cycle is reported once, from its smallest folder.
		var path []string
		var walk func(f string)
		walk = func(f string) {
			path = append(path, f)
			next := make([]string, 0, len(edges[f]))
			for n := range edges[f] {
				next = append(next, n)
			}
			slices.Sort(next)
			for _, n := range next {
				switch {
				case n == start:
					c := append(append([]string(nil), path...), start)
					if key := strings.Join(c, ">"); !seen[key] {
						seen[key] = true
						cycles = append(cycles, c)
					}
				case n > start && !slices.Contains(path, n):
					walk(n)
				}
			}
			path = path[:len(path)-1]
		}
		walk(start)
	}
	return cycles
}

// Unhidden are the packages that should sit under an internal/ folder and
// do not: imported (by the imports pkgs lists: give tests' too) only from
// their own top-level folder, so that nothing outside it needs them, yet importable by any
// module. keep tells the packages that stay where they are whatever their
// importers (the library's API, the commands, the examples, the test
// support). A package nothing imports is left alone: it is a command or
// an API of its own.
func Unhidden(pkgs []Package, inModule, keep func(string) bool) []string {
	importers := map[string][]string{}
	for _, p := range pkgs {
		for _, imp := range p.Imports {
			if inModule(imp) && imp != p.Path {
				importers[imp] = append(importers[imp], p.Path)
			}
		}
	}
	var out []string
	for _, p := range pkgs {
		by := importers[p.Path]
		if len(by) == 0 || keep(p.Path) || slices.Contains(strings.Split(p.Path, "/"), "internal") {
			continue
		}
		top := topFolder(p.Path)
		if !slices.ContainsFunc(by, func(q string) bool { return topFolder(q) != top }) {
			out = append(out, p.Path)
		}
	}
	return out
}

func topFolder(p string) string {
	first, _, _ := strings.Cut(p, "/")
	return first
}
