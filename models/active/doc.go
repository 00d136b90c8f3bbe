// Package active chooses which unlabeled examples to label next.
//
// A Selector scores the unlabeled candidates from the current model's class
// probabilities and returns the k most informative ones (a batch); an Oracle
// supplies their labels — the ground truth in an experiment, a person in an
// application. The selectors of the Unified Kernel Machines paper (Hoi, Lyu
// and Chang, KDD 2006) score each candidate on its own: maximum entropy (its
// eq. 19), the smallest margin between the two most probable classes, and
// random sampling as the baseline every active strategy must beat.
//
// # Batches
//
// Taking the k most uncertain candidates spends labels on near-copies. A
// FeatureSelector also reads the candidates' feature vectors (models.Loop
// passes the rows of the feature map its classifier is trained on) and
// chooses the batch as a whole:
//
//   - Fisher is batch-mode active learning by Fisher information (Hoi's
//     thesis, chapter 4, eq. 4.2-4.17): the distribution over the pool that
//     minimises tr(I_q⁻¹ I_p) in the eigenspace of the pool's Fisher matrix,
//     found by the thesis's bound optimisation, and the k candidates of
//     largest weight. It rewards uncertainty, coverage of the principal
//     directions and non-redundancy together. With Shortlist set, the batch
//     comes from the most uncertain candidates only (the criterion then
//     spreads it among them rather than trading uncertainty for leverage).
//   - KCenter is a diversity baseline: farthest-first traversal in feature
//     space among the most uncertain candidates.
//
// Ties are broken by the candidate's position, so a selection depends only on
// its inputs (and, for Random, on the seed).
//
// A k above the number of candidates selects them all.
//
// # Errors and statuses
//
// The package uses the vocabulary of package linalg and has no sentinels of
// its own. Select returns an error (never panics) wrapping linalg.ErrInvalid
// for a nil or empty probability matrix or one without columns (ErrEmpty), a
// batch size k < 1 or an entry outside [0, 1], NaN included (ErrSettings).
// The feature selectors also reject missing features (ErrEmpty), features
// whose rows do not match the candidates (ErrShape) or are not finite
// (ErrNonFinite), and negative settings (ErrSettings); Fisher reports a pool
// without Fisher information — every probability exactly 0 or 1, or every
// feature vector zero — as ErrDegenerate rather than return an arbitrary
// batch. Fisher's optimisation is iterative: Fisher.Solve reports its
// outcome in a linalg.Status (Converged; IterationLimit, Stalled or
// NumericalFailure with the last iterate, a usable distribution), never as
// an error, and SelectFeatures chooses its batch from that iterate. EntropyScore and MarginScore check their row like Select.
// GroundTruth.Label fails for an index outside its labels (ErrLabels), a nil
// context (ErrSettings) and a cancelled one (wrapping ctx.Err()).
//
// The selectors hold no mutable state and are safe for concurrent use.
package active
