package tracegen

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Write writes the trace opt describes to w and returns the number of
// traced calls in its body (the call/ret pairs between ret_dvm_Init and
// Event_dvm_exit: what a trace reader yields).
func Write(w io.Writer, opt Options) (calls int, err error) {
	opt, err = opt.normalize()
	if err != nil {
		return 0, err
	}
	calls, err = generate(w, opt)
	if err != nil {
		return calls, fmt.Errorf("tracegen: writing the %s trace: %w", opt.Program, err)
	}
	return calls, nil
}

// WriteFile writes the trace to path, gzip-compressed when path ends in
// ".gz" (the Predictor reads both). A file that could not be written
// completely is removed.
func WriteFile(path string, opt Options) (calls int, err error) {
	opt, err = opt.normalize()
	if err != nil {
		return 0, err
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, fmt.Errorf("tracegen: %w", err)
	}
	var w io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		// The fastest level: traces compress about 15:1 even so, and the
		// default level would triple the generation time.
		zw, _ = gzip.NewWriterLevel(f, gzip.BestSpeed)
		w = zw
	}
	calls, err = generate(w, opt)
	if zw != nil {
		err = errors.Join(err, zw.Close())
	}
	err = errors.Join(err, f.Close())
	if err != nil {
		os.Remove(path)
		return calls, fmt.Errorf("tracegen: writing %s: %w", path, err)
	}
	return calls, nil
}

// generate writes the trace of a normalized opt.
func generate(w io.Writer, opt Options) (int, error) {
	file := jacFile
	if opt.Program == Gauss {
		file = gauFile
	}
	e := newEmitter(w, file, opt.Seed)
	switch opt.Program {
	case Jacobi:
		writeJacobi(e, opt)
	case Gauss:
		writeGauss(e, opt)
	}
	return e.calls, e.flush()
}

// Generated reports whether head, the first bytes of a trace, is of a
// trace this package wrote: the run-time system's first line, then the
// first event's FILE= naming one of the model programs' sources. A real
// trace of a program whose source is jacobi.fdv or gauss.fdv looks
// generated too.
func Generated(head []byte) bool {
	s := string(head)
	if !strings.HasPrefix(s, "RTS VERSION = ") {
		return false
	}
	i := strings.Index(s, "FILE=")
	if i < 0 {
		return false
	}
	file, _, _ := strings.Cut(s[i+len("FILE="):], "\n")
	file = strings.TrimSpace(file)
	return file == jacFile || file == gauFile
}
