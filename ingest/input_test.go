package ingest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
)

// TestOpenRegularRefusesTheRest: a FIFO (with no writer: opening it
// must not wait for one), a device and a directory are refused at once,
// naming the path and what it is; a regular file opens.
func TestOpenRegularRefusesTheRest(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, fifo + ": a named pipe (FIFO), not a regular file"},
		{"/dev/zero", "/dev/zero: a character device, not a regular file"},
		{dir, dir + ": a directory, not a regular file"},
		{file, ""},
	} {
		start := time.Now()
		f, _, err := openRegular(tc.path)
		if took := time.Since(start); took > time.Second {
			t.Errorf("openRegular(%s) took %v", tc.path, took)
		}
		if tc.want == "" {
			if err != nil {
				t.Errorf("openRegular(%s): %v", tc.path, err)
			} else {
				f.Close()
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("openRegular(%s): %v, want %q", tc.path, err, tc.want)
		}
	}
}

// gz compresses parts as one gzip stream.
func gz(t *testing.T, parts ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	for _, p := range parts {
		w.Write(p)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// readText reads everything inputText gives for the bytes src.
func readText(ctx context.Context, src []byte) ([]byte, error) {
	r, err := inputText(ctx, bytes.NewReader(src), "in.gz")
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

// TestInputText: plain bytes come as they are, gzip decompressed; a
// stream cut short, a damaged one and a bomb are errors naming the file;
// a cancelled context stops the reading.
func TestInputText(t *testing.T) {
	text := bytes.Repeat([]byte("call_x TIME=1 LINE=2 FILE=f.f\n"), 1000)
	whole := gz(t, text)
	damaged := bytes.Clone(whole)
	damaged[len(damaged)-6] ^= 0xff // the CRC
	for _, tc := range []struct {
		name string
		src  []byte
		want string // "" for text back
	}{
		{"plain", text, ""},
		{"gzip", whole, ""},
		{"cut short", whole[:len(whole)-4], "in.gz: gzip stream cut short"},
		{"damaged", damaged, "in.gz: damaged gzip stream"},
		{"bomb", gz(t, make([]byte, inflateAllowed+1<<20)), "in.gz: decompresses to more than 500 times its compressed size"},
	} {
		got, err := readText(context.Background(), tc.src)
		switch {
		case tc.want == "" && (err != nil || !bytes.Equal(got, text)):
			t.Errorf("%s: %d bytes, %v; want the text back", tc.name, len(got), err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range [][]byte{text, whole} {
		if _, err := readText(ctx, src); !errors.Is(err, context.Canceled) {
			t.Errorf("read under a cancelled context: %v, want context.Canceled", err)
		}
	}
}
