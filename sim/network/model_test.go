package network

import (
	"math"
	"strings"
	"testing"
)

// us converts microseconds to seconds, as the machine files do.
func us(x float64) float64 { return x / 1e6 }

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestParseKind(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Kind
	}{{"", Cluster}, {"cluster", Cluster}, {"bus", Bus}, {"MESH", Mesh}} {
		if k, err := ParseKind(tc.in); err != nil || k != tc.want {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", tc.in, k, err, tc.want)
		}
	}
	_, err := ParseKind("torus")
	if err == nil || !strings.Contains(err.Error(), "cluster, bus, mesh") {
		t.Errorf("ParseKind(torus) error %v, want one listing the valid networks", err)
	}
}

// TestBusTime: three messages of 100, 200 and 50 bytes with Ts = 10 µs and
// Tb = 0.01 µs/byte: 3·10 + 350·0.01 = 33.5 µs.
func TestBusTime(t *testing.T) {
	if got := BusTime(us(10), us(0.01), []int64{100, 200, 50}); !near(got, us(33.5)) {
		t.Errorf("BusTime = %v, want 33.5e-6", got)
	}
	if got := BusTime(us(10), us(0.01), nil); got != 0 {
		t.Errorf("BusTime of nothing = %v, want 0", got)
	}
}

// TestBusExchange: the same sum through a Net built from a machine file
// (root cluster Ts = 10 µs, Tb = 0.01 µs) on a 2x2 grid.
func TestBusExchange(t *testing.T) {
	n, err := NewModel(parse(t, "cluster = c; c = {4 x p}; c.tstart = 10; c.tbyte = 0.01; p = 1;"), Bus, []int{2, 2})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []Msg{{0, 1, 100}, {1, 3, 200}, {3, 2, 50}}
	if got := n.Exchange(msgs); !near(got, us(33.5)) {
		t.Errorf("bus exchange = %v, want 33.5e-6", got)
	}
}

