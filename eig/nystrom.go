package eig

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// DefaultRCond is the relative cut-off on the eigenvalues of the landmark
// kernel W used when NystromSettings.RCond is zero: directions of W with an
// eigenvalue at most DefaultRCond times the largest are dropped from W^+.
//
// The one-shot orthonormalisation goes through CᵀC, whose rounding error
// (about eps ||W||²) is amplified by 1/lambda in the dropped directions; the
// cut-off 1e-8 keeps that amplified error near 1e-8 ||W||, far below the
// eigenvalues a kernel method uses.
const DefaultRCond = 1e-8

// nystromBlock is the number of rows of C handled at a time: the context is
// checked between blocks, and without the cache only one block of C exists.
const nystromBlock = 2048

// DefaultNystromCache is the largest C = K(X, landmarks), in entries, that
// Nystrom keeps in memory when NystromSettings.MaxCache is zero (2^25 entries,
// 256 MiB). Above it C is recomputed block by block in a second pass.
const DefaultNystromCache = 1 << 25

// NystromSettings configures Nystrom. The zero value (or nil) selects every
// default.
type NystromSettings struct {
	// Seed seeds the uniform landmark sample (math/rand/v2 PCG).
	Seed uint64
	// RCond is the relative eigenvalue cut-off of the landmark kernel; zero
	// means DefaultRCond. It must lie in [0, 1).
	RCond float64
	// Extension skips the orthonormalisation and returns the classical
	// Nystrom extension of the landmark eigenvectors (Williams and Seeger):
	// vectors sqrt(m/n) C u_i / lambda_i and values (n/m) lambda_i for the
	// eigenpairs (lambda_i, u_i) of W. Those vectors are not orthogonal.
	Extension bool
	// Normalized computes instead the eigenpairs of the degree-normalised
	// approximation D^-1/2 C W^+ Cᵀ D^-1/2, with D = diag(C W^+ Cᵀ 1) the
	// degrees of the approximation: its top eigenvectors are the bottom
	// eigenvectors of the normalised graph Laplacian I - D^-1/2 K D^-1/2
	// (the values returned are those of the normalised kernel, 1 minus the
	// Laplacian's). A point whose approximate degree is not positive is an
	// error (ErrRank). It cannot be combined with Extension.
	Normalized bool
	// MaxCache is the largest number of entries of C = K(X, landmarks)
	// kept in memory between the two passes over the data; zero means
	// DefaultNystromCache, negative means never cache (C is then computed
	// twice, block by block, and memory stays O(n k + m^2 + 2048 m)).
	MaxCache int
}

// NystromResult holds approximate eigenpairs of a kernel matrix.
type NystromResult struct {
	// Values holds the k largest eigenvalues of the Nystrom approximation
	// C W^+ Cᵀ of K (descending); they estimate those of K itself.
	Values []float64
	// Vectors is n x k. Without Extension its columns are the orthonormal
	// eigenvectors of C W^+ Cᵀ (up to rounding).
	Vectors *mat.Dense
	// Landmarks holds the sampled landmark indices in increasing order.
	Landmarks []int
	// Rank is the number of eigenvalues of W kept above the cut-off.
	Rank int
	// Degrees holds the approximate degrees (C W^+ Cᵀ 1) when Normalized
	// is set, else nil.
	Degrees []float64
	// KernelPasses counts the evaluations of C (1 when cached, else 2, or
	// 3 with Normalized).
	KernelPasses int
}

