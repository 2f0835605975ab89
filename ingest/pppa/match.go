package pppa

import "github.com/presage-dvm/presage/ingest/sts"

// member is one processor's interval of a matched group.
type member struct {
	proc int // 0-based file position
	num  int // the interval's number on that processor
}

// group is an interval matched across processors, members in processor order.
type group struct {
	members []member
}

// matcher walks the interval trees of all processors (docs/model.md §10.7).
type matcher struct {
	procs   []sts.Proc
	visited [][]bool // [proc][num]
	last    []int    // last matched interval per processor, 0 = none yet
}

// match returns the groups in the analyzer's visit order.
func match(procs []sts.Proc) []group {
	m := &matcher{procs: procs, visited: make([][]bool, len(procs)), last: make([]int, len(procs))}
	for p := range procs {
		m.visited[p] = make([]bool, len(procs[p].Intervals)+1)
	}
	var groups []group
	for p := range procs {
		for k := range procs[p].Intervals {
			num := k + 1
			if m.visited[p][num] {
				continue
			}
			m.visited[p][num] = true
			m.last[p] = num
			g := group{}
			iv := &procs[p].Intervals[k]
			for q := range procs {
				if q == p {
					g.members = append(g.members, member{p, num})
					continue
				}
				if c := m.find(q, iv); c != 0 {
					m.visited[q][c] = true
					m.last[q] = c
					g.members = append(g.members, member{q, c})
				}
			}
			groups = append(groups, g)
		}
	}
	return groups
}

// same reports whether candidate c corresponds to interval iv.
func same(iv, c *sts.Interval) bool {
	return c.Line == iv.Line && c.Level == iv.Level && c.Expr == iv.Expr && c.Type == iv.Type &&
		(c.File == "" || c.File == iv.File)
}

// find searches processor q's tree for an unvisited interval matching iv,
// starting from q's last matched interval.
func (m *matcher) find(q int, iv *sts.Interval) int {
	ivs := m.procs[q].Intervals
	at := func(n int) *sts.Interval { return &ivs[n-1] }
	cur := m.last[q]
	if cur == 0 {
		cur = 1
	}
	// Move cur to the first interval of iv's level on the path.
	for at(cur).Level > iv.Level {
		cur = at(cur).Up
		if cur == 0 {
			return 0
		}
	}
	for at(cur).Level < iv.Level {
		cur = at(cur).Down
		if cur == 0 {
			return 0
		}
	}
	if up := at(cur).Up; up != 0 {
		cur = at(up).Down
	}
	for n, steps := cur, 0; n != 0 && steps < len(ivs); n, steps = at(n).Next, steps+1 {
		if !m.visited[q][n] && same(iv, at(n)) {
			return n
		}
	}
	return 0
}
