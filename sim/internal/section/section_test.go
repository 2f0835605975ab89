package section

import "testing"

func TestSize(t *testing.T) {
	tests := []struct {
		s    Section
		want int64
	}{
		{Section{0, 9, 1}, 10},
		{Section{0, 9, 3}, 4},
		{Section{3, 2, 1}, 0},
		{Section{-1, 5, 1}, 0}, // phantom section of a failed transform
		{Section{2, 2, 0}, 1},  // stride 0 is 1
		{Section{1, 7, -2}, 4},
		{New(5, 1, 1), 0},
	}
	for _, tc := range tests {
		if got := tc.s.Size(); got != tc.want {
			t.Errorf("%v.Size() = %d, want %d", tc.s, got, tc.want)
		}
	}
	if New(5, 1, 1) != (Section{0, -1, 1}) {
		t.Errorf("New(5,1,1) = %v, want the canonical empty section", New(5, 1, 1))
	}
}

func TestIntersect(t *testing.T) {
	tests := []struct {
		a, b  Section
		want  Section
		empty bool
	}{
		{Section{0, 9, 1}, Section{5, 20, 1}, Section{5, 9, 1}, false},
		{Section{0, 3, 1}, Section{4, 7, 1}, Section{4, 3, 1}, true},
		{Section{0, 9, 3}, Section{2, 8, 1}, Section{3, 6, 3}, false}, // 3, 6
		{Section{2, 8, 1}, Section{0, 9, 3}, Section{3, 6, 3}, false},
		{Section{0, 20, 4}, Section{0, 20, 6}, Section{0, 12, 12}, false}, // 0, 12
		{Section{1, 20, 4}, Section{0, 20, 6}, Section{0, -1, 1}, true},   // odd vs even
		{Section{1, 30, 4}, Section{3, 30, 6}, Section{9, 21, 12}, false}, // 9, 21
		{Section{-1, 5, 1}, Section{0, 9, 1}, Section{0, 5, 1}, false},    // phantom covers [0,5]
		{Section{0, 9, 0}, Section{4, 4, 1}, Section{4, 4, 1}, false},
	}
	for _, tc := range tests {
		got := Intersect(tc.a, tc.b)
		if got.Empty() != tc.empty || (!tc.empty && got != tc.want) {
			t.Errorf("Intersect(%v, %v) = %v, want %v (empty %v)", tc.a, tc.b, got, tc.want, tc.empty)
		}
	}
}

func TestTransform(t *testing.T) {
	tests := []struct {
		l, u, a, b, m int64
		lo, hi        int64
		ok            bool
	}{
		{0, 3, 1, 0, 8, 0, 3, true},
		{4, 7, 1, 0, 8, 4, 7, true},
		{0, 4, 1, 1, 8, 0, 3, true}, // loop with B = 1: j = i - 1
		{5, 9, 1, 1, 8, 4, 7, true}, // clipped to m-1
		{0, 9, 2, 0, 5, 0, 4, true}, // i = 2j
		{1, 4, 2, 0, 5, 1, 2, true}, // 1 is not 2j: lower rounds up
		{12, 15, 1, 0, 8, 12, 8, false},
		{0, 1, 1, 3, 8, -3, -2, false},
	}
	for _, tc := range tests {
		lo, hi, ok := Transform(tc.l, tc.u, tc.a, tc.b, tc.m)
		if ok != tc.ok || (ok && (lo != tc.lo || hi != tc.hi)) {
			t.Errorf("Transform([%d,%d], %d, %d, %d) = %d, %d, %v; want %d, %d, %v",
				tc.l, tc.u, tc.a, tc.b, tc.m, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}

func TestBlock(t *testing.T) {
	a := Block{{0, 3, 1}, {0, 7, 1}}
	b := Block{{2, 5, 1}, {4, 9, 1}}
	if got := a.Intersect(b); !got.Equal(Block{{2, 3, 1}, {4, 7, 1}}) {
		t.Errorf("Intersect = %v", got)
	}
	if got := a.IntersectSize(b); got != 8 {
		t.Errorf("IntersectSize = %d, want 8", got)
	}
	if got := a.SizeWithout(0); got != 8 {
		t.Errorf("SizeWithout(0) = %d, want 8", got)
	}
	if (Block)(nil).Intersect(a) != nil || a.Intersect(Block{{0, 1, 1}}) != nil {
		t.Error("empty or rank-mismatched intersections must be empty")
	}
	if a.Intersect(Block{{5, 6, 1}, {0, 1, 1}}) != nil {
		t.Error("disjoint blocks must intersect to the empty block")
	}
}

// New returns the section [l,u] with stride s; l > u gives the canonical
// empty section (0, -1, 1), as the original's constructor does.
func New(l, u, s int64) Section {
	if l > u {
		return Section{0, -1, 1}
	}
	return Section{l, u, s}
}

// Empty reports whether the section has Lower > Upper (the emptiness test
// of the original; a section with a negative lower bound is not empty but
// has size 0).
func (s Section) Empty() bool { return s.Lower > s.Upper }
