package htmlreport

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// elem is a node of a parsed report: an element, or a text node (Name "").
type elem struct {
	Name string
	Attr map[string]string
	Kids []*elem
	Text string
}

// parseDoc parses a report as XML. The reports are written to be
// well-formed XML as well as HTML5 (void elements closed, attributes
// quoted, no named entities), so a strict XML parse checks that every
// element is closed and nested properly.
func parseDoc(t *testing.T, b []byte) *elem {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	root := &elem{Name: "#document"}
	stack := []*elem{root}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("report is not well-formed: %v", err)
		}
		top := stack[len(stack)-1]
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &elem{Name: tok.Name.Local, Attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.Attr[a.Name.Local] = a.Value
			}
			top.Kids = append(top.Kids, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.Kids = append(top.Kids, &elem{Text: string(tok)})
		}
	}
	if len(stack) != 1 {
		t.Fatalf("report is not well-formed: %d elements left open", len(stack)-1)
	}
	return root
}

// text returns the element's text with white space collapsed.
func (e *elem) text() string {
	var b strings.Builder
	var walk func(*elem)
	walk = func(e *elem) {
		b.WriteString(e.Text)
		for _, k := range e.Kids {
			walk(k)
		}
	}
	walk(e)
	return strings.Join(strings.Fields(b.String()), " ")
}

// all returns the descendants matching ok, in document order.
func (e *elem) all(ok func(*elem) bool) []*elem {
	var out []*elem
	for _, k := range e.Kids {
		if k.Name != "" && ok(k) {
			out = append(out, k)
		}
		out = append(out, k.all(ok)...)
	}
	return out
}

// first returns the first descendant matching ok, or fails.
func (e *elem) first(t *testing.T, what string, ok func(*elem) bool) *elem {
	t.Helper()
	found := e.all(ok)
	if len(found) == 0 {
		t.Fatalf("no %s in the report", what)
	}
	return found[0]
}

func named(name string) func(*elem) bool { return func(e *elem) bool { return e.Name == name } }

func withID(id string) func(*elem) bool { return func(e *elem) bool { return e.Attr["id"] == id } }

func withClass(c string) func(*elem) bool {
	return func(e *elem) bool {
		for _, f := range strings.Fields(e.Attr["class"]) {
			if f == c {
				return true
			}
		}
		return false
	}
}

// cells returns the text of the cells (th and td) of each row of a table.
func cells(table *elem) [][]string {
	var rows [][]string
	for _, tr := range table.all(named("tr")) {
		var row []string
		for _, c := range tr.Kids {
			if c.Name == "th" || c.Name == "td" {
				row = append(row, c.text())
			}
		}
		rows = append(rows, row)
	}
	return rows
}
