package schema

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/result"
)

func TestOpenMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	for i := 0; i < 2; i++ { // a second open finds nothing to do
		db, err := Open(path)
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		v, err := CurrentVersion(db)
		if err != nil {
			t.Fatal(err)
		}
		if v != Version {
			t.Errorf("open %d: version %d, want %d", i, v, Version)
		}
		var applied int
		if err := db.Get(&applied, `SELECT count(*) FROM schema_version`); err != nil {
			t.Fatal(err)
		}
		if applied != Version {
			t.Errorf("open %d: %d migrations recorded, want %d", i, applied, Version)
		}
		db.Close()
	}
}

func TestCharacteristicsSeeded(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var names []string
	if err := db.Select(&names, `SELECT name FROM characteristics ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	if len(names) != int(result.NumChars) {
		t.Fatalf("%d characteristics stored, want %d", len(names), result.NumChars)
	}
	for i, n := range names {
		if n != result.Char(i).String() {
			t.Errorf("characteristic %d is %q, want %q", i, n, result.Char(i))
		}
	}
}

func TestNewerStoreRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO schema_version(version, name) VALUES (?, 'future')`, Version+1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("open of a newer store: err = %v, want a 'newer' error", err)
	}
}

func TestForeignKeysEnforced(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec(`INSERT INTO intervals(run_id, id, ord, level, type, file, line, count) VALUES (99, 1, 0, 0, 'Main', 'f', 1, 1)`)
	if err == nil {
		t.Fatal("an interval of a run that does not exist was accepted")
	}
}
