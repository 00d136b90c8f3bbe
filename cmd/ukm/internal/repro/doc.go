// Package repro runs the papers' experiment protocols and formats their
// tables: random labeled sets with every class present, regularisation by
// cross-validation on the labeled set only, mean and standard error over
// trials, and a paired t-test between the best method and each other.
package repro
