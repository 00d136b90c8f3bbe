package qp

import (
	"context"
	"fmt"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestDbg(t *testing.T) {
	r := &fuzzReader{b: []byte(os.Getenv("FZ"))}
	n := 1 + int(r.byte())%5
	meq := int(r.byte()) % 5
	min := int(r.byte()) % 7
	rank := int(r.byte()) % (n + 1)
	t.Log(n, meq, min, rank)
	p := &Problem{C: make([]float64, n), H: mat.NewSymDense(n, nil)}
	if rank > 0 {
		g := mat.NewDense(rank, n, nil)
		for i := 0; i < rank; i++ {
			for j := 0; j < n; j++ {
				g.Set(i, j, r.num())
			}
		}
		p.H.SymOuterK(1, g.T())
	}
	for j := range p.C {
		p.C[j] = r.num()
	}
	if meq > 0 {
		p.Aeq, p.Beq = mat.NewDense(meq, n, nil), make([]float64, meq)
		for i := 0; i < meq; i++ {
			for j := 0; j < n; j++ {
				p.Aeq.Set(i, j, r.num())
			}
			p.Beq[i] = r.num()
		}
	}
	t.Log(mat.Formatted(p.H), p.C, p.Aeq != nil)
	if p.Aeq != nil {
		t.Log(mat.Formatted(p.Aeq), p.Beq)
	}
	if min > 0 {
		p.Ain, p.Bin = mat.NewDense(min, n, nil), make([]float64, min)
		for i := 0; i < min; i++ {
			for j := 0; j < n; j++ {
				p.Ain.Set(i, j, r.num())
			}
			p.Bin[i] = r.num()
		}
	}
	if r.byte()%2 == 1 {
		p.Lower, p.Upper = make([]float64, n), make([]float64, n)
		for j := 0; j < n; j++ {
			p.Lower[j], p.Upper[j] = math.Inf(-1), math.Inf(1)
			if v := r.byte(); v%3 != 0 {
				p.Lower[j] = -float64(v%5) / 2
			}
			if v := r.byte(); v%3 != 0 {
				p.Upper[j] = float64(v%5) / 2
			}
		}
	}
	for _, set := range []*Settings{nil, {SkipPSDCheck: true}, {Tol: 1e-9, SkipPSDCheck: true}} {
		var r5 Result
		e5 := NewActiveSet(set).Solve(context.Background(), p, nil, &r5)
		t.Log("as-settings", set, e5, r5.Status, r5.Iter, r5.Phase1Iter)
	}
	var r4 Result
	e4 := NewActiveSet(nil).Solve(context.Background(), p, nil, &r4)
	t.Log("as", e4, r4.Status, r4.KKT, r4.Iter, r4.X, r4.Ray)
	if p.Ain != nil {
		t.Log(mat.Formatted(p.Ain), p.Bin, p.Lower, p.Upper)
	}
	ad := NewADMM(nil)
	var r3 Result
	e3 := ad.Solve(context.Background(), p, nil, &r3)
	t.Log("admm", e3, r3.Status, r3.KKT, r3.Iter, r3.Polish)
	{
		var r6 Result
		e6 := NewActiveSet(nil).Solve(context.Background(), p, nil, &r6)
		t.Log("after-admm fresh", e6, r6.Status, r6.Iter, r6.Phase1Iter)
		xs := append([]float64(nil), ad.x...)
		t.Log("admm x", xs)
		t.Log(p.Lower, p.Upper)
		fr, e7 := ad.runFinish(context.Background(), p, Settings{Tol: 1e-9}, xs)
		t.Log("runFinish again", e7, fr.Status, fr.Iter, fr.Phase1Iter)
		e8 := NewActiveSet(&Settings{Tol: 1e-9, SkipPSDCheck: true}).Solve(context.Background(), p, nil, &r6)
		t.Log("fresh same settings", e8, r6.Status, r6.Iter, r6.Phase1Iter)
	}
	if ad.finish != nil {
		t.Log("finish", ad.finishRes.Status, ad.finishRes.KKT, ad.finishRes.Iter)
	}
	var res Result
	err := NewBounded(nil).Solve(context.Background(), p, nil, &res)
	t.Log(err, res.Status, res.X, res.Eq, res.KKT)
	err = NewActiveSet(nil).Solve(context.Background(), p, nil, &res)
	t.Log(err, res.Status, res.X, res.Eq, res.KKT)
	fmt.Print()
}
