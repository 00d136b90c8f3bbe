package qptest

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
	"ukm/qp"
)

// Spec describes a generated LP-like problem of the kind that defeats naive
// active-set phase 1s: sparse rows, H zero on most variables, redundant,
// duplicated, empty and ranged rows, fixed and free variables, and row and
// column scales spread over many orders of magnitude. Generate builds it
// around a planted KKT point, so its optimal value is known exactly. The zero
// value of every count means none; N and Rows must be positive.
type Spec struct {
	// N is the number of variables and Rows the number of base rows (before
	// the redundant, duplicated, empty and ranged rows are added).
	N, Rows int
	// EqFrac is the fraction of base rows that are equalities (at most N/2
	// of them).
	EqFrac float64
	// Curved is the number of variables on which H is nonzero (H is a
	// random positive definite block there); 0 gives a linear program with
	// H nil.
	Curved int
	// Density is the fraction of nonzeros of a base row; zero means
	// min(1, 4/N), at least one.
	Density float64
	// Redundant rows are combinations of two base rows of the same kind
	// (positive weights for inequalities, which makes them implied).
	Redundant int
	// Duplicate rows repeat a base row times a factor (positive for
	// inequalities).
	Duplicate int
	// Empty rows have all coefficients zero and a consistent right-hand
	// side (0 for equalities, 0 or −1 for inequalities).
	Empty int
	// Ranged rows are pairs of inequalities l <= aᵀx <= u; a third of them
	// have l = u (an equality in disguise).
	Ranged int
	// NearlyDependent rows are combinations of three base rows (equalities
	// if there are any) tilted by a
	// random vector of relative size Tilt (zero means 1e-11), active at the
	// planted point with a zero multiplier: independent of the others, but
	// only by about Tilt, which dependence tests with a tolerance above Tilt
	// misjudge.
	//
	// With Shift > 0 (and EqFrac > 0) the tilt is along one variable z
	// reserved for it: z is free, has the curvature ZCurvature (zero means
	// 1e-6) and no coupling in H, and appears in no other row but two loose
	// inequalities; each such
	// row's right-hand side exceeds its value at the planted point by
	// Shift·(1 + |aᵀx|). The row is then violated there by about Shift
	// relative while it depends on equalities up to Tilt, and the optimum is
	// the planted point with z moved by Shift/Tilt or so (the equalities'
	// multipliers absorb the rest): it is X as Generate reports it.
	NearlyDependent int
	Tilt            float64
	Shift           float64
	ZCurvature      float64
	// Free variables have no bounds; Fixed ones have Lower = Upper.
	Free, Fixed int
	// Decades spreads the row and the column scale factors log-uniformly
	// over this many decades (8 gives coefficients over 8 orders of
	// magnitude); zero leaves the problem unscaled.
	Decades float64
	// Infeasible adds a row contradicting a nonnegative combination of the
	// others and of some bounds; Margin is the contradiction's size
	// relative to the certificate's weights before scaling (zero means
	// 1e-3): about the certificate's Gap (see qp.Farkas) when Decades is 0.
	Infeasible bool
	Margin     float64
	// Seed selects the random stream; a Spec always generates the same
	// problem.
	Seed uint64
}

// Generated is a problem made by Generate with what is known about it.
type Generated struct {
	Problem *qp.Problem
	// Want is linalg.Optimal or linalg.Infeasible.
	Want linalg.Status
	// X is a planted optimum and Obj the optimal value (Optimal only).
	X   []float64
	Obj float64
	// Farkas is the planted infeasibility certificate (Infeasible only), in
	// the form Certificate checks.
	Farkas qp.Farkas
}

// genRow is a row under construction, in the unscaled space.
type genRow struct {
	a    []float64
	b    float64
	eq   bool
	lam  float64 // multiplier at the planted point (>= 0 for inequalities)
	base bool
}

