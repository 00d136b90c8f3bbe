// Package active chooses which unlabeled examples to label next.
//
// A Selector scores the unlabeled candidates from the current model's class
// probabilities and returns the k most informative ones (a batch); an Oracle
// supplies their labels — the ground truth in an experiment, a person in an
// application. The selectors are those of the Unified Kernel Machines paper
// (Hoi, Lyu and Chang, KDD 2006): maximum entropy (its eq. 19), the smallest
// margin between the two most probable classes, and random sampling as the
// baseline every active strategy must beat.
//
// Ties are broken by the candidate's position, so a selection depends only on
// its inputs (and, for Random, on the seed).
//
// Errors. Select returns an error (never panics) for a nil or empty
// probability matrix, one without columns, a batch size k < 1 or an entry
// outside [0, 1] (NaN included); a k above the number of candidates selects
// them all. GroundTruth.Label fails for an index outside its labels and for a
// nil or cancelled context. The selectors hold no mutable state and are safe
// for concurrent use.
package active
