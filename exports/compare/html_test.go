package compare

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// elem is a node of a parsed page: an element, or a text node (Name "").
type elem struct {
	Name string
	Attr map[string]string
	Kids []*elem
	Text string
}

// parsePage parses the page as strict XML: it is written to be well-formed
// XML as well as HTML5, as the run reports are, so every element must be
// closed and nested properly.
func parsePage(t *testing.T, b []byte) *elem {
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
			t.Fatalf("page is not well-formed: %v", err)
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
		t.Fatalf("page is not well-formed: %d elements left open", len(stack)-1)
	}
	return root
}

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

// cells returns the texts of a row's cells separated by one space.
func (e *elem) cells() string {
	var out []string
	for _, c := range e.all(func(e *elem) bool { return e.Name == "th" || e.Name == "td" }) {
		out = append(out, c.text())
	}
	return strings.TrimSpace(strings.Join(out, " "))
}

func named(n string) func(*elem) bool { return func(e *elem) bool { return e.Name == n } }

func renderHTML(t *testing.T, c *Comparison) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, c); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWriteHTML(t *testing.T) {
	m := jacMeasured(8, 2, 0, 4, 2)
	m.Config.Grid = []int{4}
	p := jacPredicted(10, 1, 1, 3, 2)
	p.Intervals[2].Line = 11 // Par 10 unmatched on both sides
	c, err := Compare(m, p)
	if err != nil {
		t.Fatal(err)
	}
	page := renderHTML(t, c)
	doc := parsePage(t, page)
	if n := len(doc.all(named("script"))); n != 0 || bytes.Contains(page, []byte("<link")) {
		t.Errorf("page is not self-contained: %d scripts", n)
	}
	if n := len(doc.all(named("style"))); n != 1 {
		t.Errorf("%d style elements, want the inline one", n)
	}
	sections := doc.all(withClass("interval"))
	if len(sections) != len(c.Matches) || len(c.Matches) != 4 {
		t.Fatalf("%d interval sections for %d matches", len(sections), len(c.Matches))
	}
	ids := map[string]bool{}
	for _, e := range doc.all(func(e *elem) bool { return e.Attr["id"] != "" }) {
		if ids[e.Attr["id"]] {
			t.Errorf("id %q used twice", e.Attr["id"])
		}
		ids[e.Attr["id"]] = true
	}
	for _, a := range doc.all(named("a")) {
		if !ids[strings.TrimPrefix(a.Attr["href"], "#")] {
			t.Errorf("link %q goes nowhere", a.Attr["href"])
		}
	}
	// The overview: one row per match, bars scaled to the larger time.
	rows := doc.all(withClass("overview"))[0].all(named("tr"))[1:]
	if len(rows) != 4 {
		t.Fatalf("%d overview rows, want 4", len(rows))
	}
	wantRows := []struct{ text, meas, pred string }{
		{"Seq jac.fdv:8 root 8.000000 10.000000 +25.0%", "width: 80.0%", "width: 100.0%"},
		{"Seq jac.fdv:22 path 0.000000 1.000000 -", "width: 0.0%", "width: 100.0%"},
		{"Par jac.fdv:24 path 4.000000 3.000000 -25.0%", "width: 100.0%", "width: 75.0%"},
	}
	for i, w := range wantRows {
		if got := rows[i].cells(); got != w.text {
			t.Errorf("overview row %d: %q, want %q", i, got, w.text)
		}
		bars := rows[i].all(withClass("pair"))[0].all(named("span"))
		// pair > meas > bar, pair > pred > bar
		if len(bars) != 4 || bars[1].Attr["style"] != w.meas || bars[3].Attr["style"] != w.pred {
			t.Errorf("overview row %d bars %v %v, want %q %q", i, bars[1].Attr, bars[3].Attr, w.meas, w.pred)
		}
	}
	// The root section names the measured interval it stands for.
	if h := sections[0].all(named("h2"))[0].text(); !strings.Contains(h, "measured interval 1 (Main jac.fdv:8)") {
		t.Errorf("root heading %q", h)
	}
	first := sections[0].all(named("tbody"))[0].all(named("tr"))
	if len(first) != len(Chars) || first[1].cells() != "Execution_time 8.000000 10.000000 +2.000000 +25.0%" {
		t.Errorf("root table: %d rows, execution time %q", len(first), first[1].cells())
	}
	if cell := first[1].all(named("td"))[3]; !withClass("fair")(cell) {
		t.Errorf("25%% error is not graded fair: %v", cell.Attr)
	}
	lists := doc.all(withClass("unmatched"))
	if len(lists) != 3 || !strings.HasPrefix(lists[0].text(), "Unmatched measured intervals") ||
		lists[1].all(named("tr"))[1].cells() != "Par jac.fdv 11 - 3 2 1 1.000000" {
		for _, l := range lists {
			t.Log(l.text())
		}
		t.Errorf("%d unmatched lists", len(lists))
	}
	warn := doc.all(withClass("warnings"))
	if len(warn) != 1 || !strings.Contains(warn[0].text(), "processor grids differ: measured 4, predicted 2x2") {
		t.Errorf("warnings box missing")
	}
	facts := map[string]string{}
	for _, d := range doc.all(withClass("facts"))[0].all(named("div")) {
		facts[d.all(named("dt"))[0].text()] = d.all(named("dd"))[0].text()
	}
	for k, v := range map[string]string{
		"Measured":            "unsaved run · prog · 4",
		"Matched intervals":   "4",
		"Unmatched measured":  "1",
		"Unmatched predicted": "1",
		"Execution time MAPE": "16.7% over 3 intervals",
	} {
		if facts[k] != v {
			t.Errorf("summary %s: %q, want %q", k, facts[k], v)
		}
	}
}

// TestWriteHTMLEscapes: names from the files are text, never markup.
func TestWriteHTMLEscapes(t *testing.T) {
	m, p := jacMeasured(1, 1, 1, 1, 1), jacPredicted(1, 1, 1, 1, 1)
	for _, iv := range append(m.Intervals, p.Intervals...) {
		iv.File = `<i>"x&y".fdv`
	}
	p.Program = "<script>alert(1)</script>"
	c, err := Compare(m, p)
	if err != nil {
		t.Fatal(err)
	}
	page := renderHTML(t, c)
	doc := parsePage(t, page)
	if n, m := len(doc.all(named("script"))), len(doc.all(named("i"))); n != 0 || m != 0 {
		t.Errorf("file or program names became markup: %d script, %d i elements", n, m)
	}
	if h := doc.all(named("h1"))[0].text(); h != "<script>alert(1)</script>" {
		t.Errorf("heading %q", h)
	}
	row := doc.all(withClass("overview"))[0].all(named("tr"))[1]
	if got := row.all(named("th"))[0].text(); got != `Seq <i>"x&y".fdv:8` {
		t.Errorf("overview label %q", got)
	}
}
