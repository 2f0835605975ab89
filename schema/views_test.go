package schema

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

// TestStaleWideViewRecreated: a store whose v_intervals_wide was made from
// an older (shorter) list of characteristics gets the current view when
// it is opened, without a new numbered migration.
func TestStaleWideViewRecreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	stale := strings.Replace(WideViewSQL(), `,
       max(CASE v.char_id WHEN 1 THEN v.value END) AS "Execution_time"`, "", 1)
	if stale == WideViewSQL() {
		t.Fatal("test setup: could not drop a column from the generated view")
	}
	db.MustExec(`DROP VIEW v_intervals_wide`)
	db.MustExec(stale)
	db.Close()

	db, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Queryx(`SELECT * FROM v_intervals_wide LIMIT 0`)
	if err != nil {
		t.Fatal(err)
	}
	cols, err := rows.Columns()
	rows.Close()
	if err != nil {
		t.Fatal(err)
	}
	chars := cols[len(cols)-int(result.NumChars):]
	for i, c := range WideCharColumns() {
		if chars[i] != c.Name {
			t.Fatalf("column %d of the reopened view is %q, want %q (columns %v)", i, chars[i], c.Name, cols)
		}
	}
}

// TestWideViewUpToDate: a new store's view is the generated one, and a
// second open finds nothing to recreate.
func TestWideViewUpToDate(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var stored string
	if err := db.Get(&stored, `SELECT sql FROM sqlite_master WHERE name = 'v_intervals_wide'`); err != nil {
		t.Fatal(err)
	}
	if normalizeSQL(stored) != normalizeSQL(WideViewSQL()) {
		t.Errorf("stored view differs from the generated one:\n%s", stored)
	}
}
