package textreport_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"testing"

	"github.com/presage-dvm/presage/exports/textreport"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/internal/storetest"
)

// jsonDiff lists the paths where got and want differ, skipping the
// processors' sys_time, which the original leaves uninitialised.
func jsonDiff(path string, got, want any, out *[]string) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*out = append(*out, path+": not an object")
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "sys_time" && len(path) > 0 && reflect.DeepEqual(path[len(path)-1:], "]") && containsProcTimes(path) {
				continue
			}
			jsonDiff(path+"."+k, g[k], w[k], out)
		}
		if len(g) != len(w) {
			*out = append(*out, fmt.Sprintf("%s: %d keys, want %d", path, len(g), len(w)))
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*out = append(*out, path+": array length differs")
			return
		}
		for i := range w {
			jsonDiff(fmt.Sprintf("%s[%d]", path, i), g[i], w[i], out)
		}
	default:
		if !reflect.DeepEqual(got, want) {
			*out = append(*out, fmt.Sprintf("%s: ours %v, orig %v", path, got, want))
		}
	}
}

func containsProcTimes(path string) bool {
	for i := 0; i+10 <= len(path); i++ {
		if path[i:i+10] == "proc_times" {
			return true
		}
	}
	return false
}

func TestGoldenJSON(t *testing.T) {
	db := storetest.Open(t)
	got := render(t, db, golden.Path(t, "sts", "jac_e4.2x2.sts.gz+"), textreport.Options{Format: "json"})
	want, err := os.ReadFile(golden.Path(t, "pppa-options", "jac_e4.2x2.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("our JSON does not parse: %v", err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	// Byte for byte, except the processors' sys_time, which the original
	// leaves uninitialised.
	norm := regexp.MustCompile(`"sys_time":[^,}]*,"th_times"`)
	if norm.ReplaceAllString(got, "X") == norm.ReplaceAllString(string(want), "X") {
		return
	}
	var diffs []string
	jsonDiff("", g, w, &diffs)
	for _, d := range diffs[:min(len(diffs), 20)] {
		t.Error(d)
	}
	t.Errorf("JSON differs from the original; %d values differ", len(diffs))
}
