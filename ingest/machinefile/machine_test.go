package machinefile

import "github.com/presage-dvm/presage/sim/machine"

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/golden"
)

func mustParse(t *testing.T, text string) *machine.Machine {
	t.Helper()
	m, err := Parse(strings.NewReader(text), "t.par")
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return m
}

// shape is a compact description of a machine for table tests.
type shape struct {
	procs    int
	channels int     // of the root
	tstart   float64 // microseconds
	tbyte    float64 // microseconds
	commType string
	powers   []float64 // of the first leaves
}

// us converts microseconds to seconds at run time as Parse does (a constant
// expression would be folded exactly and could differ in the last bit).
func us(v float64) float64 { return v / 1e6 }

func TestGrammar(t *testing.T) {
	tests := []struct {
		name string
		text string
		want shape
	}{
		{"minimal", "cluster = c; c = {2 x p}; p = 1.5;",
			shape{2, 1, 0, 0, "", []float64{1.5, 1.5}}},
		{"case-insensitive, spanning lines", "CLUSTER =\n C;\nC = {3\n X P};\nC.TSTART\n = 7;\nP = 2;",
			shape{3, 1, 7, 0, "", []float64{2, 2, 2}}},
		{"several statements per line", "cluster = c; c = {p, 2 x q}; p = 1; q = 3;",
			shape{3, 1, 0, 0, "", []float64{1, 3, 3}}},
		{"count defaults to 1", "cluster = c; c = {p, q}; p = 1; q = 2;",
			shape{2, 1, 0, 0, "", []float64{1, 2}}},
		{"microseconds stored in seconds", "cluster = c; c = {2 x p}; c.tstart = 7; c.tbyte = 0.004; p = 1;",
			shape{2, 1, 7, 0.004, "", nil}},
		{"myrinet channels", "cluster = c; c = {2 x p}; c.commtype = myrinet (4); p = 1;",
			shape{2, 4, 0, 0, "myrinet", nil}},
		{"myrinet without blank is one channel", "cluster = c; c = {2 x p}; c.commtype = myrinet(4); p = 1;",
			shape{2, 1, 0, 0, "", nil}},
		{"ethernet", "cluster = c; c = {2 x p}; c.commtype = myrinet (3); c.commtype = ethernet; p = 1;",
			shape{2, 1, 0, 0, "ethernet", nil}},
		{"transputer", "cluster = c; c = {2 x p}; c.commtype = transputer; p = 1;",
			shape{2, 1, 0, 0, "transputer", nil}},
		{"attribute before definition dropped", "cluster = c; c.tstart = 9; c = {2 x p}; p = 1;",
			shape{2, 1, 0, 0, "", nil}},
		{"tstart 0 ignored", "cluster = c; c = {2 x p}; c.tstart = 5; c.tstart = 0; c.tbyte = 0.0; p = 1;",
			shape{2, 1, 5, 0, "", nil}},
		{"first definition wins (composite)", "cluster = c; c = {2 x p}; c = {5 x p}; p = 1;",
			shape{2, 1, 0, 0, "", nil}},
		{"first definition wins (leaf)", "cluster = c; c = {2 x p}; p = 3; p = 1;",
			shape{2, 1, 0, 0, "", []float64{3, 3}}},
		{"commtype reference copies channels and times",
			"cluster = c; x = {p}; x.commtype = myrinet (3); x.tstart = 2; x.tbyte = 0.5; c = {2 x p}; c.tstart = 9; c.commtype = x.commtype; p = 1;",
			shape{2, 3, 2, 0.5, "myrinet", nil}},
		{"reference resolved after the whole file",
			"cluster = c; c = {2 x p}; x = {p}; c.commtype = x.commtype; x.tstart = 4; p = 1;",
			shape{2, 1, 4, 0, "", nil}},
		{"end-of-line comments", "cluster = c; // root\nc = {2 x p}; // two\n   // whole line\np = 1; //",
			shape{2, 1, 0, 0, "", nil}},
		{"byte order mark", "\xef\xbb\xbfcluster = c; c = {2 x p}; p = 1;",
			shape{2, 1, 0, 0, "", nil}},
		{"CRLF and tabs", "cluster\t=\tc;\r\nc = {2\tx p};\r\n\t// comment\r\np = 1;\r\n",
			shape{2, 1, 0, 0, "", nil}},
		{"no blanks", "cluster=c;c={2xp};c.tstart=3;p=1;",
			shape{2, 1, 3, 0, "", nil}},
		{"zero count drops the sub-cluster", "cluster = c; c = {0 x q, p}; q = {2 x p}; p = 1;",
			shape{1, 1, 0, 0, "", nil}},
		{"huge count of an empty cluster", "cluster = c; c = {1000000000 x q, p}; q = {0 x p}; p = 1;",
			shape{1, 1, 0, 0, "", nil}},
		{"name starting with a keyword", "cluster = cluster1; cluster1 = {2 x p}; p = 1;",
			shape{2, 1, 0, 0, "", nil}},
		{"root is a processor", "cluster = c; c = 3;",
			shape{1, 0, 0, 0, "", []float64{3}}},
		{"integer power", "cluster = c; c = {p}; p = 2;",
			shape{1, 1, 0, 0, "", []float64{2}}},
		{"flat, one line", "type = network; start time = 75; send byte time = 0.2; power = 1.00; topology = {2, 2};",
			shape{4, 1, 75, 0.2, "network", []float64{1, 1, 1, 1}}},
		{"flat, short keys and myrinet(n)", "type = myrinet(3);\nstart = 10;\nsend = 0.5;\npower = 2;\ntopology = {0:3};",
			shape{4, 3, 10, 0.5, "myrinet", []float64{2, 2, 2, 2}}},
		{"flat, ignored keys", "type = ethernet; scale = 2; weight = {1.0 (4)}; procpowers = {c {0 1 : 2.0}}; mapping = {c : 0 3 : 1}; topology = {4}; search = 1;",
			shape{4, 1, 0, 0, "ethernet", []float64{1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.text)
			r := m.Root
			w := tc.want
			if m.Processors() != w.procs || r.Channels != w.channels || r.TStart != us(w.tstart) || r.TByte != us(w.tbyte) || r.CommType != w.commType {
				got := shape{m.Processors(), r.Channels, r.TStart, r.TByte, r.CommType, nil}
				t.Errorf("got %+v, want %+v", got, w)
			}
			leaves := m.Leaves()
			for i, p := range tc.want.powers {
				if leaves[i].Power != p {
					t.Errorf("leaf %d power %v, want %v", i, leaves[i].Power, p)
				}
			}
		})
	}
}

