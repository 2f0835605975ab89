// Package section is the index arithmetic of the DVM Predictor model
// (docs/model.md §5.5): strided index sections, their intersection, the
// template-to-array index transform and multi-dimensional blocks. It is pure
// math with no knowledge of arrays or processors.
package section

// Section is the index range Lower..Upper with stride Step. A stride of 0 is
// treated as 1 everywhere; a negative stride runs from Upper down to Lower.
type Section struct {
	Lower, Upper, Step int64
}

// Size is the number of elements: 0 when Lower > Upper or either bound is
// negative.
func (s Section) Size() int64 {
	if s.Lower > s.Upper || s.Lower < 0 || s.Upper < 0 {
		return 0
	}
	return (s.Upper-s.Lower)/stride(s.Step) + 1
}

func stride(s int64) int64 {
	if s == 0 {
		return 1
	}
	if s < 0 {
		return -s
	}
	return s
}

// cub is the last element of l, l+s, ... not beyond h (h itself when l > h).
func cub(l, h, s int64) int64 {
	if l > h {
		return h
	}
	return l + ((h-l)/s)*s
}

// rlb is the first element of a, a+s, ... not below b.
func rlb(a, b, s int64) int64 {
	if a < b {
		return a + ((b-a-1)/s+1)*s
	}
	return a
}

// Intersect returns the common elements of a and b. The result may have
// Lower > Upper (empty).
func Intersect(a, b Section) Section {
	if a.Step < 0 {
		r := Intersect(Section{a.Lower, a.Upper, -a.Step}, b)
		r.Step = -r.Step
		return r
	}
	if b.Step < 0 {
		r := Intersect(a, Section{b.Lower, b.Upper, -b.Step})
		r.Step = -r.Step
		return r
	}
	sa, sb := stride(a.Step), stride(b.Step)
	switch {
	case sa == 1 && sb == 1:
		return Section{max(a.Lower, b.Lower), min(a.Upper, b.Upper), 1}
	case sb == 1:
		hi := min(cub(a.Lower, a.Upper, sa), b.Upper)
		lo := rlb(a.Lower, b.Lower, sa)
		return Section{lo, cub(lo, hi, sa), sa}
	case sa == 1:
		hi := min(cub(b.Lower, b.Upper, sb), a.Upper)
		lo := rlb(b.Lower, a.Lower, sb)
		return Section{lo, cub(lo, hi, sb), sb}
	}
	return intersectStrided(a.Lower, a.Upper, sa, b.Lower, b.Upper, sb)
}

// intersectStrided finds the elements common to two sections with strides
// s1, s2 > 1 by solving x ≡ l1 (mod s1), x ≡ l2 (mod s2).
func intersectStrided(l1, u1, s1, l2, u2, s2 int64) Section {
	g, p, _ := egcd(s1, s2)
	if (l2-l1)%g != 0 {
		return Section{0, -1, 1}
	}
	l := s1 / g * s2
	// x = l1 + s1*k with s1*k ≡ l2-l1 (mod s2).
	k := ((l2 - l1) / g * p) % (s2 / g)
	x := l1 + s1*k
	lo := max(l1, l2)
	// Move x to the first solution not below lo.
	if x < lo {
		x += ((lo - x + l - 1) / l) * l
	} else {
		x -= ((x - lo) / l) * l
	}
	hi := min(u1, u2)
	return Section{x, cub(x, hi, l), l}
}

// egcd returns g = gcd(a,b) and x, y with a·x + b·y = g.
func egcd(a, b int64) (g, x, y int64) {
	if b == 0 {
		return a, 1, 0
	}
	g, x1, y1 := egcd(b, a%b)
	return g, y1, x1 - (a/b)*y1
}

// Transform maps the template index range [l,u] through i = A·j + B to the
// index range of j limited to 0..m-1 (docs/model.md §5.5). ok is false where the
// original fails. For loop sections the caller adds B to the result.
func Transform(l, u, a, b, m int64) (lo, hi int64, ok bool) {
	b1, b2 := (l-b)/a, (u-b)/a
	r1, r2 := (l-b)%a, (u-b)%a
	if a < 0 {
		r1, r2 = r2, -r1
	}
	lo, hi = min(b1, b2), max(b1, b2)
	if (lo < 0 && hi < 0) || lo >= m || (hi == 0 && r2 < 0) {
		return lo, hi, false
	}
	if r1 != 0 && hi != 0 {
		lo++
	}
	lo = max(lo, 0)
	hi = min(hi, m-1)
	if hi < lo {
		return lo, hi, false
	}
	return lo, hi, true
}
