package eig

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randSlice returns n standard normal numbers from the seed.
func randSlice(n int, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	out := make([]float64, n)
	for i := range out {
		out[i] = rng.NormFloat64()
	}
	return out
}

// dotRef is a plain dot product for the kernel tests.
func dotRef(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// kernelTol bounds the difference of two summation orders of a dot product
// of length n: each has error at most n eps sum|a_i b_i| (Higham, Accuracy
// and Stability, ch. 3), so twice that.
func kernelTol(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += math.Abs(a[i] * b[i])
	}
	return 2 * float64(len(a)) * eps * s
}

// TestDotsNT compares the tiled dot products (assembly when available)
// with plain loops on sizes that exercise every tail: rows not a multiple
// of 3, vector counts not a multiple of 4, lengths not a multiple of 8 or 4,
// padded leading dimensions, both output layouts and unaligned starts.
func TestDotsNT(t *testing.T) {
	if !hasAVX2FMA {
		t.Log("no AVX2+FMA kernel on this machine: checking the portable path only")
	}
	for _, z := range avx512Settings(t) {
		setAVX512(z)
		testDotsNT(t)
	}
}

// avx512Settings returns the settings of the AVX-512 kernel to test (off,
// and on where the processor has it) and restores the setting at the end
// of the test.
func avx512Settings(t *testing.T) []bool {
	old := setAVX512(false)
	setAVX512(old)
	t.Cleanup(func() { setAVX512(old) })
	if old {
		return []bool{false, true}
	}
	return []bool{false}
}

