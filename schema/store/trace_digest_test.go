package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

// TestTraceOfFile finds traces by their XXH3, and a trace stored before
// schema 11 by its SHA-256, computed only while the store holds such
// traces; the trace found so gets its XXH3.
func TestTraceOfFile(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	insert := `INSERT INTO traces(name, path, xxh3, sha256, bytes, calls, proc_count, header, root_line, root_file, ingested_at)
		VALUES (?, 'x.ptr', ?, ?, 1, 0, 1, '', 1, 'f', 'now')`
	if _, err := s.db.Exec(insert, "new", "aa", nil); err != nil {
		t.Fatal(err)
	}
	asked := 0
	sha := func(sum string) func() (string, error) {
		return func() (string, error) { asked++; return sum, nil }
	}
	if info, found, err := s.TraceOfFile(ctx, "aa", sha("x")); err != nil || !found || info.Name != "new" || !info.Existing {
		t.Errorf("TraceOfFile(aa) = %+v, %v, %v", info, found, err)
	}
	if _, found, err := s.TraceOfFile(ctx, "bb", sha("x")); err != nil || found || asked != 0 {
		t.Errorf("TraceOfFile(bb) found %v, %v; asked for the SHA-256 %d times with no old trace stored", found, err, asked)
	}
	if _, err := s.db.Exec(insert, "old", nil, "5a"); err != nil {
		t.Fatal(err)
	}
	if _, found, err := s.TraceOfFile(ctx, "cc", sha("other")); err != nil || found || asked != 1 {
		t.Errorf("TraceOfFile(cc) of another file found %v, %v; asked %d times", found, err, asked)
	}
	info, found, err := s.TraceOfFile(ctx, "dd", sha("5a"))
	if err != nil || !found || info.Name != "old" || info.XXH3 != "dd" || info.SHA256 != "5a" {
		t.Errorf("TraceOfFile(dd) of the old trace's file = %+v, %v, %v", info, found, err)
	}
	if info, found, err := s.TraceOfFile(ctx, "dd", sha("5a")); err != nil || !found || info.Name != "old" || asked != 2 {
		t.Errorf("TraceOfFile(dd) again = %+v, %v, %v; asked %d times, want 2 (the XXH3 is stored)", info, found, err, asked)
	}
	if _, found, err := s.TraceOfFile(ctx, "ee", sha("5a")); err != nil || found || asked != 2 {
		t.Errorf("TraceOfFile(ee) found %v, %v; asked %d times: no trace lacks its XXH3 any more", found, err, asked)
	}
	// A concurrent ingest stores the file as a new trace while the
	// SHA-256 is computed: that trace is the answer.
	if _, err := s.db.Exec(insert, "old3", nil, "7c"); err != nil {
		t.Fatal(err)
	}
	racing := func() (string, error) {
		_, err := s.db.Exec(insert, "racer", "gg", nil)
		return "7c", err
	}
	if info, found, err := s.TraceOfFile(ctx, "gg", racing); err != nil || !found || info.Name != "racer" {
		t.Errorf("TraceOfFile(gg) with a concurrent ingest = %+v, %v, %v; want the racer", info, found, err)
	}
	failing := func() (string, error) { return "", errors.New("disk gone") }
	if _, err := s.db.Exec(insert, "old2", nil, "6b"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.TraceOfFile(ctx, "ff", failing); err == nil {
		t.Error("TraceOfFile hid the SHA-256's error")
	}
	if _, err := s.db.Exec(insert, "none", nil, nil); err == nil {
		t.Error("a trace without any hash was stored")
	}
}
