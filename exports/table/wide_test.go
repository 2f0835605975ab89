package table

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated v_intervals_wide in the views migration")

// viewsMigration finds the schema's views migration (its number depends on
// the migrations before it).
func viewsMigration(t *testing.T) string {
	t.Helper()
	m, err := filepath.Glob("../../schema/*_views.sql")
	if err != nil || len(m) != 1 {
		t.Fatalf("views migration: found %v (%v), want exactly one schema/*_views.sql", m, err)
	}
	return m[0]
}

// TestWideView checks that the migration's v_intervals_wide is the one
// generated from result.Chars; -update rewrites it.
func TestWideView(t *testing.T) {
	path := viewsMigration(t)
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(text)
	b := strings.Index(s, WideBegin)
	e := strings.Index(s, WideEnd)
	if b < 0 || e < b {
		t.Fatalf("%s: markers %q ... %q not found", path, WideBegin, WideEnd)
	}
	headEnd := b + strings.Index(s[b:], "\n") + 1
	got := s[headEnd:e]
	want := WideViewSQL()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(s[:headEnd]+want+s[e:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("%s: v_intervals_wide differs from the one generated from result.Chars; run go test ./exports/table -run TestWideView -update", path)
}
