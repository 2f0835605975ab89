package calibration

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// head is the header of files written before copies and wall were
// timed, headV2 that of files written before the runs were pinned to a
// CPU, headV3 today's.
const (
	head   = "block,alpha,f,seconds,machine,rep\n"
	headV2 = "block,alpha,f,seconds,machine,rep,copies,wall\n"
	headV3 = "block,alpha,f,seconds,machine,rep,copies,wall,cpu,faults\n"
)

func TestRoundTrip(t *testing.T) {
	rows := []Row{
		{Block: "mm", Alpha: []float64{100}, F: 1e6, Seconds: 0.002, Machine: "node1", Rep: 0, Copies: 1, Wall: 0.0025},
		{Block: "mm", Alpha: []float64{100}, F: 1e6, Seconds: 0.0021, Machine: "node1", Rep: 1, Copies: 1},
		{Block: "mm", Alpha: []float64{100}, F: 1e6, Seconds: 0.0031, Machine: "node1", Rep: 1, Copies: 2, Wall: 0.0032},
		{Block: `odd, "name"`, Alpha: []float64{3, 0.5}, F: 1.5, Seconds: 1e-7, Machine: "node1", Rep: 0, Copies: 1},
		{Block: "noparams", F: 1, Seconds: 1, Machine: "node1", Copies: 1},
		{Block: "pinned", F: 1, Seconds: 1, Machine: "node1", Copies: 1, CPU: 3, Faults: 12},
		{Block: "unpinned", F: 1, Seconds: 1, Machine: "node1", Copies: 1, CPU: -1},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	back, err := ReadAll(&buf, "c.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("read back\n%+v\nwant\n%+v", back, rows)
	}
}

func TestReaderErrors(t *testing.T) {
	good := "mm,100,1e6,0.002,node1,0\n"
	tests := []struct{ name, text, want string }{
		{"empty", "", "c.csv: empty file (expected the header block,alpha,f,seconds,machine,rep,copies,wall,cpu,faults)"},
		{"header", "block,f,seconds\n", `c.csv:1: header "block,f,seconds" (expected block,alpha,f,seconds,machine,rep,copies,wall,cpu,faults)`},
		{"fields v2", headV2 + good, "c.csv:2: 6 fields (expected 8: block,alpha,f,seconds,machine,rep,copies,wall)"},
		{"copies", headV2 + "mm,100,1e6,0.002,node1,0,two,0\n", `c.csv:2: copies "two" (expected an integer)`},
		{"copies negative", headV2 + "mm,100,1e6,0.002,node1,0,-2,0\n", "c.csv:2: copies -2 negative"},
		{"wall", headV2 + "mm,100,1e6,0.002,node1,0,1,x\n", `c.csv:2: wall "x" (expected a number)`},
		{"wall negative", headV2 + "mm,100,1e6,0.002,node1,0,1,-1\n", "c.csv:2: wall -1 (expected a finite number ≥ 0)"},
		{"fields v3", headV3 + "mm,100,1e6,0.002,node1,0,1,0\n", "c.csv:2: 8 fields (expected 10: block,alpha,f,seconds,machine,rep,copies,wall,cpu,faults)"},
		{"cpu", headV3 + "mm,100,1e6,0.002,node1,0,1,0,first,0\n", `c.csv:2: cpu "first" (expected a CPU number ≥ 0, or empty when not pinned)`},
		{"cpu negative", headV3 + "mm,100,1e6,0.002,node1,0,1,0,-1,0\n", `c.csv:2: cpu "-1" (expected a CPU number ≥ 0, or empty when not pinned)`},
		{"faults", headV3 + "mm,100,1e6,0.002,node1,0,1,0,0,many\n", `c.csv:2: faults "many" (expected an integer)`},
		{"faults negative", headV3 + "mm,100,1e6,0.002,node1,0,1,0,0,-3\n", "c.csv:2: faults -3 negative"},
		{"fields", head + "mm,100,1e6\n", "c.csv:2: 3 fields (expected 6: block,alpha,f,seconds,machine,rep)"},
		{"quote", head + good + "\"mm,100,1e6,0.002,node1,0\n", "c.csv:3: column 27: extraneous or missing \" in quoted-field"},
		{"alpha", head + "mm,100;x,1e6,0.002,node1,0\n", `c.csv:2: alpha "100;x": part 1 "x" (expected numbers separated by ';')`},
		{"alpha inf", head + "mm,1e999,1e6,0.002,node1,0\n", "c.csv:2: alpha 0 is +Inf (expected a finite number)"},
		{"f text", head + "mm,100,lots,0.002,node1,0\n", `c.csv:2: f "lots" (expected a number)`},
		{"f zero", head + "mm,100,0,0.002,node1,0\n", "c.csv:2: f 0 (expected a finite number > 0)"},
		{"f inf", head + "mm,100,1e400,0.002,node1,0\n", "c.csv:2: f +Inf (expected a finite number > 0)"},
		{"seconds negative", head + "mm,100,1e6,-1,node1,0\n", "c.csv:2: seconds -1 (expected a finite number > 0)"},
		{"seconds NaN", head + "mm,100,1e6,NaN,node1,0\n", "c.csv:2: seconds NaN (expected a finite number > 0)"},
		{"rep", head + "mm,100,1e6,0.002,node1,1.5\n", `c.csv:2: rep "1.5" (expected an integer)`},
		{"rep negative", head + "mm,100,1e6,0.002,node1,-1\n", "c.csv:2: rep -1 negative"},
		{"no block", head + ",100,1e6,0.002,node1,0\n", "c.csv:2: block is empty (expected the marked block's name)"},
		{"no machine", head + "mm,100,1e6,0.002,,0\n", "c.csv:2: machine is empty (expected the machine's name)"},
		{"control character", head + "\"m\r\nm\",100,1e6,0.002,node1,0\n", `c.csv:2: block "m\nm" has a control character (expected a printable name)`},
		{"repeated run", head + good + good, "c.csv:3: repeats the run on line 2 (expected one row per block, machine, alpha, rep and copies)"},
		{"f not a function", head + good + "mm,100,2e6,0.002,node1,1\n", "c.csv:3: f 2e+06 differs from 1e+06 on line 2 for the same block and alpha (expected f to be a function of alpha)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadAll(strings.NewReader(tt.text), "c.csv")
			if err == nil || err.Error() != tt.want {
				t.Errorf("got  %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestOlderFilesReadUnpinned: files of six or eight columns, written
// before the runs were pinned, read as runs not pinned (CPU -1), as does
// an empty cpu field.
func TestOlderFilesReadUnpinned(t *testing.T) {
	for _, text := range []string{
		head + "mm,100,1e6,0.002,node1,0\n",
		headV2 + "mm,100,1e6,0.002,node1,0,1,0.0021\n",
		headV3 + "mm,100,1e6,0.002,node1,0,1,0.0021,,0\n",
	} {
		rows, err := ReadAll(strings.NewReader(text), "c.csv")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 1 || rows[0].CPU != -1 || rows[0].Copies != 1 {
			t.Errorf("%q: rows %+v, want one run alone, not pinned", text, rows)
		}
	}
}

func TestWriterRejects(t *testing.T) {
	w := NewWriter(&bytes.Buffer{})
	err := w.Write(Row{Block: "mm", F: 0, Seconds: 1, Machine: "m"})
	if err == nil || err.Error() != "calibration:2: f 0 (expected a finite number > 0)" {
		t.Errorf("got %v", err)
	}
}

func FuzzReader(f *testing.F) {
	f.Add(head + "mm,100,1e6,0.002,node1,0\nmm,200,8e6,0.017,node1,0\n")
	f.Add(head + "\"a,b\",1;2;3,6,1e-3,m,2\n")
	f.Add(head + "mm,,1,1,m,0\n")
	f.Add(headV2 + "mm,100,1e6,0.002,node1,0,1,0.0021\nmm,100,1e6,0.003,node1,0,2,0.004\n")
	f.Add(headV3 + "mm,100,1e6,0.002,node1,0,1,0.0021,0,0\nmm,100,1e6,0.003,node1,1,1,0.004,1,7\nmm,100,1e6,0.003,node1,2,2,0.004,,0\n")
	f.Fuzz(func(t *testing.T, text string) {
		rows, err := ReadAll(strings.NewReader(text), "fuzz.csv")
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		for _, r := range rows {
			if err := w.Write(r); err != nil {
				t.Fatalf("the Writer rejects what the Reader accepted: %v", err)
			}
		}
		w.Close()
		back, err := ReadAll(&buf, "again.csv")
		if err != nil || !reflect.DeepEqual(back, rows) {
			t.Fatalf("round trip: %v\n%+v\n%+v", err, back, rows)
		}
		Analyze(rows, DefaultThresholds)
	})
}