// Generate builds the problem s describes. It costs O(N·(N + rows)) and
// panics on a Spec with N or Rows below 1 (a programmer error of the test
// that calls it).
func Generate(s Spec) Generated {
	if s.N < 1 || s.Rows < 1 {
		panic("qptest.Generate: Spec needs N >= 1 and Rows >= 1")
	}
	rng := rand.New(rand.NewPCG(s.Seed, 0x51ed2701a3c4b5e9))
	n := s.N
	dens := s.Density
	if !(dens > 0) {
		dens = math.Min(1, 4/float64(n))
	}
	nnz := max(1, int(math.Round(dens*float64(n))))
	x := make([]float64, n)
	for j := range x {
		x[j] = rng.NormFloat64()
	}
	// bounds and bound multipliers: fixed, free, then a mix
	lo, up := make([]float64, n), make([]float64, n)
	zl, zu := make([]float64, n), make([]float64, n)
	perm := rng.Perm(n)
	for k, j := range perm {
		lo[j], up[j] = math.Inf(-1), math.Inf(1)
		switch {
		case k < s.Fixed:
			lo[j], up[j] = x[j], x[j]
			zl[j] = rng.NormFloat64() // a fixed variable's multiplier has either sign
			if zl[j] < 0 {
				zl[j], zu[j] = 0, -zl[j]
			}
		case k < s.Fixed+s.Free:
		default:
			switch rng.IntN(6) {
			case 0: // lower bound active
				lo[j], up[j] = x[j], x[j]+1+rng.Float64()
				zl[j] = 0.5 + rng.Float64()
			case 1: // upper bound active, no lower bound
				up[j] = x[j]
				zu[j] = 0.5 + rng.Float64()
			case 2: // lower bound active with a zero multiplier (degenerate)
				lo[j] = x[j]
			case 3: // inside a box
				lo[j], up[j] = x[j]-rng.Float64()-0.1, x[j]+rng.Float64()+0.1
			case 4: // lower bound only, inactive
				lo[j] = x[j] - rng.Float64() - 0.1
			default: // free
			}
		}
	}
	shifted := s.Shift > 0 && s.NearlyDependent > 0 && n > 1
	nc := n // columns the base rows may use
	if shifted {
		nc = n - 1
		lo[n-1], up[n-1], zl[n-1], zu[n-1] = math.Inf(-1), math.Inf(1), 0, 0
	}
	nnz = min(nnz, nc)
	rows := make([]genRow, 0, s.Rows+s.Redundant+s.Duplicate+s.Empty+2*s.Ranged+s.NearlyDependent+1)
	meq := min(int(math.Round(s.EqFrac*float64(s.Rows))), n/2)
	sparseRow := func() []float64 {
		a := make([]float64, n)
		for _, j := range rng.Perm(nc)[:nnz] {
			a[j] = rng.NormFloat64()
		}
		return a
	}
	for i := 0; i < s.Rows; i++ {
		r := genRow{a: sparseRow(), eq: i < meq, base: true}
		r.b = dot(r.a, x)
		switch {
		case r.eq:
			r.lam = rng.NormFloat64()
		case rng.IntN(3) == 0: // active with a positive multiplier
			r.lam = 0.5 + rng.Float64()
		case rng.IntN(2) == 0: // active with a zero multiplier (degenerate)
		default: // slack
			r.b -= 0.1 + rng.Float64()
		}
		rows = append(rows, r)
	}
	pick := func(eq bool) (genRow, bool) {
		for try := 0; try < 4*s.Rows; try++ {
			r := rows[rng.IntN(s.Rows)]
			if r.eq == eq {
				return r, true
			}
		}
		return genRow{}, false
	}
	for k := 0; k < s.Redundant; k++ {
		eq := k%2 == 0 && meq > 0
		r1, ok1 := pick(eq)
		r2, ok2 := pick(eq)
		if !ok1 || !ok2 {
			continue
		}
		c1, c2 := 0.5+rng.Float64(), 0.5+rng.Float64()
		if eq && rng.IntN(2) == 0 {
			c2 = -c2
		}
		r := genRow{a: make([]float64, n), eq: eq}
		for j := range r.a {
			r.a[j] = c1*r1.a[j] + c2*r2.a[j]
		}
		r.b = c1*r1.b + c2*r2.b
		rows = append(rows, r)
	}
	for k := 0; k < s.Duplicate; k++ {
		r0 := rows[rng.IntN(s.Rows)]
		f := math.Pow(2, float64(rng.IntN(5)-2))
		if k%3 == 0 {
			f = 1 // an exact copy
		}
		if r0.eq && rng.IntN(2) == 0 {
			f = -f
		}
		r := genRow{a: make([]float64, n), b: f * r0.b, eq: r0.eq}
		for j := range r.a {
			r.a[j] = f * r0.a[j]
		}
		rows = append(rows, r)
	}
	for k := 0; k < s.Empty; k++ {
		r := genRow{a: make([]float64, n), eq: k%2 == 0}
		if !r.eq && k%4 == 1 {
			r.b = -1
		}
		rows = append(rows, r)
	}
	for k := 0; k < s.Ranged; k++ {
		a := sparseRow()
		ax := dot(a, x)
		l, u := ax, ax+0.5+rng.Float64()
		lamL, lamU := 0.5+rng.Float64(), 0.0
		switch k % 3 {
		case 1: // active at the upper end
			l, u = ax-0.5-rng.Float64(), ax
			lamL, lamU = 0, 0.5+rng.Float64()
		case 2: // l = u
			u = l
		}
		neg := make([]float64, n)
		for j, v := range a {
			neg[j] = -v
		}
		rows = append(rows, genRow{a: a, b: l, lam: lamL}, genRow{a: neg, b: -u, lam: lamU})
	}
	dz := 0.0 // how far the shifted rows move z
	tilt := s.Tilt
	if !(tilt > 0) {
		tilt = 1e-11
	}
	for k := 0; k < s.NearlyDependent; k++ {
		r := genRow{a: make([]float64, n)}
		norm := 0.0
		for t := 0; t < 3; t++ {
			r0, ok := pick(true) // equalities: multipliers that cannot be released
			if !ok {
				r0 = rows[rng.IntN(s.Rows)]
			}
			c := 0.5 + rng.Float64()
			for j, v := range r0.a {
				r.a[j] += c * v
			}
		}
		for _, v := range r.a {
			norm = math.Max(norm, math.Abs(v))
		}
		if shifted {
			r.a[n-1] = tilt * norm
		} else {
			for j := range r.a {
				r.a[j] += tilt * norm * rng.NormFloat64()
			}
		}
		r.b = dot(r.a, x)
		if shifted {
			r.b += s.Shift * (1 + math.Abs(r.b))
			dz = math.Max(dz, (r.b-dot(r.a, x))/r.a[n-1])
		}
		rows = append(rows, r)
	}
	if shifted {
		// two loose rows keep z's column of ordinary size
		for _, sg := range []float64{1, -1} {
			r := genRow{a: sparseRow()}
			r.a[n-1] = sg
			r.b = dot(r.a, x) - 10 - 10*dz
			rows = append(rows, r)
		}
	}
	var farkas []float64 // weights of the contradiction, by row (then bounds)
	var fzl, fzu []float64
	if s.Infeasible {
		farkas, fzl, fzu = contradiction(rng, &rows, s, lo, up)
	}
	var opt []float64
	if shifted {
		opt = append([]float64(nil), x...)
		opt[n-1] += dz
	}
	return assemble(rng, s, rows, x, opt, lo, up, zl, zu, farkas, fzl, fzu)
}

