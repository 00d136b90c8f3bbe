package linalg

import (
	"context"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Defaults of HOG.
const (
	// DefaultHOGCell is the side of a HOG cell in pixels: 7 x 7 cells on a
	// 28 x 28 image, 4 x 4 on a 16 x 16 one.
	DefaultHOGCell = 4
	// DefaultHOGBins is the number of orientation bins over [0, pi), the
	// count of Dalal and Triggs.
	DefaultHOGBins = 9
)

// HOG describes grey-level images by histograms of oriented gradients
// (Dalal and Triggs, 2005), a descriptor under which two images are close
// when their edges run the same way in the same places, whatever their
// brightness and contrast. Each row of the input is one image of Height
// rows and Width columns stored row after row. The descriptor of an image:
//
//   - the gradient at every pixel by central differences (one-sided at the
//     border, where the image is extended by its edge pixels);
//   - its unsigned orientation in [0, pi) votes with the gradient's
//     magnitude into the two nearest of Bins equal orientation bins
//     (linearly split), in the histogram of the Cell x Cell pixel cell it
//     falls in; pixels beyond the last whole cell are not counted;
//   - the cell histograms, row after row of cells, form a vector of
//     (Height/Cell) (Width/Cell) Bins values scaled to unit Euclidean norm
//     (a blank image gives the zero vector).
//
// The descriptor is therefore unchanged when an image's pixels are mapped
// by v -> a v + b with a > 0. The zero value describes square images
// (Width = Height = sqrt of the row length) with DefaultHOGCell and
// DefaultHOGBins. Unlike the original descriptor there is no block
// normalisation: on small images it blurred the distinctions a nearest
// neighbour graph needs (see BENCHMARKS.md).
type HOG struct {
	// Width and Height are the image size in pixels; zero for both means
	// square images.
	Width, Height int
	// Cell is the side of a cell in pixels; zero means DefaultHOGCell.
	Cell int
	// Bins is the number of orientation bins; zero means DefaultHOGBins.
	Bins int
}

// Resolve returns h with its defaults filled in for rows of p pixels, or
// an error wrapping ErrSettings (a negative field, a size that is not p
// pixels, no square side for p, a cell larger than the image, fewer than
// two bins).
func (h HOG) Resolve(p int) (HOG, error) {
	const op = "HOG"
	switch {
	case h.Width < 0 || h.Height < 0 || h.Cell < 0 || h.Bins < 0:
		return h, newErr(ErrSettings, op, "negative setting in %+v", h)
	case (h.Width == 0) != (h.Height == 0):
		return h, newErr(ErrSettings, op, "give both Width and Height, or neither (square images): %+v", h)
	}
	if h.Width == 0 {
		s := int(math.Round(math.Sqrt(float64(p))))
		if s*s != p {
			return h, newErr(ErrSettings, op, "rows of %d values are not square images: give Width and Height", p)
		}
		h.Width, h.Height = s, s
	}
	if h.Width > p || h.Height > p || h.Width*h.Height != p { // the first two keep the product from overflowing
		return h, newErr(ErrSettings, op, "images of %d x %d pixels do not fill rows of %d values", h.Height, h.Width, p)
	}
	if h.Cell == 0 {
		h.Cell = DefaultHOGCell
	}
	if h.Bins == 0 {
		h.Bins = DefaultHOGBins
	}
	if h.Cell > min(h.Width, h.Height) {
		return h, newErr(ErrSettings, op, "cells of %d pixels do not fit images of %d x %d", h.Cell, h.Height, h.Width)
	}
	if h.Bins < 2 {
		return h, newErr(ErrSettings, op, "%d orientation bins, want at least 2", h.Bins)
	}
	return h, nil
}

// Len returns the length of the descriptor of an image of p pixels, or
// Resolve's error.
func (h HOG) Len(p int) (int, error) {
	r, err := h.Resolve(p)
	if err != nil {
		return 0, err
	}
	return (r.Height / r.Cell) * (r.Width / r.Cell) * r.Bins, nil
}

// Transform returns the descriptors of the images in the rows of x (n x
// Len(p)), computed on all cores. Cost O(n p).
//
// Errors wrap ErrInvalid: an empty or non-finite x (ErrEmpty, ErrNonFinite),
// settings that do not fit the rows (ErrSettings); a cancelled context
// returns its error.
func (h HOG) Transform(ctx context.Context, x *mat.Dense) (*mat.Dense, error) {
	const op = "HOG.Transform"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	n, p, err := checkData(op, x)
	if err != nil {
		return nil, err
	}
	r, err := h.Resolve(p)
	if err != nil {
		return nil, err
	}
	q := (r.Height / r.Cell) * (r.Width / r.Cell) * r.Bins
	out := mat.NewDense(n, q, nil)
	err = parallelFor(ctx, n, 256, func() []float64 { return make([]float64, p) }, func(img []float64, lo, hi int) {
		for i := lo; i < hi; i++ {
			r.describe(out.RawRowView(i), normalizedImage(img, x.RawRowView(i)[:p]))
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// normalizedImage returns src multiplied into dst by the power of two that
// brings its largest magnitude into [1/2, 1): exact, so the descriptor is
// the one of src, and the gradients, their squares and the norm can
// neither overflow nor underflow whatever the finite pixel values.
func normalizedImage(dst, src []float64) []float64 {
	var m float64
	for _, v := range src {
		m = math.Max(m, math.Abs(v))
	}
	if m == 0 {
		return src
	}
	_, e := math.Frexp(m)
	for j, v := range src {
		dst[j] = math.Ldexp(v, -e)
	}
	return dst
}

// describe writes the descriptor of one image (resolved settings) to dst,
// which it overwrites.
func (h HOG) describe(dst, img []float64) {
	clear(dst)
	w, ht, c, bins := h.Width, h.Height, h.Cell, h.Bins
	cols := w / c
	rows := ht / c
	at := func(a, b int) float64 { return img[min(max(a, 0), ht-1)*w+min(max(b, 0), w-1)] }
	width := math.Pi / float64(bins)
	for a := 0; a < rows*c; a++ {
		for b := 0; b < cols*c; b++ {
			gx := at(a, b+1) - at(a, b-1)
			gy := at(a+1, b) - at(a-1, b)
			mag := math.Hypot(gx, gy)
			if mag == 0 {
				continue
			}
			ang := math.Atan2(gy, gx)
			if ang < 0 {
				ang += math.Pi
			}
			f := ang / width // in [0, bins]
			lo := int(f)
			frac := f - float64(lo)
			lo %= bins
			hi := (lo + 1) % bins
			base := ((a/c)*cols + b/c) * bins
			dst[base+lo] += mag * (1 - frac)
			dst[base+hi] += mag * frac
		}
	}
	var ss float64
	for _, v := range dst {
		ss += v * v
	}
	if ss > 0 {
		s := 1 / math.Sqrt(ss)
		for j := range dst {
			dst[j] *= s
		}
	}
}