// Nystrom approximates the k largest eigenpairs of the n x n kernel matrix
// K_ij = kern(x_i, x_j) from m landmarks drawn uniformly without replacement
// (with s.Seed), never forming K.
//
// With C = K(X, L) (n x m) and W = K(L, L) = U diag(lambda) Uᵀ, the
// approximation is K ~ C W^+ Cᵀ = G Gᵀ with G = C U diag(lambda^-1/2). Its
// eigenvectors are found by the one-shot orthonormalisation of Fowlkes et al.
// through the m x m matrix GᵀG = diag(lambda^-1/2) Uᵀ (CᵀC) U
// diag(lambda^-1/2) = Q diag(sigma) Qᵀ: the vectors are G Q diag(sigma^-1/2),
// orthonormal by construction, and the values sigma. With m = n every
// eigenpair above the cut-off is exact up to rounding. With
// NystromSettings.Normalized the rows of C are first scaled by d^-1/2, d the
// degrees of the approximation, giving the eigenpairs of the normalised
// kernel (the bottom of the normalised graph Laplacian).
//
// Time O(n m p + n m^2 + m^3) for p features; memory O(n m) when C is cached
// (see MaxCache), else O(n k + m^2). The context is checked between blocks of
// rows.
//
// Errors (with a nil result): input errors wrap linalg.ErrInvalid through
// linalg.ErrSettings (a nil context or kernel, m outside [1, n], k outside
// [1, m], bad settings, an invalid kernel parameter), linalg.ErrEmpty (nil
// or empty data), linalg.ErrNonFinite (NaN or Inf in the data or the
// kernel's values) or ErrRank (the landmark kernel has rank below k); a
// cancelled context gives an error wrapping the context's; and a breakdown
// of the dense eigensolver, which is not the input's fault, an error
// wrapping linalg.ErrNumerical.
func Nystrom(ctx context.Context, kern linalg.Kernel, x *mat.Dense, m, k int, s *NystromSettings) (*NystromResult, error) {
	if err := linalg.CheckContext(nystromOp, ctx); err != nil {
		return nil, err
	}
	var set NystromSettings
	if s != nil {
		set = *s
	}
	if err := checkNystrom(kern, x, m, k, &set); err != nil {
		return nil, err
	}
	n, p := x.Dims()
	res := &NystromResult{Landmarks: sampleLandmarks(n, m, set.Seed)}

	xl := mat.NewDense(m, p, nil)
	for i, j := range res.Landmarks {
		xl.SetRow(i, x.RawRowView(j))
	}
	w, err := linalg.Gram(ctx, kern, xl)
	if err != nil {
		return nil, wrapKernelErr(ctx, err)
	}
	// The package's dense eigensolver (symeig.go) needs full storage; it is
	// several times faster than gonum's Dsyev on matrices of this order.
	wd := make([]float64, m*m)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			v := w.At(i, j)
			wd[i*m+j], wd[j*m+i] = v, v
		}
	}
	se := newSymEig(m)
	lam := make([]float64, m) // ascending
	if !se.factorize(m, wd, lam) {
		return nil, fmt.Errorf("%s: eigendecomposition of the landmark kernel did not converge: %w", nystromOp, linalg.ErrNumerical)
	}
	uw := mat.NewDense(m, m, wd)
	lmax := lam[m-1]
	if !(lmax > 0) {
		return nil, linalg.Errorf(ErrRank, nystromOp, "the landmark kernel has no positive eigenvalue")
	}
	cut := set.RCond * lmax
	r := 0
	for _, v := range lam {
		if v > cut {
			r++
		}
	}
	res.Rank = r
	if r < k {
		return nil, linalg.Errorf(ErrRank, nystromOp, "%d eigenvalues of the %d x %d landmark kernel exceed %g times the largest, k = %d", r, m, m, set.RCond, k)
	}

	src := newCrossSource(kern, x, xl, set.MaxCache)
	var degZ []float64 // W^+ Cᵀ 1 when Normalized: degree_i = C_i · degZ
	if set.Normalized {
		// Degrees d = C (W^+ (Cᵀ 1)) with the truncated pseudo-inverse.
		colsum := make([]float64, m)
		err := src.each(ctx, func(_ int, cb *mat.Dense) {
			rows, _ := cb.Dims()
			for i := 0; i < rows; i++ {
				for j, v := range cb.RawRowView(i) {
					colsum[j] += v
				}
			}
		})
		if err != nil {
			return nil, err
		}
		res.KernelPasses++
		z := make([]float64, m)
		for c := m - r; c < m; c++ {
			var dot float64
			for i := 0; i < m; i++ {
				dot += uw.At(i, c) * colsum[i]
			}
			dot /= lam[c]
			for i := 0; i < m; i++ {
				z[i] += dot * uw.At(i, c)
			}
		}
		res.Degrees = make([]float64, n)
		degZ = z
	}
	// p1 (m x r or m x k) maps a row of C to the wanted coordinates.
	var p1 *mat.Dense
	if set.Extension {
		// Columns m-1, m-2, ... of U hold the largest eigenvalues.
		p1 = mat.NewDense(m, k, nil)
		scale := math.Sqrt(float64(m) / float64(n))
		res.Values = make([]float64, k)
		for j := 0; j < k; j++ {
			c := m - 1 - j
			res.Values[j] = float64(n) / float64(m) * lam[c]
			f := scale / lam[c]
			for i := 0; i < m; i++ {
				p1.Set(i, j, f*uw.At(i, c))
			}
		}
	} else {
		p1 = mat.NewDense(m, r, nil)
		for j := 0; j < r; j++ {
			c := m - 1 - j
			f := 1 / math.Sqrt(lam[c])
			for i := 0; i < m; i++ {
				p1.Set(i, j, f*uw.At(i, c))
			}
		}
		// CᵀC accumulated by blocks of rows (upper triangle).
		ctc := blas64.Symmetric{N: m, Stride: m, Uplo: blas.Upper, Data: make([]float64, m*m)}
		bad := -1
		err := src.each(ctx, func(r0 int, cb *mat.Dense) {
			if degZ != nil {
				// Scale the rows by d^-1/2 (in place: the block is
				// either the cache, which is scaled once for good, or a
				// buffer).
				rows, _ := cb.Dims()
				for i := 0; i < rows; i++ {
					row := cb.RawRowView(i)
					d := floats.Dot(row, degZ)
					res.Degrees[r0+i] = d
					if !(d > 0) || math.IsInf(d, 0) {
						if bad < 0 {
							bad = r0 + i
						}
						continue
					}
					floats.Scale(1/math.Sqrt(d), row)
				}
			}
			blas64.Syrk(blas.Trans, 1, cb.RawMatrix(), 1, ctc)
		})
		if err != nil {
			return nil, err
		}
		if bad >= 0 {
			return nil, linalg.Errorf(ErrRank, nystromOp, "approximate degree %g of point %d is not positive", res.Degrees[bad], bad)
		}
		if degZ != nil && !src.cached {
			src.scale = make([]float64, n)
			for i, d := range res.Degrees {
				src.scale[i] = 1 / math.Sqrt(d)
			}
		}
		res.KernelPasses++
		for i := 0; i < m; i++ {
			for j := 0; j < i; j++ {
				ctc.Data[i*m+j] = ctc.Data[j*m+i]
			}
		}
		full := mat.NewDense(m, m, ctc.Data)
		var t1 mat.Dense
		t1.Mul(full, p1)
		var t2 mat.Dense
		t2.Mul(p1.T(), &t1)
		gd := make([]float64, r*r)
		for i := 0; i < r; i++ {
			for j := i; j < r; j++ {
				v := (t2.At(i, j) + t2.At(j, i)) / 2
				gd[i*r+j], gd[j*r+i] = v, v
			}
		}
		sig := make([]float64, r) // ascending
		if !se.factorize(r, gd, sig) {
			return nil, fmt.Errorf("%s: eigendecomposition of GᵀG did not converge: %w", nystromOp, linalg.ErrNumerical)
		}
		q := mat.NewDense(r, r, gd)
		res.Values = make([]float64, k)
		qk := mat.NewDense(r, k, nil)
		// The same relative cut-off, now against the approximation's own
		// largest eigenvalue (the normalised kernel's is 1, whatever W's).
		sigCut := set.RCond * sig[r-1]
		for j := 0; j < k; j++ {
			c := r - 1 - j
			if !(sig[c] > sigCut) {
				return nil, linalg.Errorf(ErrRank, nystromOp, "eigenvalue %d of the approximation is %g, not above the cut-off %g", j, sig[c], sigCut)
			}
			res.Values[j] = sig[c]
			f := 1 / math.Sqrt(sig[c])
			for i := 0; i < r; i++ {
				qk.Set(i, j, f*q.At(i, c))
			}
		}
		var pk mat.Dense
		pk.Mul(p1, qk)
		p1 = &pk
	}

	res.Vectors = mat.NewDense(n, k, nil)
	err = src.each(ctx, func(r0 int, cb *mat.Dense) {
		rows, _ := cb.Dims()
		dst := res.Vectors.Slice(r0, r0+rows, 0, k).(*mat.Dense)
		dst.Mul(cb, p1)
	})
	if err != nil {
		return nil, err
	}
	res.KernelPasses++
	if src.cached {
		res.KernelPasses = 1 // the later passes read the cache
	}
	return res, nil
}

