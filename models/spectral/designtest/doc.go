// Package designtest is a conformance suite for implementations of
// spectral.Design, in the manner of testing/fstest: one call runs a design,
// of package spectral or of anyone else, through the contract of the
// interface.
//
//	func TestMyDesign(t *testing.T) {
//		designtest.TestDesign(t, mydesign.New())
//	}
//
// The suite makes its own inputs: the top eigenpairs of an RBF kernel on
// points drawn from two clusters with a fixed seed, a labeled subset with a
// two-class and a three-class target (spectral.Target). It checks that
//
//   - the coefficients have one entry per eigenpair, are finite and
//     non-negative and sum to n, the number of points;
//   - a second call gives the same coefficients, and so does a call after
//     rejected ones;
//   - dst is reused when its capacity allows (the result shares its storage)
//     and is not needed otherwise;
//   - the basis, the labeled indices and the target are not modified;
//   - a cancelled context gives an error wrapping context.Canceled;
//   - a nil context, an empty or malformed basis, and labeled indices or a
//     target that are out of range, repeated, of the wrong size or not finite
//     give errors wrapping linalg.ErrInvalid, except that a design may ignore
//     what it does not read (its coefficients are then those of the valid
//     input);
//   - nothing panics.
//
// The Design interface passes both a context and a destination, so the suite
// checks both. Check returns the failures instead of reporting them, for
// callers without a *testing.T (the suite's own tests use it to show that it
// fails wrong designs).
package designtest