func TestFormatAndTopology(t *testing.T) {
	m := mustParse(t, "type = ethernet; start time = 1; send byte time = 1; topology = {2, 3}; search = 2;")
	if m.Format != machine.FormatFlat || len(m.Topology) != 2 || m.Topology[0] != 2 || m.Topology[1] != 3 || m.Search != 2 {
		t.Fatalf("flat: format %q topology %v search %d", m.Format, m.Topology, m.Search)
	}
	m = mustParse(t, "search = 5; cluster = mvs; mvs = {2 x p}; p = 1;")
	if m.Format != machine.FormatCluster || m.Topology != nil || m.Search != 5 || m.Name != "mvs" || m.RunWork != 0 {
		t.Fatalf("cluster: format %q topology %v search %d name %q run work %g", m.Format, m.Topology, m.Search, m.Name, m.RunWork)
	}
	// The extended model's statement, in microseconds.
	m = mustParse(t, "cluster = mvs; runwork = 12500; mvs = {2 x p}; p = 1;")
	if m.RunWork != 0.0125 {
		t.Fatalf("runwork = 12500: run work %g s, want 0.0125", m.RunWork)
	}
	// The I/O copy time, in nanoseconds per byte.
	m = mustParse(t, "cluster = mvs; iobyte = 0.875; mvs = {2 x p}; p = 1;")
	if m.IOByte != 0.875e-9 || m.RunWork != 0 {
		t.Fatalf("iobyte = 0.875: I/O copy time %g s per byte, run work %g, want 8.75e-10 and 0", m.IOByte, m.RunWork)
	}
	// The node contention, in percent per busy neighbour.
	m = mustParse(t, "cluster = mvs; contention = 12.5; mvs = {2 x p}; p = 1;")
	if m.Contention != 0.125 || m.RunWork != 0 || m.IOByte != 0 {
		t.Fatalf("contention = 12.5: contention %g, run work %g, I/O copy time %g, want 0.125, 0 and 0", m.Contention, m.RunWork, m.IOByte)
	}
	// The strided iteration time, in nanoseconds per iteration.
	m = mustParse(t, "cluster = mvs; strided = 3.5; mvs = {2 x p}; p = 1;")
	if m.Strided != 3.5e-9 || m.Contention != 0 || m.RunWork != 0 {
		t.Fatalf("strided = 3.5: strided iteration time %g s, contention %g, run work %g, want 3.5e-9, 0 and 0", m.Strided, m.Contention, m.RunWork)
	}
	// The fresh page time, in microseconds per page.
	m = mustParse(t, "cluster = mvs; freshpage = 2.25; mvs = {2 x p}; p = 1;")
	if m.FreshPage != 2.25e-6 || m.Strided != 0 || m.IOByte != 0 {
		t.Fatalf("freshpage = 2.25: fresh page time %g s, strided iteration time %g, I/O copy time %g, want 2.25e-6, 0 and 0", m.FreshPage, m.Strided, m.IOByte)
	}
	// Measured message times of a cluster, bytes and microseconds; a
	// commtype reference takes them with the rest of the link.
	m = mustParse(t, "cluster = mvs; mvs = {2 x node}; mvs.tstart = 7; mvs.messages = 0 : 5, 1024 : 6.5 , 65536:40; node = {2 x p}; node.commtype = mvs.commtype; p = 1;")
	want := []machine.MessagePoint{{Bytes: 0, Seconds: 5e-6}, {Bytes: 1024, Seconds: 6.5e-6}, {Bytes: 65536, Seconds: 40e-6}}
	if !reflect.DeepEqual(m.Root.Messages, want) || !reflect.DeepEqual(m.Root.Children[0].Messages, want) || m.Root.TStart != 7e-6 {
		t.Fatalf("mvs.messages: %v and the node's %v (TStart %g), want %v for both and TStart 7e-6", m.Root.Messages, m.Root.Children[0].Messages, m.Root.TStart, want)
	}
	if got := m.Root.Link().MessageTime(512); got != 5.75e-6 {
		t.Errorf("a message of 512 bytes: %g s, want 5.75e-6, halfway between the points", got)
	}
}

