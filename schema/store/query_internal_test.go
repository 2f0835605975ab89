package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestQueryOnlyConnection bypasses the statement check: the connection's
// query_only still refuses writes, and a writable pool gets its
// connections back writable.
func TestQueryOnlyConnection(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ignore := func([]any) error { return nil }
	discard := func([]string) error { return nil }
	for _, q := range []string{"DELETE FROM schema_version", "WITH x AS (SELECT 1) UPDATE schema_version SET version = 0"} {
		if err := s.queryOnly(context.Background(), q, nil, discard, ignore); err == nil {
			t.Errorf("%q succeeded on a query_only connection", q)
		} else if !strings.Contains(err.Error(), "readonly") {
			t.Errorf("%q: error %v, want the query_only refusal", q, err)
		}
	}
	if v, err := s.SchemaVersion(); err != nil || v == 0 {
		t.Errorf("schema version %d, %v after refused writes", v, err)
	}
	s.db.SetMaxOpenConns(1) // the next statement gets the connection the query used
	if _, err := s.db.Exec(`UPDATE schema_version SET version = version`); err != nil {
		t.Errorf("writable store not writable after a query: %v", err)
	}
}
