// Package machinefile reads the machine files of the Predictor
// (Predictor.par) into the machine model of sim/machine: it parses both the cluster-tree format of Predictor 3.1 (docs/model.md §1.2-§1.3)
// and the flat format of the 2000 design (seed 000 §2.4) into one tree of
// clusters whose leaves are the processors.
//
// The cluster format follows the original's semantics: keywords and names
// are case-insensitive, statements end with ';' and may span lines,
// attribute statements (NAME.tstart, NAME.tbyte, NAME.commtype) apply only
// to clusters defined earlier in the file, a tstart/tbyte of 0 is ignored,
// the first definition of a name wins. Times are written in microseconds and
// stored in seconds. A sub-cluster that is never defined (the original: a
// processor of undefined power) is refused, as are a power, a TStart or a
// TByte outside its physical range (sim/machine's PowerRange, TStartRange,
// TByteRange), each with the unit.
//
// Where the original only said "Syntax error N", Parse returns an *Error
// naming the file, line, column and what was expected. A few original errors
// whose meaning is clear are accepted instead (see Parse).
package machinefile