// contradiction appends a row a·x >= b with a = −(Σ y_i a_i + zl − zu) and
// b = −(Σ y_i b_i + lᵀzl − uᵀzu) + margin, which no point satisfies together
// with the rows and bounds weighted by y, zl, zu. It returns the weights (the
// new row's is 1).
func contradiction(rng *rand.Rand, rows *[]genRow, s Spec, lo, up []float64) (y, zl, zu []float64) {
	n := len(lo)
	rs := *rows
	y = make([]float64, len(rs)+1)
	zl, zu = make([]float64, n), make([]float64, n)
	a := make([]float64, n)
	b, w := 0.0, 0.0
	for k := 0; k < 4; k++ {
		i := rng.IntN(s.Rows)
		if y[i] != 0 {
			continue
		}
		y[i] = 0.5 + rng.Float64()
		if rs[i].eq && rng.IntN(2) == 0 {
			y[i] = -y[i]
		}
		for j, v := range rs[i].a {
			a[j] -= y[i] * v
		}
		b -= y[i] * rs[i].b
		w += math.Abs(y[i]) * (1 + math.Abs(rs[i].b))
	}
	for k := 0; k < 2; k++ {
		j := rng.IntN(n)
		if !math.IsInf(lo[j], -1) && zl[j] == 0 && zu[j] == 0 {
			zl[j] = 0.5 + rng.Float64()
			a[j] -= zl[j]
			b -= zl[j] * lo[j]
			w += zl[j] * (1 + math.Abs(lo[j]))
		} else if !math.IsInf(up[j], 1) && zl[j] == 0 && zu[j] == 0 {
			zu[j] = 0.5 + rng.Float64()
			a[j] += zu[j]
			b += zu[j] * up[j]
			w += zu[j] * (1 + math.Abs(up[j]))
		}
	}
	margin := s.Margin
	if !(margin > 0) {
		margin = 1e-3
	}
	// the new row's own weight 1 enters w with its right-hand side
	b += margin * (w + 1 + math.Abs(b)) / (1 - margin)
	y[len(rs)] = 1
	*rows = append(rs, genRow{a: a, b: b})
	return y, zl, zu
}

