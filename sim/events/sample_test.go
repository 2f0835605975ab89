package events

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSampler feeds a sampler hand-made charges and checks the buckets'
// sums, the doubling of the bucket width and the dominant states.
func TestSampler(t *testing.T) {
	sm := NewSampler(4, 2, 4)                               // rows: processors 0 and 3
	sm.State(Computing, AllProcs(4), 0, 6e-9)               // 6 ns computing everywhere
	sm.State(Communicating, Members([]int{3}), 6e-9, 10e-9) // then 3 communicates for 10 ns
	sm.State(Waiting, Members([]int{0, 1, 2}), 6e-9, 1e-9)  // the others wait 1 ns
	sm.Message(Message{From: 0, To: 3, Send: 6e-9, Arrive: 16e-9})
	s := sm.Sample()
	if got, want := s.Procs, []int{0, 3}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("rows %v, want %v", got, want)
	}
	// 16 ns over at most 4 columns: the width doubled from 1 to 4 ns.
	if s.Bucket != 4 || s.End != 16 {
		t.Fatalf("bucket %d ns, end %d ns; want 4 and 16", s.Bucket, s.End)
	}
	want := [][]State{
		{Computing, Computing, 0, 0},
		{Computing, Computing, Communicating, Communicating}, // a tie goes to the first state
	}
	for r := range want {
		for c := range want[r] {
			if s.States[r][c] != want[r][c] {
				t.Errorf("row %d column %d: %v, want %v", r, c, s.States[r][c], want[r][c])
			}
		}
	}
	// The shares, in 255ths of a 4 ns column: processor 0 computes 2 ns
	// of its second column and waits 1; processor 3 computes 2 ns and
	// communicates 2.
	wantMix := [][]Mix{
		{{Computing: 255}, {Computing: 128, Waiting: 64}, {}, {}},
		{{Computing: 255}, {Computing: 128, Communicating: 128}, {Communicating: 255}, {Communicating: 255}},
	}
	for r := range wantMix {
		for c := range wantMix[r] {
			if s.Mixes[r][c] != wantMix[r][c] {
				t.Errorf("row %d column %d: shares %v, want %v", r, c, s.Mixes[r][c], wantMix[r][c])
			}
		}
	}
}

// TestSamplerMatchesPerProcessor plays random charges on random classes,
// named as the engine names them to a StatesOnly recorder (Class, with a
// version that changes with the classes) or to others (member lists), and
// checks every row's buckets against a sampling done processor by
// processor with the final bucket width.
func TestSamplerMatchesPerProcessor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		procs := 1 + rng.IntN(40)
		rows := 1 + rng.IntN(12)
		cols := 2 + rng.IntN(20)
		sm := NewSampler(procs, rows, cols)
		type charge struct {
			s    State
			in   []bool // per processor: the charge falls on it
			b, e int64
		}
		var charges []charge
		var classOf []int32
		var version ClassVersion
		clock := 0.0
		for range rng.IntN(300) {
			if classOf == nil || rng.IntN(8) == 0 {
				// The engine's classes changed, in place as the engine
				// changes them.
				if classOf == nil {
					classOf = make([]int32, procs)
				}
				k := 1 + rng.IntN(4)
				for p := range classOf {
					classOf[p] = int32(rng.IntN(k))
				}
				version.Moves++
			}
			st := State(1 + rng.IntN(int(NumStates)-1))
			dur := float64(1+rng.IntN(50)) * 1e-9
			c := int32(rng.IntN(4))
			var who Procs
			switch rng.IntN(3) {
			case 0:
				who = AllProcs(procs)
			case 1:
				who = Class(classOf, c, version)
			default:
				var ms []int
				for p, pc := range classOf {
					if pc == c {
						ms = append(ms, p)
					}
				}
				who = Members(ms)
			}
			in := make([]bool, procs)
			for p := range who.Each() {
				in[p] = true
			}
			sm.State(st, who, clock, dur)
			charges = append(charges, charge{st, in, ns(clock), ns(clock + dur)})
			clock += float64(rng.IntN(30)) * 1e-9
		}
		s := sm.Sample()
		for r, p := range s.Procs {
			ref := make([]cell, cols)
			for _, c := range charges {
				if !c.in[p] {
					continue
				}
				for t := c.b; t < c.e; {
					col := t / s.Bucket
					next := min((col+1)*s.Bucket, c.e)
					ref[col][c.s] += next - t
					t = next
				}
			}
			for c := range cols {
				got := sm.groups[sm.group[r]][c]
				for st, v := range sm.every[c] {
					got[st] += v
				}
				if got != ref[c] {
					t.Fatalf("trial %d, row %d (processor %d), column %d: %v, per processor %v", trial, r, p, c, got, ref[c])
				}
			}
		}
	}
}

// TestNsIsRound: ns's fast rounding is math.Round's, at the edges of its
// range, at halves and next to them, and at random.
func TestNsIsRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(x float64) {
		if got, want := ns(x/1e9), int64(math.Round(x/1e9*1e9)); got != want {
			t.Fatalf("ns(%v s) = %d, math.Round gives %d", x/1e9, got, want)
		}
	}
	for k := 0.0; k < 53; k++ {
		for _, x := range []float64{math.Exp2(k), math.Exp2(k) - 0.5, math.Exp2(k) + 0.5, math.Exp2(k) - 1.5} {
			for _, y := range []float64{x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1))} {
				check(y)
			}
		}
	}
	for range 1_000_000 {
		x := math.Exp2(rng.Float64()*56 - 2)
		h := math.Floor(x) + 0.5
		for _, y := range []float64{x, h, math.Nextafter(h, 0), math.Nextafter(h, math.Inf(1))} {
			check(y)
		}
	}
}
