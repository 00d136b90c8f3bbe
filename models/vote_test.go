package models

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"ukm/linalg"
)

// TestCommittee checks who sits on a committee and that it predicts the
// class of largest mean member probability, an SVM member voting with
// probability one for the class it predicts; each member is checked
// against its candidate fitted alone.
func TestCommittee(t *testing.T) {
	ctx := context.Background()
	three := []Candidate{
		{Name: "spread", Options: Options{Kernel: KernelSpec{Kind: KNN}, GraphK: 5, Design: LabelSpreading, Classifier: Spread}},
		{Name: "svm", Options: Options{Design: Standard, Classifier: SVM, C: 1}},
		{Name: "klr", Options: Options{Lambda: 0.1, Bias: true}},
	}
	// A weak first candidate (a linear model on two circles), which
	// neither wins nor votes.
	weakFirst := append([]Candidate{{Name: "linear", Options: Options{Kernel: KernelSpec{Kind: Linear}, Design: Standard, Lambda: 1}}}, three...)
	type data struct {
		x              *mat.Dense
		y, lab, ys, ul []int
	}
	two := func() data {
		s := circles(t, 60, 0.05, 7)
		lab, ys, unl := pickLabeled(s.Y, 16, 8)
		return data{s.X, s.Y, lab, ys, unl}
	}
	blobs := func() data {
		x, y := blobsForSave(3)
		lab, ys, unl := pickLabeled(y, 18, 5)
		return data{x, y, lab, ys, unl}
	}
	for _, tc := range []struct {
		name string
		data func() data
		so   SelectOptions
		vote bool
	}{
		{"default candidates", two, SelectOptions{Base: Options{Seed: 3}}, true},
		{"default candidates, three classes", blobs, SelectOptions{Base: Options{Seed: 3}}, true},
		{"VoteNone", two, SelectOptions{Base: Options{Seed: 3}, Vote: VoteNone}, false},
		{"a caller's list", two, SelectOptions{Candidates: three}, false},
		{"a caller's list, VoteSoft", two, SelectOptions{Candidates: three, Vote: VoteSoft}, true},
		{"a caller's list, VoteSoft, three classes", blobs, SelectOptions{Candidates: three, Vote: VoteSoft}, true},
		{"a weak first candidate, VoteSoft", two, SelectOptions{Candidates: weakFirst, Vote: VoteSoft}, true},
	} {
		d := tc.data()
		m, err := Select(ctx, d.x, d.lab, d.ys, &tc.so)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sel := m.Selection()
		voters := m.Voters()
		// The voters are the best scored of the candidates with class
		// probabilities that the chosen one does not beat by more than a
		// paired standard error.
		var within []int
		for i, o := range sel.Scores {
			if i != sel.Chosen && o.Skipped == nil && o.Options.Classifier != SVM && pairedWithin(sel.Scores[sel.Chosen].right, o.right) {
				within = append(within, i)
			}
		}
		wantVoters := 0
		if tc.vote {
			wantVoters = min(len(within), CommitteeSize-1)
		}
		if len(voters) != wantVoters || len(sel.Voters) != wantVoters {
			t.Fatalf("%s: %d voters (%v in the selection), want %d", tc.name, len(voters), sel.Voters, wantVoters)
		}
		members := append([]int{sel.Chosen}, sel.Voters...)
		for a, i := range members {
			if slices.Index(members, i) != a {
				t.Fatalf("%s: members %v repeat", tc.name, members)
			}
		}
		for _, i := range sel.Voters {
			v := sel.Scores[i]
			if !slices.Contains(within, i) {
				t.Errorf("%s: voter %s is clearly worse than the chosen %s", tc.name, v.Name, sel.Best().Name)
			}
			for _, j := range within {
				if o := sel.Scores[j]; !slices.Contains(members, j) &&
					(o.Accuracy > v.Accuracy || o.Accuracy == v.Accuracy && o.Probability > v.Probability) {
					t.Errorf("%s: voter %s scores below %s, which does not vote", tc.name, v.Name, o.Name)
				}
			}
		}
		if tc.so.Candidates != nil && &tc.so.Candidates[0] == &weakFirst[0] && (sel.Chosen == 0 || slices.Contains(sel.Voters, 0)) {
			t.Fatalf("%s: the weak first candidate was chosen or votes", tc.name)
		}
		if tc.vote && wantVoters == 0 && tc.so.Candidates == nil {
			t.Errorf("%s: no committee to test", tc.name)
		}
		// Every member is its candidate fitted alone (to the eigensolver's
		// accuracy: a member's basis is a truncation of its group's).
		models := append([]*Model{m.alone()}, voters...)
		for a, i := range members {
			alone, err := Fit(ctx, d.x, d.lab, d.ys, &sel.Scores[i].Options)
			if err != nil {
				t.Fatal(err)
			}
			want, err1 := alone.ProbaRows(nil, d.ul)
			got, err2 := models[a].ProbaRows(nil, d.ul)
			if (err1 == nil) != (err2 == nil) || (err1 == nil && maxDiff(got, want) > 1e-6) {
				t.Errorf("%s: member %s differs from its candidate fitted alone", tc.name, sel.Scores[i].Name)
			}
		}
		// The vote, by hand.
		want := meanVote(t, models, d.ul)
		got, err := m.ProbaRows(nil, d.ul)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if dd := maxDiff(got, want); dd > 1e-14 {
			t.Errorf("%s: committee probabilities differ from the members' mean by %g", tc.name, dd)
		}
		pred, err := m.PredictRows(nil, d.ul)
		if err != nil {
			t.Fatal(err)
		}
		for r := range pred {
			row := got.RawRowView(r)
			if s := sum(row); math.Abs(s-1) > 1e-12 {
				t.Fatalf("%s: row %d of the probabilities sums to %g", tc.name, r, s)
			}
			if row[pred[r]] < slices.Max(row) {
				t.Fatalf("%s: row %d predicted %d, probabilities %v", tc.name, r, pred[r], row)
			}
		}
		if acc := accuracy(pred, d.ul, d.y); acc < 0.8 {
			t.Errorf("%s: accuracy %.3f", tc.name, acc)
		}
		// New points: the same vote through Predict and Proba.
		_, c := d.x.Dims()
		xnew := mat.NewDense(3, c, nil)
		for r := range 3 {
			xnew.SetRow(r, d.x.RawRowView(d.ul[r]))
		}
		pn, err := m.Proba(nil, xnew)
		if err != nil {
			t.Fatalf("%s: Proba: %v", tc.name, err)
		}
		cn, _ := m.Predict(nil, xnew)
		if !slices.Equal(cn, argmaxRows(nil, pn)) {
			t.Errorf("%s: Predict %v is not the argmax of Proba", tc.name, cn)
		}
		// A dst of the wrong shape is an error, not a panic.
		if _, err := m.ProbaRows(mat.NewDense(1, 1, nil), d.ul); !errors.Is(err, linalg.ErrShape) {
			t.Errorf("%s: wrong dst: %v", tc.name, err)
		}
	}
	// Fit with Design Auto takes the vote from Options.Vote; other designs
	// refuse it.
	x, y := blobsForSave(2)
	lab := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, tc := range []struct {
		opt    Options
		voters bool
		err    error
	}{
		{Options{Design: Auto}, true, nil},
		{Options{Design: Auto, Vote: VoteSoft}, true, nil},
		{Options{Design: Auto, Vote: VoteNone}, false, nil},
		{Options{Design: Auto, Vote: VoteSoft + 1}, false, linalg.ErrSettings},
		{Options{Design: SKL, Vote: VoteNone}, false, linalg.ErrSettings},
	} {
		m, err := Fit(ctx, x, lab, y[:10], &tc.opt)
		if !errors.Is(err, tc.err) || (err == nil && (len(m.Voters()) > 0) != tc.voters) {
			t.Errorf("%+v: err %v, voters %v", tc.opt, err, m.Voters())
		}
	}
	if _, err := Select(ctx, x, lab, y[:10], &SelectOptions{Vote: VoteSoft + 1}); !errors.Is(err, linalg.ErrSettings) {
		t.Errorf("an unknown vote mode: %v", err)
	}
}

