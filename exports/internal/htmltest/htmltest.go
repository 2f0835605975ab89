// Package htmltest parses the HTML pages of the exports (the run report, the
// comparison, the sweep report) for their tests, and finds elements and
// text in them. Only tests import it.
//
// The pages are written to be well-formed XML as well as HTML5 (void
// elements closed, attributes quoted, no named entities), so a strict XML
// parse checks that every element is closed and nested properly and that
// text is escaped.
package htmltest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
)

// Node is a node of a parsed page: an element, or a text node (Name "").
type Node struct {
	Name string // element name, "" for a text node
	Attr map[string]string
	Kids []*Node
	Data string // a text node's text
}

// Decode parses page as strict XML into a tree under a "#document" node.
func Decode(page []byte) (*Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	root := &Node{Name: "#document"}
	stack := []*Node{root}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &Node{Name: tok.Name.Local, Attr: map[string]string{}}
			for _, a := range tok.Attr {
				e.Attr[a.Name.Local] = a.Value
			}
			top.Kids = append(top.Kids, e)
			stack = append(stack, e)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			top.Kids = append(top.Kids, &Node{Data: string(tok)})
		}
	}
	if len(stack) != 1 {
		return nil, fmt.Errorf("%d elements left open", len(stack)-1)
	}
	return root, nil
}

// Parse is Decode for a test: a page that is not well-formed fails it.
func Parse(t testing.TB, page []byte) *Node {
	t.Helper()
	doc, err := Decode(page)
	if err != nil {
		t.Fatalf("page is not well-formed: %v", err)
	}
	return doc
}

// Text returns the text of n and its descendants with white space
// collapsed.
func (n *Node) Text() string {
	var b strings.Builder
	var walk func(*Node)
	walk = func(n *Node) {
		b.WriteString(n.Data)
		for _, k := range n.Kids {
			walk(k)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// OwnText returns the text of n's direct text children (not of nested
// elements such as tooltips), trimmed.
func (n *Node) OwnText() string {
	var b strings.Builder
	for _, k := range n.Kids {
		if k.Name == "" {
			b.WriteString(k.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// All returns the descendant elements matching ok, in document order.
func (n *Node) All(ok func(*Node) bool) []*Node {
	var out []*Node
	for _, k := range n.Kids {
		if k.Name != "" && ok(k) {
			out = append(out, k)
		}
		out = append(out, k.All(ok)...)
	}
	return out
}

// First returns the first descendant element matching ok, or fails the
// test saying what was missing.
func (n *Node) First(t testing.TB, what string, ok func(*Node) bool) *Node {
	t.Helper()
	found := n.All(ok)
	if len(found) == 0 {
		t.Fatalf("no %s in the page", what)
	}
	return found[0]
}

// Cells returns the texts of the cells (th and td) of a table row.
func (n *Node) Cells() []string {
	var row []string
	for _, c := range n.Kids {
		if c.Name == "th" || c.Name == "td" {
			row = append(row, c.Text())
		}
	}
	return row
}

// Rows returns the cells of each row (tr) of a table.
func (n *Node) Rows() [][]string {
	var rows [][]string
	for _, tr := range n.All(Named("tr")) {
		rows = append(rows, tr.Cells())
	}
	return rows
}

// Named matches elements called name.
func Named(name string) func(*Node) bool { return func(n *Node) bool { return n.Name == name } }

// WithID matches the element with that id.
func WithID(id string) func(*Node) bool { return func(n *Node) bool { return n.Attr["id"] == id } }

// WithClass matches elements that have class c among their classes.
func WithClass(c string) func(*Node) bool {
	return func(n *Node) bool {
		for _, f := range strings.Fields(n.Attr["class"]) {
			if f == c {
				return true
			}
		}
		return false
	}
}
