package htmlstyle

import (
	"html/template"
	"math"
	"strings"
	"testing"
)

func TestWidth(t *testing.T) {
	for _, tc := range []struct {
		pct  float64
		want template.CSS
	}{
		{42.25, "width: 42.2%"},
		{-1, "width: 0.0%"},
		{130, "width: 100.0%"},
		{math.NaN(), "width: NaN%"},
	} {
		if got := Width(tc.pct); got != tc.want {
			t.Errorf("Width(%v) = %q, want %q", tc.pct, got, tc.want)
		}
	}
}

// TestSheet: the page's own rules follow the base, so they win.
func TestSheet(t *testing.T) {
	own := ".mine { color: red; }"
	s := string(Sheet(own))
	if !strings.HasPrefix(s, string(Base)) || !strings.HasSuffix(s, own) {
		t.Errorf("Sheet is not Base followed by the page's rules")
	}
	for _, rule := range []string{":root {", ".card {", "@media print {", "table {"} {
		if !strings.Contains(string(Base), rule) {
			t.Errorf("base stylesheet lacks %q", rule)
		}
	}
}

// TestPage: a page's template gets its stylesheet (base, charts, then its
// own rules) from css and bar widths from pctcss.
func TestPage(t *testing.T) {
	own := ".mine { color: red; }"
	tmpl := Page("p", `<style>{{css}}</style><span style="{{pctcss 150}}"></span>`, own)
	var b strings.Builder
	if err := tmpl().Execute(&b, nil); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"<style>" + base, "svg.chart {", own + "</style>", `style="width: 100.0%"`} {
		if !strings.Contains(out, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Index(out, "svg.chart {") > strings.Index(out, own) {
		t.Error("the page's own rules come before the charts': they would not win")
	}
}