func TestWarnings(t *testing.T) {
	tests := []struct{ text, want string }{
		{"cluster = c; c = {2 x p}; c.commtype = myrinet(4); p = 1;", `t.par:1:40: "myrinet(4)" is read as an unknown communication type`},
		{"cluster = c; c.tstart = 1;\nc = {2 x p}; p = 1;", `t.par:1:14: c.tstart: cluster "c" is not defined before this line`},
		{"cluster = c; c = {2 x p};\nc = {p}; p = 1;", `t.par:2:1: cluster "c" is already defined at line 1`},
		{"cluster = c; c = {2 x p}; c.commtype = infiniband; p = 1;", `unknown communication type "infiniband"`},
		{"type = ethernet; scale = 3; topology = {2};", `t.par:1:18: scale is ignored`},
	}
	for _, tc := range tests {
		m := mustParse(t, tc.text)
		if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], tc.want) {
			t.Errorf("Parse(%q) warnings %q, want one containing %q", tc.text, m.Warnings, tc.want)
		}
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"cluster = c; c = {2 x p}\np = 1;", `t.par:2:1: expected ';' after '}', found "p"`},
		{"cluster = c;\nc = {2 x p};\nc.tstart = 7.5e1;", `t.par:3:15: expected ';' after the tstart value, found "e1"`},
		{"cluster = c;\n  c = {2 y p};", `t.par:2:10: expected 'x' after the count 2`},
		{"cluster = c; c = {2 x p; p = 1;", `t.par:1:24: expected ',' or '}' after a sub-cluster, found ";"`},
		{"cluster = c; c = abc;", `t.par:1:18: expected '{' (a composite cluster) or a number`},
		{"cluster = c; c = -1;", `t.par:1:18: expected '{' (a composite cluster) or a number`},
		{"cluster = c; 2c = {p};", `t.par:1:14: expected a cluster name, found "2c"`},
		{"cluster = c; c = {2 x p}; c.speed = 3; p = 1;", `t.par:1:29: unknown attribute "speed" of "c"`},
		{"cluster = c; c = {2 x p}; c.tstart = ; p = 1;", `t.par:1:38: expected tstart in microseconds (a number such as 1.5), found ";"`},
		{"cluster = c; c = {2 x p}; c.commtype = myrinet (x); p = 1;", `t.par:1:49: expected the number of channels (an integer), found "x"`},
		{"cluster = c; c = {2 x p}; c.commtype = myrinet 2; p = 1;", `t.par:1:48: expected '(' after myrinet`},
		{"cluster = c; c = {2 x p}; c.commtype = myrinet (0); p = 1;", `myrinet needs at least 1 channel`},
		{"cluster = c; c = {2 x p}; c.commtype = x.type; p = 1;", `t.par:1:42: expected "commtype" after "x.", found ";"`},
		{"cluster = c; c = {2 x p}; c.commtype = x.commtype; p = 1;", `t.par:1:40: cluster "x" is not defined`},
		{"cluster = c; c = {2 x p}; c.commtype = x.commtype; x = {p}; x.commtype = c.commtype; p = 1;", `t.par:1:40: c.commtype refers to x.commtype, which is itself a reference`},
		{"cluster = d; c = {2 x p}; p = 1;", `t.par:1:11: cluster "d" is not defined`},
		{"c = {2 x p}; p = 1;", `t.par:1:1: no "cluster = NAME;" statement`},
		{"cluster = c;\nc = {2 x d}; d = {c};", `t.par:2:1: cluster "c" contains itself`},
		{"cluster = c; c = {1000 x d}; d = {1000 x e}; e = {2 x p}; p = 1;", `has more than 1048576 processors`},
		{"cluster = c; c = {0 x p}; p = 1;", `t.par:1:11: cluster "c" has no processors`},
		{"cluster = c;\nc = {2 x nowhere, p}; p = 4;", `t.par:2:10: sub-cluster "nowhere" of cluster "c" is not defined`},
		{"cluster = c; c = {2 x p}; p = 1000;", `t.par:1:31: processor power 1000: expected a number of times the traced processor's speed from 0.001 to 100`},
		{"cluster = c; c = {2 x p}; c.tstart = 1" + strings.Repeat("0", 308) + "; p = 1;", `c.tstart = 1e+308: expected a number of microseconds from 0 to 10000000`},
		{"cluster = c; c = {2 x p}; c.tbyte = 2000000; p = 1;", `c.tbyte = 2e+06: expected a number of microseconds from 0 to 1000000`},
		{"cluster = c; c = {2 x " + strings.Repeat("q", 1<<20) + "}; p = 1;", `sub-cluster "` + strings.Repeat("q", 64) + `…" of cluster "c" is not defined`},
		{"cluster = c; c = {p}; p = 0.0;", `t.par:1:27: processor power must not be 0`},
		{"search = x; cluster = c;", `t.par:1:10: expected the search mode (an integer), found "x"`},
		{"cluster = c;\nrunwork = 100000000; c = {p}; p = 1;", `t.par:2:11: runwork = 1e+08: expected a number of microseconds from 0 to 60000000`},
		{"cluster = c;\nrunwork = -1; c = {p}; p = 1;", `t.par:2:11: expected the run work in microseconds (a number such as 1.5), found "-1"`},
		{"cluster = c; runwork 5; c = {p}; p = 1;", `t.par:1:22: expected '=' after runwork, found "5"`},
		{"cluster = c; runwork = x; c = {p}; p = 1;", `t.par:1:24: expected the run work in microseconds (a number such as 1.5), found "x"`},
		{"cluster = c;\niobyte = 2000; c = {p}; p = 1;", `t.par:2:10: iobyte = 2000: expected a number of nanoseconds per byte from 0 to 1000`},
		{"cluster = c; iobyte 5; c = {p}; p = 1;", `t.par:1:21: expected '=' after iobyte, found "5"`},
		{"cluster = c; contention = 150; c = {p}; p = 1;", `t.par:1:27: contention = 150: expected a number of percent per busy neighbour from 0 to 100`},
		{"cluster = c; strided = 5000; c = {p}; p = 1;", `t.par:1:24: strided = 5000: expected a number of nanoseconds per iteration from 0 to 1000`},
		{"cluster = c; freshpage = 2000; c = {p}; p = 1;", `t.par:1:26: freshpage = 2000: expected a number of microseconds per page from 0 to 1000`},
		{"cluster = c; c = {2 x p}; c.messages = 8 : 1; p = 1;", `t.par:1:45: c.messages: 1 message time: expected at least 2`},
		{"cluster = c; c = {2 x p}; c.messages = 8 : 1, 8 : 2; p = 1;", `t.par:1:47: c.messages: size 8 after 8: expected sizes in increasing order`},
		{"cluster = c; c = {2 x p}; c.messages = 8 1; p = 1;", `t.par:1:42: expected ':' after the size 8`},
		{"cluster = c; c = {2 x p};\nc.messages = 8 : 1, 16 : 20000000; p = 1;", `t.par:2:26: c.messages: 16 : 2e+07: expected a number of microseconds from 0 to 10000000`},
		{"cluster = c; c = {2 x p}; c.messages = 8 : -1; p = 1;", `t.par:1:44: expected the time of a message of 8 bytes in microseconds (a number such as 1.5), found "-1"`},
		{"cluster = c; c = {2 x p}; c.latency = 1; p = 1;", `t.par:1:29: unknown attribute "latency" of "c": expected tstart, tbyte, commtype or messages`},
		{"cluster c;", `t.par:1:9: expected '=' after cluster, found "c"`},
		{"cluster = c; c {p};", `t.par:1:16: expected '=' or '.' after "c", found "{"`},
		{"cluster = c; c = {2 x p}; p = 1", `t.par:1:32: expected ';' after the processor power, found end of file`},
		{"cluster = c; ; c = {p};", `t.par:1:14: expected a statement`},
		{"type = ethernet; start time = 75;", `t.par:1:34: a flat machine file needs "topology = {n1, n2, ...};"`},
		{"type = ether; topology = {2};", `t.par:1:8: expected ethernet, transputer, network or myrinet(N)`},
		{"type = ethernet; topology = {2 2};", `t.par:1:32: expected ',' or '}' in topology, found "2"`},
		{"type = ethernet; topology = {3:1};", `t.par:1:30: topology range 3:1 is empty`},
		{"type = ethernet; colour = red; topology = {2};", `t.par:1:18: unknown key "colour"`},
		{"type = ethernet; topology = {2}; weight = {1 (2);", `t.par:1:49: expected '}' closing the weight value, found ';'`},
		{"type = myrinet(); topology = {2};", `t.par:1:8: expected myrinet(N)`},
	}
	for _, tc := range tests {
		_, err := Parse(strings.NewReader(tc.text), "t.par")
		if err == nil {
			t.Errorf("Parse(%q) succeeded, want error %q", tc.text, tc.want)
			continue
		}
		if _, ok := err.(*Error); !ok {
			t.Errorf("Parse(%q) error %T, want *Error", tc.text, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q)\n error %q\n  want %q", tc.text, err, tc.want)
		}
	}
}