// nystromOp names Nystrom in its errors.
const nystromOp = "eig.Nystrom"

func checkNystrom(kern linalg.Kernel, x *mat.Dense, m, k int, s *NystromSettings) error {
	const op = nystromOp
	if isNilOrEmpty(kern) {
		return linalg.Errorf(linalg.ErrSettings, op, "kernel is nil")
	}
	if x == nil || x.IsEmpty() {
		return linalg.Errorf(linalg.ErrEmpty, op, "data matrix is nil or empty")
	}
	n, _ := x.Dims()
	if m < 1 || m > n {
		return linalg.Errorf(linalg.ErrSettings, op, "%d landmarks for %d points, want 1 <= m <= n", m, n)
	}
	if k < 1 || k > m {
		return linalg.Errorf(linalg.ErrSettings, op, "k = %d eigenpairs from %d landmarks, want 1 <= k <= m", k, m)
	}
	if !(s.RCond >= 0 && s.RCond < 1) {
		return linalg.Errorf(linalg.ErrSettings, op, "RCond = %v, want a value in [0, 1) (0 = default)", s.RCond)
	}
	if s.RCond == 0 {
		s.RCond = DefaultRCond
	}
	if s.Normalized && s.Extension {
		return linalg.Errorf(linalg.ErrSettings, op, "Normalized and Extension cannot be combined")
	}
	if s.MaxCache == 0 {
		s.MaxCache = DefaultNystromCache
	}
	raw := x.RawMatrix()
	for i := 0; i < raw.Rows; i++ {
		for j, v := range raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return linalg.Errorf(linalg.ErrNonFinite, op, "data entry (%d,%d) = %v is not finite", i, j, v)
			}
		}
	}
	if v, ok := kern.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return linalg.Errorf(linalg.ErrSettings, op, "%w", err)
		}
	}
	return nil
}

