package comparereport

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/exports/internal/htmltest"
	"github.com/presage-dvm/presage/internal/comparetest"
	"github.com/presage-dvm/presage/sim/compare"
)

// rowText returns the texts of a row's cells separated by one space.
func rowText(tr *htmltest.Node) string {
	return strings.TrimSpace(strings.Join(tr.Cells(), " "))
}

func TestWriteHTML(t *testing.T) {
	m := comparetest.JacMeasured(8, 2, 0, 4, 2)
	m.Config.Grid = []int{4}
	p := comparetest.JacPredicted(10, 1, 1, 3, 2)
	p.Intervals[2].Line = 11 // Par 10 unmatched on both sides
	c := comparetest.MustForce(t, m, p)
	page := render(t, c, WriteHTML)
	doc := htmltest.Parse(t, page)
	if n := len(doc.All(htmltest.Named("script"))); n != 0 || bytes.Contains(page, []byte("<link")) {
		t.Errorf("page is not self-contained: %d scripts", n)
	}
	if n := len(doc.All(htmltest.Named("style"))); n != 1 {
		t.Errorf("%d style elements, want the inline one", n)
	}
	sections := doc.All(htmltest.WithClass("interval"))
	if len(sections) != len(c.Matches) || len(c.Matches) != 4 {
		t.Fatalf("%d interval sections for %d matches", len(sections), len(c.Matches))
	}
	ids := map[string]bool{}
	for _, e := range doc.All(func(e *htmltest.Node) bool { return e.Attr["id"] != "" }) {
		if ids[e.Attr["id"]] {
			t.Errorf("id %q used twice", e.Attr["id"])
		}
		ids[e.Attr["id"]] = true
	}
	for _, a := range doc.All(htmltest.Named("a")) {
		if !ids[strings.TrimPrefix(a.Attr["href"], "#")] {
			t.Errorf("link %q goes nowhere", a.Attr["href"])
		}
	}
	// The overview: one row per match, bars scaled to the larger time.
	rows := doc.All(htmltest.WithClass("overview"))[0].All(htmltest.Named("tr"))[1:]
	if len(rows) != 4 {
		t.Fatalf("%d overview rows, want 4", len(rows))
	}
	wantRows := []struct{ text, meas, pred string }{
		{"Seq jac.fdv:8 main 8.000000 10.000000 +25.0%", "width: 80.0%", "width: 100.0%"},
		{"Seq jac.fdv:22 path 0.000000 1.000000 -", "width: 0.0%", "width: 100.0%"},
		{"Par jac.fdv:24 path 4.000000 3.000000 -25.0%", "width: 100.0%", "width: 75.0%"},
	}
	for i, w := range wantRows {
		if got := rowText(rows[i]); got != w.text {
			t.Errorf("overview row %d: %q, want %q", i, got, w.text)
		}
		bars := rows[i].All(htmltest.WithClass("pair"))[0].All(htmltest.Named("span"))
		// pair > meas > bar, pair > pred > bar
		if len(bars) != 4 || bars[1].Attr["style"] != w.meas || bars[3].Attr["style"] != w.pred {
			t.Errorf("overview row %d bars %v %v, want %q %q", i, bars[1].Attr, bars[3].Attr, w.meas, w.pred)
		}
	}
	// The measured Main is matched with the program-level loop.
	if h := sections[0].All(htmltest.Named("h2"))[0].Text(); !strings.Contains(h, "predicted interval 2 · measured interval 1 (Main jac.fdv:8) · matched by main") {
		t.Errorf("root heading %q", h)
	}
	first := sections[0].All(htmltest.Named("tbody"))[0].All(htmltest.Named("tr"))
	if len(first) != len(compare.Chars) || rowText(first[1]) != "Execution_time 8.000000 10.000000 +2.000000 +25.0%" {
		t.Errorf("root table: %d rows, execution time %q", len(first), rowText(first[1]))
	}
	if cell := first[1].All(htmltest.Named("td"))[3]; !htmltest.WithClass("fair")(cell) {
		t.Errorf("25%% error is not graded fair: %v", cell.Attr)
	}
	lists := doc.All(htmltest.WithClass("unmatched"))
	if len(lists) != 2 || !strings.HasPrefix(lists[0].Text(), "Unmatched measured intervals") ||
		rowText(lists[1].All(htmltest.Named("tr"))[2]) != "Par jac.fdv 11 - 3 2 1 1.000000 no measured interval Par jac.fdv:11 under Seq jac.fdv:8" {
		for _, l := range lists {
			for _, r := range l.All(htmltest.Named("tr")) {
				t.Logf("%q", rowText(r))
			}
		}
		t.Errorf("%d unmatched lists", len(lists))
	}
	warn := doc.All(htmltest.WithClass("warnings"))
	if len(warn) != 1 || !strings.Contains(warn[0].Text(), "processor grids differ: measured 4, predicted 2x2") {
		t.Errorf("warnings box missing")
	}
	facts := map[string]string{}
	for _, d := range doc.All(htmltest.WithClass("facts"))[0].All(htmltest.Named("div")) {
		facts[d.All(htmltest.Named("dt"))[0].Text()] = d.All(htmltest.Named("dd"))[0].Text()
	}
	for k, v := range map[string]string{
		"Measured":            "unsaved run · prog · 4",
		"Matched intervals":   "4",
		"Unmatched measured":  "1",
		"Unmatched predicted": "2",
		"Execution time MAPE": "16.7% over 3 intervals",
	} {
		if facts[k] != v {
			t.Errorf("summary %s: %q, want %q", k, facts[k], v)
		}
	}
}

// TestWriteHTMLEscapes: names from the files are text, never markup.
func TestWriteHTMLEscapes(t *testing.T) {
	m, p := comparetest.JacMeasured(1, 1, 1, 1, 1), comparetest.JacPredicted(1, 1, 1, 1, 1)
	for _, iv := range append(m.Intervals, p.Intervals...) {
		iv.File = `<i>"x&y".fdv`
	}
	p.Program = "<script>alert(1)</script>"
	c := comparetest.MustCompare(t, m, p)
	page := render(t, c, WriteHTML)
	doc := htmltest.Parse(t, page)
	if n, m := len(doc.All(htmltest.Named("script"))), len(doc.All(htmltest.Named("i"))); n != 0 || m != 0 {
		t.Errorf("file or program names became markup: %d script, %d i elements", n, m)
	}
	if h := doc.All(htmltest.Named("h1"))[0].Text(); h != "<script>alert(1)</script>" {
		t.Errorf("heading %q", h)
	}
	row := doc.All(htmltest.WithClass("overview"))[0].All(htmltest.Named("tr"))[1]
	if got := row.All(htmltest.Named("th"))[0].Text(); got != `Seq <i>"x&y".fdv:8` {
		t.Errorf("overview label %q", got)
	}
}

// render writes c, without orders, with write (WriteText, WriteJSON or
// WriteHTML).
func render(t *testing.T, c *compare.Comparison, write func(io.Writer, *Report) error) []byte {
	t.Helper()
	return renderReport(t, &Report{Comparison: c}, write)
}

// renderReport writes r with write.
func renderReport(t *testing.T, r *Report, write func(io.Writer, *Report) error) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
