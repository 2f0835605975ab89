package comparereport

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/presage-dvm/presage/internal/comparetest"
	"github.com/presage-dvm/presage/sim/compare"
)

func TestWriteJSON(t *testing.T) {
	c := comparetest.MustCompare(t, comparetest.JacMeasured(8, 2, 0, 4, 2), comparetest.JacPredicted(10, 1, 1, 3, 2))
	b := render(t, c, WriteJSON)
	var doc struct {
		Measured, Predicted struct {
			Kind       string `json:"kind"`
			Grid       string `json:"grid"`
			ReportRoot struct {
				ID   int    `json:"id"`
				Type string `json:"type"`
			} `json:"report_root"`
			Facts []struct {
				Label string `json:"label"`
				Value string `json:"value"`
			} `json:"machine_facts"`
		}
		Characteristics []string `json:"characteristics"`
		Matches         []struct {
			Measured  struct{ ID int } `json:"measured"`
			Predicted struct{ ID int } `json:"predicted"`
			By        string           `json:"matched_by"`
			Values    []struct {
				Char      string   `json:"characteristic"`
				Measured  *float64 `json:"measured"`
				Predicted *float64 `json:"predicted"`
				AbsErr    *float64 `json:"abs_error"`
				RelErr    *float64 `json:"rel_error"`
			} `json:"values"`
		} `json:"matches"`
		UnmatchedMeasured []any `json:"unmatched_measured"`
		Summary           struct {
			Matched   int      `json:"matched"`
			MAPE      *float64 `json:"execution_time_mape"`
			MAPECount int      `json:"execution_time_mape_intervals"`
		} `json:"summary"`
		Warnings []string `json:"warnings"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Characteristics) != len(compare.Chars) || doc.Characteristics[1] != "Execution_time" {
		t.Errorf("characteristics %v", doc.Characteristics)
	}
	if doc.Measured.Kind != "measured" || doc.Predicted.ReportRoot.ID != 2 || doc.Predicted.ReportRoot.Type != "Seq" ||
		len(doc.Predicted.Facts) < 2 || doc.Predicted.Facts[0].Label != "Processes" || doc.Predicted.Facts[0].Value != "4" {
		t.Errorf("sides %+v / %+v", doc.Measured, doc.Predicted)
	}
	if len(doc.Matches) != 5 || doc.Matches[0].By != "main" || doc.Matches[0].Predicted.ID != 2 || doc.Matches[0].Measured.ID != 1 {
		t.Fatalf("matches %+v", doc.Matches)
	}
	exec := doc.Matches[0].Values[1]
	if exec.Char != "Execution_time" || *exec.Measured != 8 || *exec.Predicted != 10 || *exec.AbsErr != 2 || *exec.RelErr != 0.25 {
		t.Errorf("root execution time %+v", exec)
	}
	// Seq 22 was measured at 0: its relative error is null, not NaN.
	if zero := doc.Matches[2].Values[1]; zero.RelErr != nil || zero.Measured == nil || *zero.Measured != 0 {
		t.Errorf("zero measured value %+v, want rel_error null", zero)
	}
	if doc.Summary.Matched != 5 || doc.Summary.MAPECount != 4 || doc.Summary.MAPE == nil || *doc.Summary.MAPE != 0.25 {
		t.Errorf("summary %+v", doc.Summary)
	}
	if doc.UnmatchedMeasured == nil || len(doc.UnmatchedMeasured) != 0 || doc.Warnings == nil {
		t.Errorf("empty lists must be [] (unmatched %v, warnings %v)", doc.UnmatchedMeasured, doc.Warnings)
	}
}

func TestWriteJSONUndefinedMAPE(t *testing.T) {
	c := comparetest.MustCompare(t, comparetest.JacMeasured(0, 0, 0, 0, 0), comparetest.JacPredicted(1, 1, 1, 1, 1))
	b := render(t, c, WriteJSON)
	var doc struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if v, ok := doc.Summary["execution_time_mape"]; !ok || v != nil {
		t.Errorf("execution_time_mape %v (present %v), want null", v, ok)
	}
}
