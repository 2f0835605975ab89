package events

import "testing"

// TestSampler feeds a collector hand-made charges and checks the buckets'
// sums, the doubling of the bucket width and the dominant states.
func TestSampler(t *testing.T) {
	sm := NewSampler(4, 2, 4) // rows: processors 0 and 3
	col := NewCollector(4, sm)
	col.State(Computing, AllProcs(4), 0, 6e-9)               // 6 ns computing everywhere
	col.State(Communicating, Members([]int{3}), 6e-9, 10e-9) // then 3 communicates for 10 ns
	col.State(Waiting, Members([]int{0, 1, 2}), 6e-9, 1e-9)  // the others wait 1 ns
	col.Message(Message{From: 0, To: 3, Send: 6e-9, Arrive: 16e-9})
	if _, err := col.Close(); err != nil {
		t.Fatal(err)
	}
	s := sm.Sample()
	if got, want := s.Procs, []int{0, 3}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("rows %v, want %v", got, want)
	}
	// 16 ns over at most 4 columns: the width doubled from 1 to 4 ns.
	if s.Bucket != 4 || s.End != 16 {
		t.Fatalf("bucket %d ns, end %d ns; want 4 and 16", s.Bucket, s.End)
	}
	var sums [2]int64
	for r, row := range sm.cells {
		for _, c := range row {
			for _, v := range c {
				sums[r] += v
			}
		}
	}
	if sums != [2]int64{7, 16} {
		t.Errorf("sampled %v ns, want [7 16]", sums)
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
}
