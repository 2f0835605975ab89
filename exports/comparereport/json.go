package comparereport

import (
	"encoding/json"
	"io"
	"math"

	"github.com/presage-dvm/presage/internal/ordercompare"
	"github.com/presage-dvm/presage/sim/compare"
)

// The JSON document. Undefined numbers (a relative error without a
// measured value, the MAPE without matched times) are null: JSON has no
// NaN. Relative errors and the MAPE are fractions (0.25 is 25 %).

type jsonDoc struct {
	Measured           jsonSide    `json:"measured"`
	Predicted          jsonSide    `json:"predicted"`
	Characteristics    []string    `json:"characteristics"`
	Matches            []jsonMatch `json:"matches"`
	UnmatchedMeasured  []jsonRef   `json:"unmatched_measured"`
	UnmatchedPredicted []jsonRef   `json:"unmatched_predicted"`
	Summary            jsonSummary `json:"summary"`
	Warnings           []string    `json:"warnings"`
	Orders             *jsonOrders `json:"orders,omitempty"` // two orders runs only
}

// jsonOrders is the order-by-order comparison: the worst orders only (as
// many as Report.Worst), every unmatched subtree's root.
type jsonOrders struct {
	Measured           jsonOrderSide     `json:"measured"`
	Predicted          jsonOrderSide     `json:"predicted"`
	Makespan           jsonPair          `json:"makespan"`
	Procedures         []jsonProc        `json:"procedures"`
	Worst              []jsonOrderMatch  `json:"worst"`
	UnmatchedMeasured  []jsonUnmatched   `json:"unmatched_measured"`
	UnmatchedPredicted []jsonUnmatched   `json:"unmatched_predicted"`
	Summary            jsonOrdersSummary `json:"summary"`
	Warnings           []string          `json:"warnings"`
}

type jsonOrderSide struct {
	RunID     int64   `json:"run_id"`
	Kind      string  `json:"kind"`
	Program   string  `json:"program"`
	Scheduler string  `json:"scheduler"`
	Migrate   bool    `json:"migrate"`
	Nodes     int     `json:"nodes"`
	Makespan  float64 `json:"makespan"`
	Orders    int     `json:"orders"` // with per-order rows
}

type jsonPair struct {
	Measured  *float64 `json:"measured"`
	Predicted *float64 `json:"predicted"`
	AbsErr    *float64 `json:"abs_error"`
	RelErr    *float64 `json:"rel_error"`
}

type jsonProc struct {
	Proc              string   `json:"proc"`
	Matched           int      `json:"matched"`
	Orders            jsonPair `json:"orders"`
	MeanDuration      jsonPair `json:"mean_duration"`
	SDDuration        jsonPair `json:"sd_duration"`
	Work              jsonPair `json:"work"`
	MeasuredPathTime  float64  `json:"measured_path_time"`
	PredictedPathTime float64  `json:"predicted_path_time"`
}

type jsonOrderMatch struct {
	Measured  jsonOrder `json:"measured"`
	Predicted jsonOrder `json:"predicted"`
	Start     jsonPair  `json:"start"`
	End       jsonPair  `json:"end"`
	Duration  jsonPair  `json:"duration"`
	Work      jsonPair  `json:"work"`
}

type jsonOrder struct {
	Order  int64   `json:"order"`
	Proc   string  `json:"proc"`
	Parent int64   `json:"parent"`
	Child  int     `json:"child"`
	Node   int     `json:"node"`
	Ready  float64 `json:"ready"`
	Start  float64 `json:"start"`
	End    float64 `json:"end"`
	Wait   float64 `json:"wait"`
}

type jsonUnmatched struct {
	jsonOrder
	Subtree int    `json:"subtree"`
	Reason  string `json:"unmatched_reason"`
}

type jsonOrdersSummary struct {
	Matched            int      `json:"matched"`
	UnmatchedMeasured  int      `json:"unmatched_measured"`
	UnmatchedPredicted int      `json:"unmatched_predicted"`
	DurationMAPE       *float64 `json:"duration_mape"`
	DurationCount      int      `json:"duration_mape_orders"`
}

type jsonSide struct {
	RunID   int64      `json:"run_id"`
	Kind    string     `json:"kind"`
	Program string     `json:"program"`
	Machine string     `json:"machine,omitempty"`
	Grid    string     `json:"grid"`
	Root    jsonRef    `json:"report_root"`
	Size    int        `json:"intervals"`
	Facts   []jsonFact `json:"machine_facts"`
}

type jsonFact struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

type jsonRef struct {
	ID            int      `json:"id"`
	Type          string   `json:"type"`
	File          string   `json:"file"`
	Line          int      `json:"line"`
	Expr          *int64   `json:"expr"`
	Level         int      `json:"level"`
	Depth         int      `json:"depth"`
	Count         int64    `json:"count"`
	ExecutionTime *float64 `json:"execution_time"`
	Reason        string   `json:"unmatched_reason,omitempty"`
}

type jsonMatch struct {
	Measured  jsonRef     `json:"measured"`
	Predicted jsonRef     `json:"predicted"`
	By        string      `json:"matched_by"`
	Values    []jsonValue `json:"values"`
}

type jsonValue struct {
	Char string `json:"characteristic"`
	jsonPair
}

type jsonSummary struct {
	Matched            int      `json:"matched"`
	UnmatchedMeasured  int      `json:"unmatched_measured"`
	UnmatchedPredicted int      `json:"unmatched_predicted"`
	MAPE               *float64 `json:"execution_time_mape"`
	MAPECount          int      `json:"execution_time_mape_intervals"`
}

