package machinefile

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim/machine"
)

// sameTiming reports where a and b would predict differently: the tree,
// powers, start-up times, times per byte, channels, search mode and the
// extended model's terms ("" when they agree).
func sameTiming(a, b *machine.Machine) string {
	if a.Search != b.Search || a.RunWork != b.RunWork || a.IOByte != b.IOByte || a.Contention != b.Contention || a.Strided != b.Strided || a.FreshPage != b.FreshPage {
		return "search, run work, I/O copy time, contention, strided iteration time or fresh page time"
	}
	var walk func(x, y *machine.Node, at string) string
	walk = func(x, y *machine.Node, at string) string {
		if x.Power != y.Power || x.TStart != y.TStart || x.TByte != y.TByte || x.Channels != y.Channels ||
			!slices.Equal(x.Messages, y.Messages) || len(x.Children) != len(y.Children) {
			return at
		}
		for i := range x.Children {
			if d := walk(x.Children[i], y.Children[i], at+"/"+x.Children[i].Name); d != "" {
				return d
			}
		}
		return ""
	}
	return walk(a.Root, b.Root, a.Root.Name)
}

// TestWriteReadsBack: every machine file of ../shared/data, and a fitted
// machine with the extended model's run work, I/O copy time, node
// contention, strided iteration time, fresh page time and measured message times, written by Write, is read
// back by Parse to a machine that predicts alike, and written again to
// the same text.
func TestWriteReadsBack(t *testing.T) {
	machines := map[string]*machine.Machine{"fitted": {
		Name: "fitted", Search: 0, RunWork: 0.0125, IOByte: 0.875e-9, Contention: 0.0625, Strided: 3.5e-9, FreshPage: 2.25e-6, Format: machine.FormatCluster,
		Root: &machine.Node{Name: "fitted", TStart: 7e-6, TByte: 4e-9, Channels: 1, CommType: "shared-memory", Children: []*machine.Node{
			{Name: "fittedN", TStart: 28e-6, TByte: 1e-9, Channels: 1, CommType: "shared-memory",
				Messages: []machine.MessagePoint{{Bytes: 8, Seconds: 2.5e-6}, {Bytes: 65536, Seconds: 31.25e-6}}, Children: []*machine.Node{
					{Name: "fittedP", Power: 1}, {Name: "fittedP", Power: 1}}},
		}},
	}}
	files, _ := filepath.Glob(filepath.Join(filepath.Dir(golden.Path(t, "machines", "Predictor.par")), "*.par"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Parse(bytes.NewReader(b), f)
		if err != nil {
			t.Fatal(err)
		}
		machines[filepath.Base(f)] = m
	}
	if len(machines) < 8 {
		t.Fatalf("%d machines, want the fitted one and the 7 or more files of ../shared/data/machines", len(machines))
	}
	for name, m := range machines {
		var first bytes.Buffer
		if err := Write(&first, m, []string{"written by TestWriteReadsBack", "two lines"}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, err := Parse(bytes.NewReader(first.Bytes()), name)
		if err != nil {
			t.Fatalf("%s: written file does not parse: %v\n%s", name, err, first.String())
		}
		if d := sameTiming(m, back); d != "" {
			t.Errorf("%s: read back differs at %s", name, d)
		}
		var second bytes.Buffer
		if err := Write(&second, back, []string{"written by TestWriteReadsBack", "two lines"}); err != nil {
			t.Fatal(err)
		}
		if first.String() != second.String() {
			t.Errorf("%s: written twice, two texts:\n%s\n---\n%s", name, first.String(), second.String())
		}
	}
	if got := write(t, machines["fitted"]); !strings.Contains(got, "strided = 3.5;\n") || strings.Contains(write(t, machines["Predictor.par"]), "strided") {
		t.Errorf("the strided iteration time: want strided = 3.5; in the fitted machine's file and none in Predictor.par's:\n%s", got)
	}
	if got := write(t, machines["fitted"]); !strings.Contains(got, "freshpage = 2.25;\n") || strings.Contains(write(t, machines["Predictor.par"]), "freshpage") {
		t.Errorf("the fresh page time: want freshpage = 2.25; in the fitted machine's file and none in Predictor.par's:\n%s", got)
	}
	if got := machines["fitted"]; !strings.Contains(write(t, got), "runwork = 12500;\n") || strings.Contains(write(t, machines["Predictor.par"]), "runwork") {
		t.Errorf("the run work: want runwork = 12500 in the fitted machine's file and no runwork statement in Predictor.par's")
	}
	if got := write(t, machines["fitted"]); !strings.Contains(got, "fittedn.messages = 8 : 2.5, 65536 : 31.25;\n") || strings.Contains(write(t, machines["Predictor.par"]), "messages") {
		t.Errorf("the message times: want fittedn.messages = 8 : 2.5, 65536 : 31.25; in the fitted machine's file and none in Predictor.par's:\n%s", got)
	}
}

func write(t *testing.T, m *machine.Machine) string {
	var b bytes.Buffer
	if err := Write(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestName: a machine file's identifiers.
func TestName(t *testing.T) {
	for in, want := range map[string]string{"jac-Fit": "jacfit", "": "network", "4x": "m4x", "a_b9": "a_b9", "été": "t"} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}
