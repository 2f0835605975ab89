package section

// Block is a rectangular multi-dimensional index set, one Section per
// dimension. A nil Block is the empty block of the original ("no
// dimensions"); a non-nil block may still hold a dimension of size 0.
type Block []Section

// Size is the product of the section sizes (0 for the empty block).
func (b Block) Size() int64 {
	if b == nil {
		return 0
	}
	n := int64(1)
	for _, s := range b {
		n *= s.Size()
	}
	return n
}

// SizeWithout is the product of the section sizes of all dimensions except
// the listed ones.
func (b Block) SizeWithout(skip ...int) int64 {
	n := int64(1)
outer:
	for d, s := range b {
		for _, k := range skip {
			if d == k {
				continue outer
			}
		}
		n *= s.Size()
	}
	return n
}

// Intersect returns the common part of a and b: nil when either is empty,
// the ranks differ, or any dimension's intersection has Lower > Upper.
func (b Block) Intersect(o Block) Block {
	if b == nil || o == nil || len(b) != len(o) {
		return nil
	}
	r := make(Block, len(b))
	for d := range b {
		r[d] = Intersect(b[d], o[d])
		if r[d].Lower > r[d].Upper {
			return nil
		}
	}
	return r
}

// IntersectSize is |b ∩ o| without allocating.
func (b Block) IntersectSize(o Block) int64 {
	if b == nil || o == nil || len(b) != len(o) {
		return 0
	}
	n := int64(1)
	for d := range b {
		s := Intersect(b[d], o[d])
		if s.Lower > s.Upper {
			return 0
		}
		n *= s.Size()
	}
	return n
}

// Equal reports whether both blocks have the same rank and bounds.
func (b Block) Equal(o Block) bool {
	if (b == nil) != (o == nil) || len(b) != len(o) {
		return false
	}
	for d := range b {
		if b[d] != o[d] {
			return false
		}
	}
	return true
}

// Clone returns a copy of b.
func (b Block) Clone() Block {
	if b == nil {
		return nil
	}
	return append(Block(nil), b...)
}
