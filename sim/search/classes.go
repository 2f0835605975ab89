package search

import "slices"

// A class holds the evaluated grids that agree on every coordinate but
// one (dim).
type class struct {
	dim     int
	fixed   []int // the grid with the varying coordinate set to 0
	members []member
}

type member struct {
	grid []int
	e    float64
}

// classes in creation order, so that pruning is deterministic.
type classes []*class

// file adds an evaluated grid to its class of every dimension.
func (cs *classes) file(g []int, e float64) {
	for d := range g {
		fixed := slices.Clone(g)
		fixed[d] = 0
		i := slices.IndexFunc(*cs, func(c *class) bool { return c.dim == d && slices.Equal(c.fixed, fixed) })
		if i < 0 {
			*cs = append(*cs, &class{dim: d, fixed: fixed})
			i = len(*cs) - 1
		}
		c := (*cs)[i]
		if !slices.ContainsFunc(c.members, func(m member) bool { return slices.Equal(m.grid, g) }) {
			c.members = append(c.members, member{g, e})
		}
	}
}

// contains reports whether g belongs to the class.
func (c *class) contains(g []int) bool {
	if len(g) != len(c.fixed) {
		return false
	}
	for i := range g {
		if i != c.dim && g[i] != c.fixed[i] {
			return false
		}
	}
	return true
}

// prune is the class pruning of a round (docs/model.md §1.7 step d): in every
// class of two or more grids, the grids beyond the nearest clearly worse
// member on either side of the class's best are removed from the list.
func (cs classes) prune(list []Candidate, bestE float64, rank int) []Candidate {
	thr := 1.0025 * (bestE + 1e-7)
	for _, c := range cs {
		if len(c.members) < 2 {
			continue
		}
		d := c.dim
		tmin, xmin, xmax := c.members[0], c.members[0], c.members[0]
		for _, m := range c.members[1:] {
			if m.e < tmin.e {
				tmin = m
			}
			if m.grid[d] < xmin.grid[d] {
				xmin = m
			}
			if m.grid[d] > xmax.grid[d] {
				xmax = m
			}
		}
		for _, m := range c.members {
			if m.e < thr {
				continue
			}
			if m.e < xmin.e && m.grid[d] < tmin.grid[d] {
				xmin = m
			}
			if m.e < xmax.e && m.grid[d] > tmin.grid[d] {
				xmax = m
			}
		}
		lo, hi, t := xmin.grid[d], xmax.grid[d], tmin.grid[d]
		list = slices.DeleteFunc(list, func(x Candidate) bool {
			g := pad(x.Grid, rank)
			if !c.contains(g) {
				return false
			}
			return lo < t && g[d] < lo || hi > t && g[d] > hi
		})
	}
	return list
}
