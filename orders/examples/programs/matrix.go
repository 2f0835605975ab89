package programs

import "math/rand/v2"

// Matrix is a dense row-major matrix.
type Matrix struct {
	Rows, Cols int
	Data       []float64
}

// Bytes is what the matrix moves between computers.
func (m Matrix) Bytes() int64 { return int64(8 * len(m.Data)) }

func newMatrix(rows, cols int) Matrix {
	return Matrix{Rows: rows, Cols: cols, Data: make([]float64, rows*cols)}
}

func randomMatrix(rng *rand.Rand, rows, cols int) Matrix {
	m := newMatrix(rows, cols)
	for i := range m.Data {
		m.Data[i] = rng.Float64() - 0.5
	}
	return m
}

// sub copies the rows×cols block of m at (r, c).
func (m Matrix) sub(r, c, rows, cols int) Matrix {
	s := newMatrix(rows, cols)
	for i := range rows {
		copy(s.Data[i*cols:(i+1)*cols], m.Data[(r+i)*m.Cols+c:])
	}
	return s
}

// mulAdd adds a[:, k0:k0+b] × b[k0:k0+b, :] to c, looping i, k, j so
// that the innermost loop runs along rows.
func mulAdd(c, a, bm Matrix, k0, kn int) {
	for i := range a.Rows {
		ci := c.Data[i*c.Cols : (i+1)*c.Cols]
		for k := k0; k < k0+kn; k++ {
			aik := a.Data[i*a.Cols+k]
			bk := bm.Data[k*bm.Cols : (k+1)*bm.Cols]
			for j := range ci {
				ci[j] += aik * bk[j]
			}
		}
	}
}

// mulVec returns m × x.
func (m Matrix) mulVec(x []float64) []float64 {
	y := make([]float64, m.Rows)
	for i := range m.Rows {
		var s float64
		for j, v := range m.Data[i*m.Cols : (i+1)*m.Cols] {
			s += v * x[j]
		}
		y[i] = s
	}
	return y
}

// mulTVec returns mᵀ × x.
func (m Matrix) mulTVec(x []float64) []float64 {
	y := make([]float64, m.Cols)
	for i := range m.Rows {
		xi := x[i]
		for j, v := range m.Data[i*m.Cols : (i+1)*m.Cols] {
			y[j] += v * xi
		}
	}
	return y
}

// row is row i of m.
func (m Matrix) row(i int) []float64 { return m.Data[i*m.Cols : (i+1)*m.Cols] }
