package ordersched

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, n := range All {
		if got, err := Parse(string(n)); err != nil || got != n {
			t.Errorf("Parse(%q) = %q, %v", n, got, err)
		}
	}
	if got, err := Parse(""); err != nil || got != Default {
		t.Errorf(`Parse("") = %q, %v; want the default %q`, got, err, Default)
	}
	_, err := Parse("round-robin")
	if err == nil || !strings.Contains(err.Error(), `"round-robin"`) || !strings.Contains(err.Error(), string(WorkStealing)) {
		t.Errorf("Parse of an unknown name: %v (want its name and the list)", err)
	}
}
