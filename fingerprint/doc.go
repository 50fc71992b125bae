// Package fingerprint identifies the model of a scoring server whose
// internals are unknown (a [scorer.Model]: format, clipping,
// renormalisation, log clamp, summation, reduction, decimals) from a few
// probe queries designed to tell the candidates apart, and says which
// probe ruled out each alternative.
//
// Every probe predicts ½ for all points but the first four, the special
// rows: the term of a ½ row is ln 2 whatever its label, so a candidate
// model predicts one score per labeling of the special rows (2^4). The
// prediction is a bracket, not a value: the server's log is only known to
// be faithful, and [scorer.Emulator] brackets the reported score by the
// lowest and highest values each term can take (rounding to nearest is
// monotone); all ½ rows take the same value, since they compute the same
// log. A candidate survives a probe if the score lies in one of its
// brackets (after rounding to its decimals, or, unrounded, to its format).
//
//  1. Probe 1 puts 1e-300 and 1−2^−53 in the special rows, below every
//     candidate clip on either side: a row whose label makes its term
//     large reveals the clip (−ln of it), the clamp (100), Keras 2's eps
//     inside the log (−ln 2·10^−7), the format (1e-300 is 0 in binary32)
//     and mean or sum (the size of the score); the digits of the score
//     reveal the decimals. Unless all four labels hide the extremes
//     (probability 1/16), the score also tells the special rows' labels.
//  2. Probe 2 repeats probe 1: a different score means noise, and no
//     noiseless model fits.
//  3. Probes 3 to [MaxProbes] put the special rows (labels now known) at
//     probabilities whose terms spread over several binades, chosen among
//     a few designs as the one whose predicted brackets separate most
//     pairs of surviving candidates; the summation orders, the
//     renormalisation and the format round such sums differently. A probe
//     is sent only while it separates some survivors.
//
// For K > 2 classes a special row gives class 1 the probability p and
// every other class an equal share (1−p)/(K−1), so that, as for two
// classes, a row's term depends only on whether its label is class 1,
// and the neutral rows are uniform. Rows of the later probes sum to
// 1 + 2^−30 (uniform rows for an unknown label, scaled): every library
// accepts them, and a server that renormalises rows shifts each term by
// about 10^−9, which tells renormalisation apart.
//
// If no candidate survives, no model fits and the result says so with the
// probe that ruled out each value of each component: a server outside the
// grid (clipping at 1e-12, a reversed sum, noise keyed on the prediction)
// is never reported as a named model it is not, as long as its scores
// differ from every candidate's on the probes. Components the probes
// cannot separate (the summation order behind 5 decimals) are reported
// undetermined, and the model returned is the fitting one with the
// largest error budget, PyTorch's cascade sum only if the probes rule out
// every other order.
//
// [Attack] identifies the scorer, attacks it under the model identified
// (package decode, final check on) starting from the labels the probes
// determined ([Result.Labels]), and re-identifies the scorer when a score
// stops fitting the model mid-attack: it replays every query and score so
// far ([decode.ReplayTranscript]) under the other models that fit the
// probes, then, if none explains them, sends new probes and replays
// under the models that fit those (setting aside the scores before a
// change of the server's model), and resumes from the labels the scores
// determine under the new model. Labels are verified only by the final
// check against the scorer itself.
//
// # References
//
//   - [Higham02] N. J. Higham, "Accuracy and Stability of Numerical
//     Algorithms", 2nd ed., SIAM, 2002 (monotonicity of rounding, §2).
package fingerprint
