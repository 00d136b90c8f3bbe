package eig

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

func blas64Impl() blas.Float64 { return blas64.Implementation() }

const blasNoTrans = blas.NoTrans
