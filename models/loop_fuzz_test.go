package models_test

import (
	"context"
	"errors"
	"testing"

	"ukm/internal/robust"
	"ukm/linalg"
	"ukm/models"
	"ukm/models/active"
)

// FuzzLoop runs the active-learning loop on small data sets built from the
// bytes with every selector (entropy, margin, random, k-centers, Fisher on
// the whole pool and from a shortlist), a kernel basis or the kernel
// itself, the kernel learned each round or fixed, and a budget and batch
// from the bytes. An error must be of the vocabulary; otherwise every
// round's queries must be distinct points that were unlabeled, no more
// than the batch, and no more in all than the budget, and the final model
// must predict the labels' classes.
func FuzzLoop(f *testing.F) {
	f.Add([]byte{20, 2, 4, 0, 0, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{30, 3, 6, 4, 1, 9, 3, 200, 30, 77, 1, 0, 0, 9, 100})
	f.Add([]byte{12, 1, 3, 5, 2, 20, 1, 64, 64, 64})
	f.Add([]byte{25, 4, 5, 2, 3, 7, 5, 129, 127, 130, 126, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 8 {
			return
		}
		n := 6 + int(data[0])%25
		p := 1 + int(data[1])%4
		l := 2 + int(data[2])%(n/2)
		sel := int(data[3]) % 6
		mode := data[4]
		budget := int(data[5]) % n
		batch := 1 + int(data[6])%6
		bs := robust.NewBytes(data[7:])
		next := bs.Next
		x := bs.Grid(n, p)
		classes := 2 + int(next())%2
		truth := make([]int, n)
		for i := range truth {
			truth[i] = int(next()) % classes
		}
		labeled := bs.Perm(n)[:l]
		labels := make([]int, l)
		for a, i := range labeled {
			labels[a] = truth[i]
		}
		var s active.Selector
		switch sel {
		case 0:
			s = active.Entropy{}
		case 1:
			s = active.Margin{}
		case 2:
			s = active.Random{Seed: uint64(len(data))}
		case 3:
			s = active.KCenter{}
		case 4:
			s = active.Fisher{}
		default:
			s = active.Fisher{Shortlist: 1 + int(next())%5}
		}
		o := models.Options{Design: models.DesignKind(mode % 3), Lambda: 0.1, Seed: uint64(len(data))} // SKL, Cluster, Truncated
		if mode/3%4 == 3 {
			o.Design = models.Standard
		}
		if o.Design == models.SKL {
			o.Decay = 1 + float64(next()%5)/4
		}
		lo := &models.LoopOptions{Options: o, Budget: budget, Batch: batch, Selector: s, LearnKernel: mode/16%2 == 1 && o.Design == models.SKL}
		m, rounds, err := models.Loop(context.Background(), x, labeled, labels, active.GroundTruth(truth), lo)
		if err != nil {
			if !errors.Is(err, linalg.ErrInvalid) && !linalg.IsOutcome(err) {
				t.Fatalf("Loop: an error of no kind of the vocabulary: %v", err)
			}
			return
		}
		taken := make([]bool, n)
		for _, i := range labeled {
			taken[i] = true
		}
		total := 0
		for r, rd := range rounds {
			if len(rd.Queried) > batch {
				t.Fatalf("round %d queried %d points, batch %d", r, len(rd.Queried), batch)
			}
			for _, i := range rd.Queried {
				if i < 0 || i >= n || taken[i] {
					t.Fatalf("round %d queried point %d, labeled already or out of range", r, i)
				}
				taken[i] = true
			}
			total += len(rd.Queried)
		}
		if total > budget {
			t.Fatalf("%d queries for a budget of %d", total, budget)
		}
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		pred, err := m.PredictRows(nil, all)
		if err != nil {
			t.Fatalf("PredictRows: %v", err)
		}
		for i, c := range pred {
			if c < 0 || c >= classes {
				t.Fatalf("row %d predicted as class %d of %d", i, c, classes)
			}
		}
	})
}