// WriteJSON writes r as one indented JSON document.
func WriteJSON(w io.Writer, r *Report) error {
	c := r.Comparison
	doc := jsonDoc{
		Measured:           toJSONSide(c.Measured),
		Predicted:          toJSONSide(c.Predicted),
		Characteristics:    make([]string, len(compare.Chars)),
		Matches:            make([]jsonMatch, len(c.Matches)),
		UnmatchedMeasured:  toJSONRefs(c.UnmatchedMeasured),
		UnmatchedPredicted: toJSONRefs(c.UnmatchedPredicted),
		Summary: jsonSummary{
			Matched: c.Summary.Matched, UnmatchedMeasured: c.Summary.UnmatchedMeasured,
			UnmatchedPredicted: c.Summary.UnmatchedPredicted,
			MAPE:               finite(c.Summary.MAPE), MAPECount: c.Summary.MAPECount,
		},
		Warnings: append([]string{}, c.Warnings...),
	}
	for i, ch := range compare.Chars {
		doc.Characteristics[i] = ch.String()
	}
	for i, m := range c.Matches {
		jm := jsonMatch{Measured: toJSONRef(m.Measured), Predicted: toJSONRef(m.Predicted), By: string(m.By)}
		for _, v := range m.Values {
			jm.Values = append(jm.Values, jsonValue{Char: v.Char.String(),
				jsonPair: toJSONPair(ordercompare.Pair{Measured: v.Measured, Predicted: v.Predicted, AbsErr: v.AbsErr, RelErr: v.RelErr})})
		}
		doc.Matches[i] = jm
	}
	if r.Orders != nil {
		doc.Orders = toJSONOrders(r.Orders, r.Worst)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func toJSONSide(s compare.Side) jsonSide {
	return jsonSide{
		RunID: s.RunID, Kind: string(s.Kind), Program: s.Program, Machine: s.Machine, Grid: s.Grid,
		Root: toJSONRef(s.Root), Size: s.Size, Facts: toJSONFacts(s.MachineFacts),
	}
}

func toJSONFacts(fs []compare.Fact) []jsonFact {
	out := make([]jsonFact, len(fs))
	for i, f := range fs {
		out[i] = jsonFact(f)
	}
	return out
}

func toJSONRefs(refs []compare.Ref) []jsonRef {
	out := make([]jsonRef, len(refs))
	for i, r := range refs {
		out[i] = toJSONRef(r)
	}
	return out
}

func toJSONRef(r compare.Ref) jsonRef {
	return jsonRef{
		ID: r.ID, Type: string(r.Type), File: r.File, Line: r.Line, Expr: r.Expr,
		Level: r.Level, Depth: r.Depth, Count: r.Count, ExecutionTime: finite(r.Exec), Reason: r.Reason,
	}
}

// finite returns v, or nil when JSON cannot hold it.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func toJSONOrders(o *ordercompare.Comparison, worst int) *jsonOrders {
	side := func(s ordercompare.Side) jsonOrderSide {
		return jsonOrderSide{RunID: s.RunID, Kind: string(s.Kind), Program: s.Program, Scheduler: s.Scheduler, Migrate: s.Migrate,
			Nodes: s.Nodes, Makespan: s.Makespan, Orders: s.Orders}
	}
	unmatched := func(us []ordercompare.Unmatched) []jsonUnmatched {
		out := make([]jsonUnmatched, len(us))
		for i, u := range us {
			out[i] = jsonUnmatched{jsonOrder: jsonOrder(u.Order), Subtree: u.Subtree, Reason: u.Reason}
		}
		return out
	}
	s := o.Summary
	doc := &jsonOrders{Measured: side(o.Measured), Predicted: side(o.Predicted), Makespan: toJSONPair(o.Makespan),
		Procedures: make([]jsonProc, len(o.Procs)), Worst: []jsonOrderMatch{},
		UnmatchedMeasured: unmatched(o.UnmatchedMeasured), UnmatchedPredicted: unmatched(o.UnmatchedPredicted),
		Summary: jsonOrdersSummary{Matched: s.Matched, UnmatchedMeasured: s.UnmatchedMeasured, UnmatchedPredicted: s.UnmatchedPredicted,
			DurationMAPE: finite(s.DurationMAPE), DurationCount: s.DurationCount},
		Warnings: append([]string{}, o.Warnings...)}
	for i, p := range o.Procs {
		doc.Procedures[i] = jsonProc{Proc: p.Name, Matched: p.Matched, Orders: toJSONPair(p.Orders), MeanDuration: toJSONPair(p.MeanDuration),
			SDDuration: toJSONPair(p.SDDuration), Work: toJSONPair(p.Work),
			MeasuredPathTime: p.Measured.PathTime, PredictedPathTime: p.Predicted.PathTime}
	}
	for _, m := range o.Worst(worst) {
		doc.Worst = append(doc.Worst, jsonOrderMatch{Measured: jsonOrder(m.Measured), Predicted: jsonOrder(m.Predicted),
			Start: toJSONPair(m.Start), End: toJSONPair(m.End), Duration: toJSONPair(m.Duration), Work: toJSONPair(m.Work)})
	}
	return doc
}

func toJSONPair(p ordercompare.Pair) jsonPair {
	return jsonPair{Measured: finite(p.Measured), Predicted: finite(p.Predicted), AbsErr: finite(p.AbsErr), RelErr: finite(p.RelErr)}
}
