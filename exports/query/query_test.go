package query

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// sample is a result of two rows, the first with a NULL.
func sample(header func([]string) error, row func([]any) error) error {
	if err := header([]string{"run_id", "program", "machine", "tstart", "execution_time"}); err != nil {
		return err
	}
	for _, r := range [][]any{
		{int64(1), "jac", "cluster4", nil, 0.25},
		{int64(2), "jac", "cluster4", 1e-5, 0.125},
	} {
		if err := row(r); err != nil {
			return err
		}
	}
	return nil
}

// The table prints the residues of subtractions of times as 0; CSV keeps
// them exact.
func TestResidues(t *testing.T) {
	for _, tc := range []struct {
		v            float64
		table, exact string
	}{{-1.35525e-19, "0", "-1.35525e-19"}, {2.1684e-19, "0", "2.1684e-19"}, {3e-9, "3e-09", "3e-09"}, {0.648388, "0.648388", "0.648388"}} {
		if got := text(tc.v, "NULL", 6); got != tc.table {
			t.Errorf("table %g = %q, want %q", tc.v, got, tc.table)
		}
		if got := text(tc.v, "", 0); got != tc.exact {
			t.Errorf("csv %g = %q, want %q", tc.v, got, tc.exact)
		}
	}
}

func TestFormats(t *testing.T) {
	var js bytes.Buffer
	if err := Write(&js, Options{Format: "json"}, sample); err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(js.Bytes(), &objs); err != nil {
		t.Fatalf("json output %s: %v", js.String(), err)
	}
	if len(objs) != 2 || objs[0]["run_id"] != 1.0 || objs[0]["tstart"] != nil || objs[1]["tstart"] == nil ||
		objs[0]["execution_time"] != 0.25 || objs[0]["machine"] != "cluster4" {
		t.Errorf("json: %v", objs)
	}
	if i, j := strings.Index(js.String(), `"run_id"`), strings.Index(js.String(), `"program"`); i < 0 || j < i {
		t.Errorf("json keys out of column order: %s", js.String())
	}

	var cs bytes.Buffer
	if err := Write(&cs, Options{Format: "csv"}, sample); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || strings.Join(recs[0], ",") != "run_id,program,machine,tstart,execution_time" || recs[1][3] != "" || recs[2][3] == "" {
		t.Errorf("csv: %v", recs)
	}

	var tb bytes.Buffer
	if err := Write(&tb, Options{Format: "table"}, sample); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(tb.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "NULL") || len(lines[0]) != len(lines[1]) {
		t.Errorf("table:\n%s", tb.String())
	}
	// The table rounds for people, CSV stays exact for programs.
	thirds := func(header func([]string) error, row func([]any) error) error {
		if err := header([]string{"x"}); err != nil {
			return err
		}
		return row([]any{0.008236179999999992})
	}
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{Format: "table", Digits: 6}, "0.00823618"},
		{Options{Format: "table"}, "0.008236179999999992"},
		{Options{Format: "csv", Digits: 6}, "0.008236179999999992"},
	} {
		var b bytes.Buffer
		if err := Write(&b, tc.opt, thirds); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(strings.Split(b.String(), "\n")[1]); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.opt, got, tc.want)
		}
	}

	if err := Write(&tb, Options{Format: "xml"}, sample); err == nil {
		t.Error("format xml: no error")
	}
}

// recorder is a Source that records the statement and parameters it gets.
type recorder struct {
	query  string
	params map[string]any
}

func (r *recorder) Query(_ context.Context, query string, params map[string]any,
	header func([]string) error, row func([]any) error) error {
	r.query, r.params = query, params
	return sample(header, row)
}

func TestRun(t *testing.T) {
	var r recorder
	var out bytes.Buffer
	if err := Run(context.Background(), &r, "the statement", map[string]any{"n": 2}, Options{Format: "csv"}, &out); err != nil {
		t.Fatal(err)
	}
	if r.query != "the statement" || r.params["n"] != 2 || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("Run passed %q, %v and wrote %q", r.query, r.params, out.String())
	}
}