// TestCommitteeSVM checks the vote of a committee whose chosen member is an
// SVM: probability one for the class it predicts.
func TestCommitteeSVM(t *testing.T) {
	ctx := context.Background()
	s := circles(t, 60, 0.05, 7)
	lab, ys, unl := pickLabeled(s.Y, 16, 8)
	var members []*Model
	for _, o := range []Options{
		{Design: Standard, Classifier: SVM, C: 1},
		{Lambda: 0.1, Bias: true},
		{Kernel: KernelSpec{Kind: KNN}, GraphK: 5, Design: LabelSpreading, Classifier: Spread},
	} {
		m, err := Fit(ctx, s.X, lab, ys, &o)
		if err != nil {
			t.Fatal(err)
		}
		members = append(members, m)
	}
	m := *members[0]
	m.voters = members[1:]
	want := meanVote(t, members, unl)
	got, err := m.ProbaRows(nil, unl)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(got, want); d > 1e-14 {
		t.Errorf("the committee's probabilities differ from the members' mean by %g", d)
	}
	if _, err := members[0].ProbaRows(nil, unl); !errors.Is(err, ErrNoProbability) {
		t.Errorf("the SVM alone: %v, want ErrNoProbability", err)
	}
}

// meanVote returns the mean over members of their class probabilities of
// the training rows idx, an SVM's being one for the class it predicts.
func meanVote(t *testing.T, members []*Model, idx []int) *mat.Dense {
	t.Helper()
	classes := members[0].Classes()
	want := mat.NewDense(len(idx), classes, nil)
	for _, v := range members {
		p, err := v.ProbaRows(nil, idx)
		if errors.Is(err, ErrNoProbability) {
			pred, _ := v.PredictRows(nil, idx)
			p = mat.NewDense(len(idx), classes, nil)
			for r, k := range pred {
				p.Set(r, k, 1)
			}
		} else if err != nil {
			t.Fatal(err)
		}
		want.Add(want, p)
	}
	want.Scale(1/float64(len(members)), want)
	return want
}

