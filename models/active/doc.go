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
// A k above the number of candidates selects them all.
//
// # Errors and statuses
//
// The package uses the vocabulary of package linalg and has no sentinels of
// its own; nothing here is iterative, so there are no statuses. Select
// returns an error (never panics) wrapping linalg.ErrInvalid for a nil or
// empty probability matrix or one without columns (ErrEmpty), a batch size
// k < 1 or an entry outside [0, 1], NaN included (ErrSettings). EntropyScore
// and MarginScore check their row the same way. GroundTruth.Label fails for
// an index outside its labels (ErrLabels), a nil context (ErrSettings) and a
// cancelled one (wrapping ctx.Err()).
//
// The selectors hold no mutable state and are safe for concurrent use.
package active
