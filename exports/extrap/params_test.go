package extrap

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/schema/stored"
)

// run makes a predicted run of grid dims with the given network and
// start-up time (0: the machine file's).
func run(id int64, network string, tstartUS float64, dims ...int64) *stored.RunRow {
	r := &stored.RunRow{ID: id, Kind: "predicted", Program: "jac", GridRank: int64(len(dims)), GridD1: dims[0],
		Procs: 1, Machine: stored.Null[string]{V: "m", Valid: true}, Network: stored.Null[string]{V: network, Valid: true},
		TraceID: stored.Null[int64]{V: 1, Valid: true}}
	for i, d := range dims {
		r.Procs *= d
		if i > 0 {
			*[]*stored.Null[int64]{&r.GridD2, &r.GridD3, &r.GridD4}[i-1] = stored.Null[int64]{V: d, Valid: true}
		}
	}
	if tstartUS > 0 {
		r.TStartUS = stored.Null[float64]{V: tstartUS, Valid: true}
	}
	return r
}

func TestGroups(t *testing.T) {
	tests := []struct {
		name string
		runs []*stored.RunRow
		want []string // per file: "suffix: param,param"
	}{
		{"1-D grids: procs only, not grid_d1 as well",
			[]*stored.RunRow{run(1, "bus", 0, 1), run(2, "bus", 0, 2), run(3, "bus", 0, 4)},
			[]string{": procs"}},
		{"one configuration still has procs",
			[]*stored.RunRow{run(1, "bus", 0, 4)},
			[]string{": procs"}},
		{"2-D grids of one processor count: grid_d2 tells them apart",
			[]*stored.RunRow{run(1, "bus", 0, 2, 4), run(2, "bus", 0, 4, 2), run(3, "bus", 0, 4, 4)},
			[]string{": procs,grid_d2"}},
		{"1xP grids: grid_d2 is procs",
			[]*stored.RunRow{run(1, "bus", 0, 1, 2), run(2, "bus", 0, 1, 4)},
			[]string{": procs"}},
		{"ranks and networks are files, tstart a parameter in µs",
			[]*stored.RunRow{
				run(1, "bus", 1, 4), run(2, "bus", 10, 4), run(3, "mesh", 1, 4), run(4, "mesh", 10, 2, 2),
				run(5, "mesh", 1, 2, 2)},
			[]string{"network=bus.rank=1: tstart", "network=mesh.rank=1: procs", "network=mesh.rank=2: tstart"}},
		{"runs without an override apart from those with one",
			[]*stored.RunRow{run(1, "bus", 0, 4), run(2, "bus", 10, 4), run(3, "bus", 100, 4)},
			[]string{"overrides=none: procs", "overrides=tstart: tstart"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, g := range groupRuns(tt.runs) {
				var names []string
				for _, p := range g.params() {
					names = append(names, p.name)
				}
				got = append(got, g.suffix+": "+strings.Join(names, ","))
				if _, err := g.encodeParams(g.params()); err != nil {
					t.Error(err)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("files %q, want %q", got, tt.want)
			}
		})
	}
}

// TestMicroseconds: tstart is a parameter in microseconds, as stored.
func TestMicroseconds(t *testing.T) {
	g := &group{runs: []*stored.RunRow{run(1, "bus", 1, 4), run(2, "bus", 10, 4), run(3, "bus", 100, 4)}}
	enc, err := g.encodeParams(g.params())
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[int64]string{1: `{"tstart":1}`, 2: `{"tstart":10}`, 3: `{"tstart":100}`} {
		if enc[id] != want {
			t.Errorf("run %d: params %s, want %s", id, enc[id], want)
		}
	}
}

// TestFalseRepetitionRefused checks the guard behind the grouping: runs
// that share parameters but not a configuration are an error, not
// repetitions.
func TestFalseRepetitionRefused(t *testing.T) {
	a, b := run(1, "bus", 0, 4), run(2, "bus", 0, 4)
	b.Options = `{"overlap":false}`
	g := &group{runs: []*stored.RunRow{a, b}}
	_, err := g.encodeParams(g.params())
	if err == nil || !strings.Contains(err.Error(), "runs 1") || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("error %v, want one naming both runs and their configurations", err)
	}
	if gs := groupRuns([]*stored.RunRow{a, b}); len(gs) != 2 {
		t.Errorf("%d files for runs of different options, want 2", len(gs))
	}
}

// memSource is a store of a few runs with one value each (their id).
type memSource struct{ runs []*stored.RunRow }

func (m memSource) ExportSweeps(context.Context, int64) ([]int64, error) { return []int64{7}, nil }

func (m memSource) RunRows(_ context.Context, _ int64, fn func(*stored.RunRow) error) error {
	for _, r := range m.runs {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func (m memSource) IntervalValues(_ context.Context, _ int64, program string, fn func(stored.IntervalValue) error) error {
	for _, r := range m.runs {
		if r.Program != program {
			continue
		}
		if err := fn(stored.IntervalValue{RunID: r.ID, Path: "Main", Characteristic: "Execution_time", Value: float64(r.ID)}); err != nil {
			return err
		}
	}
	return nil
}

func TestWriteRoutesRuns(t *testing.T) {
	src := memSource{[]*stored.RunRow{run(1, "bus", 10, 2), run(2, "mesh", 10, 2), run(3, "bus", 100, 2), run(4, "mesh", 100, 4)}}
	dir := t.TempDir()
	sum, err := Write(context.Background(), src, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"jac.network=bus.jsonl":  {`{"tstart":10} 1`, `{"tstart":100} 3`},
		"jac.network=mesh.jsonl": {`{"procs":2,"tstart":10} 2`, `{"procs":4,"tstart":100} 4`},
	}
	if len(sum.Files) != len(want) || sum.Rows != 4 {
		t.Errorf("%d files, %d rows; want %d files, 4 rows", len(sum.Files), sum.Rows, len(want))
	}
	for name, lines := range want {
		path := filepath.Join(dir, "sweep_id=7", name)
		if got := paramsAndValues(t, path); !slices.Equal(got, lines) {
			t.Errorf("%s: %q, want %q", name, got, lines)
		}
	}
}

func paramsAndValues(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Params json.RawMessage `json:"params"`
			Value  float64         `json:"value"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, string(l.Params)+" "+strings.TrimSpace(jsonFloat(l.Value)))
	}
	return out
}

func jsonFloat(v float64) string { b, _ := json.Marshal(v); return string(b) }
