package metric

import (
	"context"
	"fmt"

	"ukm/linalg"
)

// DefaultRankTol is the relative cut-off used when Settings.RankTol is
// zero: an eigenvalue at most DefaultRankTol times the largest of its
// matrix counts as zero. The covariances are sums of outer products,
// whose rounding is of the order of the number of terms times 2^-52 of the
// largest eigenvalue, far below this cut-off; a genuine direction is
// dropped only when its variance is ten orders of magnitude below the
// largest.
const DefaultRankTol = 1e-10

// Settings configures DCA, RCA, KernelDCA, KernelDCAMatrix and Scatter. The
// zero value (or nil) selects every default.
type Settings struct {
	// Dims is r, the number of directions kept: those of largest
	// between-to-within variance ratio (step 3.2 of Algorithm 1). Zero
	// keeps all k directions on which Ĉ_b is not zero; a larger value is
	// lowered to k. RCA ignores it.
	Dims int
	// Ridge regularises the within-chunklet covariance, relative to its
	// mean eigenvalue; it must be finite and at least 0, and 0 (the
	// default) adds nothing. RCA whitens Ĉ_w + Ridge (tr Ĉ_w / p) I.
	// DCA and Kernel DCA add Ridge (tr C_z / k) I to the k x k matrix C_z
	// = Zᵀ Ĉ_w Z of step 2.4, which is a ridge on Ĉ_w in the metric that
	// whitens Ĉ_b; it makes the directions on which the chunklets have no
	// spread usable (see the package doc).
	Ridge float64
	// RankTol is the relative cut-off on eigenvalues, at least 0 and below
	// 1; zero means DefaultRankTol. Eigenvalues of Ĉ_b (of Ĉ_w for RCA) at
	// most RankTol times the largest are dropped as zero, and C_z with an
	// eigenvalue at most RankTol times its largest is singular.
	RankTol float64
	// PointWeighted weights every chunklet of Ĉ_w by its number of points,
	// as Bar-Hillel et al. define RCA, instead of equally as eq. 5.3 does.
	PointWeighted bool

	noCholesky bool // tests: always take Kernel DCA's eigendecomposition path
}

// resolve validates the settings and fills in the defaults.
func (s *Settings) resolve(op string) (Settings, error) {
	var r Settings
	if s != nil {
		r = *s
	}
	if err := linalg.CheckCount(op, "Dims", r.Dims); err != nil {
		return r, err
	}
	if err := linalg.CheckTol(op, "Ridge", r.Ridge); err != nil {
		return r, err
	}
	if err := linalg.CheckIn(op, "RankTol", r.RankTol, 0, 1); err != nil {
		return r, err
	}
	if r.RankTol == 1 {
		return r, linalg.Errorf(linalg.ErrSettings, op, "RankTol = 1, want below 1")
	}
	if r.RankTol == 0 {
		r.RankTol = DefaultRankTol
	}
	return r, nil
}

// checkCtx rejects a nil context and reports a cancelled one.
func checkCtx(op string, ctx context.Context) error {
	if err := linalg.CheckContext(op, ctx); err != nil {
		return err
	}
	return ctxErr(op, ctx.Err())
}

// ctxErr wraps the error of a context that ended; nil stays nil.
func ctxErr(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}