func TestRealFiles(t *testing.T) {
	tests := []struct {
		file          string
		name          string
		format        string
		procs         int
		channels      int
		tstart, tbyte float64 // root, microseconds
		power         float64
		inner         bool // second level mvsP2 with TStart 1 / TByte 0.001
	}{
		{"Predictor.par", "mvs", machine.FormatCluster, 1024, 1, 7, 0.004, 1, true},
		{"Predictor-NCI.par", "nci", machine.FormatCluster, 512, 1, 9, 0.0125, 1, false},
		{"Predictor-flat1024.par", "flat", machine.FormatCluster, 1024, 1, 50, 0.01, 2, false},
		{"Predictor-myri4.par", "c4", machine.FormatCluster, 1024, 4, 10, 0.001, 0.5, false},
		{"Predictor-slownet.par", "mvs", machine.FormatCluster, 1024, 1, 75, 0.2, 1, false},
		{"Predictor-transputer.par", "t", machine.FormatCluster, 1024, 1, 20, 0.05, 1, false},
		{"Predictor-oldflat.par", "flat", machine.FormatFlat, 4, 1, 75, 0.2, 1, false},
		{"Predictor-oldflat-ethernet.par", "flat", machine.FormatFlat, 4, 1, 75, 0.2, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			path := golden.Path(t, "machines", tc.file)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := Parse(f, path)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Warnings) != 0 {
				t.Errorf("warnings %q", m.Warnings)
			}
			r := m.Root
			if m.Name != tc.name || m.Format != tc.format || m.Processors() != tc.procs || r.Channels != tc.channels ||
				r.TStart != tc.tstart/1e6 || r.TByte != tc.tbyte/1e6 {
				t.Errorf("got %s %s %d procs, %d channels, TStart %g TByte %g", m.Name, m.Format, m.Processors(), r.Channels, r.TStart, r.TByte)
			}
			leaves := m.Leaves()
			if len(leaves) != tc.procs {
				t.Fatalf("%d leaves, want %d", len(leaves), tc.procs)
			}
			for i, l := range leaves {
				if l.Power != tc.power {
					t.Fatalf("leaf %d power %v, want %v", i, l.Power, tc.power)
				}
			}
			if tc.inner {
				in := r.Children[511]
				if in.Name != "mvsp2" || len(in.Children) != 2 || in.TStart != 1.0/1e6 || in.TByte != 0.001/1e6 || in.Channels != 1 {
					t.Errorf("inner cluster %+v", in)
				}
			}
			if tc.format == machine.FormatFlat && (len(m.Topology) != 2 || m.Topology[0] != 2 || m.Topology[1] != 2) {
				t.Errorf("topology %v, want [2 2]", m.Topology)
			}
		})
	}
}

