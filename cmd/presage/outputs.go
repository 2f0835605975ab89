package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/ingest/tracegen"
	"github.com/presage-dvm/presage/internal/outfile"
)

// outputFlags are the flags of the commands that write files.
type outputFlags struct {
	Force bool `help:"Replace an existing output file that is not an earlier output of the same kind (never the store, nor an input of the command)."`
}

// outputs returns the guard of a command's outputs: never the store
// (--db, with its -wal and -shm), nor any of inputs, given as pairs of a
// flag and its path; force replaces files of other kinds.
func (g *Globals) outputs(force bool, inputs ...string) *outfile.Guard {
	guard := &outfile.Guard{Force: force}
	guard.KeepStore(g.DB)
	for i := 0; i+1 < len(inputs); i += 2 {
		guard.Keep(inputs[i+1], "an input of the command ("+inputs[i]+" "+inputs[i+1]+")")
	}
	return guard
}

// writeOutput writes to standard output for "-" (or no path), else to
// the file t names, through guard.
func writeOutput(ctx context.Context, guard *outfile.Guard, t outfile.Target, write func(io.Writer) error) error {
	if t.Path == "-" || t.Path == "" {
		w := bufio.NewWriter(os.Stdout)
		if err := write(w); err != nil {
			return err
		}
		return w.Flush()
	}
	return guard.WriteFile(ctx, t, write)
}

// htmlTarget is the HTML page --out names, else the command's default
// name def.
func htmlTarget(out, def string) outfile.Target {
	if out == "" {
		return outfile.Target{Path: def, Kind: kindHTML}
	}
	return outfile.Target{Path: out, Flag: "--out", Kind: kindHTML}
}

// checkOutput is guard.Check for a file path, nothing for standard
// output: the check a command makes before its work.
func checkOutput(guard *outfile.Guard, t outfile.Target) error {
	if t.Path == "-" || t.Path == "" {
		return nil
	}
	return guard.Check(t)
}

// The kinds of output files, each told by what its writer puts first
// (nothing is added for the purpose: the analyzer's reports are
// compared byte for byte with the original's).
var (
	// kindHTML: every HTML page (exports/internal/htmlstyle's pages, the orders
	// and calibration reports) names Presage as its generator.
	kindHTML = outfile.Kind{Name: "an HTML report", Is: func(_ string, head []byte) bool {
		return bytes.Contains(head, []byte(`<meta name="generator" content="Presage"`))
	}}
	kindRunJSON     = jsonKind("a JSON report", json.Delim('{'), "run", json.Delim('{'), "id")
	kindCompareJSON = jsonKind("a JSON comparison", json.Delim('{'), "measured", json.Delim('{'), "run_id")
	kindFitJSON     = jsonKind("a JSON fit report", json.Delim('{'), "program", anyToken, "host")
	kindCompareText = prefixKind("a comparison", "Predicted vs measured: ")
	kindFitText     = prefixKind("a fit report", "Fit of ")
	// kindAnalyzerText is report text's: the analyzer's report, which
	// names Presage as the analyzer on its third line.
	kindAnalyzerText = outfile.Kind{Name: "an analyzer's report", Is: func(_ string, head []byte) bool {
		return bytes.HasPrefix(head, []byte("Processor system=")) && bytes.Contains(head, []byte("\nAnalyzer is executing on Presage"))
	}}
	// kindAnalyzerJSON is report text --format json's, the original
	// analyzer's JSON, which has no mark of its writer.
	kindAnalyzerJSON = jsonKind("an analyzer's JSON report", json.Delim('{'), "inter", json.Delim('['))
	kindPerfetto     = outfile.Kind{Name: "a Perfetto timeline", Is: func(_ string, head []byte) bool {
		return bytes.Contains(head, []byte(`"otherData":{"generator":"Presage"`))
	}}
	kindTrace = outfile.Kind{Name: "a generated trace", Is: func(_ string, head []byte) bool {
		return tracegen.Generated(decompressedHead(head))
	}}
	kindOrderTrace = outfile.Kind{Name: "a generated order trace", Is: func(_ string, head []byte) bool {
		return ordergen.Generated(decompressedHead(head))
	}}
	kindDemoMachine = outfile.Kind{Name: "the demo's machine file", Is: func(_ string, head []byte) bool {
		return len(head) > 0 && bytes.HasPrefix(demoMachine, head)
	}}
)

// paraverMark starts the .pcf of every Paraver timeline Presage writes;
// the .prv and .row, whose formats leave no room for a mark, are told by
// the .pcf beside them.
const paraverMark = "# Presage timeline:"

// kindParaver is the kind of a Paraver timeline's file with extension
// ext (".prv", ".pcf" or ".row").
func kindParaver(ext string) outfile.Kind {
	return outfile.Kind{Name: "a Paraver timeline", Is: func(path string, head []byte) bool {
		if ext == ".pcf" {
			return bytes.HasPrefix(head, []byte(paraverMark))
		}
		first := map[string]string{".prv": "#Paraver (", ".row": "LEVEL "}[ext]
		pcf := strings.TrimSuffix(path, ext) + ".pcf"
		return bytes.HasPrefix(head, []byte(first)) && bytes.HasPrefix(fileHead(pcf), []byte(paraverMark))
	}}
}

// prefixKind is a kind of text whose first bytes are prefix.
func prefixKind(name, prefix string) outfile.Kind {
	return outfile.Kind{Name: name, Is: func(_ string, head []byte) bool { return bytes.HasPrefix(head, []byte(prefix)) }}
}

// jsonKind is a kind of JSON document whose first tokens are tokens:
// json.Delim, keys, and anyToken for any one value that is not an object
// or an array.
func jsonKind(name string, tokens ...json.Token) outfile.Kind {
	return outfile.Kind{Name: name, Is: func(_ string, head []byte) bool {
		dec := json.NewDecoder(bytes.NewReader(head))
		for _, want := range tokens {
			tok, err := dec.Token()
			if err != nil || want != anyToken && tok != want {
				return false
			}
		}
		return true
	}}
}

// anyToken stands for any value in jsonKind's tokens.
var anyToken json.Token = struct{ any bool }{true}

// decompressedHead is head, or the first bytes it decompresses to when
// it starts a gzip stream.
func decompressedHead(head []byte) []byte {
	if !bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		return head
	}
	zr, err := gzip.NewReader(bytes.NewReader(head))
	if err != nil {
		return nil
	}
	out := make([]byte, outfile.HeadBytes)
	n, _ := io.ReadFull(zr, out) // a head ends mid-stream: what came out is enough
	return out[:n]
}

// fileHead is the first bytes of the file at path, nil if none.
func fileHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	return head[:n]
}
