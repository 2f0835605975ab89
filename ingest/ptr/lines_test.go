package ptr

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/presage-dvm/presage/sim/trace"
)

// referenceLines is Reader.readRaw as it was before lineReader: bufio's
// ReadSlice, the pieces of a long line joined, a NUL byte looked for in
// each line.
type referenceLines struct {
	r      *Reader
	br     *bufio.Reader
	long   []byte
	lineNo int
	nbytes int64
}

func (l *referenceLines) readRaw() ([]byte, error) {
	raw, err := l.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		l.long = append(l.long[:0], raw...)
		for err == bufio.ErrBufferFull && len(l.long) <= maxLine {
			raw, err = l.br.ReadSlice('\n')
			l.long = append(l.long, raw...)
		}
		if len(l.long) > maxLine {
			return nil, l.r.errorf(l.lineNo+1, nil, "line longer than %d bytes: not a trace", maxLine)
		}
		raw = l.long
	}
	if err != nil && err != io.EOF {
		return nil, l.r.errorf(l.lineNo+1, err, "read error: %v", err)
	}
	if len(raw) == 0 {
		return nil, io.EOF
	}
	l.lineNo++
	l.nbytes += int64(len(raw))
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		return nil, l.r.errorf(l.lineNo, nil, "not a Lib-DVM trace: NUL byte at column %d, expected text (a damaged or padded file?)", i+1)
	}
	if raw[len(raw)-1] == '\n' {
		raw = raw[:len(raw)-1]
	}
	if len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	return raw, nil
}

// rawLines reads text with readRaw, with a line buffer of size bytes to
// begin with, until an error, through src made from text by wrap, and
// describes each line and the final error.
func rawLines(text string, size int, wrap func(io.Reader) io.Reader) []string {
	r := &Reader{name: "lines.ptr", lines: newLineReader(wrap(strings.NewReader(text)), size)}
	return describeLines(r.readRaw, func() (int, int64) { return r.lineNo, r.nbytes })
}

// referenceRawLines is rawLines with referenceLines.
func referenceRawLines(text string, wrap func(io.Reader) io.Reader) []string {
	l := &referenceLines{r: &Reader{name: "lines.ptr"}, br: bufio.NewReaderSize(wrap(strings.NewReader(text)), bufSize)}
	return describeLines(l.readRaw, func() (int, int64) { return l.lineNo, l.nbytes })
}

func describeLines(readRaw func() ([]byte, error), counts func() (int, int64)) []string {
	var out []string
	for {
		raw, err := readRaw()
		line, n := counts()
		if err != nil {
			return append(out, fmt.Sprintf("error %v (line %d, %d bytes)", err, line, n))
		}
		// Long lines are described by their length and ends.
		if len(raw) > 64 {
			raw = append(append(raw[:20:20], fmt.Sprintf("...(%d)...", len(raw))...), raw[len(raw)-20:]...)
		}
		out = append(out, fmt.Sprintf("%q (line %d, %d bytes)", raw, line, n))
	}
}

// errTest is a read error that is not io.EOF.
var errTest = errors.New("test read error")

// wrappers are sources of the same text in different pieces.
var wrappers = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one byte": iotest.OneByteReader,
	"halves":   iotest.HalfReader,
	"data+EOF": iotest.DataErrReader,
	"error": func(r io.Reader) io.Reader {
		return io.MultiReader(r, iotest.ErrReader(errTest))
	},
}

// checkLines checks that readRaw splits text as referenceLines does,
// with line buffers of the sizes given, whatever pieces text comes in.
func checkLines(t *testing.T, text string, sizes ...int) {
	t.Helper()
	for name, wrap := range wrappers {
		want := strings.Join(referenceRawLines(text, wrap), "\n")
		for _, size := range sizes {
			if got := strings.Join(rawLines(text, size, wrap), "\n"); got != want {
				t.Fatalf("%s, buffer of %d: lines of %.80q:\n%s\nwant\n%s", name, size, text, got, want)
			}
		}
	}
}

// TestLineReaderLong checks lines around maxLine and the buffer sizes, at
// the end of the text or not, and with a NUL byte or a read error behind.
func TestLineReaderLong(t *testing.T) {
	for _, n := range []int{lineBufSize - 1, lineBufSize, lineBufSize + 1, bufSize*3 + 7,
		maxLine - 2, maxLine - 1, maxLine, maxLine + 1, 2*maxLine + 3} {
		long := strings.Repeat("x", n)
		for _, text := range []string{
			long, long + "\n", long + "\r\n", "a\n" + long + "\nb\n",
			"a\n" + long + "\x00\nb", long[:n/2] + "\x00" + long[n/2:] + "\n", "\n\n" + long,
		} {
			t.Run(fmt.Sprint(n), func(t *testing.T) { checkLines(t, text, lineBufSize, 1000) })
		}
	}
}

// TestLineReaderNoProgress checks a source that returns nothing forever.
func TestLineReaderNoProgress(t *testing.T) {
	r := &Reader{name: "lines.ptr", lines: newLineReader(emptyReader{}, lineBufSize)}
	if _, err := r.readRaw(); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("readRaw = %v, want io.ErrNoProgress", err)
	}
}

type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// FuzzLineReader checks that readRaw splits any text as it did with
// bufio, whatever pieces the text comes in. Small line buffers have their
// refills, moves and growth on the short texts of fuzzing.
func FuzzLineReader(f *testing.F) {
	f.Add(mini)
	f.Add("a\r\n\r\n\n\x00b\n")
	f.Add("no end")
	f.Add("\n\n\n")
	f.Fuzz(func(t *testing.T, text string) { checkLines(t, text, 1, 7, 64) })
}

// TestDrain checks the tail after the Event_ line, within the line
// buffer and beyond it: its size is counted, a NUL byte in it is found on
// its line, a read error in it is reported.
func TestDrain(t *testing.T) {
	for _, tail := range []int{0, 10, 100000} { // lines of tail
		text := mini + strings.Repeat("SystemTime=0.1;\n", tail)
		t.Run(fmt.Sprintf("%d lines", tail), func(t *testing.T) {
			r, _ := readAllString(t, text)
			if r.TextBytes() != int64(len(text)) {
				t.Errorf("TextBytes = %d, want %d", r.TextBytes(), len(text))
			}
			nul := text + "x\x00\n"
			wantLine := strings.Count(nul, "\n")
			if err := readErr(nul); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("bad.ptr:%d: NUL byte after the Event_ line", wantLine)) {
				t.Errorf("NUL at line %d: error %v", wantLine, err)
			}
			rd, err := NewReader(io.MultiReader(strings.NewReader(text), iotest.ErrReader(errTest)), "bad.ptr")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := trace.ReadAll(rd); !errors.Is(err, errTest) || !strings.Contains(err.Error(), "read error after the Event_ line") {
				t.Errorf("read error after the end: error %v", err)
			}
		})
	}
}
