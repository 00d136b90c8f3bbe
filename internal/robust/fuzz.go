package robust

import "gonum.org/v1/gonum/mat"

// Bytes hands out a fuzz input's bytes in turn, starting over at the end,
// so that a generator can draw as many as it needs from any non-empty input.
type Bytes struct {
	b []byte
	k int
}

// NewBytes returns a Bytes over b, which must not be empty.
func NewBytes(b []byte) *Bytes { return &Bytes{b: b} }

// Next returns the next byte.
func (c *Bytes) Next() byte {
	v := c.b[c.k%len(c.b)]
	c.k++
	return v
}

// Grid returns a rows x cols matrix of points on a grid of 1/4 in [-2, 2]:
// duplicate rows, constant columns, zero rows and ties are likely.
func (c *Bytes) Grid(rows, cols int) *mat.Dense {
	x := mat.NewDense(rows, cols, nil)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			x.Set(i, j, float64(int(c.Next())%17-8)/4)
		}
	}
	return x
}

// Perm returns a permutation of 0..n-1 drawn from the bytes.
func (c *Bytes) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := int(c.Next()) % (i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