// wrapKernelErr reports a failure of the kernel builders: the context's error
// if it was cancelled, otherwise bad input of the kind the builder names.
func wrapKernelErr(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return canceled(nystromOp, err)
	}
	return linalg.Errorf(kindOf(err), nystromOp, "%w", err)
}

// sampleLandmarks draws m of the indices 0..n-1 uniformly without
// replacement (a partial Fisher-Yates shuffle) and returns them sorted.
func sampleLandmarks(n, m int, seed uint64) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	if m < n {
		// The second PCG word is fixed so that the stream depends on the
		// seed only.
		rng := rand.New(rand.NewPCG(seed, 0x6e797374726f6d))
		for i := 0; i < m; i++ {
			j := i + rng.IntN(n-i)
			idx[i], idx[j] = idx[j], idx[i]
		}
	}
	out := idx[:m:m]
	slices.Sort(out)
	return out
}

// crossSource yields C = K(X, L) by blocks of rows, either from one cached
// n x m matrix or by recomputing each block.
type crossSource struct {
	kern   linalg.Kernel
	x, xl  *mat.Dense
	cached bool
	c      *mat.Dense // the cached C, computed on first use
	buf    *mat.Dense
	scale  []float64 // row scaling of recomputed blocks, if not nil
}

func newCrossSource(kern linalg.Kernel, x, xl *mat.Dense, maxCache int) *crossSource {
	n, _ := x.Dims()
	m, _ := xl.Dims()
	return &crossSource{kern: kern, x: x, xl: xl, cached: maxCache > 0 && n*m <= maxCache}
}

// each calls f(r0, block) for consecutive blocks of rows of C, checking the
// context before each.
func (s *crossSource) each(ctx context.Context, f func(r0 int, cb *mat.Dense)) error {
	n, p := s.x.Dims()
	m, _ := s.xl.Dims()
	if s.cached && s.c == nil {
		s.c = mat.NewDense(n, m, nil)
		if err := linalg.CrossTo(ctx, s.c, s.kern, s.x, s.xl); err != nil {
			return wrapKernelErr(ctx, err)
		}
	}
	for r0 := 0; r0 < n; r0 += nystromBlock {
		if err := ctx.Err(); err != nil {
			return canceled(nystromOp, err)
		}
		r1 := min(r0+nystromBlock, n)
		var cb *mat.Dense
		if s.cached {
			cb = s.c.Slice(r0, r1, 0, m).(*mat.Dense)
		} else {
			if s.buf == nil {
				s.buf = mat.NewDense(min(nystromBlock, n), m, nil)
			}
			cb = s.buf.Slice(0, r1-r0, 0, m).(*mat.Dense)
			xb := s.x.Slice(r0, r1, 0, p).(*mat.Dense)
			if err := linalg.CrossTo(ctx, cb, s.kern, xb, s.xl); err != nil {
				return wrapKernelErr(ctx, err)
			}
			if s.scale != nil {
				for i := r0; i < r1; i++ {
					floats.Scale(s.scale[i], cb.RawRowView(i-r0))
				}
			}
		}
		f(r0, cb)
	}
	return nil
}
