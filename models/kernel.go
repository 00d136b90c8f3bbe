package models

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"ukm/eig"
	"ukm/linalg"
)

// The initial kernel: its choice (width, normalisation), the operator whose
// eigenpairs form the basis, and its blocks with the labeled or new points.

// operator builds the matrix whose eigenpairs form the basis: the
// (normalised) Gram matrix, or the combinatorial Laplacian of the unweighted
// kNN graph for the graph designs. trace is the Gram matrix's trace (0 for
// the Laplacian).
func (pr *prep) operator(ctx context.Context) (op eig.Operator, trace float64, err error) {
	if pr.opt.Kernel.Kind == KNN && !pr.opt.Design.graph() {
		return pr.knnOperator(ctx)
	}
	if pr.opt.Design.graph() {
		k := pr.opt.GraphK
		nb, err := pr.neighbors(ctx, k)
		if err != nil {
			return nil, 0, fmt.Errorf("models: kNN graph: %w", err)
		}
		w, err := linalg.GraphFromNeighborLists(pr.n, k, nb.ptr, nb.idx, nb.d2, nil)
		if err != nil {
			return nil, 0, fmt.Errorf("models: kNN graph: %w", err)
		}
		_, pr.comp = linalg.Components(w)
		lap, err := linalg.Laplacian(w, linalg.Combinatorial)
		if err != nil {
			return nil, 0, fmt.Errorf("models: Laplacian: %w", err)
		}
		if op, err = eig.NewCSR(lap); err != nil {
			return nil, 0, fmt.Errorf("models: %w", err)
		}
		return op, 0, nil
	}
	var k *mat.SymDense
	if pr.dist != nil {
		k, pr.dist = pr.dist, nil
		err = linalg.RBFFromDistances(k, k, pr.gamma)
	} else {
		k = getSquare(pr.n)
		err = linalg.GramTo(ctx, k, pr.kern, pr.xs)
	}
	pr.square = k
	if err != nil {
		return nil, 0, fmt.Errorf("models: Gram matrix: %w", err)
	}
	if pr.norm {
		if err := linalg.CosineNormalize(k, k); err != nil {
			return nil, 0, fmt.Errorf("models: normalising the kernel: %w", err)
		}
	}
	for i := 0; i < pr.n; i++ {
		trace += k.At(i, i)
	}
	// The Gram matrix is stored full and not needed afterwards: the
	// operator shares it instead of copying 8 n^2 bytes.
	if op, err = eig.NewDenseShared(k); err != nil {
		return nil, 0, fmt.Errorf("models: %w", err)
	}
	return op, trace, nil
}

// setKernel chooses the initial kernel (the RBF width by the median
// heuristic when not given) and, for cosine normalisation, records the
// diagonal k(x_i, x_i).
func (pr *prep) setKernel(ctx context.Context) error {
	r := &pr.opt
	var err error
	switch r.Kernel.Kind {
	case KNN:
		// A graph, not a kernel function: built in knnOperator.
		return nil
	case Linear:
		pr.kern = linalg.Linear{}
	case Quadratic:
		q := linalg.Quadratic()
		q.Scale = r.Kernel.PolyScale
		if q.Scale == 0 {
			_, p := pr.xs.Dims()
			q.Scale = 1 / float64(p)
		}
		pr.kern = q
	default:
		g := r.Kernel.Gamma
		if g == 0 && pr.sh != nil {
			g, err = pr.sh.medianGamma(ctx, pr)
		} else if g == 0 && pr.fuseRBF() {
			// One pass over the pairs serves the median and the kernel.
			pr.dist = getSquare(pr.n)
			if err := linalg.SquaredDistances(ctx, pr.dist, pr.xs); err != nil {
				return fmt.Errorf("models: RBF bandwidth: %w", err)
			}
			g, err = linalg.MedianGammaOf(pr.dist)
		} else if g == 0 {
			g, err = linalg.MedianGamma(ctx, pr.xs, &linalg.BandwidthOptions{Seed: r.Seed})
		}
		if errors.Is(err, linalg.ErrDegenerate) {
			return inputf(linalg.ErrDegenerate, "RBF bandwidth: %w", err)
		}
		if err != nil {
			return fmt.Errorf("models: RBF bandwidth: %w", err)
		}
		if s := r.Kernel.WidthScale; s > 0 && r.Kernel.Gamma == 0 {
			g /= s * s
		}
		pr.kern = linalg.RBF{Gamma: g}
		pr.gamma = g
	}
	// The RBF kernel has k(x, x) = 1: normalising it is the identity.
	pr.norm = !r.Kernel.Raw && r.Kernel.Kind != RBF
	if pr.norm {
		pr.diag = make([]float64, pr.n)
		for i := range pr.diag {
			row := pr.xs.RawRowView(i)
			pr.diag[i] = pr.kern.Eval(row, row)
			if !(pr.diag[i] > 0) {
				return inputf(linalg.ErrDegenerate, "k(x_%d, x_%d) = %v: a %v kernel cannot be cosine-normalised at a point that scales to the origin (set Kernel.Raw or change the scaling)",
					i, i, pr.diag[i], r.Kernel.Kind)
			}
		}
	}
	return nil
}

