package qptest_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"

	"ukm/linalg"
	"ukm/qp"
	"ukm/qp/qptest"
)

// TestGenerate checks the generator's promises on every degenerate family
// and on the nearly dependent one: the same Spec gives the same problem; the
// row counts are those asked for; a planted optimum is feasible and is the
// optimal value ActiveSet finds; a planted certificate verifies.
func TestGenerate(t *testing.T) {
	fams := qptest.DegenerateFamilies(20, 40, 7)
	fams = append(fams,
		qptest.Family{Name: "nearly-dependent", Spec: qptest.Spec{N: 20, Rows: 20, EqFrac: 0.3, Curved: 20, NearlyDependent: 4, Seed: 3}},
		qptest.Family{Name: "nearly-dependent-shifted", Spec: qptest.Spec{N: 20, Rows: 20, EqFrac: 0.3, Curved: 20, NearlyDependent: 4, Tilt: 1e-8, Shift: 1e-6, Seed: 3}},
		qptest.Family{Name: "infeasible-small-margin", Spec: qptest.Spec{N: 20, Rows: 20, EqFrac: 0.3, Infeasible: true, Margin: 1e-6, Seed: 4}})
	for _, f := range fams {
		g := qptest.Generate(f.Spec)
		if h := qptest.Generate(f.Spec); !reflect.DeepEqual(g, h) {
			t.Errorf("%s: two calls give different problems", f.Name)
		}
		p, s := g.Problem, f.Spec
		rows := s.Rows + s.Redundant + s.Duplicate + s.Empty + 2*s.Ranged + s.NearlyDependent
		if s.Infeasible {
			rows++
		}
		if s.Shift > 0 {
			rows += 2 // the loose rows of the reserved variable
		}
		meq, min := 0, 0
		if p.Aeq != nil {
			meq, _ = p.Aeq.Dims()
		}
		if p.Ain != nil {
			min, _ = p.Ain.Dims()
		}
		if meq+min != rows {
			t.Errorf("%s: %d rows, want %d", f.Name, meq+min, rows)
		}
		switch g.Want {
		case linalg.Optimal:
			kkt, err := qp.Residuals(p, g.X, nil, nil, nil, nil)
			if err != nil || kkt.PrimalFeas > 1e-12 {
				t.Errorf("%s: planted point infeasible (%.1e, %v)", f.Name, kkt.PrimalFeas, err)
			}
			var res qp.Result
			if err := qp.NewActiveSet(nil).Solve(context.Background(), p, nil, &res); err != nil || res.Status != linalg.Optimal {
				t.Errorf("%s: ActiveSet %v %v", f.Name, res.Status, err)
				continue
			}
			if math.Abs(res.Obj-g.Obj) > 1e-9*math.Max(1, math.Abs(g.Obj)) {
				t.Errorf("%s: optimal value %v, planted %v", f.Name, res.Obj, g.Obj)
			}
		case linalg.Infeasible:
			c := g.Farkas
			if err := c.Measure(p); err != nil || c.Residual > 1e-12 || !(c.Gap > 1e-9) {
				t.Errorf("%s: planted certificate residual %.1e gap %.1e (%v)", f.Name, c.Residual, c.Gap, err)
			}
		default:
			t.Errorf("%s: Want = %v", f.Name, g.Want)
		}
	}
}

// Generate plants the optimum of an LP-like problem with redundant,
// duplicated, empty and ranged rows and scales over eight decades.
func ExampleGenerate() {
	g := qptest.Generate(qptest.Spec{N: 30, Rows: 40, EqFrac: 0.3, Curved: 3, Redundant: 4, Duplicate: 4,
		Empty: 2, Ranged: 4, Free: 3, Fixed: 3, Decades: 8, Seed: 1})
	var res qp.Result
	if err := qp.NewActiveSet(nil).Solve(context.Background(), g.Problem, nil, &res); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, math.Abs(res.Obj-g.Obj) <= 1e-8*math.Max(1, math.Abs(g.Obj)))
	// Output: Optimal true
}