// sum returns the sum of v.
func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// TestCommitteeFile: a saved committee reads back with its voters, which
// share the chosen member's scaled points in the file as in memory, and a
// file whose voters do not fit the model is refused.
func TestCommitteeFile(t *testing.T) {
	x, y := blobsForSave(3)
	lab := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	m, err := Fit(context.Background(), x, lab, y[:9], &Options{Design: Auto})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.voters) == 0 {
		t.Fatal("no committee")
	}
	good, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Model
	if err := got.UnmarshalBinary(good); err != nil || len(got.Voters()) != len(m.voters) {
		t.Fatalf("round trip: %v, %d voters", err, len(got.Voters()))
	}
	// Voters that share the chosen member's scaled points in memory share
	// them in the file and after loading.
	shared := 0
	for i, v := range m.voters {
		if (v.pr.xs == m.pr.xs) != (got.voters[i].pr.xs == got.pr.xs) {
			t.Errorf("voter %d: shares the points %v before the round trip, %v after", i, v.pr.xs == m.pr.xs, got.voters[i].pr.xs == got.pr.xs)
		}
		if v.pr.xs == m.pr.xs {
			shared++
		}
	}
	if shared == 0 {
		t.Error("no voter shares the chosen member's scaled points")
	}
	// The file is the members' files less the shared points.
	total := 0
	for _, v := range append([]*Model{m.alone()}, m.voters...) {
		b, _ := v.MarshalBinary()
		total += len(b)
	}
	n, p := m.pr.xs.Dims()
	if want := total - shared*8*n*p; len(good) > want {
		t.Errorf("a committee file of %d bytes, want at most %d (its members' files, %d bytes, less %d shared points)", len(good), want, total, shared*n*p)
	}
	for _, tc := range []struct {
		name  string
		spoil func(c *Model)
	}{
		{"other labels", func(c *Model) {
			v := *c.voters[0]
			v.labels = slices.Clone(v.labels)
			v.labels[0] = (v.labels[0] + 1) % 3
			c.voters = append([]*Model{&v}, c.voters[1:]...)
		}},
		{"a voter sharing the points of another scaling", func(c *Model) {
			v := *c.voters[0]
			pr := *v.pr
			pr.xs, pr.opt.Scale = c.pr.xs, (c.pr.opt.Scale+1)%3
			v.pr = &pr
			c.voters = append([]*Model{&v}, c.voters[1:]...)
		}},
	} {
		c := *m
		tc.spoil(&c)
		b, err := c.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var bad Model
		if err := bad.UnmarshalBinary(b); !errors.Is(err, ErrModelFormat) {
			t.Errorf("%s: %v, want ErrModelFormat", tc.name, err)
		}
	}
}
