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

	"github.com/presage-dvm/presage/exports/textreport"
	"github.com/presage-dvm/presage/ingest"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/schema/store"
)

// render ingests path and renders its report with opt.
func render(t *testing.T, st *store.Store, path string, opt textreport.Options) string {
	t.Helper()
	ctx := context.Background()
	info, err := ingest.Sts(ctx, st, path)
	if err != nil {
		t.Fatalf("ingest: %v", err)
	}
	rep, err := textreport.Load(ctx, st, info.RunID)
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	var buf bytes.Buffer
	if err := textreport.Render(&buf, rep, opt); err != nil {
		t.Fatalf("report: %v", err)
	}
	return buf.String()
}

// diffReports is the comparison the DVM reality check makes too.
func diffReports(got, want string) []string { return textreport.DiffOriginal(got, want) }

func TestGoldenReports(t *testing.T) {
	files, err := filepath.Glob(golden.Path(t, "sts", "*.sts.gz+"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sts files: %v", err)
	}
	db := storetest.Open(t)
	pass := 0
	for _, path := range files {
		name := ingest.StsName(path)
		want, err := os.ReadFile(golden.Path(t, "pppa", name+".txt"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		got := render(t, db, path, textreport.Options{})
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
	db := storetest.Open(t)
	for _, tc := range []struct {
		file string
		opt  textreport.Options
	}{
		{"jac_e4.2x2_l1.txt", textreport.Options{LimitLevel: true, MaxLevel: 1}},
		{"jac_e4.2x2_n0.txt", textreport.Options{Procs: "0"}},
		{"jac_e4.2x2_n1-2.txt", textreport.Options{Procs: "1-2"}},
		{"jac_e4.2x2_vnone.txt", textreport.Options{Verbosity: "none"}},
		{"jac_e4.2x2_mi.txt", textreport.Options{Matrix: "i"}},
		{"jac_e4.2x2_c9.txt.gz", textreport.Options{Gzip: true, GzipLevel: 9}},
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

// TestMatrixColumns: the column sums (-m j) have no reference report, but
// every processor's total must equal that of the row sums (-m i), while
// the groups differ (time is spent in other groups than the calling one).
func TestMatrixColumns(t *testing.T) {
	db := storetest.Open(t)
	path := golden.Path(t, "sts", "jac_e4.2x2.sts.gz+")
	rows := render(t, db, path, textreport.Options{Matrix: "i"})
	cols := render(t, db, path, textreport.Options{Matrix: "j"})
	totals := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "      Total:") {
				out = append(out, l)
			}
		}
		return out
	}
	tr, tc := totals(rows), totals(cols)
	if len(tr) != 20 || strings.Join(tr, "\n") != strings.Join(tc, "\n") {
		t.Errorf("%d row totals, %d column totals; they differ:\n%s\n%s", len(tr), len(tc), strings.Join(tr, "\n"), strings.Join(tc, "\n"))
	}
	if rows == cols {
		t.Error("row and column sums print the same tables")
	}
}
