package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIngestCalibrationAdvice: ingesting a calibration names each block
// it did not pin down, by how much, and what to do, rather than only
// counting its rows; a block known within the precision gets no line.
func TestIngestCalibrationAdvice(t *testing.T) {
	dir := t.TempDir()
	text := "block,alpha,f,seconds,machine,rep,copies,wall,cpu,faults\n"
	for rep := range 16 { // 8 runs on each CPU bound a steady median
		text += fmt.Sprintf("ref,,1,0.01,m,%d,1,0.01,%d,0\n", rep, rep%2)
		text += fmt.Sprintf("steady,64,1000,0.001,m,%d,1,0.001,%d,0\n", rep, rep%2)
	}
	for rep, s := range []float64{0.002, 0.003, 0.0025, 0.0018} { // two runs on each CPU
		text += fmt.Sprintf("tile,64,1000,%g,m,%d,1,%g,%d,0\n", s, rep, s, rep%2)
	}
	if err := os.WriteFile(filepath.Join(dir, "cal.csv"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustSucceed(t, presage(t, dir, "ingest", "calibration", "cal.csv"))
	out := r.stdout + r.stderr
	for _, want := range []string{
		"calibration cal: 36 rows",
		"block tile on m: c varies 29% between runs at α 64 (1.95 ms–2.62 ms), its median known from too few runs to bound it: calibrate with -orders.reps 16 on a quiet machine",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ingest printed\n%s\nwant a line with %q", out, want)
		}
	}
	if strings.Contains(out, "block steady") || strings.Contains(out, "block ref") {
		t.Errorf("ingest printed\n%s\nwant no line for the blocks known within the precision", out)
	}
}
