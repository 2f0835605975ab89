package machine_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/machine"
)

// TestEncodeRoundTrip decodes the stored form of every real machine file
// into the machine the parser made, and checks that identical clusters
// are written once.
func TestEncodeRoundTrip(t *testing.T) {
	files, _ := filepath.Glob(golden.Path(t, "machines", "*.par"))
	if len(files) == 0 {
		t.Fatal("no machine files")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := machinefile.Parse(f, path)
			if err != nil {
				t.Fatal(err) // every real machine file parses (ingest/machinefile's goldens)
			}
			back, b := roundTrip(t, m)
			if !reflect.DeepEqual(m, back) {
				t.Errorf("decoded machine differs:\n%+v\n%+v", m, back)
			}
			if n := m.Processors(); n > 64 && len(b) > 64*1024 {
				t.Errorf("%d processors stored in %d bytes: identical clusters not shared", n, len(b))
			}
		})
	}
}

// TestDecodeRefusesCycles checks that a stored form whose clusters refer
// forward (a cycle) is an error, not an endless tree.
func TestDecodeRefusesCycles(t *testing.T) {
	for _, bad := range []string{
		`{"name":"x","format":"cluster","root":0,"nodes":[{"name":"a","children":[[0,1]]}]}`,
		`{"name":"x","format":"cluster","root":3,"nodes":[{"name":"a"}]}`,
		`{"name":"x","format":"cluster","root":1,"nodes":[{"name":"a"},{"name":"b","children":[[0,0]]}]}`,
		`not json`,
	} {
		if _, err := machine.Decode([]byte(bad)); err == nil || !strings.Contains(err.Error(), "stored machine") {
			t.Errorf("Decode(%s) = %v, want an error naming the stored machine", bad, err)
		}
	}
}

// TestEncodeExtended: the extended model's statements (run work, I/O copy
// time, node contention, strided iteration time, fresh page time) survive the stored form, so a stored machine predicts as its file.
func TestEncodeExtended(t *testing.T) {
	m, err := machinefile.Parse(strings.NewReader("cluster = c; runwork = 12500; iobyte = 0.875; contention = 12.5; strided = 3.5; freshpage = 2.25; c = {2 x p}; c.messages = 8 : 2, 4096 : 6; p = 1;"), "x.par")
	if err != nil {
		t.Fatal(err)
	}
	back, _ := roundTrip(t, m)
	if back.RunWork != 0.0125 || back.IOByte != 0.875e-9 || back.Contention != 0.125 || back.Strided != 3.5e-9 || back.FreshPage != 2.25e-6 || len(back.Root.Messages) != 2 || !reflect.DeepEqual(m, back) {
		t.Errorf("decoded run work %g, I/O copy time %g, contention %g, strided iteration time %g, fresh page time %g, message times %v (%+v), want 0.0125, 8.75e-10, 0.125, 3.5e-9, 2.25e-6 and 2 points as parsed", back.RunWork, back.IOByte, back.Contention, back.Strided, back.FreshPage, back.Root.Messages, back)
	}
}

// roundTrip encodes m and decodes it back: the machine read and its
// stored form.
func roundTrip(t *testing.T, m *machine.Machine) (*machine.Machine, []byte) {
	t.Helper()
	b, err := machine.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := machine.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return back, b
}
