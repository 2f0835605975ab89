package htmltest

import (
	"reflect"
	"strings"
	"testing"
)

func TestDecodeRejects(t *testing.T) {
	for _, tc := range []struct{ page, want string }{
		{`<p>open`, "unexpected EOF"},
		{`<p><b>x</p></b>`, "element <b> closed by </p>"},
		{`<br>`, "unexpected EOF"},
		{`<p>a &nbsp; b</p>`, "invalid character entity &nbsp;"},
		{`<p class=x>a</p>`, "unquoted or missing attribute value"},
	} {
		if _, err := Decode([]byte(tc.page)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Decode(%q) = %v, want an error with %q", tc.page, err, tc.want)
		}
	}
}

const page = `<html><body>
<table class="chars wide" id="t">
<tr><th>Name</th><td>  1.5 <span title="tip">s</span></td><td/></tr>
<tr><th>Other</th><td>2</td></tr>
</table>
<p class="note">a &lt;b&gt; &amp; c</p>
</body></html>`

func TestFind(t *testing.T) {
	doc := Parse(t, []byte(page))
	table := doc.First(t, "table", WithClass("wide"))
	if table != doc.First(t, "table", WithID("t")) || table.Name != "table" {
		t.Fatalf("WithClass and WithID found different elements")
	}
	if got, want := table.Rows(), [][]string{{"Name", "1.5 s", ""}, {"Other", "2"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Rows = %q, want %q", got, want)
	}
	td := table.All(Named("td"))[0]
	if td.OwnText() != "1.5" || td.Text() != "1.5 s" {
		t.Errorf("OwnText %q, Text %q", td.OwnText(), td.Text())
	}
	if got := doc.All(Named("p"))[0].Text(); got != "a <b> & c" {
		t.Errorf("escaped text %q", got)
	}
	if n := len(doc.All(WithClass("char"))); n != 0 {
		t.Errorf("WithClass matched a prefix of a class: %d elements", n)
	}
	if n := len(doc.All(Named("span"))); n != 1 {
		t.Errorf("%d spans, want 1", n)
	}
}