func TestWithOverrides(t *testing.T) {
	m := mustParse(t, "cluster = c; c = {2 x n}; c.tstart = 7; c.tbyte = 0.004; n = {2 x p}; n.tstart = 1; n.tbyte = 0.001; p = 1;")
	o := m.WithOverrides(5e-5, 0, 2)
	for _, c := range []*machine.Node{o.Root, o.Root.Children[0], o.Root.Children[1]} {
		if c.TStart != 5e-5 {
			t.Errorf("%s TStart %v, want 5e-5", c.Name, c.TStart)
		}
	}
	if o.Root.TByte != us(0.004) || o.Root.Children[1].TByte != us(0.001) {
		t.Errorf("zero tbyte override changed TByte: %v %v", o.Root.TByte, o.Root.Children[1].TByte)
	}
	for _, l := range o.Leaves() {
		if l.Power != 2 || l.Channels != 0 {
			t.Errorf("leaf %+v, want power 2", l)
		}
	}
	// The original is untouched.
	if m.Root.TStart != us(7) || m.Leaves()[3].Power != 1 {
		t.Errorf("WithOverrides changed its receiver")
	}
	// A swept line replaces measured message times; a power alone keeps
	// them.
	m = mustParse(t, "cluster = c; c = {2 x p}; c.tstart = 7; c.messages = 8 : 7, 1024 : 9; p = 1;")
	if o := m.WithOverrides(5e-5, 0, 0); o.Root.Messages != nil || m.Root.Messages == nil {
		t.Errorf("tstart swept: messages %v (the parsed machine's %v), want none", o.Root.Messages, m.Root.Messages)
	}
	if o := m.WithOverrides(0, 0, 2); len(o.Root.Messages) != 2 {
		t.Errorf("power swept: messages %v, want the 2 measured", o.Root.Messages)
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		"cluster = mvs; search=0; mvs = {512 x mvsP2}; mvs.CommType = myrinet (1); mvs.TStart = 7;\nmvs.TByte = 0.004; mvsP2 = {2 x mvsP1}; mvsP2.CommType = myrinet (1); mvsP2.TStart = 1; mvsP2.TByte = 0.001; mvsP1 = 1.00;",
		"cluster = c; c = {2 x p, q}; c.commtype = x.commtype; x = {p}; x.commtype = myrinet(4); p = 1; // c",
		"cluster = c; c = {2 x p}; c.tstart = 7; c.messages = 0 : 5, 1024 : 6.5, 65536 : 40; p = 1;",
		"type = myrinet(2); start time = 75; send byte time = 0.2; power = 1.00; topology = {2, 0:3}; weight = {1 (2)};",
		"type = network;\nstart = 1;\nsend byte = 2;\nprocpowers = {c {0 1 : 2.0}};",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		const limit = 1 << 12
		m, err := parse(strings.NewReader(text), "fuzz.par", limit)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		n := m.Processors()
		if n < 1 || n > limit || len(m.Leaves()) != n {
			t.Fatalf("%d processors, %d leaves", n, len(m.Leaves()))
		}
		for _, l := range m.Leaves() {
			if l.Power <= 0 {
				t.Fatalf("leaf power %v", l.Power)
			}
		}
	})
}
