package jsonreport

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/sim/result"
)

// Options control what the export holds.
type Options struct {
	// PerProc adds each interval's per-processor values ("procs").
	PerProc bool
}

// Document is the exported document. Its field order is the key order of
// the JSON output.
type Document struct {
	Run       RunInfo    `json:"run"`
	Intervals []Interval `json:"intervals"`
}

// RunInfo is the configuration of a run. Absent references and overrides
// are null rather than 0, as in the store.
type RunInfo struct {
	ID         int64     `json:"id"`
	Kind       string    `json:"kind"`
	TraceID    *int64    `json:"trace_id"`
	StsID      *int64    `json:"sts_id"`
	SweepID    *int64    `json:"sweep_id"`
	Program    string    `json:"program"`
	Machine    *string   `json:"machine"`
	MachineID  *int64    `json:"machine_id"`
	Grid       string    `json:"grid"` // e.g. "2x2"
	Dims       []int     `json:"dims"` // e.g. [2, 2]
	Procs      int       `json:"procs"`
	Network    *string   `json:"network"`
	TStart     *float64  `json:"tstart_us"` // µs; null: from the machine file
	TByte      *float64  `json:"tbyte_us"`  // µs/byte; null: from the machine file
	Power      *float64  `json:"power"`     // null: from the machine file
	Options    []string  `json:"options"`
	ReportRoot int       `json:"report_root"`
	Warnings   []Warning `json:"warnings"`
}

// Warning is a counted diagnostic of the run.
type Warning struct {
	Message string `json:"message"`
	Count   int    `json:"count"`
}

// Interval is one node of the interval tree.
type Interval struct {
	ID              int             `json:"id"`
	Parent          *int            `json:"parent"` // null for the root
	Type            string          `json:"type"`
	Level           int             `json:"level"`
	Count           int64           `json:"count"`
	Line            int             `json:"line"`
	Expr            *int64          `json:"expr"` // null when none
	File            string          `json:"file"`
	Characteristics Characteristics `json:"characteristics"`
	// Comparative holds, for every characteristic that is not zero on all
	// processors, its minimum, maximum and mean over the processors (the
	// analyzer's comparative characteristics); absent when the run stored
	// no per-processor values.
	Comparative []Comparative `json:"comparative,omitempty"`
	Procs       []Proc        `json:"procs,omitempty"`
}

// Comparative is one comparative characteristic: the first processor with
// the minimum and the last with the maximum, 0-based.
type Comparative struct {
	Name    string  `json:"name"`
	Min     float64 `json:"min"`
	MinProc int     `json:"min_proc"`
	Max     float64 `json:"max"`
	MaxProc int     `json:"max_proc"`
	Mean    float64 `json:"mean"`
}

// Proc holds one processor's values of an interval.
type Proc struct {
	Proc            int             `json:"proc"` // 0-based
	Characteristics Characteristics `json:"characteristics"`
}

// Write writes run as indented JSON.
func Write(w io.Writer, run *result.Run, opt Options) error {
	rep, err := Build(run, opt)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// Build makes the document of run.
func Build(run *result.Run, opt Options) (*Document, error) {
	if run.Kind != result.Predicted && run.Kind != result.Measured {
		return nil, fmt.Errorf("run %d: kind %q (expected %q or %q)", run.ID, run.Kind, result.Predicted, result.Measured)
	}
	tree, err := preorder(run)
	if err != nil {
		return nil, err
	}
	rep := &Document{Run: runInfo(run), Intervals: make([]Interval, 0, len(tree))}
	for _, iv := range tree {
		out, err := interval(iv, run.Kind, opt)
		if err != nil {
			return nil, fmt.Errorf("run %d: interval %d: %w", run.ID, iv.ID, err)
		}
		rep.Intervals = append(rep.Intervals, out)
	}
	return rep, nil
}

// preorder lists the intervals by walking the tree from its root, so the
// order does not depend on how the run listed them.
func preorder(run *result.Run) ([]*result.Interval, error) {
	if err := run.CheckTree(); err != nil {
		return nil, err
	}
	return run.Subtree(run.Intervals[0].ID), nil
}

func runInfo(run *result.Run) RunInfo {
	c := run.Config
	info := RunInfo{
		ID: run.ID, Kind: string(run.Kind), Program: run.Program,
		TraceID: nonZero(run.TraceID), StsID: nonZero(run.StsID), SweepID: nonZero(run.SweepID),
		Machine: nonEmpty(c.Machine), MachineID: nonZero(c.MachineID),
		Grid: result.GridString(c.Grid), Dims: append([]int{}, c.Grid...), Procs: c.Procs(),
		Network: nonEmpty(c.Network), TStart: nonZero(result.Micros(c.TStart)), TByte: nonZero(result.Micros(c.TByte)), Power: nonZero(c.Power),
		Options: append([]string{}, c.Options...), ReportRoot: run.ReportRoot,
		Warnings: make([]Warning, len(run.Warnings)),
	}
	for i, w := range run.Warnings {
		info.Warnings[i] = Warning{w.Message, w.Count}
	}
	return info
}

func interval(iv *result.Interval, kind result.Kind, opt Options) (Interval, error) {
	out := Interval{
		ID: iv.ID, Parent: nonZero(iv.Parent), Type: string(iv.Type), Level: iv.Level,
		Count: iv.Count, Line: iv.Line, Expr: iv.Expr, File: iv.File,
		Characteristics: charsOf(&iv.Values, kind),
	}
	if err := out.Characteristics.check(); err != nil {
		return out, err
	}
	out.Comparative = comparative(iv, kind)
	if !opt.PerProc {
		return out, nil
	}
	for i := range iv.Procs {
		p := &iv.Procs[i]
		cs := charsOf(p.Values, kind)
		if err := cs.check(); err != nil {
			return out, fmt.Errorf("processor %d: %w", p.Proc, err)
		}
		out.Procs = append(out.Procs, Proc{p.Proc, cs})
	}
	return out, nil
}

func nonZero[T int | int64 | float64](v T) *T {
	if v == 0 {
		return nil
	}
	return &v
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func comparative(iv *result.Interval, kind result.Kind) []Comparative {
	stats, ok := iv.Comparatives()
	if !ok {
		return nil
	}
	var out []Comparative
	for _, c := range applicable(kind) {
		s := stats[c]
		if s.Min == 0 && s.Max == 0 {
			continue
		}
		out = append(out, Comparative{c.String(), s.Min, s.MinProc, s.Max, s.MaxProc, s.Mean})
	}
	return out
}
