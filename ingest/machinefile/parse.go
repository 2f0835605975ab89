package machinefile

import (
	"github.com/presage-dvm/presage/sim/machine"
	"github.com/presage-dvm/presage/sim/result"
)

import (
	"io"
	"strings"
)

// Parse reads a machine file of either format, detected from its statements:
// a "cluster = NAME;" statement means the cluster format, keys of the flat
// format (type, start time, send byte time, topology, ...) without one mean
// the flat format. file names the input in errors and warnings.
//
// Deliberate differences from the original, each accepting a file the
// original rejected where the meaning is clear:
//   - "//" comments may end a line (the original allows whole-line comments only);
//   - blanks are allowed around every punctuation mark, and '=' ends a name,
//     so "a=1;" and "c . tstart = 5;" read as written;
//   - "cluster" and "search" are keywords only as whole words (the original
//     takes every statement starting with them as the keyword, so a cluster
//     named cluster1 was unusable);
//   - a UTF-8 byte order mark is skipped;
//   - the flat format of 2000 is read (the original says "Syntax error 3").
//
// And some files the original accepted with undefined or fatal later
// behaviour are refused with a located error: an undefined root cluster, a
// cluster containing itself, a processor power of 0, myrinet (0), more than
// result.MaxProcessors processors, a reference X.commtype to an undefined
// X. "myrinet(4)" without a blank is kept as the original reads it (an
// unknown type with 1 channel) and reported in Machine.Warnings, as are
// ignored statements.
func Parse(r io.Reader, file string) (*machine.Machine, error) {
	return parse(r, file, result.MaxProcessors)
}

// parse is Parse with a bound on the number of processors (smaller in the
// fuzz target, to keep its executions fast).
func parse(r io.Reader, file string, maxProcs int) (*machine.Machine, error) {
	src, err := readSource(r, file)
	if err != nil {
		return nil, err
	}
	s := &scanner{src: src, maxProcs: maxProcs}
	if isFlat(src.b) {
		return parseFlat(s)
	}
	return parseCluster(s)
}

// flatKeys are the statement heads that exist only in the flat format.
var flatKeys = map[string]bool{
	"type": true, "start": true, "send": true, "topology": true,
	"scale": true, "weight": true, "procpowers": true, "mapping": true,
}

func isFlat(buf []byte) bool {
	flat := false
	for _, st := range strings.Split(string(buf), ";") {
		head := strings.TrimLeft(st, " ")
		if k := strings.IndexAny(head, " .=,{}"); k >= 0 {
			head = head[:k]
		}
		if head == "cluster" {
			return false
		}
		if flatKeys[head] {
			flat = true
		}
	}
	return flat
}