// fuseRBF reports whether the RBF kernel with the median width is built
// from one matrix of squared distances (linalg.SquaredDistances, then
// MedianGammaOf and RBFFromDistances in place): when the design needs the
// whole Gram matrix anyway and the median is exact (at most
// linalg.DefaultMaxPairs pairs). The width is bitwise the one MedianGamma
// returns; the kernel entries differ from linalg.Gram's only by the
// rounding of the norm identity Gram uses (they are more accurate), and the
// pairwise products of Gram are saved.
func (pr *prep) fuseRBF() bool {
	d := pr.opt.Design
	return d != Standard && !d.graph() && pr.opt.Kernel.Kind == RBF && !pr.opt.large(pr.n) && pr.n*(pr.n-1)/2 <= linalg.DefaultMaxPairs
}

// crossTrain returns the (normalised) n x len(cols) kernel block
// K0(X, X_cols), written into dst when it has that shape.
func (pr *prep) crossTrain(ctx context.Context, dst *mat.Dense, cols []int) (*mat.Dense, error) {
	p := pr.xs.RawMatrix().Cols
	z := mat.NewDense(len(cols), p, nil)
	for a, j := range cols {
		z.SetRow(a, pr.xs.RawRowView(j))
	}
	if dst != nil {
		if r, c := dst.Dims(); r != pr.n || c != len(cols) {
			dst = nil
		}
	}
	if dst == nil {
		dst = &mat.Dense{}
	}
	if err := linalg.CrossTo(ctx, dst, pr.kern, pr.xs, z); err != nil {
		return nil, fmt.Errorf("models: cross kernel: %w", err)
	}
	if pr.norm {
		raw := dst.RawMatrix()
		for i := 0; i < pr.n; i++ {
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for a, j := range cols {
				row[a] /= math.Sqrt(pr.diag[i] * pr.diag[j])
			}
		}
	}
	// The labeled block must be exactly symmetric for the kernel machines;
	// the product kernels may round the two triangles differently.
	for a, i := range cols {
		for b := a + 1; b < len(cols); b++ {
			j := cols[b]
			v := 0.5 * (dst.At(i, b) + dst.At(j, a))
			dst.Set(i, b, v)
			dst.Set(j, a, v)
		}
	}
	return dst, nil
}

// crossNew returns the normalised kernel block K0(z, X_cols) of new scaled
// points z (m x p); cols nil means all n training points.
func (pr *prep) crossNew(ctx context.Context, z *mat.Dense, cols []int) (*mat.Dense, error) {
	xs := pr.xs
	if cols != nil {
		p := xs.RawMatrix().Cols
		xs = mat.NewDense(len(cols), p, nil)
		for a, j := range cols {
			xs.SetRow(a, pr.xs.RawRowView(j))
		}
	}
	var k mat.Dense
	if err := linalg.CrossTo(ctx, &k, pr.kern, z, xs); err != nil {
		return nil, fmt.Errorf("models: cross kernel: %w", err)
	}
	if pr.norm {
		m, _ := z.Dims()
		raw := k.RawMatrix()
		for i := 0; i < m; i++ {
			zi := z.RawRowView(i)
			dz := pr.kern.Eval(zi, zi)
			if !(dz > 0) {
				return nil, inputf(linalg.ErrDegenerate, "new point %d has k(x, x) = %v and cannot be cosine-normalised", i, dz)
			}
			row := raw.Data[i*raw.Stride : i*raw.Stride+raw.Cols]
			for a := range row {
				j := a
				if cols != nil {
					j = cols[a]
				}
				row[a] /= math.Sqrt(dz * pr.diag[j])
			}
		}
	}
	return &k, nil
}
