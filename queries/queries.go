// Package queries owns the named SQL queries over the store: one .sql file
// each, embedded, with a header comment block that names and describes the
// query and declares its parameters:
//
//	-- name: top_lost
//	-- description: The intervals of a run that lose the most time ...
//	--   (continued on indented comment lines)
//	-- param: run int = 0 : run id; 0 for the latest run
//	-- param: run_a int : first run id (no default: required)
//
// Parameters are bound by name (:run) with defaults filled in and values
// given as strings (from a command line) converted to the declared type.
// The store runs them (store.Query); this package only holds and binds
// them.
package queries

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed *.sql
var files embed.FS

// Type is the type of a parameter.
type Type string

const (
	Int   Type = "int"
	Float Type = "float"
	Text  Type = "text"
)

// Param is a parameter of a query.
type Param struct {
	Name        string
	Type        Type
	Default     any // int64, float64 or string; nil when Required
	Required    bool
	Description string
}

// Query is a named query.
type Query struct {
	Name        string
	Description string
	Params      []Param
	SQL         string // the whole file, header included
	File        string
}

// all are the embedded queries, parsed at their first use, not when the
// program starts: most commands run none.
var all = sync.OnceValue(mustLoad)

func mustLoad() []Query {
	qs, err := load(files)
	if err != nil {
		panic(err) // the embedded files are part of the build: a test covers them
	}
	return qs
}

func load(fsys fs.FS) ([]Query, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var qs []Query
	seen := map[string]string{}
	for _, n := range names {
		text, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, err
		}
		q, err := Parse(n, string(text))
		if err != nil {
			return nil, err
		}
		if prev, ok := seen[q.Name]; ok {
			return nil, fmt.Errorf("%s: query %s already defined in %s", n, q.Name, prev)
		}
		seen[q.Name] = n
		qs = append(qs, q)
	}
	sort.Slice(qs, func(i, j int) bool { return qs[i].Name < qs[j].Name })
	return qs, nil
}

// List returns the named queries, sorted by name.
func List() []Query { return append([]Query(nil), all()...) }

// Get finds a named query.
func Get(name string) (Query, error) {
	for _, q := range all() {
		if q.Name == name {
			return q, nil
		}
	}
	var names []string
	for _, q := range all() {
		names = append(names, q.Name)
	}
	return Query{}, fmt.Errorf("no query named %q (have %s)", name, strings.Join(names, ", "))
}

// Parse reads a query file: its header block (the leading comment lines)
// and its SQL.
func Parse(file, text string) (Query, error) {
	q := Query{SQL: text, File: file}
	var last *string // the field an indented continuation line extends
	for n, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "--") {
			break
		}
		body := strings.TrimPrefix(line, "--")
		if strings.HasPrefix(body, "   ") && last != nil {
			*last += " " + strings.TrimSpace(body)
			continue
		}
		key, val, ok := strings.Cut(strings.TrimSpace(body), ":")
		if !ok {
			last = nil
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "name":
			q.Name, last = val, nil
		case "description":
			q.Description = val
			last = &q.Description
		case "param":
			p, err := parseParam(val)
			if err != nil {
				return q, fmt.Errorf("%s:%d: %w", file, n+1, err)
			}
			q.Params = append(q.Params, p)
			last = &q.Params[len(q.Params)-1].Description
		default:
			last = nil
		}
	}
	if q.Name == "" || q.Description == "" {
		return q, fmt.Errorf("%s: header lacks '-- name:' or '-- description:'", file)
	}
	return q, nil
}

// parseParam reads "NAME TYPE [= DEFAULT] [: DESCRIPTION]".
func parseParam(s string) (Param, error) {
	var p Param
	decl, desc, _ := strings.Cut(s, " : ")
	p.Description = strings.TrimSpace(desc)
	decl, def, hasDefault := strings.Cut(decl, "=")
	f := strings.Fields(decl)
	if len(f) != 2 {
		return p, fmt.Errorf("param %q: expected 'NAME TYPE [= DEFAULT] [: description]'", s)
	}
	p.Name, p.Type = f[0], Type(f[1])
	if p.Type != Int && p.Type != Float && p.Type != Text {
		return p, fmt.Errorf("param %s: type %q, expected int, float or text", p.Name, f[1])
	}
	if !hasDefault {
		p.Required = true
		return p, nil
	}
	def = strings.TrimSpace(def)
	if p.Type == Text {
		if len(def) < 2 || def[0] != '\'' || def[len(def)-1] != '\'' {
			return p, fmt.Errorf("param %s: text default %s, expected a quoted string such as ''", p.Name, def)
		}
		p.Default = strings.ReplaceAll(def[1:len(def)-1], "''", "'")
		return p, nil
	}
	v, err := p.convert(def)
	if err != nil {
		return p, err
	}
	p.Default = v
	return p, nil
}

// convert turns a given value into the parameter's type.
func (p Param) convert(v any) (any, error) {
	switch x := v.(type) {
	case string:
		switch p.Type {
		case Int:
			n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
			if err != nil {
				return nil, fmt.Errorf("param %s: %q is not an integer", p.Name, x)
			}
			return n, nil
		case Float:
			f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
			if err != nil {
				return nil, fmt.Errorf("param %s: %q is not a number", p.Name, x)
			}
			return f, nil
		}
		return x, nil
	case int:
		return p.number(int64(x), float64(x))
	case int64:
		return p.number(x, float64(x))
	case float64:
		if p.Type == Int && x != float64(int64(x)) {
			return nil, fmt.Errorf("param %s: %v is not an integer", p.Name, x)
		}
		return p.number(int64(x), x)
	}
	return nil, fmt.Errorf("param %s: unsupported value %v (%T)", p.Name, v, v)
}

func (p Param) number(i int64, f float64) (any, error) {
	switch p.Type {
	case Int:
		return i, nil
	case Float:
		return f, nil
	}
	return nil, fmt.Errorf("param %s: text expected, got a number", p.Name)
}

// Args binds given values (by parameter name) and the defaults of the
// others, by name (store.Query's parameters). Unknown names and missing
// required parameters are errors.
func (q Query) Args(given map[string]any) (map[string]any, error) {
	known := map[string]bool{}
	args := map[string]any{}
	for _, p := range q.Params {
		known[p.Name] = true
		v, ok := given[p.Name]
		if !ok {
			if p.Required {
				return nil, fmt.Errorf("query %s: parameter %s is required (%s)", q.Name, p.Name, p.Description)
			}
			args[p.Name] = p.Default
			continue
		}
		cv, err := p.convert(v)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", q.Name, err)
		}
		args[p.Name] = cv
	}
	for name := range given {
		if !known[name] {
			return nil, fmt.Errorf("query %s: no parameter %s", q.Name, name)
		}
	}
	return args, nil
}

// Describe formats the query's name, description and parameters for a
// person.
func (q Query) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", q.Name, q.Description)
	for _, p := range q.Params {
		def := "required"
		if !p.Required {
			def = fmt.Sprintf("default %v", p.Default)
			if s, ok := p.Default.(string); ok {
				def = "default " + strconv.Quote(s)
			}
		}
		fmt.Fprintf(&b, "  :%s %s (%s) %s\n", p.Name, p.Type, def, p.Description)
	}
	return b.String()
}