// assemble turns the rows into the problem: H on Curved random variables,
// g from the planted multipliers (Hx + g = Aᵀλ + zl − zu), rows shuffled
// within their kind, then row and column scaling. opt, if not nil, is the
// optimum to report instead of x (a Spec with Shift), whose last variable
// gets the curvature ZCurvature and no coupling.
func assemble(rng *rand.Rand, s Spec, rows []genRow, x, opt, lo, up, zl, zu, fy, fzl, fzu []float64) Generated {
	n := len(x)
	var h *mat.SymDense
	if s.Curved > 0 {
		c := min(s.Curved, n)
		idx := rng.Perm(n)[:c]
		b := mat.NewDense(c, c, nil)
		for i := 0; i < c; i++ {
			for j := 0; j < c; j++ {
				b.Set(i, j, rng.NormFloat64())
			}
		}
		hc := mat.NewSymDense(c, nil)
		hc.SymOuterK(1/float64(c), b.T())
		h = mat.NewSymDense(n, nil)
		for i := 0; i < c; i++ {
			for j := i; j < c; j++ {
				v := hc.At(i, j)
				if i == j {
					v += 0.1
				}
				h.SetSym(idx[i], idx[j], v)
			}
		}
	}
	if opt != nil {
		if h == nil {
			h = mat.NewSymDense(n, nil)
		}
		for k := 0; k < n; k++ {
			h.SetSym(k, n-1, 0)
		}
		hz := s.ZCurvature
		if !(hz > 0) {
			hz = 1e-6
		}
		h.SetSym(n-1, n-1, hz)
	} else {
		opt = x
	}
	g := make([]float64, n)
	for j := range g {
		g[j] = zl[j] - zu[j]
		if h != nil {
			for k := 0; k < n; k++ {
				g[j] -= h.At(j, k) * x[k]
			}
		}
	}
	for _, r := range rows {
		for j, v := range r.a {
			g[j] += r.lam * v
		}
	}
	// shuffle each kind, keeping the Farkas weight with its row
	var eqs, ins []int
	for i, r := range rows {
		if r.eq {
			eqs = append(eqs, i)
		} else {
			ins = append(ins, i)
		}
	}
	rng.Shuffle(len(eqs), func(i, j int) { eqs[i], eqs[j] = eqs[j], eqs[i] })
	rng.Shuffle(len(ins), func(i, j int) { ins[i], ins[j] = ins[j], ins[i] })
	// scale factors 10^U(−D/2, D/2), rows then columns
	sc := func() float64 {
		if !(s.Decades > 0) {
			return 1
		}
		return math.Pow(10, s.Decades*(rng.Float64()-0.5))
	}
	cs := make([]float64, n)
	for j := range cs {
		cs[j] = sc()
	}
	p := &qp.Problem{G: make([]float64, n), Lower: make([]float64, n), Upper: make([]float64, n)}
	out := Generated{Problem: p, Want: linalg.Optimal}
	if fy != nil {
		out.Want = linalg.Infeasible
		out.Farkas = qp.Farkas{Eq: make([]float64, len(eqs)), Ineq: make([]float64, len(ins)), Lower: make([]float64, n), Upper: make([]float64, n)}
	}
	block := func(ids []int, w []float64) (*mat.Dense, []float64) {
		if len(ids) == 0 {
			return nil, nil
		}
		a := mat.NewDense(len(ids), n, nil)
		b := make([]float64, len(ids))
		for k, i := range ids {
			rs := sc()
			for j, v := range rows[i].a {
				a.Set(k, j, rs*v*cs[j])
			}
			b[k] = rs * rows[i].b
			if w != nil {
				w[k] = fy[i] / rs
			}
		}
		return a, b
	}
	p.Aeq, p.Beq = block(eqs, out.Farkas.Eq)
	p.Ain, p.Bin = block(ins, out.Farkas.Ineq)
	for j := 0; j < n; j++ {
		p.G[j] = cs[j] * g[j]
		p.Lower[j], p.Upper[j] = lo[j]/cs[j], up[j]/cs[j]
		if fy != nil {
			out.Farkas.Lower[j], out.Farkas.Upper[j] = cs[j]*fzl[j], cs[j]*fzu[j]
		}
	}
	if h != nil {
		p.H = mat.NewSymDense(n, nil)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				if v := h.At(i, j); v != 0 {
					p.H.SetSym(i, j, cs[i]*v*cs[j])
				}
			}
		}
	}
	if fy == nil {
		out.X = make([]float64, n)
		for j := range opt {
			out.X[j] = opt[j] / cs[j]
		}
		out.Obj = objective(p, out.X)
	}
	return out
}
