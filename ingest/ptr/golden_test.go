package ptr

import "github.com/presage-dvm/presage/sim/trace"

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

// readmeCalls are the call counts of shared/data/README.md. The README
// counts every call_ line of the file: the header's call_mps_Barrier and
// the call_dvm_void_printf after Event_dvm_exit included, neither of which
// is a call of the trace body; so the reader yields two fewer.
var readmeCalls = map[string]int{
	"jac1d.ptr": 260, "jac1d_x1000.ptr.gz": 22238, "jac1d_x40000.ptr.gz": 880238,
	"jac.ptr": 489, "jacas.ptr": 611, "sor.ptr": 407, "adi.ptr": 3937,
	"jac2d_perf.ptr": 2339, "jac3d_perf.ptr": 2339, "testfdvm.ptr": 43,
	"gauswh.ptr": 165, "gauswh_lw.ptr": 165,
	"tasks.ptr": 948, "task2j.ptr": 883, "taskst.ptr": 1241,
	"jac_e4.ptr": 574, "jacas_e4.ptr": 696, "sor_e4.ptr": 532,
}

// bigTrace is skipped in -short mode.
const bigTrace = "jac1d_x40000.ptr.gz"

func goldenTraces(t *testing.T) []string {
	t.Helper()
	dir := golden.Path(t, "traces")
	paths, err := filepath.Glob(filepath.Join(dir, "*.ptr*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no traces in %s (%v)", dir, err)
	}
	return paths
}

func TestGoldenTraces(t *testing.T) {
	seen := 0
	for _, path := range goldenTraces(t) {
		base := filepath.Base(path)
		t.Run(base, func(t *testing.T) {
			if base == bigTrace && testing.Short() {
				t.Skip("large trace in -short mode")
			}
			r, err := OpenFile(path)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			n, headerCalls := 0, 0
			for {
				c, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if c.Func == "" || c.File == "" || c.TraceLine <= 0 {
					t.Fatalf("call %d: %+v", n, c)
				}
				n++
			}
			h := r.Header()
			for _, l := range h.Lines {
				if strings.HasPrefix(strings.TrimLeft(l, " "), "call_") {
					headerCalls++
				}
			}
			if h.RTSVersion != "2889" || h.ProcCount != 1 || h.VProcCount != 0 || h.RootLine <= 0 || h.RootFile == "" {
				t.Errorf("header %+v", h)
			}
			if h2, err := ParseHeader(strings.Join(h.Lines, "\n"), base); err != nil || !reflect.DeepEqual(h2, h) {
				t.Errorf("ParseHeader of the header's text = %+v, %v; want %+v", h2, err, h)
			}
			if headerCalls != 1 {
				t.Errorf("%d call lines in the header, want 1 (call_mps_Barrier)", headerCalls)
			}
			if want, ok := readmeCalls[base]; ok {
				seen++
				if n != want-2 {
					t.Errorf("%d calls, want %d (README's %d less the two outside the body)", n, want-2, want)
				}
			}
		})
	}
	if !testing.Short() && seen != len(readmeCalls) {
		t.Errorf("checked %d of the %d traces the README lists", seen, len(readmeCalls))
	}
}

// TestGoldenGzipPlain checks that a trace and its other form (gzipped or
// unpacked in memory) give identical calls.
func TestGoldenGzipPlain(t *testing.T) {
	for _, path := range goldenTraces(t) {
		base := filepath.Base(path)
		if base == bigTrace {
			continue // 880 K calls twice in memory: the x1000 one covers it
		}
		t.Run(base, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var other []byte
			if strings.HasSuffix(base, ".gz") {
				zr, err := gzip.NewReader(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if other, err = io.ReadAll(zr); err != nil {
					t.Fatal(err)
				}
			} else {
				var b bytes.Buffer
				w := gzip.NewWriter(&b)
				w.Write(data)
				w.Close()
				other = b.Bytes()
			}
			a, ha := readAllBytes(t, data)
			b, hb := readAllBytes(t, other)
			if len(a) == 0 || !reflect.DeepEqual(a, b) || !reflect.DeepEqual(ha, hb) {
				t.Errorf("gzip and plain differ (%d and %d calls)", len(a), len(b))
			}
		})
	}
}

func readAllBytes(t *testing.T, data []byte) ([]*trace.Call, *trace.Header) {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data), "x")
	if err != nil {
		t.Fatal(err)
	}
	calls, err := trace.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return calls, r.Header()
}

// TestGoldenJac1d checks a few calls of the shipped example by hand.
func TestGoldenJac1d(t *testing.T) {
	r, err := OpenFile(golden.Path(t, "traces", "jac1d.ptr"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	calls, err := trace.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	first := calls[0]
	if first.Func != "getam_" || first.CallTime != 0.00001697 || first.RetTime != 0.00000084 ||
		first.Line != 20 || first.TraceLine != 31 || first.InText != "" || first.OutText != "AMRef=525e34;" {
		t.Errorf("first call %+v", *first)
	}
	var align *trace.Call
	for _, c := range calls {
		if c.Func == "align_" {
			align = c
			break
		}
	}
	if align == nil || align.Pattern != "AMView" {
		t.Fatalf("align_ %+v", align)
	}
	if v, _ := align.In.Get("PatternRef"); v != "106a618" {
		t.Errorf("PatternRef = %q", v)
	}
	last := calls[len(calls)-1]
	if last.Func != "dvm_fwrite" || last.OutText != "Res=64;" {
		t.Errorf("last call %+v", *last)
	}
	if r.TextBytes() != 66342 {
		t.Errorf("TextBytes = %d, want the file size 66342", r.TextBytes())
	}
}
