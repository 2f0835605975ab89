package filestore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema"
)

func TestSum(t *testing.T) {
	const abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if got := Sum([]byte("abc")); got != abc {
		t.Errorf("Sum = %s, want %s", got, abc)
	}
	got, err := SumReader(strings.NewReader("abc"))
	if err != nil || got != abc {
		t.Errorf("SumReader = %s, %v; want %s", got, err, abc)
	}
	if _, err := SumReader(failing{}); err == nil {
		t.Error("SumReader hid a read error")
	}
}

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestName(t *testing.T) {
	for _, tc := range []struct {
		path     string
		suffixes []string
		want     string
	}{
		{"/a/b/jac1d.ptr", []string{".gz", ".ptr"}, "jac1d"},
		{"jac1d_x1000.ptr.gz", []string{".gz", ".ptr"}, "jac1d_x1000"},
		{"x.gz", []string{".gz", ".ptr"}, "x"},
		{"x.gz.ptr", []string{".gz", ".ptr"}, "x.gz"},
		{"machines/Predictor.par", []string{".par"}, "Predictor"},
		{"/d/jac.2x2.sts.gz+", []string{".gz+", ".sts"}, "jac.2x2"},
		{"sts.gz+", []string{".gz+", ".sts"}, "sts"},
		{".sts.gz+", []string{".gz+", ".sts"}, ".sts"},
		{".par", []string{".par"}, ".par"},
		{"noext", []string{".par"}, "noext"},
	} {
		if got := Name(tc.path, tc.suffixes...); got != tc.want {
			t.Errorf("Name(%q, %q) = %q, want %q", tc.path, tc.suffixes, got, tc.want)
		}
	}
}

func TestFindAndDuplicate(t *testing.T) {
	db, err := schema.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	type row struct {
		ID   int64  `db:"id"`
		Name string `db:"name"`
	}
	const query = `SELECT id, name FROM machines WHERE sha256 = ?`
	if r, found, err := Find[row](ctx, db, query, "nope"); err != nil || found || r != (row{}) {
		t.Fatalf("Find of a missing row = %+v, %v, %v", r, found, err)
	}
	insert := `INSERT INTO machines(name, path, sha256, format, root, processors, search, source, ingested_at)
		VALUES ('m', 'm.par', 'abc', 'flat', 'r', 1, 0, '', 'now')`
	if _, err := db.Exec(insert); err != nil {
		t.Fatal(err)
	}
	if r, found, err := Find[row](ctx, db, query, "abc"); err != nil || !found || r.ID == 0 || r.Name != "m" {
		t.Fatalf("Find = %+v, %v, %v", r, found, err)
	}
	if _, _, err := Find[row](ctx, db, `SELECT id, name FROM nosuchtable`); err == nil {
		t.Error("Find hid a query error")
	}
	_, err = db.Exec(insert)
	if !IsDuplicate(err, "machines") || IsDuplicate(err, "traces") || IsDuplicate(nil, "machines") {
		t.Errorf("IsDuplicate misjudged %v", err)
	}
}