func testDotsNT(t *testing.T) {
	for _, rows := range []int{1, 2, 3, 4, 5, 7, 11} {
		for _, nx := range []int{1, 2, 3, 4, 5, 8, 9, 13, 16, 20, 24} {
			for _, n := range []int{1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 33, 257} {
				for _, layout := range []string{"AXt", "XAt"} {
					name := fmt.Sprintf("rows=%d/nx=%d/n=%d/%s/avx512=%v", rows, nx, n, layout, hasAVX512)
					seed := uint64(rows*1000 + nx*100 + n)
					// Leading dimensions padded by 3 and an offset of one
					// element, so rows start at unaligned addresses.
					lda, ldx := n+3, n+1
					a := randSlice(1+rows*lda, seed)[1:]
					x := randSlice(1+nx*ldx, seed+1)[1:]
					ci, cv := nx, 1
					if layout == "XAt" {
						ci, cv = 1, rows
					}
					for _, fast := range []bool{true, false} {
						c := randSlice(rows*nx, seed+2) // overwritten
						dotsNT(fast, c, ci, cv, a, lda, rows, x, ldx, nx, n)
						for i := 0; i < rows; i++ {
							for v := 0; v < nx; v++ {
								ar, xv := a[i*lda:i*lda+n], x[v*ldx:v*ldx+n]
								want, got := dotRef(ar, xv), c[i*ci+v*cv]
								if math.Abs(got-want) > kernelTol(ar, xv) {
									t.Fatalf("%s fast=%v: c(%d,%d) = %v, want %v", name, fast, i, v, got, want)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestDotsNTChunked checks the column chunks and row panels dotsTiles uses
// for a matrix too large for the cache (one partial panel; full panels and
// a partial one; a single triple left), with and without the AVX-512
// kernel.
func TestDotsNTChunked(t *testing.T) {
	n := cacheEntries/4 + 7
	lda := n + 1
	defer setAVX512(setAVX512(false))
	for _, rows := range []int{5, 3*tilePanel + 1, 6*tilePanel + 2} {
		a := randSlice(rows*lda, uint64(rows))
		for _, nxz := range [][2]int{{3, 0}, {8, 0}, {12, 0}, {20, 0}, {8, 1}, {12, 1}, {16, 1}, {20, 1}, {27, 1}} {
			nx := nxz[0]
			if setAVX512(nxz[1] == 1); nxz[1] == 1 && !hasAVX512 {
				continue // no AVX-512 here
			}
			x := randSlice(nx*n, 2)
			c := make([]float64, rows*nx)
			dotsNT(true, c, nx, 1, a, lda, rows, x, n, nx, n)
			for i := 0; i < rows; i++ {
				for v := 0; v < nx; v++ {
					ar, xv := a[i*lda:i*lda+n], x[v*n:(v+1)*n]
					if want, got := dotRef(ar, xv), c[i*nx+v]; math.Abs(got-want) > kernelTol(ar, xv) {
						t.Fatalf("rows=%d nx=%d avx512=%v: c(%d,%d) = %v, want %v", rows, nx, hasAVX512, i, v, got, want)
					}
				}
			}
		}
	}
}

// TestDots8Bcast compares the eight-vector broadcast product with plain
// loops on sizes with every tail: rows not a multiple of 12 (the rest goes
// to dotsNT), lengths not a multiple of 8 or of the chunk, padded leading
// dimensions and both output layouts. The tolerance is kernelTol, the
// bound for two summation orders.
func TestDots8Bcast(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512 kernel here")
	}
	for _, rows := range []int{1, 11, 12, 13, 25, 36} {
		for _, n := range []int{1, 7, 8, 9, 127, 128, 129, 300, 1031} {
			lda, ldx := n+3, n+5
			seed := uint64(rows*10000 + n)
			a := randSlice(rows*lda, seed)
			x := randSlice(8*ldx, seed+1)
			xi := make([]float64, 8*n)
			for _, layout := range [][2]int{{8, 1}, {1, rows}} {
				ci, cv := layout[0], layout[1]
				c := make([]float64, 8*rows)
				dots8Bcast(c, ci, cv, a, lda, rows, x, ldx, n, xi)
				for i := range rows {
					for v := range 8 {
						ar, xv := a[i*lda:i*lda+n], x[v*ldx:v*ldx+n]
						if want, got := dotRef(ar, xv), c[i*ci+v*cv]; math.Abs(got-want) > kernelTol(ar, xv) {
							t.Fatalf("rows=%d n=%d ci=%d: c(%d,%d) = %v, want %v", rows, n, ci, i, v, got, want)
						}
					}
				}
			}
		}
	}
}

// TestDenseMulVecsEight checks the block product of eight vectors on a
// matrix large enough to take the broadcast kernel, against products of
// the vectors one at a time.
func TestDenseMulVecsEight(t *testing.T) {
	n := 1201
	a := mat.NewSymDense(n, nil)
	r := randSlice(n*n, 7)
	for i := range n {
		for j := i; j < n; j++ {
			a.SetSym(i, j, r[i*n+j])
		}
	}
	op, err := NewDense(a)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(8, n, randSlice(8*n, 8))
	y := mat.NewDense(8, n, nil)
	op.MulVecsTo(y, x)
	want := mat.NewDense(8, n, nil)
	for v := range 8 {
		op.MulVecTo(want.RawRowView(v), x.RawRowView(v))
	}
	row := make([]float64, n)
	for i := range n {
		mat.Row(row, i, a)
		for v := range 8 {
			if got, w := y.At(v, i), want.At(v, i); math.Abs(got-w) > kernelTol(row, x.RawRowView(v)) {
				t.Fatalf("y(%d,%d) = %v, want %v", v, i, got, w)
			}
		}
	}
}

// TestSubTN compares the tiled update X -= Hᵀ V with plain loops on sizes
// with every kind of tail.
func TestSubTN(t *testing.T) {
	for _, q := range []int{1, 2, 3, 4, 5, 8, 9, 12} {
		for _, m := range []int{1, 2, 5, 17} {
			for _, n := range []int{1, 3, 7, 8, 9, 16, 23, 64, 131} {
				name := fmt.Sprintf("q=%d/m=%d/n=%d", q, m, n)
				seed := uint64(q*1000 + m*100 + n)
				ldx, ldv, ldh := n+2, n+5, q+1
				v := randSlice(1+m*ldv, seed)[1:]
				h := randSlice(m*ldh, seed+1)
				x0 := randSlice(1+q*ldx, seed+2)[1:]
				for _, fast := range []bool{true, false} {
					x := append([]float64(nil), x0...)
					subTN(fast, x, ldx, q, h, ldh, v, ldv, m, n)
					for r := 0; r < q; r++ {
						for j := 0; j < n; j++ {
							want := x0[r*ldx+j]
							var mag float64
							for i := 0; i < m; i++ {
								want -= h[i*ldh+r] * v[i*ldv+j]
								mag += math.Abs(h[i*ldh+r] * v[i*ldv+j])
							}
							// m+1 terms summed in two orders (see kernelTol).
							tol := 2 * float64(m+1) * eps * (mag + math.Abs(x0[r*ldx+j]))
							if got := x[r*ldx+j]; math.Abs(got-want) > tol {
								t.Fatalf("%s fast=%v: x(%d,%d) = %v, want %v", name, fast, r, j, got, want)
							}
						}
						// Padding between rows must be untouched.
						if r < q-1 {
							for j := n; j < ldx; j++ {
								if x[r*ldx+j] != x0[r*ldx+j] {
									t.Fatalf("%s fast=%v: padding (%d,%d) changed", name, fast, r, j)
								}
							}
						}
					}
				}
			}
		}
	}
}

// FuzzDotsNT checks the tiled kernel against plain loops on arbitrary
// shapes and values (including huge and tiny magnitudes).
func FuzzDotsNT(f *testing.F) {
	f.Add(uint8(5), uint8(7), uint16(37), uint64(1), 1.0)
	f.Add(uint8(1), uint8(1), uint16(1), uint64(2), 1e300)
	f.Add(uint8(3), uint8(4), uint16(8), uint64(3), 1e-300)
	f.Fuzz(func(t *testing.T, rows8, nx8 uint8, n16 uint16, seed uint64, scale float64) {
		rows, nx, n := int(rows8%20)+1, int(nx8%20)+1, int(n16%600)
		if math.IsNaN(scale) || math.IsInf(scale, 0) {
			return
		}
		a := randSlice(rows*n, seed)
		x := randSlice(nx*n, seed+1)
		for i := range a {
			a[i] *= scale
		}
		c := make([]float64, rows*nx)
		dotsNT(true, c, nx, 1, a, n, rows, x, n, nx, n)
		for i := 0; i < rows; i++ {
			for v := 0; v < nx; v++ {
				ar, xv := a[i*n:(i+1)*n], x[v*n:(v+1)*n]
				want, got := dotRef(ar, xv), c[i*nx+v]
				if math.IsInf(want, 0) || math.IsNaN(want) {
					continue // overflow: both orders may overflow differently
				}
				if math.Abs(got-want) > kernelTol(ar, xv)+math.SmallestNonzeroFloat64*float64(4*n) {
					t.Fatalf("rows=%d nx=%d n=%d: c(%d,%d) = %v, want %v", rows, nx, n, i, v, got, want)
				}
			}
		}
	})
}

// TestDenseBlockMatchesVector checks the block product of Dense (the
// assembly path when available) against single products, which use a
// different kernel, on odd sizes and every block size up to 16.
func TestDenseBlockMatchesVector(t *testing.T) {
	for _, n := range []int{1, 2, 5, 17, 130} {
		a := rbfKernel(gaussPoints(n, 3, uint64(n)))
		op, err := NewDense(a)
		if err != nil {
			t.Fatal(err)
		}
		for b := 1; b <= 16; b++ {
			x := randSlice(b*n, uint64(b))
			xm, ym := newDenseRows(b, n, x), newDenseRows(b, n, nil)
			op.MulVecsTo(ym, xm)
			y := make([]float64, n)
			for k := 0; k < b; k++ {
				op.MulVecTo(y, xm.RawRowView(k))
				for i := range y {
					// Entries of the RBF kernel are in (0, 1]: the two sums
					// of n terms agree to 2 n eps sum|x|.
					var sx float64
					for _, v := range xm.RawRowView(k) {
						sx += math.Abs(v)
					}
					if d := math.Abs(ym.At(k, i) - y[i]); d > 2*float64(n)*eps*sx {
						t.Fatalf("n=%d b=%d: row %d entry %d differs by %.3g", n, b, k, i, d)
					}
				}
			}
		}
	}
}

func newDenseRows(r, c int, data []float64) *mat.Dense { return mat.NewDense(r, c, data) }

// TestRotRows checks the rotation kernel (assembly when available) against
// the formula on lengths with every tail, with an orthogonal rotation so
// that each result is a two-term sum with error at most 2 eps (|x|+|y|).
func TestRotRows(t *testing.T) {
	th := 0.7
	c, s := math.Cos(th), math.Sin(th)
	for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 31, 64} {
		x0, y0 := randSlice(n, uint64(n)), randSlice(n, uint64(n)+100)
		x, y := append([]float64(nil), x0...), append([]float64(nil), y0...)
		rotRows(x, y, c, s)
		for k := range x {
			tol := 2 * eps * (math.Abs(x0[k]) + math.Abs(y0[k]))
			if wx := c*x0[k] - s*y0[k]; math.Abs(x[k]-wx) > tol {
				t.Fatalf("n=%d: x[%d] = %v, want %v", n, k, x[k], wx)
			}
			if wy := s*x0[k] + c*y0[k]; math.Abs(y[k]-wy) > tol {
				t.Fatalf("n=%d: y[%d] = %v, want %v", n, k, y[k], wy)
			}
		}
	}
}

// TestHypot checks the fast path and the scaled fallback against
// math.Hypot, including overflow and underflow of the squares.
func TestHypot(t *testing.T) {
	for _, tc := range [][2]float64{
		{3, 4}, {0, 0}, {0, -2}, {1e-320, 0}, {1e300, 1e300}, {-1e-300, 1e-300},
		{0x1p499, 1}, {0x1p501, 1}, {1e-160, 1e-160}, {math.Inf(1), 1}, {math.NaN(), 1},
	} {
		got, want := hypot(tc[0], tc[1]), math.Hypot(tc[0], tc[1])
		if math.IsNaN(want) {
			if !math.IsNaN(got) {
				t.Errorf("hypot(%v, %v) = %v, want NaN", tc[0], tc[1], got)
			}
			continue
		}
		// The direct formula is within 2 eps of the correctly rounded value.
		if math.Abs(got-want) > 2*eps*want {
			t.Errorf("hypot(%v, %v) = %v, want %v", tc[0], tc[1], got, want)
		}
	}
}

// TestOrthonormalRows perturbs orthonormal rows by 1e-8 and checks that
// the Cholesky QR passes restore orthonormality (LAPACK's ||I - YYᵀ|| /
// (n eps) below 60) while moving each row by no more than the
// perturbation (the rows stay close to the originals, so the Ritz vectors
// keep their meaning); rank-deficient input takes the fallback path and
// must not produce NaN.
func TestOrthonormalRows(t *testing.T) {
	for _, sz := range [][2]int{{1, 5}, {3, 7}, {8, 130}, {20, 400}, {50, 333}, {30, 2400}} {
		q, n := sz[0], sz[1]
		// The last size runs its products on a team of goroutines.
		var tm *team
		y := mat.NewDense(q, n, nil)
		y0 := mat.NewDense(q, n, nil)
		if n > 1000 {
			tm = new(team)
			tm.init(n)
			// Orthonormal rows without an n x n factorization.
			y0 = mat.NewDense(q, n, randSlice(q*n, uint64(q)))
			gramSchmidtRows(y0, q)
		} else {
			qm := randOrtho(n, uint64(q))
			for a := 0; a < q; a++ {
				for j := 0; j < n; j++ {
					y0.Set(a, j, qm.At(j, a))
				}
			}
		}
		noise := randSlice(q*n, uint64(n))
		for a := 0; a < q; a++ {
			for j := 0; j < n; j++ {
				y.Set(a, j, y0.At(a, j)+1e-8*noise[a*n+j])
			}
		}
		orthonormalRows(tm, y, q)
		var yyt mat.Dense
		yyt.Mul(y, y.T())
		for i := 0; i < q; i++ {
			yyt.Set(i, i, yyt.At(i, i)-1)
		}
		if s := mat.Norm(&yyt, 2) / (float64(n) * eps); s > 60 {
			t.Errorf("q=%d n=%d: orthogonality %.3g > 60", q, n, s)
		}
		var diff mat.Dense
		diff.Sub(y, y0)
		// The perturbation has norm about 1e-8 sqrt(q n); the correction
		// stays within a few times that.
		if nd := mat.Norm(&diff, 2); nd > 1e-8*math.Sqrt(float64(q*n))*4 {
			t.Errorf("q=%d n=%d: rows moved by %.3g", q, n, nd)
		}
	}
	// Two equal rows: the Gram matrix is singular.
	y := mat.NewDense(2, 9, nil)
	for j := 0; j < 9; j++ {
		y.Set(0, j, float64(j+1))
		y.Set(1, j, float64(j+1))
	}
	orthonormalRows(nil, y, 2)
	for _, v := range y.RawMatrix().Data {
		if math.IsNaN(v) {
			t.Fatal("NaN after orthonormalizing dependent rows")
		}
	}
}