// TestBusReduction: 4x4 grid (N = 16), loop distributed on dimension 0
// only, so one section of N_0 = 4 processors is gathered (3 messages) and
// the result broadcast to the 15 others: 4 + 16 − 2 = 18 messages of
// Ts + Tb·16 = 7 + 0.004·16 = 7.064 µs → 127.152 µs.
func TestBusReduction(t *testing.T) {
	n, err := NewModel(parse(t, "cluster = c; c = {16 x p}; c.tstart = 7; c.tbyte = 0.004; p = 1;"), Bus, []int{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Reduction(16, []bool{true, false}); !near(got, us(127.152)) {
		t.Errorf("bus reduction = %v, want 127.152e-6", got)
	}
	// Distributed on both dimensions: 16 + 16 − 2 = 30 messages → 211.92 µs.
	if got := n.Reduction(16, []bool{true, true}); !near(got, us(211.92)) {
		t.Errorf("bus reduction over both dimensions = %v, want 211.92e-6", got)
	}
	if got := BusReduction(us(7), us(0.004), 16, 1, 1); got != 0 {
		t.Errorf("reduction on one processor = %v, want 0", got)
	}
}

// TestMeshNeighbour: l = 1, LB = 1000 bytes, Ts = 20 µs, Tb = 0.05 µs:
// 20 + 1000·0.05 = 70 µs, no pipelining.
func TestMeshNeighbour(t *testing.T) {
	if got := MeshTime(us(20), us(0.05), 1, 1000); !near(got, us(70)) {
		t.Errorf("MeshTime(l=1) = %v, want 70e-6", got)
	}
	if got := MeshTime(us(20), us(0.05), 0, 1000); got != 0 {
		t.Errorf("MeshTime(l=0) = %v, want 0", got)
	}
}

// TestPacketSize checks the optimum and its integer neighbours by hand.
func TestPacketSize(t *testing.T) {
	tests := []struct {
		name       string
		ts, tb     float64 // µs
		l          int
		lb         int64
		wantS      int64
		wantT      float64 // µs
		neighbours [][2]float64
	}{
		{
			// S* = sqrt(800·10/(2·0.01)) = sqrt(400000) = 632.46, S' = 632:
			// T(632) = (2 + ⌈800/632⌉)·(10 + 6.32) = 4·16.32 = 65.28,
			// T(633) = 4·16.33 = 65.32 (worse), T(631) = 4·16.31 = 65.24
			// (better): walk down. Two packets down to S = ⌈800/2⌉ = 400:
			// T(400) = 4·14 = 56; T(399) = (2 + 3)·13.99 = 69.95 (worse).
			name: "walk down to the step's end", ts: 10, tb: 0.01, l: 3, lb: 800,
			wantS: 400, wantT: 56,
			neighbours: [][2]float64{{632, 65.28}, {633, 65.32}, {631, 65.24}, {399, 69.95}},
		},
		{
			// S* = sqrt(800·4.01/(2·0.01)) = sqrt(160400) = 400.4997,
			// S' = 400: T(400) = 4·(4.01 + 4) = 32.04; T(399) = 5·8 = 40 and
			// T(401) = 4·8.02 = 32.08 are both worse: S' is the answer.
			name: "S' kept", ts: 4.01, tb: 0.01, l: 3, lb: 800,
			wantS: 400, wantT: 32.04,
			neighbours: [][2]float64{{399, 40}, {401, 32.08}},
		},
		{
			// Tb = 0: one packet, T = l·Ts = 4·5 = 20.
			name: "free bytes", ts: 5, tb: 0, l: 4, lb: 100, wantS: 100, wantT: 20,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, tb := us(tc.ts), us(tc.tb)
			if s := PacketSize(ts, tb, tc.l, tc.lb); s != tc.wantS {
				t.Errorf("PacketSize = %d, want %d", s, tc.wantS)
			}
			if got := MeshTime(ts, tb, tc.l, tc.lb); !near(got, us(tc.wantT)) {
				t.Errorf("MeshTime = %v, want %v µs", got*1e6, tc.wantT)
			}
			for _, nb := range tc.neighbours {
				if got := pipelined(ts, tb, tc.l, tc.lb, int64(nb[0])); !near(got, us(nb[1])) {
					t.Errorf("T(%v) = %v µs, want %v", nb[0], got*1e6, nb[1])
				}
			}
		})
	}
}

// TestMeshExchange: on a 4x4 grid, 0→1 (distance 1, 1000 bytes) and
// 0→10 (processor 10 = (2,2), distance 4, 800 bytes): l = 4, LB = 800
// with Ts = 10 µs, Tb = 0.01 µs: S* = sqrt(800·1000/3) = 516.4, S' = 516,
// T(516) = (3 + 2)·15.16 = 75.8 > T(515): walk down to S = 400:
// T(400) = 5·14 = 70; T(399) = 6·13.99 = 83.94 is worse → 70 µs. The
// larger message over the shorter distance does not count.
func TestMeshExchange(t *testing.T) {
	n, err := NewModel(parse(t, "cluster = c; c = {16 x p}; c.tstart = 10; c.tbyte = 0.01; p = 1;"), Mesh, []int{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	if d := n.Distance(0, 10); d != 4 {
		t.Fatalf("Distance(0, 10) = %d, want 4", d)
	}
	if got := n.Exchange([]Msg{{0, 1, 1000}, {0, 10, 800}}); !near(got, us(70)) {
		t.Errorf("mesh exchange = %v µs, want 70", got*1e6)
	}
}

// TestMeshReduction: 4x4 grid, loop distributed on dimension 0: Distance =
// ⌊4/2⌋ = 2 hops from a section's centre to its farthest processor,
// CornerDistance = 4 − 1 = 3 hops along the replicated dimension; 2·2 + 3 =
// 7 hops of Ts + Tb·8 = 20 + 0.05·8 = 20.4 µs → 142.8 µs. Distributed on
// both: Distance 2 + 2 = 4, no corner: 8·20.4 = 163.2 µs.
func TestMeshReduction(t *testing.T) {
	n, err := NewModel(parse(t, "cluster = c; c = {16 x p}; c.tstart = 20; c.tbyte = 0.05; p = 1;"), Mesh, []int{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := n.Reduction(8, []bool{true, false}); !near(got, us(142.8)) {
		t.Errorf("mesh reduction = %v µs, want 142.8", got*1e6)
	}
	if got := n.Reduction(8, []bool{true, true}); !near(got, us(163.2)) {
		t.Errorf("mesh reduction over both dimensions = %v µs, want 163.2", got*1e6)
	}
}

// TestModelSend: point-to-point messages (ACROSS loops) on a bus queue on
// its single channel; on a mesh they take the pipelined time over their
// distance and never wait.
func TestModelSend(t *testing.T) {
	m := parse(t, "cluster = c; c = {4 x p}; c.tstart = 10; c.tbyte = 0.01; p = 1;")
	bus, _ := NewModel(m, Bus, []int{2, 2})
	_, b1, e1 := bus.Send(0, 1, 100, 0)
	_, b2, e2 := bus.Send(2, 3, 100, 0)
	if b1 != 0 || !near(e1, us(11)) || b2 != e1 || !near(e2, us(22)) {
		t.Errorf("bus sends: [%v %v] [%v %v], want [0 11µs] [11µs 22µs]", b1, e1, b2, e2)
	}
	if ts, tb := bus.Link(0, 3); ts != us(10) || tb != us(0.01) {
		t.Errorf("bus Link = %v %v, want the root's 10 µs, 0.01 µs", ts, tb)
	}
	mesh, _ := NewModel(m, Mesh, []int{2, 2})
	_, b3, e3 := mesh.Send(0, 1, 100, 0)
	_, b4, e4 := mesh.Send(2, 3, 100, 0)
	if b3 != 0 || b4 != 0 || !near(e3, us(11)) || !near(e4, us(11)) {
		t.Errorf("mesh sends: [%v %v] [%v %v], want both [0 11µs]", b3, e3, b4, e4)
	}
	// Processors 0 and 3 are 2 hops apart: 100 bytes, S* = sqrt(100·1000)
	// = 316 > 100 → one packet of 100: (1 + 1)·(10 + 1) = 22 µs.
	if _, _, e := mesh.Send(0, 3, 100, 0); !near(e, us(22)) {
		t.Errorf("mesh send over 2 hops ends at %v µs, want 22", e*1e6)
	}
}

// BusTime is the duration of an exchange on a bus, where messages cannot
// overlap: the sum over the messages of ts + bytes·tb.
func BusTime(ts, tb float64, bytes []int64) float64 {
	sum := 0.0
	for _, n := range bytes {
		sum += message(ts, tb, n)
	}
	return sum
}
