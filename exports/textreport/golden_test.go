package textreport_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/presage-dvm/presage/exports/textreport"
	"github.com/presage-dvm/presage/ingest/golden"
	"github.com/presage-dvm/presage/ingest/stsdb"
	"github.com/presage-dvm/presage/schema"
)

// analyzerLine is the report line naming the analyzer's own version, which
// differs naturally and is left out of the comparison.
const analyzerLine = 2

// openStore opens an empty store in a temporary directory.
func openStore(t *testing.T) *sqlx.DB {
	t.Helper()
	db, err := schema.Open(filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// render ingests path and renders its report with opt.
func render(t *testing.T, db *sqlx.DB, path string, opt textreport.Options) string {
	t.Helper()
	info, err := stsdb.Ingest(context.Background(), db, path)
	if err != nil {
		t.Fatalf("ingest: %v", err)
	}
	var buf bytes.Buffer
	if err := textreport.Write(&buf, db, info.RunID, opt); err != nil {
		t.Fatalf("report: %v", err)
	}
	return buf.String()
}

// diffReports lists the lines where got differs from want, ignoring the
// analyzer-version line. A want that the original left unfinished (it
// crashed while writing) is compared as a prefix.
func diffReports(got, want string) []string {
	g := strings.Split(got, "\n")
	w := strings.Split(want, "\n")
	truncated := !strings.Contains(want, "Name (number) and performance time of processors")
	var out []string
	interval := ""
	for i := 0; i < len(w) || (!truncated && i < len(g)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if strings.HasPrefix(wl, "INTERVAL") {
			interval = wl
		}
		if i == analyzerLine {
			continue
		}
		if truncated && i == len(w)-1 && strings.HasPrefix(gl, wl) {
			continue
		}
		if gl != wl {
			out = append(out, "line "+itoa(i+1)+" in "+interval+"\n   ours: "+strconvQ(gl)+"\n   orig: "+strconvQ(wl))
		}
	}
	return out
}

func TestGoldenReports(t *testing.T) {
	files, err := filepath.Glob(golden.Path(t, "sts", "*.sts.gz+"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sts files: %v", err)
	}
	db := openStore(t)
	pass := 0
	for _, path := range files {
		name := stsdb.Name(path)
		want, err := os.ReadFile(golden.Path(t, "pppa", name+".txt"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := render(t, db, path, textreport.Options{MaxLevel: -1})
		diffs := diffReports(got, string(want))
		if len(diffs) == 0 {
			pass++
			continue
		}
		t.Errorf("%s: %d lines differ; first:\n%s", name, len(diffs), strings.Join(diffs[:min(len(diffs), 4)], "\n"))
	}
	t.Logf("golden reports: %d of %d identical (except the analyzer-version line)", pass, len(files))
}

func TestGoldenOptions(t *testing.T) {
	path := golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")
	db := openStore(t)
	for _, tc := range []struct {
		file string
		opt  textreport.Options
	}{
		{"jac_e4.2x2_l1.txt", textreport.Options{MaxLevel: 1}},
		{"jac_e4.2x2_n0.txt", textreport.Options{MaxLevel: -1, Procs: "0"}},
		{"jac_e4.2x2_n1-2.txt", textreport.Options{MaxLevel: -1, Procs: "1-2"}},
		{"jac_e4.2x2_vnone.txt", textreport.Options{MaxLevel: -1, Verbosity: "none"}},
		{"jac_e4.2x2_mi.txt", textreport.Options{MaxLevel: -1, Matrix: "i"}},
		{"jac_e4.2x2_c9.txt.gz", textreport.Options{MaxLevel: -1, Gzip: true, GzipLevel: 9}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			want, err := os.ReadFile(golden.Path(t, "pppa-options", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, db, path, tc.opt)
			if tc.opt.Gzip {
				got, want = string(gunzip(t, got)), gunzip(t, string(want))
			}
			if diffs := diffReports(got, string(want)); len(diffs) > 0 {
				t.Errorf("%d lines differ; first:\n%s", len(diffs), strings.Join(diffs[:min(len(diffs), 4)], "\n"))
			}
		})
	}
}

// gunzip returns the decompressed content of a gzip stream.
func gunzip(t *testing.T, s string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
