package ptr

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader checks that no input makes the reader panic or fail with
// anything but an *Error.
func FuzzReader(f *testing.F) {
	f.Add([]byte(mini))
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(mini))
	w.Close()
	f.Add(b.Bytes())
	f.Add([]byte(""))
	f.Add([]byte("RTS VERSION = 2889\nVProcCount=1; VPSRank=1; VPSSize= 1;\nret_dvm_Init TIME=1 LINE=1 FILE=f\nEvent_x TIME=1 LINE=1 FILE=f\n"))
	// The start of a real trace, when the shared data is there.
	if data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "data", "traces", "testfdvm.ptr")); err == nil {
		f.Add(data[:min(len(data), 4096)])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), "fuzz.ptr")
		if err != nil {
			checkFuzzErr(t, err)
			return
		}
		for range 1 << 16 {
			c, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				checkFuzzErr(t, err)
				return
			}
			if c == nil {
				t.Fatal("nil call without error")
			}
		}
	})
}

func checkFuzzErr(t *testing.T, err error) {
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is %T, not *Error", err, err)
	}
	if pe.File != "fuzz.ptr" || pe.Msg == "" {
		t.Fatalf("malformed error %+v", pe)
	}
}
